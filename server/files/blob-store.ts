import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { HttpError } from '../http/errors.ts';
import { type FsOps, describeFsError, ensureDir, fsErrorCode, nodeFs } from '../storage.ts';

/** Where file contents live. Content-addressed: the key is the SHA-256 of the bytes. */
export interface BlobStore {
  /**
   * Stores bytes; `created` is false when the same content was already there. A storage fault (disk full,
   * read-only or forbidden folder) throws StorageUnavailableError and leaves no partial file.
   */
  put(data: Buffer): Promise<{ key: string; sha256: string; size: number; created: boolean }>;
  read(key: string): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
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
 * The disk, not the request, failed: 503 with one message, on the API (it is an HttpError) and on the
 * pages (app/lib/forms.server.ts `asClientError` recognises `storageFault`, since the page bundle has its
 * own copy of this class). The cause is logged where it happens, by the blob store.
 */
export class StorageUnavailableError extends HttpError {
  readonly storageFault = true;
  override readonly name = 'StorageUnavailableError';

  constructor(
    readonly code: string,
    cause: unknown,
  ) {
    super(503, STORAGE_UNAVAILABLE_MESSAGE);
    this.cause = cause;
  }
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const KEY = /^[0-9a-f]{64}$/;

interface Logger {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Local disk under DATA_DIR/files, fanned out by the first bytes of the hash. */
export class LocalBlobStore implements BlobStore {
  private readonly fs: FsOps;
  private readonly log?: Logger;

  constructor(
    private readonly root: string,
    opts: { fs?: FsOps; log?: Logger } = {},
  ) {
    this.fs = opts.fs ?? nodeFs;
    this.log = opts.log;
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`Not a blob key: ${key}`);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

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
    // Write beside, then rename: a crash never leaves a half-written blob under its final name. A failed
    // write (disk full half-way, a folder turned read-only) removes its partial file at once; what a killed
    // process leaves, the start-up sweep removes.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await ensureDir(fs, path.dirname(file));
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      const code = fsErrorCode(err);
      if (!code) throw err;
      this.log?.error({ err, code, file }, `the file store could not write a file: ${describeFsError(err)}`);
      throw new StorageUnavailableError(code, err);
    }
    return { key, sha256: key, size: data.length, created: true };
  }

  async read(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    await this.fs.access(file);
    return createReadStream(file);
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
    const dirsIn = async (dir: string) => {
      try {
        return (await fs.readdir(dir, { withFileTypes: true })).filter(
          (d) => d.isDirectory() && /^[0-9a-f]{2}$/.test(d.name),
        );
      } catch (err) {
        if (fsErrorCode(err) !== 'ENOENT') fail(dir, err);
        return [];
      }
    };
    for (const top of await dirsIn(this.root)) {
      for (const sub of await dirsIn(path.join(this.root, top.name))) {
        const dir = path.join(this.root, top.name, sub.name);
        let names: string[];
        try {
          names = await fs.readdir(dir);
        } catch (err) {
          fail(dir, err);
          continue;
        }
        for (const name of names) {
          const file = path.join(dir, name);
          try {
            if (name.endsWith('.tmp')) {
              const s = await old(file);
              if (s) await remove(file, s.size);
            } else if (KEY.test(name) && name.startsWith(top.name + sub.name)) {
              const s = await old(file);
              if (s) blobs.push({ key: name, file, size: s.size });
            }
          } catch (err) {
            if (fsErrorCode(err) !== 'ENOENT') fail(file, err);
          }
        }
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
