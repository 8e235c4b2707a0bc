import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Where file contents live. Content-addressed: the key is the SHA-256 of the bytes. */
export interface BlobStore {
  /** Stores bytes; `created` is false when the same content was already there. */
  put(data: Buffer): Promise<{ key: string; sha256: string; size: number; created: boolean }>;
  read(key: string): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Local disk under DATA_DIR/files, fanned out by the first bytes of the hash. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`Not a blob key: ${key}`);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(data: Buffer) {
    const key = sha256(data);
    const file = this.pathOf(key);
    try {
      await access(file);
      return { key, sha256: key, size: data.length, created: false };
    } catch {
      /* not there yet */
    }
    await mkdir(path.dirname(file), { recursive: true });
    // Write beside, then rename: a crash never leaves a half-written blob under its final name.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, file);
    return { key, sha256: key, size: data.length, created: true };
  }

  async read(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    await access(file);
    return createReadStream(file);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
