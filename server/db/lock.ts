import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataFolderLockedError extends Error {}

export interface DataFolderLock {
  release(): void;
  /**
   * `flock`: a kernel lock on the lock file's inode, which holds across PID namespaces (containers sharing
   * the folder) and is dropped by the kernel when the holder dies, even by SIGKILL. `pid-file`: the
   * fallback where util-linux `flock` is missing (macOS): holds only among processes that can see each
   * other's PIDs (decision 0013).
   */
  kind: 'flock' | 'pid-file';
}

interface Owner {
  pid?: number;
  purpose?: string;
  since?: string;
  host?: string;
  pidNamespace?: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The PID namespace of this process ("pid:[4026531836]"), where Linux tells it. */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

function ownerRecord(purpose: string): string {
  return JSON.stringify({
    pid: process.pid,
    purpose,
    since: new Date().toISOString(),
    host: os.hostname(),
    pidNamespace: pidNamespace(),
  } satisfies Owner);
}

function readOwner(file: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8'));
    return owner && typeof owner === 'object' ? owner : null;
  } catch {
    return null;
  }
}

function lockedMessage(dataDir: string, owner: Owner | null): string {
  const ns = pidNamespace();
  const elsewhere =
    owner?.pidNamespace && ns && owner.pidNamespace !== ns
      ? ' in another PID namespace (another container?)'
      : '';
  const host = owner?.host && owner.host !== os.hostname() ? ` on host ${owner.host}` : '';
  const who = owner?.pid
    ? `PID ${owner.pid}${elsewhere}${host}, ${owner.purpose ?? 'unknown'}, since ${owner.since ?? '?'}`
    : 'starting up right now';
  return `The data folder ${dataDir} is in use by another Colophon process (${who}). Stop it first, or use another DATA_DIR.`;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes flock(2) on the open file `fd` through util-linux's `flock` command (Node has no flock call, and no
 * native module is built here). The child gets `fd` as its fd 3: a flock belongs to the open file
 * description, which the child shares with this process, so the lock outlives the child and lasts until
 * this process closes `fd` or dies (the kernel closes it then, whatever killed the process). Node opens its
 * own files close-on-exec, so no other child of the server inherits the lock.
 */
function flockFd(fd: number, command: string): 'locked' | 'held' | 'unavailable' {
  const run = spawnSync(command, ['--exclusive', '--nonblock', '3'], {
    stdio: ['ignore', 'ignore', 'pipe', fd],
    timeout: 10_000,
  });
  if (run.error) return 'unavailable'; // no flock command (ENOENT), or it could not run
  if (run.status === 0) return 'locked';
  // Conflict: exit 1 and nothing said. Anything else (a file system without flock, ...) is a failure.
  if (run.status === 1 && !run.stderr?.toString().trim()) return 'held';
  return 'unavailable';
}

/**
 * PGlite has no lock between processes, and two processes on one folder silently lose committed rows.
 * So the server and every CLI command (server/lifecycle.ts) take this exclusive lock on the data folder
 * before opening anything in it. Where util-linux `flock` exists (every Debian or Alpine, so every
 * container image we ship on) it is a kernel lock on `DATA_DIR/.lock` that holds across PID namespaces and
 * ends with the holder, even on SIGKILL; elsewhere the PID-file lock of decision 0003 (decision 0013).
 */
export function lockDataFolder(
  dataDir: string,
  purpose: string,
  opts: { flockCommand?: string } = {},
): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 5; attempt++) {
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
    const got = flockFd(fd, opts.flockCommand ?? 'flock');
    if (got === 'unavailable') {
      closeSync(fd);
      if (process.platform === 'linux') {
        console.warn(
          'The flock command (util-linux) is missing: the data-folder lock cannot hold across containers sharing this folder. Install util-linux.',
        );
      }
      return lockWithPidFile(dataDir, file, purpose);
    }
    if (got === 'held') {
      closeSync(fd);
      let owner = readOwner(file);
      // The holder writes its record just after locking: give it a moment.
      for (let i = 0; i < 5 && !owner?.pid; i++) {
        sleep(50);
        owner = readOwner(file);
      }
      throw new DataFolderLockedError(lockedMessage(dataDir, owner));
    }
    // A holder that releases removes the file before it unlocks: if the name no longer leads to the inode
    // this lock is on, the lock guards nothing; open the file again.
    let same = false;
    try {
      const named = statSync(file);
      const locked = fstatSync(fd);
      same = named.ino === locked.ino && named.dev === locked.dev;
    } catch {
      /* removed meanwhile */
    }
    if (!same) {
      closeSync(fd);
      continue;
    }
    ftruncateSync(fd, 0);
    writeSync(fd, ownerRecord(purpose), 0);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off('exit', release);
      // Remove, then unlock (closing the last descriptor): see the inode check above.
      rmSync(file, { force: true });
      closeSync(fd);
    };
    process.once('exit', release);
    return { release, kind: 'flock' };
  }
  throw new DataFolderLockedError(`Could not lock the data folder ${dataDir}.`);
}

/**
 * The fallback (decision 0003): the file is created atomically (O_EXCL) and names its owner's PID; a lock
 * whose owner has died is taken over. Only as good as PIDs are: a process in another PID namespace looks
 * dead from here.
 */
function lockWithPidFile(dataDir: string, file: string, purpose: string): DataFolderLock {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, ownerRecord(purpose));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
      };
      process.once('exit', release);
      return { release, kind: 'pid-file' };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(file);
      // Half-written by a process that is starting right now, or garbage: look again shortly.
      if (!owner && attempt < 2) {
        sleep(100);
        continue;
      }
      if (owner?.pid && owner.pid !== process.pid && alive(owner.pid)) {
        throw new DataFolderLockedError(lockedMessage(dataDir, owner));
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataFolderLockedError(`Could not lock the data folder ${dataDir}.`);
}
