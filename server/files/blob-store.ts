import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { type Readable, Transform, pipeline } from 'node:stream';
import { DomainError } from '../errors.ts';
import { type FsOps, describeFsError, ensureDir, fsErrorCode, nodeFs } from '../storage.ts';

/** Bytes `start` to `end` of a blob, both included (as an HTTP Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file contents live: the local disk (LocalBlobStore) or an S3-compatible object store
 * (S3BlobStore, server/files/s3-blob-store.ts), chosen by configuration (server/files/stores.ts).
 * Content-addressed: the key is the SHA-256 of the bytes.
 */
export interface BlobStore {
  /** Where the blobs are, in words, for messages: "the folder …", "the S3 bucket … at …". */
  readonly description: string;
  /**
   * At start-up, before anything is stored: throws BlobStoreUnusableError, one line saying what is wrong
   * (a missing bucket, refused credentials), when the store cannot be used.
   */
  check(): Promise<void>;
  /**
   * Stores bytes; `created` is false when the same content was already there. A storage fault (disk full,
   * read-only or forbidden folder, an object store that refuses or does not answer) throws
   * StorageUnavailableError and leaves no partial file.
   */
  put(data: Buffer): Promise<{ key: string; sha256: string; size: number; created: boolean }>;
  /**
   * The blob's bytes (only those of `range`, when given), streamed. Throws BlobMissingError when there is no
   * such blob, StorageUnavailableError when the store fails.
   */
  read(key: string, range?: ByteRange): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Every blob with its size (for copying a store to another). */
  list(): AsyncIterable<{ key: string; size: number }>;
  /**
   * Stores `size` bytes that arrive as a stream under `key`, which must be their SHA-256 (copying from
   * another store). Bytes that do not match are refused with BlobDamagedError and leave nothing behind:
   * the stream is checked as it passes and its last chunk held back until the check is done.
   */
  putStream(key: string, size: number, source: Readable): Promise<void>;
  /**
   * Removes what a killed process left: blobs no row names and half-written `.tmp` files, both only when
   * older than `olderThan` (an upload in flight elsewhere is younger). `named` answers which keys rows name.
   */
  sweep(opts: { olderThan: Date; named: (keys: string[]) => Promise<Set<string>> }): Promise<SweepResult>;
}

export interface SweepResult {
  /** Paths relative to the store's root. */
  removed: string[];
  bytes: number;
  /** What could not be looked at or removed (each logged by the caller). */
  failures: { path: string; error: string }[];
}

export const STORAGE_UNAVAILABLE_MESSAGE = 'The server could not store the file; please try again later.';

/**
 * The disk, not the request, failed: `unavailable` (503, no Retry-After) with one message, on the API and on
 * the pages alike (a domain error, decision 0042; `storageFault` still marks it for readers of its shape).
 * `fault` is what failed (ENOSPC, EROFS, an object store's "HTTP 403"); the cause is logged where it happens,
 * by the blob store.
 */
export class StorageUnavailableError extends DomainError {
  readonly storageFault = true;
  override readonly name = 'StorageUnavailableError';

  constructor(
    readonly fault: string,
    cause: unknown,
    message = STORAGE_UNAVAILABLE_MESSAGE,
  ) {
    super('unavailable', message, undefined, {}, { cause });
  }
}

/** A download while the object store does not answer. */
export const STORAGE_UNREADABLE_MESSAGE = 'The file store is not answering; please try again later.';

/** No blob under that key (FileService.open answers 404). */
export class BlobMissingError extends Error {
  override readonly name = 'BlobMissingError';
  constructor(readonly key: string) {
    super(`No blob ${key} in the store.`);
  }
}

/** Bytes whose SHA-256 is not the key they were to be stored under (a damaged copy). */
export class BlobDamagedError extends Error {
  override readonly name = 'BlobDamagedError';
  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(`The blob ${key} is damaged: ${detail}.`);
  }
}

/** The store cannot be used at all (start-up stops with this one line). */
export class BlobStoreUnusableError extends Error {
  override readonly name = 'BlobStoreUnusableError';
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export const BLOB_KEY = /^[0-9a-f]{64}$/;
const KEY = BLOB_KEY;

/** Where a blob lies under a store's root, fanned out by the first bytes of its hash: `ab/cd/abcd…`. */
export function blobPath(key: string): string {
  if (!KEY.test(key)) throw new Error(`Not a blob key: ${key}`);
  return `${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
}

/**
 * Passes bytes on while counting and hashing them, and holds the last chunk back until the end, where it
 * fails with BlobDamagedError unless there were `size` bytes hashing to `key`. So whoever reads from it
 * (a file being written, an upload to an object store) never receives the whole of a damaged blob: the
 * write ends with an error one chunk short.
 */
export function verifying(key: string, size: number): Transform {
  const hash = createHash('sha256');
  let seen = 0;
  let held: Buffer | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > size) return done(new BlobDamagedError(key, `more than the ${size} bytes expected`));
      hash.update(chunk);
      const out = held;
      held = chunk;
      done(null, out ?? undefined);
    },
    flush(done) {
      if (seen !== size) return done(new BlobDamagedError(key, `${seen} bytes instead of ${size}`));
      if (hash.digest('hex') !== key)
        return done(new BlobDamagedError(key, 'its bytes do not hash to its name'));
      done(null, held ?? undefined);
    },
  });
}

interface Logger {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * `source` through `verifying`: an error of either ends both (and frees what the source holds, a file or
 * a connection).
 */
export function checkedStream(source: Readable, key: string, size: number): Readable {
  return pipeline(source, verifying(key, size), () => undefined);
}

/** Local disk under DATA_DIR/files, fanned out by the first bytes of the hash. */
export class LocalBlobStore implements BlobStore {
  private readonly fs: FsOps;
  private readonly log?: Logger;
  readonly description: string;

  constructor(
    private readonly root: string,
    opts: { fs?: FsOps; log?: Logger } = {},
  ) {
    this.fs = opts.fs ?? nodeFs;
    this.log = opts.log;
    this.description = `the folder ${root}`;
  }

  private pathOf(key: string): string {
    return path.join(this.root, blobPath(key));
  }

  /** Nothing to check before the first write: a folder that cannot be written is a 503 on upload. */
  async check(): Promise<void> {}

  async put(data: Buffer) {
    const key = sha256(data);
    const file = this.pathOf(key);
    const fs = this.fs;
    try {
      await fs.access(file);
      // Already there. Touched, so that the start-up sweep sees it as new while an upload that names it is
      // still to commit (a read-only disk may refuse: the bytes are there all the same).
      const now = new Date();
      await fs.utimes(file, now, now).catch(() => undefined);
      return { key, sha256: key, size: data.length, created: false };
    } catch {
      /* not there yet */
    }
    await this.writeBeside(file, data);
    return { key, sha256: key, size: data.length, created: true };
  }

  async putStream(key: string, size: number, source: Readable): Promise<void> {
    await this.writeBeside(this.pathOf(key), checkedStream(source, key, size));
  }

  /**
   * Write beside, then rename: a crash never leaves a half-written blob under its final name. A failed
   * write (disk full half-way, a folder turned read-only, bytes that do not match their name) removes its
   * partial file at once; what a killed process leaves, the start-up sweep removes.
   */
  private async writeBeside(file: string, data: Buffer | Readable): Promise<void> {
    const fs = this.fs;
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await ensureDir(fs, path.dirname(file));
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, file);
    } catch (err) {
      if (!Buffer.isBuffer(data)) data.destroy();
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      const code = fsErrorCode(err);
      if (!code) throw err;
      this.log?.error({ err, code, file }, `the file store could not write a file: ${describeFsError(err)}`);
      throw new StorageUnavailableError(code, err);
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      await this.fs.access(file);
    } catch {
      throw new BlobMissingError(key);
    }
    return createReadStream(file, range);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await this.fs.stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await this.fs.rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; size: number }> {
    for await (const f of this.files((at, err) => {
      throw Object.assign(err as Error, { message: `${describeFsError(err)} (${at})` });
    })) {
      if (f.kind !== 'blob') continue;
      try {
        yield { key: f.name, size: (await this.fs.stat(f.file)).size };
      } catch (err) {
        if (fsErrorCode(err) !== 'ENOENT') throw err; // removed since it was listed
      }
    }
  }

  /**
   * The files in the fan-out folders: blobs (named by their hash, in the folders their name says) and
   * half-written `.tmp` files; anything else is left out. A folder that cannot be read goes to `fail`.
   */
  private async *files(
    fail: (at: string, err: unknown) => void,
  ): AsyncGenerator<{ kind: 'blob' | 'tmp'; name: string; file: string }> {
    const fs = this.fs;
    const dirsIn = async (dir: string) => {
      try {
        return (await fs.readdir(dir, { withFileTypes: true }))
          .filter((d) => d.isDirectory() && /^[0-9a-f]{2}$/.test(d.name))
          .map((d) => d.name)
          .sort();
      } catch (err) {
        if (fsErrorCode(err) !== 'ENOENT') fail(dir, err);
        return [];
      }
    };
    for (const top of await dirsIn(this.root)) {
      for (const sub of await dirsIn(path.join(this.root, top))) {
        const dir = path.join(this.root, top, sub);
        let names: string[];
        try {
          names = (await fs.readdir(dir)).sort();
        } catch (err) {
          fail(dir, err);
          continue;
        }
        for (const name of names) {
          const file = path.join(dir, name);
          if (name.endsWith('.tmp')) yield { kind: 'tmp', name, file };
          else if (KEY.test(name) && name.startsWith(top + sub)) yield { kind: 'blob', name, file };
        }
      }
    }
  }

  async sweep({ olderThan, named }: Parameters<BlobStore['sweep']>[0]): Promise<SweepResult> {
    const result: SweepResult = { removed: [], bytes: 0, failures: [] };
    const fs = this.fs;
    const fail = (at: string, err: unknown) =>
      result.failures.push({ path: path.relative(this.root, at) || '.', error: describeFsError(err) });
    const blobs: { key: string; file: string; size: number }[] = [];
    const old = async (file: string) => {
      const s = await fs.stat(file);
      return s.isFile() && s.mtime < olderThan ? s : null;
    };
    const remove = async (file: string, size: number) => {
      try {
        await fs.rm(file, { force: true });
        result.removed.push(path.relative(this.root, file));
        result.bytes += size;
      } catch (err) {
        fail(file, err);
      }
    };
    for await (const f of this.files(fail)) {
      try {
        const s = await old(f.file);
        if (!s) continue;
        if (f.kind === 'tmp') await remove(f.file, s.size);
        else blobs.push({ key: f.name, file: f.file, size: s.size });
      } catch (err) {
        if (fsErrorCode(err) !== 'ENOENT') fail(f.file, err);
      }
    }
    for (let i = 0; i < blobs.length; i += 500) {
      const batch = blobs.slice(i, i + 500);
      const keep = await named(batch.map((b) => b.key));
      for (const b of batch) if (!keep.has(b.key)) await remove(b.file, b.size);
    }
    return result;
  }
}
