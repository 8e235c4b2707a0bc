/**
 * The last step of `npm run build`: what a first start would otherwise do, done once per installation, so
 * that `npm start` on a new data folder serves its first page quickly (issue 13, decision 0021). It seeds a
 * throwaway database in memory, as a first start seeds its own, which leaves in the installation's cache
 * folder (server/install-cache.ts):
 *   - the database new PGlite folders start from (initialised and migrated: db/client.ts `pgliteCopy`), and a
 *     spare copy of its folder, which the first new data folder takes by a rename (decision 0059);
 *   - the demo articles' PDFs, typeset from the journal settings this configuration seeds (seed/pdf.ts).
 * Nothing of the throwaway database or its folder is kept. A failure here fails nothing: starts take longer.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase, pgliteCopy } from './db/client.ts';
import { makeSpare } from './db/pglite-files.mjs';
import { localBlobStore } from './files/stores.ts';
import { installCacheDir } from './install-cache.ts';
import { seed } from './seed/seed.ts';
import { type Logger, createServices } from './services.ts';

const quiet: Logger = { info() {}, warn() {}, error() {} };

export async function prepare(): Promise<void> {
  const started = performance.now();
  // The same settings a start of this installation reads (.env, then the environment), so that the PDFs
  // typeset here are the ones its first start asks for.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-prepare-'));
  try {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SESSION_SECRET: 'prepare-only-never-used-for-a-session-0123456789',
      LOG_LEVEL: 'silent',
    });
    const database = await openDatabase({ memory: true });
    try {
      // A throwaway seed: its files go to the throwaway folder, whichever store the configuration names.
      const services = createServices(config, database, quiet, { blobs: localBlobStore(config) });
      await seed(services, { demo: config.SEED_DEMO });
    } finally {
      await database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const copy = pgliteCopy();
  if (copy) await makeSpare(copy, { sync: true });
  const where = installCacheDir();
  console.log(
    where
      ? `Prepared for quick starts in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path.relative(process.cwd(), where)}`
      : 'Nothing prepared for quick starts: no cache folder beside the installed packages.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  prepare().then(
    () => process.exit(0),
    (err) => {
      console.warn(`Preparing for quick starts failed (starts will take longer): ${err?.message ?? err}`);
      process.exit(0);
    },
  );
}
