import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../accounts/tables.ts';
import { DAY, HOUR } from '../clock.ts';
import { createTestContext, silentLog, type TestContext } from '../testing/harness.ts';
import { defineHousekeeping, HOUSEKEEPING_EVERY } from './housekeeping.ts';
import { JobQueue } from './queue.ts';
import { jobs } from './tables.ts';

/**
 * The server's chores on the job queue (decision 0048): session pruning and PGlite's vacuum are recurring
 * passes, one row whatever the number of processes, timed by the services' clock; the citation styles'
 * warm-up runs once in each process that starts its queue.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

/** A process of the cluster: its own queue on the shared database, with the housekeeping defined. */
function node(warmUps: { count: number }) {
  const q = new JobQueue(t.services.db, { clock: t.clock, log: silentLog, pollMs: 60_000 });
  defineHousekeeping(q, {
    database: t.services.database,
    accounts: t.services.accounts,
    citations: { warmUp: () => void warmUps.count++ },
  });
  return q;
}

const KEYS = ['every:accounts.prune-sessions', 'every:db.vacuum'];

describe('housekeeping on the job queue', () => {
  it('has one row per pass whatever the number of processes, and prunes sessions at its time on the clock', async () => {
    const user = await t.createUser({ role: 'author', status: 'approved' });
    const now = t.clock.now();
    const [ended, open] = await t.services.db
      .insert(sessions)
      .values([
        { userId: user.id, expiresAt: new Date(now - 8 * DAY) },
        { userId: user.id, expiresAt: new Date(now + DAY) },
      ])
      .returning({ id: sessions.id });
    expect(ended.id).not.toBe(open.id);
    const a = node({ count: 0 });
    const b = node({ count: 0 });
    await a.ensureRecurring();
    await b.ensureRecurring();
    await a.ensureRecurring();
    const rows = await t.services.db.select().from(jobs).where(inArray(jobs.key, KEYS));
    const pglite = t.services.database.kind === 'pglite';
    // PostgreSQL vacuums itself: the pass exists only on PGlite, as before it was a job.
    expect(rows.map((r) => r.name).sort()).toEqual(
      pglite ? ['accounts.prune-sessions', 'db.vacuum'] : ['accounts.prune-sessions'],
    );
    for (const row of rows) expect(row.runAt.getTime()).toBe(now + HOUSEKEEPING_EVERY);

    // Not before its time (the queue's own pruning of done jobs, due sooner, may run).
    t.clock.advance(HOUSEKEEPING_EVERY - HOUR);
    await a.runDue();
    expect(await t.services.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(2);
    const waiting = await t.services.db.select().from(jobs).where(inArray(jobs.key, KEYS));
    for (const row of waiting) expect(row).toMatchObject({ status: 'queued', finishedAt: null });

    // At its time, once across the two processes.
    t.clock.advance(HOUR);
    expect(await a.runDue()).toBe(rows.length);
    expect(await b.runDue()).toBe(0);
    const left = await t.services.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left.map((s) => s.id)).toEqual([open.id]);
    const after = await t.services.db.select().from(jobs).where(inArray(jobs.key, KEYS));
    for (const row of after) {
      expect(row).toMatchObject({ status: 'queued', attempts: 0, lastError: null });
      expect(row.finishedAt?.getTime()).toBe(t.clock.now());
      expect(row.runAt.getTime()).toBe(t.clock.now() + HOUSEKEEPING_EVERY);
    }
  });

  it("warms the citation styles once in each process that starts its queue, in the process's own memory", async () => {
    const first = { count: 0 };
    const second = { count: 0 };
    const a = node(first);
    const b = node(second);
    try {
      await a.start();
      await b.start();
      await a.idle();
      await b.idle();
      expect([first.count, second.count]).toEqual([1, 1]);
      // Nothing stored for it: a restarted process warms itself again.
      expect(await t.services.db.select().from(jobs).where(eq(jobs.name, 'citations.warm-up'))).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
