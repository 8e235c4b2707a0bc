import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { installCacheDir } from '../install-cache.ts';
import { PgliteThread, pglitePool } from './pglite-link.ts';
import * as schema from './schema.ts';
import { currentScope, scopeKey, scopeStatements } from './scope.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a service receives: the database itself or an open transaction on it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** The rows of a raw `db.execute(sql...)` answer: node-postgres answers `{ rows }`, PGlite too. */
export function rowsOf<T = unknown>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: T[] } | null)?.rows;
  return Array.isArray(rows) ? rows : [];
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PGlite: how this start found its database (new from the prepared copy, new by initdb, or existing). */
  made?: 'copy' | 'initdb' | 'opened';
  close(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on a connection of its own (notifications arrive when the sending transaction
   * commits, from any process). PGlite has one connection, which a LISTEN would hold: none there.
   */
  listen?(
    channel: string,
    onNotify: (payload: string) => void,
    onError: (err: Error) => void,
  ): Promise<() => Promise<void>>;
}

/** What runs at the end of one transaction (its savepoints share it): last statements in it, then after it. */
export interface TransactionHooks {
  /** The outermost transaction. */
  readonly tx: Tx;
  /** Run in the transaction once its work is done, just before the commit (the last statements in it). */
  readonly before: (() => Promise<void>)[];
  /** Run after the commit (not after a rollback). */
  readonly after: (() => void)[];
}

const commitHooks = new WeakMap<object, TransactionHooks>();

/** The hooks of the transaction `tx` belongs to; undefined when `tx` is the database itself. */
export function transactionHooks(tx: Tx): TransactionHooks | undefined {
  return commitHooks.get(tx);
}

/**
 * Runs `fn` once the transaction `tx` has committed (not at all when it rolls back); at once when `tx` is the
 * database itself (its statements commit as they run). What a change tells this process's own memory (its
 * caches: server/cache/changes.ts) must not happen before the commit: a read in between would keep the old
 * state. Inside a savepoint the hook waits for the outer commit (a savepoint rolled back still runs it: hooks
 * are for dropping copies, where once too often is harmless).
 */
export function onCommit(tx: Tx, fn: () => void): void {
  const hooks = commitHooks.get(tx);
  if (hooks) hooks.after.push(fn);
  else fn();
}

/**
 * Makes `db.transaction` (and savepoints within it) run the hooks of `transactionHooks`: `before` ones at the
 * end of the outermost transaction's work, in it, and `after` ones once it has committed.
 */
function withCommitHooks(db: Db): Db {
  type Transaction = Db['transaction'];
  type Runner = { transaction: Transaction };
  const track = (tx: Runner, hooks: TransactionHooks) => {
    commitHooks.set(tx, hooks);
    const savepoint = tx.transaction.bind(tx);
    tx.transaction = ((fn, config) =>
      savepoint((inner) => {
        track(inner as unknown as Runner, hooks);
        return fn(inner);
      }, config)) as Transaction;
  };
  const transaction = db.transaction.bind(db);
  db.transaction = (async (fn, config) => {
    let hooks: TransactionHooks | undefined;
    const result = await transaction(async (tx) => {
      hooks = { tx: tx as Tx, before: [], after: [] };
      track(tx as unknown as Runner, hooks);
      const value = await fn(tx);
      // A hook may add another: each runs once, in order.
      for (let hook = hooks.before.shift(); hook; hook = hooks.before.shift()) await hook();
      return value;
    }, config);
    for (const hook of hooks?.after ?? []) {
      try {
        hook();
      } catch (err) {
        console.error('A hook run after a commit failed:', err);
      }
    }
    return result;
  }) as Transaction;
  return db;
}

/** What a connection was last put in (server/db/scope.ts), kept on the connection itself. */
const SCOPE = Symbol('colophon.scope');
type ScopedClient = pg.PoolClient & { [SCOPE]?: string };
type Connect = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;

/**
 * Every connection the pool hands out (to a query, or to a transaction for all its statements) is first put
 * in the scope of the work asking for it (decision 0053): the journal of the request or job at hand, read
 * when it asks. A connection already in that scope costs nothing more; one last used for another journal
 * costs one round trip. `active()` is false while the migrations run (as the database's owner).
 */
function scopeConnections(pool: pg.Pool, active: () => boolean): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const scoped = async (scope: ReturnType<typeof currentScope> | null) => {
    const client = (await connect()) as ScopedClient;
    if (!scope) return client;
    const key = scopeKey(scope);
    if (client[SCOPE] !== key) {
      try {
        await client.query(scopeStatements(scope));
      } catch (err) {
        client[SCOPE] = undefined;
        client.release(err as Error);
        throw err;
      }
      client[SCOPE] = key;
    }
    return client;
  };
  pool.connect = ((callback?: Connect) => {
    // Read now, in the caller's context: the connection may be handed out later, from another.
    const ready = scoped(active() ? currentScope() : null);
    if (!callback) return ready;
    ready.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error)),
      (err: Error) => callback(err),
    );
    return undefined;
  }) as typeof pool.connect;
}

/** LISTEN on a dedicated connection to `url`; resolves with the function that ends it. */
async function listenOn(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onError: (err: Error) => void,
) {
  const client = new pg.Client({ connectionString: url });
  let ended = false;
  client.on('notification', (msg) => {
    if (msg.channel === channel) onNotify(msg.payload ?? '');
  });
  client.on('error', (err) => {
    if (!ended) onError(err);
  });
  client.on('end', () => {
    if (!ended) onError(new Error('the LISTEN connection closed'));
  });
  await client.connect();
  await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
  return async () => {
    ended = true;
    await client.end();
  };
}

/**
 * The roles a connection works as (decision 0053), and their rights on every table: made by migration 0016,
 * and checked again at every start, as the owner, after the migrations. A database restored from a dump
 * (which carries no grants: `npm run cli -- db dump`) or moved to another server gets them back here. Under
 * the migration lock on PostgreSQL: two processes granting at once would collide.
 */
export const SCOPE_ROLES_MADE = `
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'colophon_journal') THEN CREATE ROLE colophon_journal NOLOGIN; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'colophon_site') THEN CREATE ROLE colophon_site NOLOGIN; END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
DO $$ BEGIN
  IF NOT pg_has_role(current_user, 'colophon_journal', 'MEMBER') THEN EXECUTE format('GRANT colophon_journal TO %I', current_user); END IF;
  IF NOT pg_has_role(current_user, 'colophon_site', 'MEMBER') THEN EXECUTE format('GRANT colophon_site TO %I', current_user); END IF;
END $$;
`;

const SCOPE_ROLES_SQL = `${SCOPE_ROLES_MADE}
GRANT USAGE ON SCHEMA public TO colophon_journal, colophon_site;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public TO colophon_journal, colophon_site;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO colophon_journal, colophon_site;
`;

/** Any fixed number: the advisory lock under which one process at a time migrates a PostgreSQL database. */
const MIGRATION_LOCK = 0x636d6967;

/**
 * Runs `migrate` while holding a session advisory lock on a connection of its own. drizzle's migrator reads
 * the last migration applied, then applies the newer ones, with nothing to keep two processes apart: server
 * processes started together on a new database (or on an upgrade) both applied the first migration and one
 * failed at start-up ("type sessions already exists"). Under the lock the others wait, then find every
 * migration applied. The lock ends with its connection, whatever happens to the process holding it.
 */
async function migrateAlone(url: string, migrate: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  // Lost while the migration runs: the lock with it; the migration's own connection says how that went.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate();
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseTarget = { url: string } | { dir: string } | { memory: true };

/**
 * Where new PGlite databases start from (decision 0021): a copy of one just initialised and migrated, kept in
 * the installation's cache folder, named by PGlite's version and the migrations' contents, so that a new
 * version or migration makes a new copy. Null where it cannot be placed.
 */
export const pgliteCopy = (() => {
  let file: string | null | undefined;
  return (): string | null => {
    if (file !== undefined) return file;
    try {
      const cache = installCacheDir();
      const pkg = path.resolve(
        path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
        '..',
      );
      const { version } = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as {
        version: string;
      };
      const hash = createHash('sha256').update(version);
      for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
        const full = path.join(migrationsFolder, name);
        if (statSync(full).isFile()) hash.update(name).update(readFileSync(full));
      }
      const id = hash.digest('hex').slice(0, 16);
      file = cache ? path.join(cache, `pglite-${version}-${id}.tar`) : null;
    } catch {
      file = null;
    }
    return file;
  };
})();

export interface OpenOptions {
  /** For tests: the copy new PGlite databases start from, instead of `pgliteCopy()`. */
  template?: string;
  /**
   * PGlite's thread stopped on its own: every query fails from then on. By default the process says why
   * and exits, so that its supervisor starts it again on the data folder (decision 0020).
   */
  onCrash?: (err: Error) => void;
}

function exitOnCrash(err: Error): void {
  console.error(
    `${err.message}. Exiting: restart the server (the data folder recovers as after a power cut).`,
  );
  process.exit(1);
}

/**
 * Opens PGlite (a folder, or memory for tests) or a PostgreSQL server, and applies the migrations.
 * Both speak the same SQL: the one migration set serves both, and both are reached through node-postgres:
 * PGlite runs in a thread of its own, off the thread that serves requests (decision 0020).
 */
export async function openDatabase(target: DatabaseTarget, opts: OpenOptions = {}): Promise<Database> {
  let pool: pg.Pool;
  let thread: PgliteThread | null = null;
  if ('url' in target) {
    pool = new pg.Pool({ connectionString: target.url, max: 10 });
  } else {
    let dataDir: string | undefined;
    if ('dir' in target) {
      mkdirSync(path.dirname(target.dir), { recursive: true });
      dataDir = target.dir;
    }
    thread = await PgliteThread.start(dataDir, opts.onCrash ?? exitOnCrash, {
      template: opts.template ?? pgliteCopy() ?? undefined,
    });
    pool = pglitePool(thread);
  }
  // A server restart or a dropped connection must not crash the process. The pool listens for errors only
  // on its idle connections; one checked out (a transaction under way) emits 'error' with no listener, which
  // ended the process. Its query fails instead ("unavailable": errors.ts), and the pool drops it on release.
  const kind = thread ? 'PGlite' : 'PostgreSQL';
  pool.on('error', (err) => console.error(`${kind} pool error:`, err.message));
  pool.on('connect', (client) => {
    client.on('error', (err) => console.error(`${kind} connection lost:`, err.message));
  });
  let scoping = false;
  scopeConnections(pool, () => scoping);
  const db = withCommitHooks(drizzle({ client: pool, schema }) as unknown as Db);
  const close = async () => {
    await pool.end();
    await thread?.close();
  };
  try {
    const upgrade = async () => {
      await migrate(db as never, { migrationsFolder });
      await db.execute(sql.raw(SCOPE_ROLES_SQL));
    };
    if ('url' in target) await migrateAlone(target.url, upgrade);
    else await upgrade();
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
  scoping = true;
  const copy = opts.template ?? pgliteCopy();
  if (thread?.made === 'initdb' && copy) {
    // The next new database (a new data folder, every test's) starts from this one: a lost copy costs time only.
    await thread.keepCopy(copy).catch(() => {});
  }
  const url = 'url' in target ? target.url : null;
  return {
    db,
    kind: thread ? 'pglite' : 'postgres',
    ...(thread ? { made: thread.made } : {}),
    close,
    ...(url ? { listen: (channel, onNotify, onError) => listenOn(url, channel, onNotify, onError) } : {}),
  };
}
