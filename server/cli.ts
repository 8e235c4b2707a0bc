/**
 * Maintenance commands, on the same data folder and database as the server (which must be stopped when the
 * database is the embedded one: the data folder is locked by whoever opens it first).
 *
 *   npm run cli -- reindex             re-index the similarity corpus (every article PDF, every manuscript
 *                                      version), then check each manuscript version that has no stored report
 *   npm run cli -- reindex --no-check  only re-index
 *   npm run cli -- reindex --force     read every file again, even those indexed unchanged (after an upgrade
 *                                      that changes how text is read or fingerprinted)
 */
import pino from 'pino';
import { exitOnStartupError, openRuntime } from './lifecycle.ts';
import { createServices } from './services.ts';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  reindex [--no-check] [--force]
                         Re-index the similarity corpus (article PDFs and every manuscript version), then run
                         the arrival check of every manuscript version without a stored report. Files already
                         indexed unchanged are skipped unless --force.
  help                   This text.`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return 0;
  }
  if (command !== 'reindex') {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const unknown = rest.filter((a) => a !== '--no-check' && a !== '--force');
  if (unknown.length) {
    console.error(`Unknown option ${unknown.join(' ')}.\n\n${USAGE}`);
    return 2;
  }
  const { config, lock, database } = await openRuntime('cli reindex');
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  // Background work off: this command does it in the foreground.
  const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, log);
  try {
    const started = performance.now();
    let n = 0;
    const counts = await services.similarity.reindexAll((kind, id, r) => {
      n++;
      const what = kind === 'article' ? `article ${id}` : `manuscript version ${id}`;
      console.log(`${String(n).padStart(5)}  ${what}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
    }, { force: rest.includes('--force') });
    console.log(
      `Indexed in ${((performance.now() - started) / 1000).toFixed(1)} s: ${Object.entries(counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}.`,
    );
    if (!rest.includes('--no-check')) {
      const checked = await services.similarity.checkUnchecked((id, status) =>
        console.log(`       manuscript version ${id}: ${status}`),
      );
      console.log(`Checked ${checked} manuscript version(s) without a stored report.`);
    }
    return 0;
  } finally {
    await services.similarity.close();
    await services.mailer.close();
    await database.close();
    lock.release();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), exitOnStartupError);
