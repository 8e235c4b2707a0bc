/**
 * One full garbage collection once the server has had no request for a few seconds (decision 0021). V8
 * grows the young generation to 32 MB under load and, in practice, keeps it at that size while the process
 * idles; a full collection gives it back (measured: about 30 MB of resident memory). A server under steady
 * load never reaches the pause, so it never pays for the collection; an idle one pays ~10-30 ms once.
 * PGlite's own thread does the same for its heap (db/pglite-worker.mjs).
 */
import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const IDLE_COLLECTION_MS = 5000;

export function collectWhenIdle(server: Server, idleMs = IDLE_COLLECTION_MS): () => void {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(collect, idleMs).unref();
  };
  server.on('request', arm);
  arm();
  return () => {
    clearTimeout(timer);
    server.off('request', arm);
  };
}
