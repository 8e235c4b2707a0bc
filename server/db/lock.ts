import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataFolderLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite has no lock between processes, and two processes on one folder silently lose committed rows.
 * So the server (and any CLI command) takes this exclusive lock on the data folder first. The lock file
 * is created atomically (O_EXCL) and names its owner's PID; a lock whose owner has died is taken over.
 */
export function lockDataFolder(dataDir: string, purpose: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          const owner = JSON.parse(readFileSync(file, 'utf8'));
          if (owner.pid === process.pid) rmSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner: { pid?: number; purpose?: string; since?: string } = {};
      try {
        owner = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // Half-written by a process that is starting right now, or garbage: look again shortly.
        if (attempt < 2) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
          continue;
        }
      }
      if (owner.pid && owner.pid !== process.pid && alive(owner.pid)) {
        throw new DataFolderLockedError(
          `The data folder ${dataDir} is in use by another Colophon process (PID ${owner.pid}, ${owner.purpose ?? 'unknown'}, since ${owner.since ?? '?'}). Stop it first, or use another DATA_DIR.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataFolderLockedError(`Could not lock the data folder ${dataDir}.`);
}
