import { asOwner } from './scope.ts';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { bigint, integer, jsonb, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase, testDatabase } from '../testing/harness.ts';
import { type Database, migrationsFolder, openDatabase, pgliteCopy } from './client.ts';
import { isDatabaseUnavailable, pgConstraint, pgErrorCode } from './errors.ts';
import { PgliteThread, PgliteThreadError, pglitePool } from './pglite-link.ts';

const parents = pgTable('t_parents', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  big: bigint('big', { mode: 'number' }),
  amount: numeric('amount'),
  data: jsonb('data'),
});
const children = pgTable('t_children', {
  id: serial('id').primaryKey(),
  parentId: integer('parent_id').notNull(),
});

/** The rows of a raw query: node-postgres answers `{ rows }` (the services read it the same way). */
const rows = async (q: Promise<unknown>) => ((await q) as { rows: Record<string, unknown>[] }).rows;

/** Tables of the test's own, made as the database's owner (the journals' roles may not make tables). */
async function createTables(database: Database) {
  await asOwner(() =>
    database.db.execute(sql`
    create table t_parents (id serial primary key, name text not null unique, at timestamptz not null,
      big bigint, amount numeric, data jsonb);
    create table t_children (id serial primary key, parent_id integer not null references t_parents(id))`),
  );
}

/** What every service relies on, on whichever database the suite runs (PGlite in its thread, or PostgreSQL). */
describe('the database as the services see it', () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
    await createTables(database);
  });
  afterAll(() => database?.close());

  it('gives the same JavaScript values for each type as node-postgres does on PostgreSQL', async () => {
    const at = new Date('2024-02-29T12:34:56.789Z');
    const [row] = await database.db
      .insert(parents)
      .values({ name: 'types', at, big: 2 ** 40, amount: '12.50', data: { a: [1, 'x', null], b: true } })
      .returning();
    expect(row).toEqual({
      id: row.id,
      name: 'types',
      at,
      big: 2 ** 40,
      amount: '12.50',
      data: { a: [1, 'x', null], b: true },
    });
    const [read] = await database.db.select().from(parents).where(eq(parents.id, row.id));
    expect(read.at).toBeInstanceOf(Date);
    expect(read).toEqual(row);

    const raw = await rows(
      database.db.execute(sql`
      select 9007199254740993::int8 as big, count(*) as n, 1.5::numeric as num, array[1,2]::int[] as ints,
        array['a','b c']::text[] as texts, '\\x0102'::bytea as bytes, '{"k":[1]}'::jsonb as j,
        '{"k":2}'::json as j2, true as yes, 2.5::float8 as f, null::text as nothing`),
    );
    expect(raw).toEqual([
      {
        big: '9007199254740993',
        n: '1',
        num: '1.5',
        ints: [1, 2],
        texts: ['a', 'b c'],
        bytes: Buffer.from([1, 2]),
        j: { k: [1] },
        j2: { k: 2 },
        yes: true,
        f: 2.5,
        nothing: null,
      },
    ]);
  });

  it('passes the PostgreSQL error fields through: code, constraint, detail, message', async () => {
    await database.db.insert(parents).values({ name: 'unique', at: new Date() });
    const dup = await database.db
      .insert(parents)
      .values({ name: 'unique', at: new Date() })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(pgErrorCode(dup)).toBe('23505');
    expect(pgConstraint(dup)).toBe('t_parents_name_key');
    const cause = (dup as { cause?: pg.DatabaseError }).cause;
    expect(cause).toBeInstanceOf(pg.DatabaseError);
    expect(cause?.detail).toBe('Key (name)=(unique) already exists.');
    expect(cause?.message).toMatch(/duplicate key value violates unique constraint "t_parents_name_key"/);

    const orphan = await database.db
      .insert(children)
      .values({ parentId: 999_999 })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(pgErrorCode(orphan)).toBe('23503');
    expect(pgConstraint(orphan)).toBe('t_children_parent_id_fkey');

    // A raised error with a code of our choosing (as a full disk's 53100 or a restart's 57P03 would come).
    const raised = await database.db
      .execute(sql`do $$ begin raise exception 'no room' using errcode = '53100'; end $$`)
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(pgErrorCode(raised)).toBe('53100');
    // The connection is still good after errors.
    expect(await rows(database.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });

  it('commits a transaction, and rolls it back when its function throws', async () => {
    const id = await database.db.transaction(async (tx) => {
      const [p] = await tx.insert(parents).values({ name: 'committed', at: new Date() }).returning();
      await tx.insert(children).values({ parentId: p.id });
      return p.id;
    });
    expect(await database.db.select().from(children).where(eq(children.parentId, id))).toHaveLength(1);

    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(parents).values({ name: 'rolled back', at: new Date() });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // An SQL error inside rolls back too, and the next transaction starts clean.
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(parents).values({ name: 'also rolled back', at: new Date() });
        await tx.insert(children).values({ parentId: 999_999 });
      }),
    ).rejects.toThrow();
    const names = (await database.db.select({ name: parents.name }).from(parents)).map((r) => r.name);
    expect(names).toContain('committed');
    expect(names).not.toContain('rolled back');
    expect(names).not.toContain('also rolled back');
  });

  it('rolls back a nested transaction (a savepoint) alone', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(parents).values({ name: 'outer', at: new Date() });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(parents).values({ name: 'inner', at: new Date() });
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
    });
    const names = (await database.db.select({ name: parents.name }).from(parents)).map((r) => r.name);
    expect(names).toContain('outer');
    expect(names).not.toContain('inner');
  });

  it('keeps an open transaction to itself while other queries run', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tx = database.db.transaction(async (t) => {
      await t.insert(parents).values({ name: 'in flight', at: new Date() });
      inside();
      await held;
    });
    await entered;
    // Queried while the transaction is open: never sees its uncommitted row (on PGlite it waits for the
    // commit, as the one session is the transaction's; on PostgreSQL another connection answers at once).
    // (A Drizzle query runs each time it is awaited: started once, here.)
    const outside = database.db
      .select({ name: parents.name })
      .from(parents)
      .where(eq(parents.name, 'in flight'))
      .then((r) => r);
    const many = Promise.all(
      Array.from({ length: 20 }, () => rows(database.db.execute(sql`select 1 as one`))),
    );
    const early = await Promise.race([outside, new Promise((r) => setTimeout(() => r('waiting'), 100))]);
    // On PostgreSQL another connection answers while the transaction is still open: waited for before the
    // commit (on a busy machine a pooled connection may take longer than the 100 ms above to answer).
    const whileOpen = database.kind === 'pglite' ? null : await outside;
    release();
    await tx;
    expect((await many).every((r) => r[0].one === 1)).toBe(true);
    const seen = await outside;
    if (database.kind === 'pglite') {
      expect(early).toBe('waiting');
      expect(seen).toHaveLength(1);
    } else {
      expect(whileOpen).toHaveLength(0);
      expect(seen).toHaveLength(0);
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('PostgreSQL shared by several processes', () => {
  it('migrates a new database once when several processes open it at the same time', async () => {
    const scratch = await scratchDatabase(process.env.DATABASE_URL!);
    try {
      // As server processes started together do (tests/cluster): each opens the database and migrates it.
      const opened = await Promise.allSettled([1, 2, 3].map(() => openDatabase({ url: scratch.url })));
      const failures = opened.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
      expect(failures).toEqual([]);
      const [first] = opened.map((o) => (o as PromiseFulfilledResult<Database>).value);
      const applied = await rows(
        asOwner(() => first.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)),
      );
      expect(applied[0].n).toBe(readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length);
      for (const o of opened) await (o as PromiseFulfilledResult<Database>).value.close();
    } finally {
      await scratch.drop();
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))(
  'PostgreSQL ending every connection (a restart, a fail-over)',
  () => {
    it('fails the transaction in flight as "unavailable", without an unhandled error, and recovers by itself', async () => {
      const scratch = await scratchDatabase(process.env.DATABASE_URL!);
      const database = await openDatabase({ url: scratch.url });
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      try {
        await createTables(database);
        let inside!: () => void;
        const started = new Promise<void>((resolve) => {
          inside = resolve;
        });
        // A transaction holding its connection (checked out of the pool) when every backend is ended.
        const tx = database.db.transaction(async (t) => {
          await t.insert(parents).values({ name: 'lost', at: new Date() });
          inside();
          await t.execute(sql`select pg_sleep(30)`);
        });
        const outcome = tx.then(
          () => null,
          (err: unknown) => err,
        );
        await started;
        // Idle pooled connections too: a few queries at once leave several in the pool.
        const dbName = new URL(scratch.url).pathname.slice(1);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [dbName],
        );
        const err = await outcome;
        expect(err).toBeTruthy();
        expect(isDatabaseUnavailable(err), String(err)).toBe(true);
        // Whatever the pool kept from before is dropped; the next queries get new connections.
        for (let i = 0; i < 3; i++) {
          const found = await rows(database.db.execute(sql`select count(*)::int as n from t_parents`));
          expect(found[0].n).toBe(0);
        }
        await new Promise((resolve) => setImmediate(resolve));
        expect(uncaught).toEqual([]);
      } finally {
        process.off('uncaughtException', onUncaught);
        await admin.end();
        await database.close();
        await scratch.drop();
      }
    });

    it('says which errors mean "the database is briefly unavailable", through the ORM\'s wrapping', () => {
      const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });
      for (const cause of [
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
        Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
        Object.assign(new Error('could not extend file'), { code: '53100' }),
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        new Error('Connection terminated unexpectedly'),
        new Error('Client has encountered a connection error and is not queryable'),
      ]) {
        expect(isDatabaseUnavailable(cause), String(cause)).toBe(true);
        expect(isDatabaseUnavailable(wrapped(cause)), String(cause)).toBe(true);
      }
      for (const other of [
        Object.assign(new Error('duplicate key'), { code: '23505' }),
        new Error('Something else'),
        null,
      ]) {
        expect(isDatabaseUnavailable(wrapped(other))).toBe(false);
      }
    });
  },
);

/** PGlite's own thread: what happens when it stops, and what `close()` leaves. */
describe.skipIf(Boolean(process.env.DATABASE_URL))('PGlite in its thread', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('fails the query in flight and every later one when the thread dies, and reports it once', async () => {
    const crashes: Error[] = [];
    const thread = await PgliteThread.start(undefined, (err) => crashes.push(err));
    const pool = pglitePool(thread);
    pool.on('error', () => {});
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const inFlight = pool.query('select pg_sleep(5)').then(
      () => null,
      (err: unknown) => err,
    );
    await new Promise((r) => setTimeout(r, 200));
    await thread.kill();
    expect(await inFlight).toBeInstanceOf(Error);
    await expect(pool.query('select 1')).rejects.toThrow(/PGlite\) stopped/);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toBeInstanceOf(PgliteThreadError);
    await pool.end();
    await thread.close();
  });

  it('keeps what was committed in the folder after close, and refuses queries after it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-pglite-'));
    dirs.push(dir);
    const first = await openDatabase({ dir: path.join(dir, 'pglite') });
    await createTables(first);
    await first.db.insert(parents).values({ name: 'kept', at: new Date('2020-01-01T00:00:00Z') });
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();

    const again = await openDatabase({ dir: path.join(dir, 'pglite') });
    const kept = await again.db.select({ name: parents.name, at: parents.at }).from(parents);
    expect(kept).toEqual([{ name: 'kept', at: new Date('2020-01-01T00:00:00Z') }]);
    await again.close();
  });

  it('starts new databases from a kept copy of the first one migrated, and replaces a damaged copy', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-pglite-'));
    dirs.push(dir);
    const template = path.join(dir, 'cache', 'pglite-test.tar');
    const open = async (name: string | undefined) => {
      const database = await openDatabase(name ? { dir: path.join(dir, name) } : { memory: true }, {
        template,
      });
      const result = rows(
        asOwner(() =>
          database.db.execute(
            sql`select setting, (select count(*)::int from drizzle.__drizzle_migrations) as migrations
                from pg_settings where name = 'shared_buffers'`,
          ),
        ),
      );
      const [row] = await result;
      await asOwner(() => database.db.execute(sql`create table t (n int); insert into t values (1)`));
      await database.close();
      return row;
    };
    const migrations = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length;
    // 16 MB of shared buffers, in 8 kB pages; every migration applied, whether initialised or copied.
    const expected = { setting: String((16 * 1024) / 8), migrations };
    expect(await open('first')).toEqual(expected);
    const kept = statSync(template);
    expect(kept.size).toBeGreaterThan(1_000_000);
    expect(await open('second')).toEqual(expected);
    expect(await open(undefined)).toEqual(expected);
    expect(statSync(template).mtimeMs).toBe(kept.mtimeMs);
    // A folder that already holds a database is opened as it is, never replaced by the copy.
    const again = await openDatabase({ dir: path.join(dir, 'first') }, { template });
    expect(await rows(again.db.execute(sql`select count(*)::int as n from t`))).toEqual([{ n: 1 }]);
    await again.close();
    // New folders are copied from the copy's folder, kept beside the tar.
    const folder = template.replace(/\.tar$/, '');
    expect(readdirSync(folder)).toContain('PG_VERSION');
    // A damaged copy (say, a disk that filled up while it was written) is made again: the folder's...
    rmSync(path.join(folder, 'global'), { recursive: true });
    expect(await open('third')).toEqual(expected);
    expect(readdirSync(path.join(folder, 'global')).length).toBeGreaterThan(0);
    // ...and the tar a database in memory loads.
    writeFileSync(template, 'not a tar file');
    expect(await open(undefined)).toEqual(expected);
    expect(statSync(template).size).toBe(kept.size);
    // A copy whose folder is gone (kept by an older version) is unfolded again from its tar.
    rmSync(folder, { recursive: true });
    expect(await open('fourth')).toEqual(expected);
    expect(readdirSync(folder)).toContain('PG_VERSION');
  });

  it('keeps its copy beside the installed PGlite, named by its version and the migrations', () => {
    const file = pgliteCopy();
    expect(file).toMatch(/node_modules\/\.cache\/colophon\/pglite-\d+\.\d+\.\d+-[0-9a-f]{16}\.tar$/);
  });

  it('does not keep an idle process alive (a script that forgets close() still ends)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-pglite-'));
    dirs.push(dir);
    const script = path.join(dir, 'forgets-close.mjs');
    writeFileSync(
      script,
      `const { openDatabase } = await import(${JSON.stringify(new URL('./client.ts', import.meta.url).href)});
      const d = await openDatabase({ memory: true });
      console.log((await d.db.execute('select 41 + 1 as n')).rows[0].n);`,
    );
    // Run without blocking this process's event loop (vitest talks to its workers through it).
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DATABASE_URL: '' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('42');
  });
});
