// `npm start`: validate the configuration and lock the data folder first (a second server on the same
// folder stops here at once), build the site and the server if either build is missing or older than its
// sources, then serve.
//
// On a built tree the server runs from its compiled JavaScript (build/node, made by `npm run build`): no
// TypeScript is transpiled at start. When a build is missing or stale, this start runs from the TypeScript
// sources through tsx, as a development start would, and builds for the next one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_OUT, isStale, serverBuildStale } from './build-server.mjs';

// React and React Router pick their production builds from NODE_ENV when they are first imported: set it
// before anything imports them. `npm start` serves production unless development is asked for explicitly
// (a test runner's NODE_ENV=test in the environment still gets the production build).
if (process.env.NODE_ENV !== 'development') process.env.NODE_ENV = 'production';

const SITE_SOURCES = [
  'app',
  'common',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];
const siteStale = isStale(path.join('build', 'server', 'index.js'), SITE_SOURCES);
const serverStale = serverBuildStale();

function ensureBuilt() {
  if (siteStale) {
    console.log('Building the site (first start, or the sources changed)...');
    const result = spawnSync(process.execPath, ['node_modules/@react-router/dev/bin.js', 'build'], {
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      console.error('The build failed: see the messages above.');
      process.exit(1);
    }
  }
  if (serverStale) {
    const result = spawnSync(process.execPath, [path.join('scripts', 'build-server.mjs')], {
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      console.error('Compiling the server failed: see the messages above.');
      process.exit(1);
    }
  }
}

// The compiled server when it is up to date, otherwise the sources through tsx.
let modules;
if (serverStale) {
  const { register } = await import('tsx/esm/api');
  register();
  modules = (name) => import(`../server/${name}.ts`);
} else {
  modules = (name) => import(pathToFileURL(path.join(SERVER_OUT, 'server', `${name}.js`)).href);
}
const { openRuntime, exitOnStartupError, StartupSteps } = await modules('lifecycle');
const steps = new StartupSteps();
steps.mark('modules');

try {
  // On a built tree, the server's modules load while the database opens (PGlite compiles its WebAssembly
  // on other threads); a stale build is made after the lock is taken, before they load.
  const server = serverStale ? null : modules('main');
  server?.catch(() => undefined); // a failure is met where it is awaited
  const runtime = await openRuntime('server', process.env, steps);
  try {
    ensureBuilt();
  } catch (err) {
    runtime.lock.release();
    throw err;
  }
  if (siteStale || serverStale) steps.mark('build');
  const { startServer } = await (server ?? modules('main'));
  steps.mark('server modules');
  await startServer({ runtime });
} catch (err) {
  exitOnStartupError(err);
}
