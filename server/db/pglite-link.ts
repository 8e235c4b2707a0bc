import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';
import pg from 'pg';

const ENTRY = new URL('./pglite-worker.mjs', import.meta.url);

type Made = 'opened' | 'initdb' | 'copy';

/** PGlite's thread stopped without being asked to (a crash, an abort in its WebAssembly, killed). */
export class PgliteThreadError extends Error {}

interface PlainError {
  message: string;
  name?: string;
  stack?: string;
  [field: string]: unknown;
}

/** An error from the thread as an Error again, with its fields (errno, code, path: see storage.ts). */
function revive(e: PlainError): Error {
  const err = new Error(e.message);
  Object.assign(err, e);
  return err;
}

/**
 * PGlite in a worker thread (decision 0020), reached by node-postgres as if over a socket: `connection()`
 * is the `stream` of a pg client. One connection at a time (pg's pool of one), because PGlite is one
 * session: a transaction holds it while other queries wait in the pool.
 */
export class PgliteThread {
  private current: ThreadStream | null = null;
  /** Messages posted to the thread and not yet answered: the thread keeps the process alive only then. */
  private inFlight = 0;
  private closing = false;
  private closed: Promise<void> | null = null;
  /** Why the thread is gone, once it is. */
  failure: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly onCrash: (err: Error) => void,
    /** How the database came to be: opened as it was, initialised (initdb), or from a kept copy. */
    readonly made: Made,
  ) {
    worker.on('message', (msg: { type: string; conn?: number; bytes?: Uint8Array; error?: PlainError }) => {
      if (msg.type === 'data') {
        // An answer to a connection that has gone since is dropped.
        const stream = this.current;
        if (stream && stream.id === msg.conn) stream.receive(msg.bytes!);
        if (--this.inFlight === 0 && !this.closing) worker.unref();
      } else if (msg.type === 'fatal') {
        this.fail(revive(msg.error!));
      }
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (!this.closing || code !== 0) this.fail(new Error(`the thread exited with code ${code}`));
    });
  }

  /**
   * Starts the thread and opens PGlite in it: in `dataDir`, or in memory. Rejects as PGlite.create would.
   * A new database starts from `template` when that file exists (a copy kept by `keepCopy`).
   */
  static async start(
    dataDir: string | undefined,
    onCrash: (err: Error) => void,
    opts: { template?: string } = {},
  ): Promise<PgliteThread> {
    const worker = new Worker(ENTRY, {
      workerData: { dataDir, template: opts.template },
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    const made = await new Promise<Made>((resolve, reject) => {
      const onMessage = (msg: { type: string; made?: Made; error?: PlainError }) => {
        if (msg.type === 'ready') done(null, msg.made);
        else if (msg.type === 'failed') done(revive(msg.error!));
      };
      const onError = (err: Error) => done(err);
      const onExit = (code: number) =>
        done(new Error(`PGlite's thread exited with code ${code} while opening`));
      const done = (err: Error | null, how?: Made) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (err) reject(err);
        else resolve(how!);
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
    worker.unref();
    return new PgliteThread(worker, onCrash, made);
  }

  /**
   * Writes the database as it is now to `file`, for new databases to start from (`start`'s template).
   * Only while nothing else uses it: right after the migrations of a new database.
   */
  keepCopy(file: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      const onMessage = (msg: { type: string; error?: PlainError }) => {
        if (msg.type !== 'kept') return;
        this.worker.off('message', onMessage);
        if (this.inFlight === 0) this.worker.unref();
        if (msg.error) reject(revive(msg.error));
        else resolve();
      };
      this.worker.on('message', onMessage);
      this.worker.ref();
      this.worker.postMessage({ type: 'keep-copy', file });
    });
  }

  /** A new connection's byte stream (node-postgres's `stream` option). */
  connection = (): Duplex => {
    const stream = new ThreadStream(this);
    this.current?.destroy();
    this.current = stream;
    return stream;
  };

  post(conn: number, bytes: Buffer) {
    if (this.failure) throw this.failure;
    if (this.inFlight++ === 0) this.worker.ref();
    // A Buffer is often a view of a larger shared block: send a copy of its own, moved rather than cloned.
    const own = new Uint8Array(bytes);
    this.worker.postMessage({ type: 'data', conn, bytes: own }, [own.buffer]);
  }

  detach(stream: ThreadStream) {
    if (this.current !== stream) return;
    this.current = null;
    if (!this.failure) this.worker.postMessage({ type: 'disconnect' });
  }

  private fail(cause: Error) {
    if (this.failure) return;
    const err = new PgliteThreadError(`The embedded database (PGlite) stopped: ${cause.message}`, { cause });
    this.failure = err;
    this.current?.destroy(err);
    if (!this.closing) this.onCrash(err);
  }

  /**
   * Closes PGlite (it writes out what it holds); the thread then ends by itself. Resolves once PGlite is
   * closed, without waiting for the thread's teardown (0.1-0.2 s of freeing memory, per test database).
   */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve, reject) => {
      this.closing = true;
      if (this.failure) return resolve();
      const onMessage = (msg: { type: string }) => {
        if (msg.type !== 'closed') return;
        this.worker.off('message', onMessage).off('exit', onExit);
        this.worker.unref();
        resolve();
      };
      const onExit = () => {
        this.worker.off('message', onMessage);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      this.worker.on('message', onMessage).once('exit', onExit);
      this.worker.ref();
      this.worker.postMessage({ type: 'close' });
    });
    return this.closed;
  }

  /** For tests: stops the thread as a crash would. */
  kill(): Promise<number> {
    return this.worker.terminate();
  }
}

/** One connection's bytes: what pg writes in one tick goes to the thread as one message. */
let connections = 0;

class ThreadStream extends Duplex {
  private out: Buffer[] = [];
  readonly id = ++connections;

  constructor(private readonly thread: PgliteThread) {
    super();
  }

  // The socket calls node-postgres makes on its stream.
  connect() {
    process.nextTick(() => {
      if (this.thread.failure) this.destroy(this.thread.failure);
      else this.emit('connect');
    });
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  receive(bytes: Uint8Array) {
    if (bytes.length) this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void) {
    if (this.out.push(chunk) === 1) process.nextTick(() => this.flush());
    callback();
  }

  private flush() {
    if (!this.out.length || this.destroyed) return;
    const bytes = this.out.length === 1 ? this.out[0] : Buffer.concat(this.out);
    this.out = [];
    try {
      this.thread.post(this.id, bytes);
    } catch (err) {
      this.destroy(err as Error);
    }
  }

  override _final(callback: (err?: Error | null) => void) {
    this.flush();
    callback();
    // node-postgres waits for the socket to close after its Terminate.
    this.destroy();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void) {
    this.thread.detach(this);
    callback(err);
  }
}

/**
 * node-postgres's pool on the thread: one connection, kept for good. PGlite is one session, so a transaction
 * holds it while other queries wait their turn in the pool, as PGlite's own transactions made them wait.
 */
export function pglitePool(thread: PgliteThread): pg.Pool {
  return new pg.Pool({
    max: 1,
    idleTimeoutMillis: 0,
    // Sent in the start-up message; PGlite has the one role and database.
    user: 'postgres',
    database: 'postgres',
    stream: thread.connection,
  } as pg.PoolConfig);
}
