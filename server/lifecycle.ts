import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config, loadConfig, resolveSessionSecret } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { DataFolderLockedError, lockDataFolder } from './db/lock.ts';
import { BlobStoreUnusableError } from './files/blob-store.ts';
import { describeFsError, fsErrorCode } from './storage.ts';

/**
 * How long each start-up step took, for the start-up log. Times are measured from the process's start
 * (`performance.now()`), so module loading before the first step counts too.
 */
export class StartupSteps {
  readonly steps: { name: string; ms: number }[] = [];
  private last = 0;

  /** Ends the step that has been running since the previous mark (or since the process started). */
  mark(name: string): void {
    const now = performance.now();
    this.steps.push({ name, ms: now - this.last });
    this.last = now;
  }

  /** Milliseconds since the process started. */
  total(): number {
    return performance.now();
  }

  /** `1.42 s (modules 0.40, database 0.31, …)`: the steps of a tenth of a second or more. */
  summary(): string {
    const s = (ms: number) => (ms / 1000).toFixed(2);
    const parts = this.steps.filter((x) => x.ms >= 100).map((x) => `${x.name} ${s(x.ms)}`);
    return `${s(this.total())} s${parts.length ? ` (${parts.join(', ')})` : ''}`;
  }
}

/** The data folder cannot be used (read-only, full, not ours): one line naming the folder and the cause. */
export class DataFolderError extends Error {}

/** A file-system failure while opening `what` in the data folder, as one line; anything else as it is. */
function asDataFolderError(err: unknown, dataDir: string, what: string): unknown {
  if (!fsErrorCode(err)) return err;
  const where = (err as { path?: unknown }).path;
  const file = typeof where === 'string' && where !== dataDir ? ` (${where})` : '';
  return new DataFolderError(
    `Cannot use the data folder ${dataDir}: ${describeFsError(err)}, while ${what}${file}. Make it writable by this user, free some space, or set DATA_DIR to another folder.`,
  );
}

/** The validated config, with an optional .env in the working folder (variables already set win). */
export function readConfig(env = process.env): Config {
  if (env === process.env && existsSync('.env')) process.loadEnvFile('.env');
  return loadConfig(env);
}

/**
 * Opens what every process of Colophon needs: the validated config, the data-folder lock (PGlite only
 * survives one process per folder) and the migrated database.
 */
export async function openRuntime(purpose: string, env = process.env, steps = new StartupSteps()) {
  let config: Config = readConfig(env);
  const { dataDir } = config;
  steps.mark('config');
  let lock: ReturnType<typeof lockDataFolder>;
  try {
    // Locked first, and even with DATABASE_URL: uploaded files and the outbox live in the folder too.
    lock = lockDataFolder(dataDir, purpose);
  } catch (err) {
    throw asDataFolderError(err, dataDir, 'taking its lock');
  }
  steps.mark('lock');
  let database: Database;
  try {
    try {
      config = resolveSessionSecret(config);
    } catch (err) {
      throw asDataFolderError(err, dataDir, 'writing the generated session secret');
    }
    try {
      database = await openDatabase(
        config.DATABASE_URL ? { url: config.DATABASE_URL } : { dir: path.join(dataDir, 'pglite') },
      );
    } catch (err) {
      throw config.DATABASE_URL ? err : asDataFolderError(err, dataDir, 'opening the database in pglite/');
    }
  } catch (err) {
    lock.release();
    throw err;
  }
  steps.mark('database');
  return { config, lock, database, steps };
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;

/** Prints one clear line for the failures a person can fix, and exits. */
export function exitOnStartupError(err: unknown): never {
  if (
    err instanceof ConfigError ||
    err instanceof DataFolderLockedError ||
    err instanceof DataFolderError ||
    err instanceof BlobStoreUnusableError
  ) {
    console.error(err.message);
    process.exit(1);
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    console.error(
      `Cannot start: the port is already in use (${(err as Error).message}). Set PORT to another port.`,
    );
    process.exit(1);
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    console.error(`Cannot reach the database at DATABASE_URL: ${(err as Error).message}`);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
}
