// The embedded database's own thread (decision 0020): PGlite runs here, so its WebAssembly never runs on
// the thread that renders pages. The main thread talks to it with node-postgres over a byte stream
// (pglite-link.ts): the PostgreSQL wire protocol in both directions, nothing else. Plain JavaScript, so
// the thread starts without a TypeScript loader.
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { copyTree, folderOf, makeSpare, spareOf, takeSpare } from './pglite-files.mjs';

/** An error as plain fields (postMessage keeps only the message of an Error): errno, code, path... */
function plain(err) {
  const out = { message: String(err?.message ?? err), name: err?.name ?? 'Error', stack: err?.stack };
  if (err && typeof err === 'object') {
    for (const [key, value] of Object.entries(err)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
    }
  }
  return out;
}

/**
 * PostgreSQL's own default of 128 MB of shared buffers is touched in full when PGlite starts (136 MB more
 * resident than 32 MB, measured), and at 2,000 articles 32 MB were as full as they stayed: 16 MB keep ~30 MB
 * less resident, with the same desk and reader figures (bench:dashboard, bench:http). What does not fit is
 * read back from the data folder's files, which the operating system caches anyway (decision 0021).
 */
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * PGlite's functions are compiled quickly first (Liftoff), then again, optimised, once they have run enough
 * (V8's tiering budget). At V8's default budget, opening the database and a first start's seed optimised
 * hundreds of functions that ran only then: 0.2-0.3 s more CPU on V8's threads at start and slower first
 * queries (a test of 300 queries on a new thread: 0.35 s instead of 0.5 s), for the same speed once warm
 * (decision 0059). Ten times the default: the functions queries keep running are still optimised, within the
 * first few hundred queries. Read when a module is compiled, so set before PGlite's (the flag is the process's;
 * no other WebAssembly runs in the server's process).
 */
setFlagsFromString('--wasm-tiering-budget=20000000');

/**
 * PGlite's WebAssembly (9 MB), compiled from the moment the thread starts: V8 compiles on threads of its
 * own, so a new folder's files are copied meanwhile instead of after. If it cannot be read here, PGlite
 * fetches and compiles it itself.
 */
const wasmModule = readFile(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')))
  .then((bytes) => WebAssembly.compile(bytes))
  .catch(() => undefined);

/** Starts PGlite with the parameters above, and the module compiled above when there is one. */
async function create(extra) {
  const pgliteWasmModule = await wasmModule;
  return PGlite.create({ ...extra, startParams, ...(pgliteWasmModule ? { pgliteWasmModule } : {}) });
}

/**
 * A new database starts from a copy of one initialised and migrated earlier when the main thread names one
 * that exists (`workerData.template`, see client.ts): instead of initdb (1.3-2 s, and an 800 MB peak that
 * stayed resident, WebAssembly memory never shrinking) and the migrations. A data folder gets the files of
 * the copy's folder, copied by the system (PGlite's own `loadDataDir` passes the files through its memory:
 * 130 MB more resident, measured; unpacking the tar here in JavaScript took 0.2-0.7 s of a first start), then
 * opens as any existing folder; a database in memory (tests) loads the tar through PGlite. A damaged copy is
 * removed, and the database initialised as usual. Quicker still, a new data folder takes the spare copy made
 * beforehand by one rename (decision 0059: creating 1,200 files is most of a first start's database step),
 * and a new spare is made once the process falls quiet.
 */
async function open(dataDir, template) {
  const where = dataDir ? { dataDir } : {};
  const isNew = !dataDir || !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (isNew && template && existsSync(template)) {
    try {
      if (!dataDir) {
        const loadDataDir = new Blob([readFileSync(template)]);
        return { db: await create({ loadDataDir }), made: 'copy' };
      }
      if (!takeSpare(template, dataDir)) await copyInto(template, dataDir);
      spareWhenQuiet(template);
      return { db: await create({ dataDir }), made: 'copy' };
    } catch (err) {
      // The data folder refused a write: that is the folder's problem, said as it is (lifecycle.ts words it).
      if (dataDir && typeof err?.path === 'string' && err.path.startsWith(dataDir)) throw err;
      // A damaged copy: removed, with what it had begun to copy, and the database initialised as usual.
      rmSync(template, { force: true });
      rmSync(folderOf(template), { recursive: true, force: true });
      rmSync(spareOf(template), { recursive: true, force: true });
      if (dataDir && existsSync(dataDir)) {
        for (const name of readdirSync(dataDir))
          rmSync(path.join(dataDir, name), { recursive: true, force: true });
      }
    }
  }
  return { db: await create(where), made: isNew ? 'initdb' : 'opened' };
}

/**
 * The copy's folder into `dataDir`, PG_VERSION last: until it is written the folder is not a database, and a
 * start interrupted half-way copies again over what it left. The folder is made from the tar the first time.
 */
async function copyInto(template, dataDir) {
  const root = path.resolve(dataDir);
  // A folder that cannot take the files says so here, in its own words (EROFS, EACCES), not half-way.
  mkdirSync(root, { recursive: true, mode: 0o700 });
  accessSync(root, constants.W_OK);
  const folder = folderOf(template);
  if (!existsSync(path.join(folder, 'PG_VERSION'))) await unfold(template, folder);
  copyTree(folder, root, 'PG_VERSION');
  copyFileSync(path.join(folder, 'PG_VERSION'), path.join(root, 'PG_VERSION'));
}

/** The tar unpacked into `folder` (in a folder of its own, then renamed: never half a copy). */
async function unfold(template, folder) {
  const temp = `${folder}.${process.pid}-${threadId}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  await unpack(template, temp);
  try {
    renameSync(temp, folder);
  } catch (err) {
    // Another process unfolded it meanwhile (ENOTEMPTY, EEXIST): theirs is the same.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(path.join(folder, 'PG_VERSION'))) throw err;
  }
}

/**
 * The copy's files into `dataDir`, PG_VERSION last: until it is written the folder is not a database, and a
 * start interrupted half-way unpacks again over what it left (the same files, every time).
 */
async function unpack(file, dataDir) {
  const { default: tar } = await import('tar-stream');
  const root = path.resolve(dataDir);
  // A folder that cannot take the files says so here, in its own words (EROFS, EACCES), not as a missing
  // sub-folder half-way.
  mkdirSync(root, { recursive: true, mode: 0o700 });
  accessSync(root, constants.W_OK);
  let version = null;
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const to = path.resolve(root, `.${path.posix.sep}${header.name}`);
    if (to !== root && !to.startsWith(root + path.sep))
      return next(new Error(`unexpected entry ${header.name}`));
    if (header.type === 'directory') {
      mkdirSync(to, { recursive: true, mode: 0o700 });
      stream.resume();
      return next();
    }
    if (header.type !== 'file') return next(new Error(`unexpected ${header.type} ${header.name}`));
    if (to === path.join(root, 'PG_VERSION')) {
      const parts = [];
      stream.on('data', (chunk) => parts.push(chunk));
      stream.on('error', next);
      stream.on('end', () => {
        version = Buffer.concat(parts);
        next();
      });
      return;
    }
    // Each piece written as it comes: no file is ever whole in memory (what this thread allocates outside
    // its JavaScript heap stays resident long after).
    let fd;
    try {
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      fd = openSync(to, 'w', 0o600);
    } catch (err) {
      stream.resume();
      return next(err);
    }
    const finish = (err) => {
      closeSync(fd);
      next(err);
    };
    stream.on('data', (chunk) => {
      try {
        writeSync(fd, chunk);
      } catch (err) {
        stream.destroy(err);
      }
    });
    stream.on('error', finish);
    stream.on('end', () => finish());
  });
  await pipeline(createReadStream(file), extract);
  if (!version) throw new Error('the copy holds no database');
  writeFileSync(path.join(root, 'PG_VERSION'), version, { mode: 0o600 });
}

/**
 * Writes the database as it is now to `file` (whole, then renamed: never half a copy), and unpacked beside it
 * as a folder, for the next new database; other copies in that folder (older PGlite versions or migrations)
 * are removed.
 */
async function keepCopy(file) {
  await db.exec('CHECKPOINT');
  const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}-${threadId}.tmp`;
  writeFileSync(temp, dump);
  renameSync(temp, file);
  // And as a folder, which the next new data folder is copied from.
  rmSync(folderOf(file), { recursive: true, force: true });
  await unfold(file, folderOf(file));
  const keep = [path.basename(file), path.basename(folderOf(file)), path.basename(spareOf(file))];
  for (const name of readdirSync(dir)) {
    if (!keep.includes(name) && name.startsWith('pglite-') && !name.endsWith('.tmp')) {
      rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

/** How often the process's CPU is looked at, and the share of a core under which it counts as quiet. */
const QUIET_CHECK_MS = 5000;
const QUIET_SHARE = 0.02;
let spareTimer;
let spareMade;
let closing = false;

/**
 * A new data folder took the spare (or copied the folder): the next one gets a spare again, made once the
 * whole process has been quiet for a while (its CPU, every thread's, under 2 % of a core over 5 s, as
 * idle-gc.ts decides), so that the copy's second of system time never competes with the first pages, and a
 * file at a time, so that queries are answered meanwhile. Dropped when the database closes first.
 */
function spareWhenQuiet(template) {
  if (existsSync(spareOf(template))) return;
  let last = process.cpuUsage();
  spareTimer = setInterval(() => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    if ((used.user + used.system) / 1000 > QUIET_CHECK_MS * QUIET_SHARE) return;
    clearInterval(spareTimer);
    spareMade = makeSpare(template, { stopped: () => closing });
  }, QUIET_CHECK_MS);
  spareTimer.unref();
}

let db;
let made;
try {
  ({ db, made } = await open(workerData.dataDir, workerData.template));
} catch (err) {
  parentPort.postMessage({ type: 'failed', error: plain(err) });
  process.exit(1);
}

/**
 * This thread allocates little JavaScript, so V8 seldom collects here on its own, and what PGlite's start
 * (initdb on a new folder) and large answers leave behind stayed resident: 400 MB more than with PGlite on
 * the main thread, whose garbage collections used to sweep it. Collected once the database has been idle.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');
let idle;
function collectWhenIdle() {
  clearTimeout(idle);
  idle = setTimeout(collectGarbage, 3000).unref();
}

/** Bytes received and not yet a whole message. */
let pending = new Uint8Array(0);
/** One exchange with PGlite at a time, in arrival order. */
let queue = Promise.resolve();

function append(bytes) {
  if (!pending.length) return bytes;
  const joined = new Uint8Array(pending.length + bytes.length);
  joined.set(pending);
  joined.set(bytes, pending.length);
  return joined;
}

/**
 * Cuts the buffer after its last whole message. A startup message (no type byte; pg sends it alone, first)
 * is given to PGlite by itself, as PGlite expects; a Terminate ('X') is dropped: the session is PGlite's
 * one backend, which must outlive any one connection.
 */
function takeMessages() {
  const batches = [];
  const view = new DataView(pending.buffer, pending.byteOffset, pending.byteLength);
  let start = 0;
  let at = 0;
  while (pending.length - at >= 5) {
    if (pending[at] === 0) {
      const len = view.getInt32(at);
      if (pending.length - at < len) break;
      if (at > start) batches.push(pending.subarray(start, at));
      batches.push(pending.subarray(at, at + len));
      at += len;
      start = at;
      continue;
    }
    const len = 1 + view.getInt32(at + 1);
    if (pending.length - at < len) break;
    if (pending[at] === 0x58) {
      if (at > start) batches.push(pending.subarray(start, at));
      at += len;
      start = at;
      continue;
    }
    at += len;
  }
  if (at > start) batches.push(pending.subarray(start, at));
  pending = pending.slice(at);
  return batches;
}

/** Runs whole messages through PGlite and answers with everything it wrote, in one message. */
async function exchange(conn, batches) {
  const chunks = [];
  let size = 0;
  for (const message of batches) {
    await db.execProtocolRawStream(message, {
      onRawData(data) {
        // A view into PGlite's memory: copied before the next message overwrites it.
        chunks.push(data.slice());
        size += data.length;
      },
    });
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  // Every 'data' from the main thread gets one answer, even an empty one: it counts what is in flight.
  parentPort.postMessage({ type: 'data', conn, bytes: out }, [out.buffer]);
  collectWhenIdle();
}

/** A fault of PGlite itself (not an SQL error, which travels as an ErrorResponse): the thread ends. */
function fatal(err) {
  parentPort.postMessage({ type: 'fatal', error: plain(err) });
  process.exit(1);
}

parentPort.on('message', (msg) => {
  if (msg.type === 'data') {
    pending = append(msg.bytes);
    const batches = takeMessages();
    queue = queue.then(() => exchange(msg.conn, batches)).catch(fatal);
  } else if (msg.type === 'disconnect') {
    // The connection is gone: what it left half-done must not leak into the next one.
    queue = queue
      .then(async () => {
        pending = new Uint8Array(0);
        if (db.isInTransaction()) await db.exec('ROLLBACK');
      })
      .catch(fatal);
  } else if (msg.type === 'keep-copy') {
    queue = queue.then(() =>
      keepCopy(msg.file).then(
        () => parentPort.postMessage({ type: 'kept' }),
        (err) => parentPort.postMessage({ type: 'kept', error: plain(err) }),
      ),
    );
  } else if (msg.type === 'close') {
    closing = true;
    clearInterval(spareTimer);
    queue = queue
      .then(() => spareMade)
      .then(() => db.close())
      .then(() => {
        parentPort.postMessage({ type: 'closed' });
        parentPort.close();
      })
      .catch(fatal);
  }
});

/**
 * The first use of a text search configuration in a session loads its dictionaries: 0.1-0.3 s of the first
 * insert into a table with a search index (its trigger calls to_tsvector('english', …): migrations/0004), on
 * a first start the seed's first article. Done here, first in the queue, while the main thread still loads the
 * server's modules and this thread would wait (decision 0059). Reads nothing and changes nothing; a failure
 * only leaves it to the first insert.
 */
queue = queue.then(() => db.query("select to_tsvector('english', 'Colophon')")).catch(() => undefined);

collectWhenIdle();
parentPort.postMessage({ type: 'ready', made });
