// The embedded database's own thread (decision 0020): PGlite runs here, so its WebAssembly never runs on
// the thread that renders pages. The main thread talks to it with node-postgres over a byte stream
// (pglite-link.ts): the PostgreSQL wire protocol in both directions, nothing else. Plain JavaScript, so
// the thread starts without a TypeScript loader.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

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

let db;
try {
  db = await PGlite.create(workerData.dataDir ? { dataDir: workerData.dataDir } : {});
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
  } else if (msg.type === 'close') {
    queue = queue
      .then(() => db.close())
      .then(() => {
        parentPort.postMessage({ type: 'closed' });
        parentPort.close();
      })
      .catch(fatal);
  }
});

collectWhenIdle();
parentPort.postMessage({ type: 'ready' });
