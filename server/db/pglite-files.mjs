// The kept copy new PGlite data folders start from (decision 0021), as files: its folder beside its tar, and
// a spare copy of that folder, which a new data folder takes whole by a rename (decision 0059). Plain
// JavaScript: PGlite's thread (pglite-worker.mjs) imports it without a TypeScript loader; prepare.ts too.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/** The kept copy as a folder beside its tar (`pglite-….tar` → `pglite-…/`): new data folders copy it. */
export const folderOf = (template) => template.replace(/\.tar$/, '');

/** A whole copy of that folder (`pglite-….spare/`), ready to become a new data folder by one rename. */
export const spareOf = (template) => `${folderOf(template)}.spare`;

/**
 * A folder's files into another, one system call each (the thread has nothing else to do meanwhile; Node's
 * own asynchronous `fs.cp` took 0.6-0.8 s for the copy's 1,200 files, this 0.1-0.2 s). `skip`: a name of
 * the top folder left out (PG_VERSION, copied last by the caller).
 */
export function copyTree(from, to, skip) {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === skip) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isFile()) copyFileSync(source, target);
    else throw new Error(`unexpected ${source} in the copy`);
  }
}

/** The same, a file at a time on libuv's threads: the calling thread's event loop keeps running. */
async function copyTreeAsync(from, to, stopped) {
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (stopped()) throw new Error('stopped');
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTreeAsync(source, target, stopped);
    else if (entry.isFile()) await copyFile(source, target);
    else throw new Error(`unexpected ${source} in the copy`);
  }
}

/**
 * The spare becomes the new data folder `dataDir` (missing, or an empty folder) by one rename: no file is
 * created, where creating the copy's 1,200 files took 0.8-1 s of a first start (decision 0059). Only a spare
 * of this user's, on the same file system as `dataDir`: otherwise (or when another start took it a moment
 * ago) false, and the caller copies as before. Made whole and then renamed into place, a spare is never half
 * a copy.
 */
export function takeSpare(template, dataDir) {
  const spare = spareOf(template);
  try {
    const owner = statSync(spare).uid;
    if (typeof process.getuid === 'function' && owner !== process.getuid()) return false;
    if (!existsSync(path.join(spare, 'PG_VERSION'))) return false;
    renameSync(spare, path.resolve(dataDir));
    return true;
  } catch {
    return false;
  }
}

/** Whether a process of this machine with this id is running (the owner of a spare being made). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err?.code === 'EPERM';
  }
}

/**
 * Makes the spare when there is none and the copy's folder is there: in a folder of its own, then renamed
 * (never half a copy). Spares left half-made by a process that died are removed. `sync`: copied on the
 * calling thread (`npm run build`); otherwise a file at a time on libuv's threads, until `stopped()` says
 * so. Resolves true when a spare is there afterwards; never rejects (a missing spare costs time only).
 */
export async function makeSpare(template, { sync = false, stopped = () => false } = {}) {
  const folder = folderOf(template);
  const spare = spareOf(template);
  const temp = `${spare}.${process.pid}-${threadId}.tmp`;
  try {
    if (existsSync(spare)) return true;
    if (!existsSync(path.join(folder, 'PG_VERSION'))) return false;
    const dir = path.dirname(spare);
    const prefix = `${path.basename(spare)}.`;
    for (const name of readdirSync(dir)) {
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if (name.startsWith(prefix) && name.endsWith('.tmp') && pid !== process.pid && !running(pid))
        rmSync(path.join(dir, name), { recursive: true, force: true });
    }
    rmSync(temp, { recursive: true, force: true });
    if (sync) copyTree(folder, temp);
    else await copyTreeAsync(folder, temp, stopped);
    chmodSync(temp, 0o700);
    renameSync(temp, spare);
    return true;
  } catch {
    // Another process made it meanwhile (ENOTEMPTY), a full disk, a read-only installation, or stopped.
    rmSync(temp, { recursive: true, force: true });
    return existsSync(spare);
  }
}
