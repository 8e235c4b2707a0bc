import path from 'node:path';
import pino from 'pino';
import { logRequest } from './accounts/links.ts';
import { buildApp, type PagesOptions } from './app.ts';
import { publicUrl } from './config.ts';
import { openBlobStore } from './files/stores.ts';
import { collectWhenQuiet } from './http/idle-gc.ts';
import { buildDir, loadProductionBuild } from './http/ssr.ts';
import { defineHousekeeping } from './jobs/housekeeping.ts';
import { exitOnStartupError, openRuntime, type Runtime } from './lifecycle.ts';
import { logMixin } from './request-context.ts';
import { seed } from './seed/seed.ts';
import { createServices, type Services } from './services.ts';

/**
 * The composition root: config → lock → database → services → seed → HTTP. Shuts down gracefully on
 * SIGINT/SIGTERM (in-flight requests finish, then the database closes and the lock is released).
 * `overrides` reach `createServices` as they are: the cluster tests' entry (tests/cluster/node.mjs) passes a
 * clock it moves and a transport it can hold, so the production start has no test switch of its own.
 */
export async function startServer(
  opts: {
    runtime?: Runtime;
    pages?: (log: pino.Logger) => Promise<PagesOptions>;
    overrides?: Parameters<typeof createServices>[3];
  } = {},
) {
  const { config, lock, database, steps } = opts.runtime ?? (await openRuntime('server'));
  // JSON lines. Requests are logged with the secrets of e-mailed links (?token=) hidden; every line written
  // in a request's work (services, mail, the jobs it queued, in any process) names it: `reqId`.
  const log = pino({ level: config.LOG_LEVEL, serializers: { req: logRequest }, mixin: logMixin });
  // The site's build is read while the seed works.
  const pagesReady = opts.pages
    ? opts.pages(log)
    : loadProductionBuild().then((build) => ({
        build,
        mode: 'production' as const,
        clientDir: path.join(buildDir, 'client'),
      }));
  pagesReady.catch(() => undefined); // a failure is met where it is awaited
  // Uploaded files: DATA_DIR/files, or the object store (a wrong bucket or refused credentials stop here).
  const blobs = await openBlobStore(config, log);
  steps.mark('file store');
  const services = createServices(config, database, log, { blobs, ...opts.overrides });
  // Session pruning, PGlite's vacuum and the citation styles' warm-up: chores of the job queue.
  defineHousekeeping(services.jobs, services);
  steps.mark('services');
  // The routes are registered while the seed waits on the database: neither needs the other.
  const appReady = pagesReady.then((pages) => buildApp(services, { pages, logger: log }));
  appReady.catch(() => undefined); // a failure is met where it is awaited

  const seeded = await seed(services, { demo: config.SEED_DEMO });
  steps.mark('seed');
  // Upload files a killed process never committed (orphan blobs, half-written .tmp files): swept before the
  // site takes uploads again, so no upload of this process can race the sweep.
  await services.files
    .sweepLeftovers()
    .catch((err) => log.error({ err }, 'sweeping leftover upload files failed'));
  steps.mark('sweep');
  const app = await appReady;
  steps.mark('app');

  let closing = false;
  let background: NodeJS.Timeout | undefined;
  /**
   * SIGTERM (or SIGINT): drain, then exit 0 (decision 0030). At once: /readyz answers 503, every answer says
   * `Connection: close`, and no new job is claimed. When the requests under way have finished, the listener
   * closes (new connections are refused: a balancer tries another process). Requests and jobs get at most
   * SHUTDOWN_TIMEOUT; past it the connections are cut and the jobs still running are left to their leases
   * (another process takes them over when they run out). Then the usage counts held in memory, the mail
   * transport and the database close, and the data-folder lock is released.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const timeoutMs = config.SHUTDOWN_TIMEOUT * 1000;
    console.log(
      `${signal} received: draining (readyz 503, no new jobs; running requests and jobs have ${config.SHUTDOWN_TIMEOUT} s to finish), then closing the database.`,
    );
    // A last resort, should closing itself hang.
    const force = setTimeout(() => process.exit(1), timeoutMs + 15_000);
    force.unref();
    clearTimeout(background);
    services.drain.begin();
    const deadline = Date.now() + timeoutMs;
    // Each step waits until the deadline; past it, a step still gets a moment (closing after a cut is quick).
    const bounded = <T>(step: Promise<T>, least = 2000) =>
      Promise.race([
        step.then(() => 'done' as const),
        new Promise<'timeout'>((resolve) =>
          setTimeout(() => resolve('timeout'), Math.max(deadline - Date.now(), least)),
        ),
      ]);
    // No new job is taken; the running ones finish (a long one stops between items and is put back).
    const jobsStopped = services.jobs.stop();
    try {
      // The requests under way finish (readyz says 503 meanwhile, so a balancer sends no more); then the
      // listener closes (a balancer tries another process) and the requests taken meanwhile finish too.
      await bounded(services.drain.before(), 0);
      const closed = app.close();
      if ((await bounded(closed, 0)) === 'timeout') {
        log.warn(
          { requests: services.drain.requests },
          'shutdown: requests still running at the timeout are cut off',
        );
        app.server.closeAllConnections();
      }
      // onClose hooks (after the requests) write the held usage counts and stop the checker's workers.
      await bounded(closed);
      if ((await bounded(jobsStopped, 0)) === 'timeout') {
        log.warn(
          { jobs: services.jobs.busy },
          'shutdown: jobs still running at the timeout are left to their leases (another process takes them over)',
        );
      }
      await bounded(services.mailer.close());
      if ((await bounded(database.close(), 5000)) === 'timeout')
        log.warn({}, 'shutdown: the database did not close in time; exiting all the same');
    } catch (err) {
      log.error({ err }, 'shutdown: closing failed');
    } finally {
      lock.release();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  steps.mark('listen');
  collectWhenQuiet();
  // A moment after listening: the first visitors' pages are not kept waiting behind a first start's
  // indexing and the demo's full texts (measured: the first page 0.2 s later without the pause).
  background = setTimeout(() => startBackgroundWork(services, log), BACKGROUND_AFTER_MS);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = config.PUBLIC_URL ? publicUrl(config) : `http://localhost:${port}`;
  const lines = [
    '',
    `  Colophon is running at ${url}`,
    `  Database: ${database.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'pglite')}${MADE[database.made ?? 'opened']}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Data folder: ${config.dataDir}`,
    `  Files: ${services.files.blobs.description}`,
    `  Started in ${steps.summary()}`,
    `  Mode: ${process.env.NODE_ENV === 'production' ? 'production' : `${process.env.NODE_ENV ?? 'unset'} (React's development build: slower; npm start serves production)`}`,
  ];
  if (seeded.adminPassword) {
    lines.push(
      `  Admin account created: username "${config.ADMIN_USERNAME}", password "${seeded.adminPassword}"`,
      '  (shown only this once: sign in and keep it safe, or set ADMIN_PASSWORD before the first start)',
    );
  } else if (seeded.adminCreated) {
    lines.push(`  Admin account created: username "${config.ADMIN_USERNAME}", password from ADMIN_PASSWORD`);
  } else {
    lines.push(`  Admin account: "${config.ADMIN_USERNAME}"`);
  }
  if (!config.SMTP_URL)
    lines.push(`  E-mail: written as .eml files to ${path.join(config.dataDir, 'outbox')}`);
  console.log(`${lines.join('\n')}\n`);
  return { app, services, port };
}

/** What the start-up lines say of a PGlite database this start found or made. */
const MADE = {
  opened: '',
  copy: ' (new, from the copy prepared by npm run build)',
  initdb: ' (new, initialised: npm run build prepares a copy that starts quicker)',
} as const;

/** How long after listening the background work starts (any process may also run it meanwhile). */
const BACKGROUND_AFTER_MS = 1000;

/**
 * What a start resumes once the site answers (none of it is needed for the first page, and all of it
 * competes with it for the CPU): the job queue (decision 0022: e-mail, alerts, digests, the similarity
 * corpus, housekeeping; work a previous run left is taken up, by this process or any other; the recurring
 * passes run once across processes: decisions 0031, 0048), and this process's warm-up of the citation styles.
 */
function startBackgroundWork(services: Services, log: pino.Logger) {
  void services.jobs.start().catch((err) => log.error({ err }, 'the job queue could not start'));
}

if (import.meta.url === `file://${process.argv[1]}` || process.env.COLOPHON_MAIN === '1') {
  startServer().catch(exitOnStartupError);
}
