import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase, rowsOf } from '../../server/db/client.ts';
import { asOwner } from '../../server/db/scope.ts';
import { LocalBlobStore } from '../../server/files/blob-store.ts';
import { type TestContext, createTestContext, scratchDatabase } from '../../server/testing/harness.ts';

/**
 * The previous release's one-journal data folder (tests/fixtures/upgrade, made by
 * scripts/make-upgrade-fixture.mjs from that release's own server and `db dump`), upgraded by this release.
 */
export const fixtureDir = path.resolve('tests/fixtures/upgrade');

export interface UpgradeFacts {
  madeAt: string;
  oldRelease: string;
  passwords: { admin: string; others: string };
  accounts: Record<string, { id: number }>;
  ids: {
    volume: number;
    issue: number;
    submission: number;
    submissionReference: string;
    assignment: number;
    article: number;
  };
  titles: { article: string; reviewComments: string };
  session: { username: string; token: string; me: Record<string, unknown> };
  subscriberToken: string;
  sessionSecret: string;
  rowCounts: Record<string, number>;
  users: { id: number; username: string; role: string; status: string }[];
  articles: { id: number; title: string; issue_id: number; pdf_file_id: number }[];
  files: {
    id: number;
    key: string;
    sha256: string;
    size: number;
    media_type: string;
    original_name: string;
  }[];
  blobs: { path: string; size: number; sha256: string }[];
}

export const facts: UpgradeFacts = JSON.parse(readFileSync(path.join(fixtureDir, 'facts.json'), 'utf8'));

/**
 * Restores the old release's dump into a fresh database (a PGlite folder, or a scratch database on the
 * PostgreSQL server of DATABASE_URL), as the README's moves do, and opens it with this release's
 * `openDatabase`, which applies the migrations the dump does not have (0016 and later) on top.
 */
export async function restoreOldDatabase(dataDir: string): Promise<Database> {
  const dump = gunzipSync(readFileSync(path.join(fixtureDir, 'database.sql.gz'))).toString('utf8');
  const url = process.env.DATABASE_URL;
  if (url) {
    const scratch = await scratchDatabase(url);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(dump); // INSERTs, no COPY: one simple query, as psql -f would run it
    } finally {
      await client.end();
    }
    const database = await openDatabase({ url: scratch.url });
    return {
      ...database,
      close: async () => {
        await database.close();
        await scratch.drop();
      },
    };
  }
  // The embedded default: the data folder's database, restored by PGlite itself, then opened as a server
  // opens DATA_DIR/pglite.
  const dir = path.join(dataDir, 'pglite');
  const { PGlite } = await import('@electric-sql/pglite');
  const restore = await PGlite.create({ dataDir: dir });
  try {
    await restore.exec(dump);
  } finally {
    await restore.close();
  }
  return openDatabase({ dir });
}

/** Each table's rows just after the upgrade (as the owner sees them), and how many are journal 1's. */
export type Counted = Record<
  string,
  { rows: number; journal1: number | null; seenByJournal1: number | null }
>;

async function countRows(database: Database): Promise<Counted> {
  const { db } = database;
  const withJournalId = new Set(
    rowsOf<{ name: string }>(
      await asOwner(() =>
        db.execute(
          sql`select table_schema || '.' || table_name as name from information_schema.columns where column_name = 'journal_id'`,
        ),
      ),
    ).map((r) => r.name),
  );
  const counted: Counted = {};
  for (const name of Object.keys(facts.rowCounts)) {
    const table = sql.raw(
      name
        .split('.')
        .map((part) => `"${part}"`)
        .join('.'),
    );
    const scoped = withJournalId.has(name);
    const [owner] = rowsOf<{ rows: number; journal1: number | null }>(
      await asOwner(() =>
        db.execute(
          scoped
            ? sql`select count(*)::int as rows, (count(*) filter (where journal_id = 1))::int as journal1 from ${table}`
            : sql`select count(*)::int as rows, null as journal1 from ${table}`,
        ),
      ),
    );
    // What journal 1's own work sees through row-level security (the default scope: no scope named).
    const seen = scoped
      ? rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${table}`))[0].n
      : null;
    counted[name] = { rows: owner.rows, journal1: owner.journal1, seenByJournal1: seen };
  }
  return counted;
}

/**
 * A data folder with the old release's files and its upgraded database, served by this release's app; and
 * every table's rows counted just after the migrations, before this release's start-up (seed) ran.
 */
export async function upgradedContext(
  opts: { pages?: boolean } = {},
): Promise<{ t: TestContext; counted: Counted }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-upgrade-'));
  cpSync(path.join(fixtureDir, 'files'), path.join(dataDir, 'files'), { recursive: true });
  const database = await restoreOldDatabase(dataDir);
  let counted: Counted;
  try {
    counted = await countRows(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  const t = await createTestContext(
    // The secret the old server generated into its data folder: its sessions' tokens stay valid.
    { SESSION_SECRET: facts.sessionSecret },
    {
      existing: { database, dataDir },
      // The old release's files, where it kept them (DATA_DIR/files), whatever COLOPHON_TEST_BLOBS says.
      blobs: (dir) => new LocalBlobStore(path.join(dir, 'files')),
      pages: opts.pages,
    },
  );
  // A minute after the old server stopped: its sessions (8 hours) are still open.
  t.clock.set(new Date(facts.madeAt).getTime() + 60_000);
  return { t, counted };
}
