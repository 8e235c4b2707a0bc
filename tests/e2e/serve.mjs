// Runs the production server (`node scripts/start.mjs`, which rebuilds if the build is stale) on a fresh
// temporary data folder, and removes the folder when the server stops. Used by Playwright's webServer
// entries and by the benches. Environment: whatever start.mjs reads (PORT, ADMIN_PASSWORD, ...), plus
// E2E_PARENT_PID: when that process dies without stopping us (a killed test runner), we stop too.
// While it runs, the data folder's path is in `dataDirPointer(PORT)` (a file in the temp folder), so tests can
// read what the server wrote there, e.g. the e-mails in its outbox (tests/e2e/fixtures.ts, `outbox`).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-e2e-'));

/** Where the data folder of the server on `port` is written down (the same formula as in fixtures.ts). */
const dataDirPointer = (port) => path.join(os.tmpdir(), `colophon-e2e-port-${port}.datadir`);
const pointer = process.env.PORT ? dataDirPointer(process.env.PORT) : null;
if (pointer) writeFileSync(pointer, dataDir);
// E2E_SETUP: a script (TypeScript, run through tsx) that prepares the data folder before the first start.
if (process.env.E2E_SETUP) {
  const setup = spawnSync(process.execPath, ['--import', 'tsx', process.env.E2E_SETUP], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'inherit',
  });
  if (setup.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    if (pointer) rmSync(pointer, { force: true });
    process.exit(1);
  }
}
// E2E_CPU_PROF=FOLDER: each server writes V8 CPU profiles into FOLDER/server-PORT when it stops, one per thread
// (the main one, PGlite's, the similarity workers'): open them in Chrome's DevTools (Performance tab) to see where
// a slow spec's server time goes. One sample each 10 ms: at V8's default (1 ms) the profiler's own threads took
// more CPU than an idle server on a busy 2-core machine.
const profile = process.env.E2E_CPU_PROF
  ? [
      '--cpu-prof',
      '--cpu-prof-dir',
      path.join(path.resolve(root, process.env.E2E_CPU_PROF), `server-${process.env.PORT}`),
      '--cpu-prof-interval',
      '10000',
    ]
  : [];
const server = spawn(process.execPath, [...profile, 'scripts/start.mjs'], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: 'inherit',
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  // The server finishes in-flight requests and closes the database; it has 15 s before it forces itself.
  setTimeout(() => server.kill('SIGKILL'), 20_000).unref();
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);

server.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  if (pointer) rmSync(pointer, { force: true });
  process.exit(code ?? (signal === 'SIGTERM' ? 0 : 1));
});

const parent = Number(process.env.E2E_PARENT_PID);
if (parent) {
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      stop();
    }
  }, 2_000).unref();
}
