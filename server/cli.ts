/**
 * Maintenance commands, on the same data folder and database as the server (which must be stopped when the
 * database is the embedded one: the data folder is locked by whoever opens it first).
 *
 *   npm run cli -- reindex             re-index the similarity corpus (every article PDF, every manuscript
 *                                      version), then check each manuscript version that has no stored report
 *   npm run cli -- reindex --no-check  only re-index
 *   npm run cli -- reindex --force     read every file again, even those indexed unchanged (after an upgrade
 *                                      that changes how text is read or fingerprinted)
 *   npm run cli -- files copy --to s3  copy every uploaded file from DATA_DIR/files to the object store
 *   npm run cli -- files copy --to local                                   ... and back (decision 0027)
 *   npm run cli -- db dump FILE        the embedded database as SQL, for psql to restore into PostgreSQL
 *   npm run cli -- journal list|create|move-to-path|move-to-domain|close|archive|reopen
 *                                      the site admin's journals (decision 0055)
 *   npm run cli -- archive issue ID|journal [--journal SLUG] [--out DIR] [--zip]
 *                                      each issue's BagIt archive package (decision 0065)
 *   npm run cli -- import ojs FILE… --journal SLUG [--old-path PATH] [--files-from DIR] [--dry-run]
 *                                      [--send-password-links]   moving in from OJS (decision 0066)
 */
import pino from 'pino';
import type { BlobStore } from './files/blob-store.ts';
import { type CopyCounts, type CopyOutcome, copyBlobs, formatBytes, progressLine } from './files/copy.ts';
import { localBlobStore, openBlobStore } from './files/stores.ts';
import { lockDataFolder } from './db/lock.ts';
import { withJournal } from './db/scope.ts';
import { NothingToDumpError, dumpEmbeddedDatabase } from './db/dump.ts';
import { exitOnStartupError, openRuntime, readConfig } from './lifecycle.ts';
import { JOURNAL_USAGE, journalCommand } from './journals/service-commands.ts';
import { createServices } from './services.ts';
import { ARCHIVE_USAGE, archiveCommand } from './preservation/commands.ts';
import { IMPORT_USAGE, importCommand } from './ojs/commands.ts';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  reindex [--no-check] [--force]
                         Re-index the similarity corpus (article PDFs and every manuscript version), then run
                         the arrival check of every manuscript version without a stored report. Files already
                         indexed unchanged are skipped unless --force.
  files copy --to s3     Copy every uploaded file from DATA_DIR/files to the object store that the S3_*
                         variables name. Resumable: files already there whole are skipped, so run it again after
                         an interruption, or once more after stopping the server. Each file's bytes are checked
                         against its SHA-256 name on the way; a damaged one is refused. Exits 1 if any failed.
  files copy --to local  The same from the object store back to DATA_DIR/files.
  db dump FILE           Write the embedded database (DATA_DIR/pglite) to FILE as SQL, to restore into an
                         empty PostgreSQL database with psql. Stop the server first.
${JOURNAL_USAGE}
${ARCHIVE_USAGE}
${IMPORT_USAGE}
  help                   This text.`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return 0;
  }
  if (command === 'files') return filesCommand(rest);
  if (command === 'db') return dbCommand(rest);
  if (command === 'journal') return journalCli(rest);
  if (command === 'archive') return archiveCli(rest);
  if (command === 'import') return importCli(rest);
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
  const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, log, {
    blobs: await openBlobStore(config, log),
  });
  try {
    // Each journal in its scope: its articles and manuscripts, its reports (the corpus is the site's: 0058).
    await services.journals.load();
    for (const journal of services.journals.list()) {
      if (services.journals.list().length > 1) console.log(`Journal ${journal.id} (${journal.title}):`);
      await withJournal(journal.id, async () => {
        const started = performance.now();
        let n = 0;
        const counts = await services.similarity.reindexAll(
          (kind, id, r) => {
            n++;
            const what = kind === 'article' ? `article ${id}` : `manuscript version ${id}`;
            console.log(`${String(n).padStart(5)}  ${what}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
          },
          { force: rest.includes('--force') },
        );
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
          // Reports made while the corpus was incomplete are made again now that it is whole (decision 0037).
          const again = await services.similarity.recheckIncomplete();
          if (again)
            console.log(
              `Checked again ${again} manuscript version(s) first checked against an incomplete corpus.`,
            );
        }
      });
    }
    return 0;
  } finally {
    await services.similarity.close();
    await services.mailer.close();
    await database.close();
    lock.release();
  }
}

/**
 * `files copy --to s3|local`. It opens neither the database nor the data folder's lock: it reads one store
 * and writes the other, so it can run while the server still serves (a first pass), then once more after
 * the server is stopped, which copies only what arrived in between.
 */
async function filesCommand(args: string[]): Promise<number> {
  const to = args[0] === 'copy' && args[1] === '--to' && args.length === 3 ? args[2] : null;
  if (to !== 's3' && to !== 'local') {
    console.error(`Usage: npm run cli -- files copy --to s3 (or --to local)\n\n${USAGE}`);
    return 2;
  }
  const config = readConfig();
  if (!config.S3_BUCKET) {
    console.error(
      `files copy --to ${to}: the object store is not configured. Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, the credentials) as the server will have them.`,
    );
    return 2;
  }
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const local = localBlobStore(config, log);
  const s3 = await openBlobStore(config, log, 's3');
  const [from, into]: BlobStore[] = to === 's3' ? [local, s3] : [s3, local];
  console.log(`Copying every file from ${from.description} to ${into.description}.`);

  const stop = new AbortController();
  const interrupt = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    console.error(
      '\nStopping after the files in progress (Ctrl-C again to stop at once); run the command again to go on.',
    );
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  const started = performance.now();
  const result = await copyBlobs(from, into, {
    signal: stop.signal,
    onProgress: progressPrinter(process.stdout),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (process.stdout.isTTY && result.done < result.total) process.stdout.write('\n');
  console.log(
    `${result.interrupted ? 'Interrupted' : 'Done'} in ${seconds} s: ${result.copied} copied, ${result.skipped} already there, ${result.failed} failed, of ${result.total} files (${formatBytes(result.bytesTotal)}).`,
  );
  for (const f of result.failures) console.error(`  ${f.error}`);
  if (result.interrupted) console.error('Not every file was looked at: run the same command again to go on.');
  else if (result.failed)
    console.error(
      `${result.failed} file(s) were not copied. A damaged file cannot be copied: restore it from a backup of ${from.description}, then run the command again.`,
    );
  return result.failed || result.interrupted ? 1 : 0;
}

/** `db dump FILE`: the embedded database as SQL (server/db/dump.ts), under the data folder's lock. */
async function dbCommand(args: string[]): Promise<number> {
  if (args[0] !== 'dump' || args.length !== 2) {
    console.error(`Usage: npm run cli -- db dump FILE\n\n${USAGE}`);
    return 2;
  }
  const config = readConfig();
  if (config.DATABASE_URL) {
    console.error('db dump: DATABASE_URL is set, so the database is PostgreSQL already: use pg_dump itself.');
    return 2;
  }
  const lock = lockDataFolder(config.dataDir, 'cli db dump');
  try {
    const { bytes } = await dumpEmbeddedDatabase(config.dataDir, args[1]);
    console.log(
      `Wrote ${args[1]} (${formatBytes(bytes)}). Restore it into an empty PostgreSQL database:\n  psql -v ON_ERROR_STOP=1 -d "$DATABASE_URL" -f ${args[1]}`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof NothingToDumpError)) throw err;
    console.error(err.message);
    return 1;
  } finally {
    lock.release();
  }
}

/**
 * `journal …` (server/journals/service-commands.ts), on the server's data folder and database like `reindex`:
 * under the folder's lock (stop a server on the embedded database first); on PostgreSQL, running servers
 * hear the change by the change feed and answer at the new addresses at once.
 */
async function journalCli(args: string[]): Promise<number> {
  const { config, lock, database } = await openRuntime('cli journal');
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, log, {
    blobs: await openBlobStore(config, log),
  });
  try {
    await services.journals.load();
    return await journalCommand(args, services.journalAdmin, {
      log: (line) => console.log(line),
      error: (line) => console.error(line),
    });
  } finally {
    await services.similarity.close();
    await services.mailer.close();
    await database.close();
    lock.release();
  }
}

/** `archive …` (server/preservation/commands.ts), on the server's data folder and database like `journal`. */
async function archiveCli(args: string[]): Promise<number> {
  const { config, lock, database } = await openRuntime('cli archive');
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, log, {
    blobs: await openBlobStore(config, log),
  });
  try {
    await services.journals.load();
    return await archiveCommand(args, services, {
      log: (line) => console.log(line),
      error: (line) => console.error(line),
    });
  } finally {
    await services.similarity.close();
    await services.mailer.close();
    await database.close();
    lock.release();
  }
}

/** `import ojs …` (server/ojs/commands.ts), on the server's data folder and database like `archive`. */
async function importCli(args: string[]): Promise<number> {
  const { config, lock, database } = await openRuntime('cli import');
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, log, {
    blobs: await openBlobStore(config, log),
  });
  const err = process.stderr;
  let last = 0;
  try {
    await services.journals.load();
    return await importCommand(
      args,
      services,
      {
        log: (line) => console.log(line),
        error: (line) => console.error(line),
        progress: (line) => {
          const now = performance.now();
          if (now - last < 200) return;
          last = now;
          err.write(err.isTTY ? `\r\x1b[K${line.slice(0, (err.columns || 80) - 1)}` : `${line}\n`);
        },
      },
      { adminUsername: config.ADMIN_USERNAME },
    );
  } finally {
    if (err.isTTY) err.write('\r\x1b[K');
    await services.similarity.close();
    await services.mailer.close();
    await database.close();
    lock.release();
  }
}

/**
 * A progress bar redrawn in place on a terminal (at most ten times a second); elsewhere (a log, a pipe) a
 * plain line at every tenth of the way. Failures get a line of their own either way.
 */
function progressPrinter(out: NodeJS.WriteStream) {
  let drawn = 0;
  let tenth = -1;
  return (c: CopyCounts, _key: string | null, _outcome: CopyOutcome | null, error?: string) => {
    if (error) out.write(`${out.isTTY ? '\r\x1b[K' : ''}  failed: ${error}\n`);
    if (out.isTTY) {
      const now = performance.now();
      if (now - drawn < 100 && c.done < c.total) return;
      drawn = now;
      out.write(`\r\x1b[K${progressLine(c)}${c.done === c.total ? '\n' : ''}`);
      return;
    }
    const reached = c.total ? Math.floor((c.done * 10) / c.total) : 10;
    if (reached > tenth) {
      tenth = reached;
      out.write(`${progressLine(c)}\n`);
    }
  };
}

main(process.argv.slice(2)).then((code) => process.exit(code), exitOnStartupError);
