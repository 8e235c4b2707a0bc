// `npm start`: validate the configuration and lock the data folder first (a second server on the same
// folder stops here at once), build the site if the build is missing or older than its sources, then serve.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

// React and React Router pick their production builds from NODE_ENV when they are first imported: set it
// before anything imports them. `npm start` serves production unless development is asked for explicitly
// (a test runner's NODE_ENV=test in the environment still gets the production build).
if (process.env.NODE_ENV !== 'development') process.env.NODE_ENV = 'production';

register();
const { openRuntime, exitOnStartupError } = await import('../server/lifecycle.ts');

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const s = statSync(entry);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function ensureBuilt() {
  const built = path.join('build', 'server', 'index.js');
  const sources = ['app', 'common', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json'];
  const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
  if (!stale) return;
  console.log('Building the site (first start, or the sources changed)...');
  const result = spawnSync(process.execPath, ['node_modules/@react-router/dev/bin.js', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The build failed: see the messages above.');
    process.exit(1);
  }
}

try {
  const runtime = await openRuntime('server');
  try {
    ensureBuilt();
  } catch (err) {
    runtime.lock.release();
    throw err;
  }
  const { startServer } = await import('../server/main.ts');
  await startServer({ runtime });
} catch (err) {
  exitOnStartupError(err);
}
