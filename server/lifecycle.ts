import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config, loadConfig, resolveSessionSecret } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { DataFolderLockedError, lockDataFolder } from './db/lock.ts';

/**
 * Opens what every process of Colophon needs: the validated config, the data-folder lock (PGlite only
 * survives one process per folder) and the migrated database.
 */
export async function openRuntime(purpose: string, env = process.env) {
  // An optional .env in the working folder; variables already set in the environment win.
  if (env === process.env && existsSync('.env')) process.loadEnvFile('.env');
  const config: Config = resolveSessionSecret(loadConfig(env));
  // Locked even with DATABASE_URL: uploaded files and the outbox live in the folder too.
  const lock = lockDataFolder(config.dataDir, purpose);
  let database: Database;
  try {
    database = await openDatabase(
      config.DATABASE_URL ? { url: config.DATABASE_URL } : { dir: path.join(config.dataDir, 'pglite') },
    );
  } catch (err) {
    lock.release();
    throw err;
  }
  return { config, lock, database };
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;

/** Prints one clear line for the failures a person can fix, and exits. */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DataFolderLockedError) {
    console.error(err.message);
    process.exit(1);
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    console.error(`Cannot start: the port is already in use (${(err as Error).message}). Set PORT to another port.`);
    process.exit(1);
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    console.error(`Cannot reach the database at DATABASE_URL: ${(err as Error).message}`);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
}
