import type { FsOps } from '../storage.ts';
import { nodeFs } from '../storage.ts';

type Op = 'mkdir' | 'writeFile' | 'rename';

/**
 * The real file system, with a switch that makes writes fail as a full or read-only disk does. Tests run as
 * root, where `chmod -w` stops nothing, so faults are injected here (and, where the machine lets the test
 * mount, checked once for real on a tmpfs: server/files/blob-store.test.ts).
 *
 * - ENOSPC / EDQUOT: `writeFile` writes the first half of the bytes, then fails (a disk that fills up
 *   half-way leaves a partial file); `mkdir` and `rename` still work.
 * - anything else (EROFS, EACCES, ...): `mkdir`, `writeFile` and `rename` fail before touching anything.
 */
export function faultyFs(base: FsOps = nodeFs) {
  let fault: string | null = null;
  const errno = (code: string, syscall: string, file: unknown) =>
    Object.assign(new Error(`${code}: simulated fault, ${syscall} '${String(file)}'`), {
      code,
      syscall,
      path: String(file),
    });
  const full = () => fault === 'ENOSPC' || fault === 'EDQUOT';
  const failing = (op: Op) => fault !== null && (op === 'writeFile' || !full());
  const fs: FsOps = {
    ...base,
    mkdir: (async (file: Parameters<FsOps['mkdir']>[0], options?: Parameters<FsOps['mkdir']>[1]) => {
      if (failing('mkdir')) throw errno(fault as string, 'mkdir', file);
      return base.mkdir(file, options);
    }) as FsOps['mkdir'],
    rename: async (from, to) => {
      if (failing('rename')) throw errno(fault as string, 'rename', from);
      return base.rename(from, to);
    },
    writeFile: async (file, data, options) => {
      if (failing('writeFile')) {
        if (full() && Buffer.isBuffer(data))
          await base.writeFile(file, data.subarray(0, Math.floor(data.length / 2)));
        throw errno(fault as string, full() ? 'write' : 'open', file);
      }
      return base.writeFile(file, data, options);
    },
  };
  return {
    fs,
    /** From now on, writes fail with `code`. */
    fail(code: string) {
      fault = code;
    },
    heal() {
      fault = null;
    },
  };
}
