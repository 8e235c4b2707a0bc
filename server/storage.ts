import * as fsPromises from 'node:fs/promises';
import path from 'node:path';

/**
 * The file-system calls the blob store and the outbox make, passed in so that tests can make them fail as
 * a full or read-only disk does (the tests run as root, where a chmod stops nothing).
 */
export type FsOps = Pick<
  typeof fsPromises,
  'access' | 'mkdir' | 'readdir' | 'rename' | 'rm' | 'stat' | 'utimes' | 'writeFile'
>;

export const nodeFs: FsOps = fsPromises;

const FAULTS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'it is on a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'input/output error',
  ENOTDIR: 'a file stands where a folder should be',
  EISDIR: 'a folder stands where a file should be',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

/** PGlite's file system (Emscripten) throws `{ name: 'ErrnoError', errno }` with WASI numbers. */
const WASI_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  29: 'EIO',
  33: 'EMFILE',
  41: 'ENFILE',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  63: 'EPERM',
  69: 'EROFS',
};

/** An error from the file system (it carries an errno code such as ENOSPC), as opposed to a bug. */
export function fsErrorCode(err: unknown): string | null {
  const e = err as { code?: unknown; name?: unknown; errno?: unknown } | null;
  if (typeof e?.code === 'string' && /^E[A-Z0-9]+$/.test(e.code)) return e.code;
  if (e?.name === 'ErrnoError' && typeof e.errno === 'number')
    return WASI_ERRNO[e.errno] ?? `errno ${e.errno}`;
  return null;
}

/** "the disk is full (ENOSPC)": what went wrong, in words, for a log line or a start-up message. */
export function describeFsError(err: unknown): string {
  const code = fsErrorCode(err);
  if (!code) return err instanceof Error ? err.message : String(err);
  return `${FAULTS[code] ?? 'the file system refused'} (${code})`;
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir reports ENOENT where a parent's mkdir failed with
 * EROFS or EACCES, and the log is to name the real cause.
 */
export async function ensureDir(fs: FsOps, dir: string): Promise<void> {
  try {
    await fs.mkdir(dir);
  } catch (err) {
    const code = fsErrorCode(err);
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || path.dirname(dir) === dir) throw err;
    await ensureDir(fs, path.dirname(dir));
    await fs.mkdir(dir).catch((again) => {
      if (fsErrorCode(again) !== 'EEXIST') throw again;
    });
  }
}
