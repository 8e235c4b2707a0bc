import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { volumes } from '../catalog/tables.ts';
import { journals } from '../journals/tables.ts';
import { testDatabase } from '../testing/harness.ts';
import { type Database, rowsOf } from './client.ts';
import { asSite, currentJournalId, withJournal } from './scope.ts';

/**
 * Row-level security as the one wall between journals (decision 0053): no query below names a journal, and
 * each sees and changes its own journal's rows only, raw SQL included, on PGlite and PostgreSQL alike.
 */
describe('the scope of a query', () => {
  let database: Database;
  let second: number;
  const titles = async () =>
    (await database.db.select({ title: volumes.title }).from(volumes).orderBy(volumes.title)).map(
      (v) => v.title,
    );

  beforeAll(async () => {
    database = await testDatabase();
    const [row] = await database.db
      .insert(journals)
      .values({ title: 'Second', path: 'second' })
      .returning({ id: journals.id });
    second = row.id;
    await database.db.insert(volumes).values({ title: 'First journal’s', volumeNumber: 1, year: 2026 });
    await withJournal(second, () =>
      database.db.insert(volumes).values({ title: 'Second journal’s', volumeNumber: 1, year: 2026 }),
    );
  });
  afterAll(() => database?.close());

  it('shows each journal its own rows, and the site every journal’s', async () => {
    expect(currentJournalId()).toBe(1);
    expect(await titles()).toEqual(['First journal’s']);
    expect(await withJournal(second, titles)).toEqual(['Second journal’s']);
    expect(await asSite(titles)).toEqual(['First journal’s', 'Second journal’s']);
    // The same volume number in two journals: numbered per journal.
    const numbers = await asSite(() => database.db.select({ n: volumes.volumeNumber }).from(volumes));
    expect(numbers).toEqual([{ n: 1 }, { n: 1 }]);
  });

  it('gives a new row the journal of its scope, and refuses a row written into another journal', async () => {
    const [made] = await withJournal(second, () =>
      database.db
        .insert(volumes)
        .values({ title: 'Made in the second', volumeNumber: 2, year: 2026 })
        .returning(),
    );
    expect(made.journalId).toBe(second);
    await expect(
      database.db
        .insert(volumes)
        .values({ journalId: second, title: 'Smuggled', volumeNumber: 9, year: 2026 }),
    ).rejects.toThrow();
    expect(await withJournal(second, titles)).not.toContain('Smuggled');
  });

  it('keeps raw SQL, updates and deletes to the journal too', async () => {
    const raw = rowsOf<{ title: string }>(await database.db.execute(sql`select title from volumes`));
    expect(raw.map((r) => r.title)).toEqual(['First journal’s']);
    const changed = await database.db.update(volumes).set({ title: 'Renamed' }).returning();
    expect(changed.map((v) => v.journalId)).toEqual([1]);
    const removed = await database.db.delete(volumes).where(eq(volumes.volumeNumber, 2)).returning();
    expect(removed).toEqual([]);
    expect(await withJournal(second, titles)).toContain('Made in the second');
  });

  it('keeps the scope a transaction began in, and switches a connection between journals', async () => {
    const seen = await database.db.transaction(async (tx) => {
      const mine = await tx.select({ j: volumes.journalId }).from(volumes);
      return mine.map((v) => v.j);
    });
    expect(new Set(seen)).toEqual(new Set([1]));
    // Interleaved, as requests of two journals are on one pool.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? withJournal(second, titles) : titles())),
    );
    for (const [i, list] of results.entries())
      expect(list.every((t) => (i % 2 ? t !== 'Renamed' : t === 'Renamed'))).toBe(true);
  });
  it('walls every table that holds a journal’s rows: row-level security on, and both policies', async () => {
    // A table added later with `journalId()` but without its hand-written policies would be open to every
    // journal (or closed to all): this names it.
    const tables = rowsOf<{ table_name: string }>(
      await database.db.execute(sql`
        select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
        where c.table_schema = 'public' and c.column_name = 'journal_id' and t.table_type = 'BASE TABLE'
        order by c.table_name`),
    ).map((r) => r.table_name);
    expect(tables.length).toBeGreaterThan(20);
    const walled = rowsOf<{ relname: string; policies: string }>(
      await database.db.execute(sql`
        select c.relname, coalesce(string_agg(p.polname, ',' order by p.polname), '') as policies
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        left join pg_policy p on p.polrelid = c.oid
        where n.nspname = 'public' and c.relrowsecurity
        group by c.relname`),
    );
    const policiesOf = new Map(walled.map((r) => [r.relname, r.policies]));
    // The site's own tables that name a journal without being its data: an old address of a journal, the job
    // queue (claimed by any process, each job then run in its journal's scope) and the similarity corpus, which
    // is the site's (decision 0058: reports name another journal's text without its details).
    const sites = new Set(['journal_aliases', 'legacy_paths', 'jobs', 'similarity_documents']);
    const open = tables.filter((t) => !sites.has(t) && policiesOf.get(t) !== `${t}_journal,${t}_site`);
    expect(open, 'tables with journal_id but without row-level security and its two policies').toEqual([]);
  });
});
