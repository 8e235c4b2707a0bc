/**
 * One full garbage collection each time the process falls quiet after work (decision 0021). V8 grows the
 * young generation to 32 MB under load and, in practice, keeps it at that size and its freed pages resident
 * while the process idles; a full collection gives them back (measured: 30-60 MB of resident memory after a
 * start's background work or a burst of pages). "Quiet" is the whole process's CPU (requests, background
 * jobs, the database thread) under 2 % of a core over 5 s; a server under steady load never collects here,
 * an idle one collects once (10-30 ms) and not again until it has worked. PGlite's own thread does the same
 * for its heap (db/pglite-worker.mjs).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const QUIET_CHECK_MS = 5000;
const QUIET_SHARE = 0.02;

export function collectWhenQuiet(everyMs = QUIET_CHECK_MS): () => void {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  let last = process.cpuUsage();
  let workedSinceCollection = true;
  const timer = setInterval(() => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    const busy = (used.user + used.system) / 1000 > everyMs * QUIET_SHARE;
    if (busy) {
      workedSinceCollection = true;
    } else if (workedSinceCollection) {
      collect();
      workedSinceCollection = false;
      // The collection's own CPU is not work.
      last = process.cpuUsage();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
