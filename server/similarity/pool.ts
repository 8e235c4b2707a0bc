/**
 * A small pool of worker threads with a bounded queue, for work that must not block the server's event
 * loop (PDF parsing, fingerprinting, alignment, grammar).
 *
 * - Workers start lazily on the first task and are ended after `idleMs` without work (their memory goes
 *   with them: the grammar checker holds about 0.5 GB while loaded).
 * - At most `size` tasks run at once; up to `maxQueue` more wait; beyond that `run` rejects at once with a
 *   BusyError ("busy, try again") rather than letting a queue grow without bound.
 * - Entries are loaded through worker-boot.mjs: a TypeScript one (sources under tsx or Vitest) with tsx
 *   registered inside the worker (a worker does not inherit the loader hooks of its parent), a compiled one
 *   (the build `npm start` runs) as it is.
 * - An idle worker does not keep the process alive; a busy one does (so a CLI awaiting a result is not
 *   ended early).
 * - `isolation: 'process'` runs each worker as a child process instead of a thread: when it ends, all of its
 *   memory goes back to the system. A thread's native allocations stay with the server's allocator
 *   after it ends (70-190 MB after harper.js had been loaded, measured), and would be held for good.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { type ResourceLimits, type TransferListItem, Worker, parentPort } from 'node:worker_threads';
import { DomainError } from '../errors.ts';

/** Too much work queued already: `unavailable` (decision 0042), to be tried again in 30 seconds. */
export class BusyError extends DomainError {
  override readonly name = 'BusyError';
  constructor(message = 'The checker is busy with other files right now. Please try again in a minute.') {
    super('unavailable', message, undefined, { retryAfterSeconds: 30 });
  }
}

/** An error thrown in a worker, carried back by name, message, code and reason (an ExtractionError's). */
export interface WorkerErrorShape {
  name: string;
  message: string;
  code?: string;
  reason?: string;
}

export interface PoolOptions {
  /** For messages and logs. */
  name: string;
  /** The worker module (a .ts file is loaded through tsx, a .js file as it is). */
  entry: URL;
  size: number;
  maxQueue: number;
  idleMs: number;
  /** Rebuilds a typed error from what the worker sent. */
  reviveError?: (e: WorkerErrorShape) => Error;
  /** Memory limits for each worker (threads only). */
  resourceLimits?: ResourceLimits;
  /** `thread` (the default) or `process` (see the file's comment). */
  isolation?: 'thread' | 'process';
}

/** What the pool needs of a worker: a thread, or a child process dressed as one. */
interface Runner {
  postMessage(msg: unknown, transfer: TransferListItem[]): void;
  on(event: 'message', listener: (msg: any) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
}

/** A child process running `entry` through the boot script, with the interface of a Worker. */
function childRunner(entry: URL): Runner {
  // Messages are structured clones, as between threads (transfer lists are copied instead).
  const child: ChildProcess = fork(BOOT, [entry.href], { serialization: 'advanced', execArgv: [], stdio: 'inherit' });
  return {
    postMessage: (msg) => child.send(msg as object),
    on: (event: string, listener: (...args: any[]) => void) => child.on(event, listener),
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    terminate: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}

interface Task {
  id: number;
  op: string;
  payload: unknown;
  transfer: TransferListItem[];
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Runner;
  task: Task | null;
  idleTimer: NodeJS.Timeout | null;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
let nextId = 1;

/** Emits `idle-exit` once a worker ended for want of work has exited (its memory is back). */
export class WorkerPool extends EventEmitter<{ 'idle-exit': [] }> {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    super();
  }

  /** Runs one task; rejects with BusyError when the queue is full. */
  run<T>(op: string, payload: unknown, transfer: TransferListItem[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`The ${this.opts.name} pool is closed.`));
    const busy = [...this.slots].filter((s) => s.task).length;
    const free = this.slots.size - busy + (this.opts.size - this.slots.size);
    if (free <= 0 && this.queue.length >= this.opts.maxQueue) return Promise.reject(new BusyError());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: nextId++, op, payload, transfer, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  stats() {
    return {
      workers: this.slots.size,
      busy: [...this.slots].filter((s) => s.task).length,
      queued: this.queue.length,
    };
  }

  /** Ends every worker; queued tasks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error(`The ${this.opts.name} pool is closed.`));
    await Promise.all(
      [...this.slots].map((s) => {
        if (s.idleTimer) clearTimeout(s.idleTimer);
        s.task?.reject(new Error(`The ${this.opts.name} pool is closed.`));
        return s.worker.terminate();
      }),
    );
    this.slots.clear();
  }

  private dispatch() {
    while (this.queue.length) {
      let slot = [...this.slots].find((s) => !s.task);
      if (!slot) {
        if (this.slots.size >= this.opts.size) return;
        slot = this.spawn();
      }
      const task = this.queue.shift()!;
      this.assign(slot, task);
    }
  }

  private spawn(): Slot {
    const worker: Runner =
      this.opts.isolation === 'process'
        ? childRunner(this.opts.entry)
        : new Worker(BOOT, { workerData: { entry: this.opts.entry.href }, resourceLimits: this.opts.resourceLimits });
    const slot: Slot = { worker, task: null, idleTimer: null };
    worker.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: WorkerErrorShape }) => {
      const task = slot.task;
      if (!task || task.id !== msg.id) return;
      slot.task = null;
      if (msg.ok) task.resolve(msg.result);
      else task.reject(this.revive(msg.error!));
      this.afterTask(slot);
    });
    const fail = (err: Error) => {
      this.slots.delete(slot);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      const task = slot.task;
      slot.task = null;
      if (task) task.reject(new Error(`The ${this.opts.name} worker stopped: ${err.message}`));
      if (!this.closed) this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.has(slot)) fail(new Error(`exit code ${code}`));
    });
    this.slots.add(slot);
    return slot;
  }

  private assign(slot: Slot, task: Task) {
    if (slot.idleTimer) {
      clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
    }
    slot.task = task;
    slot.worker.ref();
    slot.worker.postMessage({ id: task.id, op: task.op, payload: task.payload }, task.transfer);
  }

  private afterTask(slot: Slot) {
    this.dispatch();
    if (slot.task || !this.slots.has(slot)) return;
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      if (slot.task) return;
      this.slots.delete(slot);
      void slot.worker.terminate().then(() => this.emit('idle-exit'));
    }, this.opts.idleMs);
    slot.idleTimer.unref();
  }

  private revive(e: WorkerErrorShape): Error {
    const revived = this.opts.reviveError?.(e);
    if (revived) return revived;
    const err = new Error(e.message);
    err.name = e.name;
    return err;
  }
}

/** The parent as a worker thread sees it, or as a child process does (which ends when the parent goes). */
function parentChannel() {
  if (parentPort) return parentPort;
  const send = process.send?.bind(process);
  if (!send) return null;
  process.on('disconnect', () => process.exit(0));
  return {
    on: (_event: 'message', listener: (msg: any) => void) => process.on('message', listener),
    postMessage: (msg: unknown, _transfer?: TransferListItem[]) => void send(msg),
  };
}

/** The worker side: answers `{ id, op, payload }` messages with the handler's result or error. */
export function serveWorker(handlers: Record<string, (payload: any) => Promise<{ result: unknown; transfer?: TransferListItem[] }>>) {
  const port = parentChannel();
  if (!port) throw new Error('serveWorker must run in a worker thread or a child process.');
  port.on('message', async (msg: { id: number; op: string; payload: unknown }) => {
    try {
      const handler = handlers[msg.op];
      if (!handler) throw new Error(`Unknown operation ${msg.op}`);
      const { result, transfer = [] } = await handler(msg.payload);
      port.postMessage({ id: msg.id, ok: true, result }, transfer);
    } catch (err) {
      const e = err as Error & { code?: string; reason?: string };
      port.postMessage({
        id: msg.id,
        ok: false,
        error: { name: e?.name ?? 'Error', message: e?.message ?? String(err), code: e?.code, reason: e?.reason },
      });
    }
  });
}
