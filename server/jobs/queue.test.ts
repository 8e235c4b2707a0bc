import { asOwner, currentJournalId } from '../db/scope.ts';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, MINUTE, SECOND, systemClock } from '../clock.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { silentLog, testDatabase } from '../testing/harness.ts';
import { DEFAULT_LEASE_MS, JobInterruptedError, JobQueue, PermanentJobError, recurringKey } from './queue.ts';
import { jobs } from './tables.ts';

let database: Database;
let clock: ManualClock;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database?.close());
beforeEach(async () => {
  clock = new ManualClock(new Date('2026-05-01T08:00:00Z'));
  await database.db.delete(jobs);
});

const queue = (opts: Partial<ConstructorParameters<typeof JobQueue>[1]> = {}, db = database.db) =>
  new JobQueue(db, { clock, log: silentLog, ...opts });

/** A promise and the function that resolves it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** One turn of the event loop (immediates run): the queue's own nudges are immediates. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Polls `check` (a row's state: the database sends no event) until it holds. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('the job queue', () => {
  it('runs a job enqueued in a committed transaction, and never one whose transaction rolled back', async () => {
    const q = queue();
    const ran: string[] = [];
    q.define<{ what: string }>('note', async (p) => {
      ran.push(p.what);
    });
    await database.db.transaction(async (tx) => {
      await q.enqueue(tx, 'note', { what: 'committed' });
    });
    await expect(
      database.db.transaction(async (tx) => {
        await q.enqueue(tx, 'note', { what: 'rolled back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await q.runDue()).toBe(1);
    expect(ran).toEqual(['committed']);
    expect(await database.db.select().from(jobs).where(eq(jobs.name, 'note'))).toHaveLength(1);
  });

  it('makes a second enqueue with the same key the same job, run once, even after it is done', async () => {
    const q = queue();
    let runs = 0;
    q.define('once', async () => {
      runs++;
    });
    const first = await q.enqueue(database.db, 'once', { n: 1 }, { key: 'once:42' });
    const second = await q.enqueue(database.db, 'once', { n: 2 }, { key: 'once:42' });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    await q.runDue();
    const third = await q.enqueue(database.db, 'once', { n: 3 }, { key: 'once:42' });
    expect(third).toEqual({ id: first.id, created: false });
    expect(await q.runDue()).toBe(0);
    expect(runs).toBe(1);
    const [row] = await q.byKeys(['once:42']);
    expect(row).toMatchObject({ status: 'done', attempts: 1, payload: { n: 1 } });
  });

  it('waits for a job whose time has not come', async () => {
    const q = queue();
    let runs = 0;
    q.define('later', async () => {
      runs++;
    });
    await q.enqueue(database.db, 'later', {}, { runAt: clock.now() + 10 * MINUTE });
    expect(await q.runDue()).toBe(0);
    clock.advance(10 * MINUTE);
    expect(await q.runDue()).toBe(1);
    expect(runs).toBe(1);
  });

  it('retries a failing job with backoff on the clock, then keeps it as failed with its last error', async () => {
    const q = queue();
    const attempts: number[] = [];
    q.define(
      'flaky',
      async (_p, ctx) => {
        attempts.push(ctx.job.attempt);
        throw new Error(`SMTP said no (${ctx.job.attempt})`);
      },
      { maxAttempts: 3, backoff: (n) => n * MINUTE },
    );
    const { id } = await q.enqueue(database.db, 'flaky', {});
    expect(await q.runDue()).toBe(1);
    const [afterOne] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(afterOne).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'SMTP said no (1)',
      lockedBy: null,
    });
    expect(afterOne.runAt.getTime()).toBe(clock.now() + MINUTE);

    clock.advance(MINUTE - 1);
    expect(await q.runDue()).toBe(0);
    clock.advance(1);
    expect(await q.runDue()).toBe(1);
    clock.advance(2 * MINUTE);
    expect(await q.runDue()).toBe(1);
    clock.advance(60 * MINUTE);
    expect(await q.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
    const [failed] = await q.list('failed');
    expect(failed).toMatchObject({ id, status: 'failed', attempts: 3, lastError: 'SMTP said no (3)' });
    expect(failed.finishedAt?.getTime()).toBe(clock.now() - 60 * MINUTE);
  });

  it('succeeds on a retry and forgets the error; a permanent error is not retried', async () => {
    const q = queue();
    let calls = 0;
    q.define('second-time-lucky', async () => {
      if (++calls === 1) throw new Error('busy');
    });
    q.define('hopeless', async () => {
      throw new PermanentJobError('the key to open its secrets is gone');
    });
    const lucky = await q.enqueue(database.db, 'second-time-lucky', {});
    const hopeless = await q.enqueue(database.db, 'hopeless', {});
    await q.runDue();
    clock.advance(30 * SECOND);
    await q.runDue();
    const rows = await database.db.select().from(jobs);
    expect(rows.find((r) => r.id === lucky.id)).toMatchObject({
      status: 'done',
      attempts: 2,
      lastError: null,
    });
    expect(rows.find((r) => r.id === hopeless.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'the key to open its secrets is gone',
    });
  });

  it('lets another process take over a job whose lease ran out, and applies its effects once', async () => {
    // A table of the test's own, made as the owner (the journals' roles make none: decision 0053).
    await asOwner(() =>
      database.db.execute(
        sql`create table if not exists job_effects (job_id int not null, worker text not null)`,
      ),
    );
    await database.db.execute(sql`delete from job_effects`);
    const stuck = gate();
    const entered = gate();
    const handler =
      (name: string, wait: boolean) => async (_p: unknown, ctx: import('./queue.ts').JobContext) => {
        if (wait) {
          entered.open();
          await stuck.opened;
        }
        await ctx.complete(async (tx) => {
          await tx.execute(sql`insert into job_effects values (${ctx.job.id}, ${name})`);
        });
      };
    const a = queue();
    const b = queue();
    a.define('effect', handler('a', true));
    b.define('effect', handler('b', false));
    const { id } = await a.enqueue(database.db, 'effect', {});
    const aRun = a.runDue();
    await entered.opened;
    // a's process "hangs" (or died): within the lease nobody else may take the job…
    expect(await b.runDue()).toBe(0);
    clock.advance(DEFAULT_LEASE_MS);
    // …past it, b does.
    expect(await b.runDue()).toBe(1);
    stuck.open();
    await aRun;
    const effects = await database.db.execute(sql`select worker from job_effects where job_id = ${id}`);
    expect((effects as unknown as { rows: { worker: string }[] }).rows).toEqual([{ worker: 'b' }]);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('keeps a job as failed when its last attempt was cut short by a dead process', async () => {
    const q = queue();
    q.define('fragile', async () => undefined, { maxAttempts: 1 });
    const { id } = await q.enqueue(database.db, 'fragile', {});
    // As a process that died after claiming it would leave it: running, its lease run out.
    await database.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedBy: 'dead', lockedUntil: new Date(clock.now() - 1) })
      .where(eq(jobs.id, id));
    await q.runDue();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/attempt 1 did not finish: the process running it stopped/);
  });

  it('keeps one row for a recurring pass whatever the number of processes, run at each interval', async () => {
    const runs: string[] = [];
    const make = (who: string) => {
      const q = queue();
      q.recurring('tick', { every: 10 * MINUTE, firstAfter: MINUTE }, async () => {
        runs.push(who);
        if (runs.length === 2) throw new Error('one bad pass');
      });
      return q;
    };
    const [a, b] = [make('a'), make('b')];
    await Promise.all([a.ensureRecurring(), b.ensureRecurring(), a.ensureRecurring()]);
    expect(await database.db.select().from(jobs).where(eq(jobs.name, 'tick'))).toHaveLength(1);
    expect(await a.runDue()).toBe(0);
    clock.advance(MINUTE);
    expect((await Promise.all([a.runDue(), b.runDue()])).reduce((x, y) => x + y)).toBe(1);
    clock.advance(10 * MINUTE);
    await b.runDue();
    // A failed pass is not retried sooner: it runs at its next time, its error kept until then.
    const [afterFailure] = await database.db.select().from(jobs).where(eq(jobs.name, 'tick'));
    expect(afterFailure).toMatchObject({ status: 'queued', attempts: 0, lastError: 'one bad pass' });
    expect(afterFailure.runAt.getTime()).toBe(clock.now() + 10 * MINUTE);
    clock.advance(10 * MINUTE);
    await a.runDue();
    expect(runs).toHaveLength(3);
    expect(await database.db.select().from(jobs).where(eq(jobs.name, 'tick'))).toHaveLength(1);
  });

  it("runs a pass over the journals once per journal across processes, each in its journal's scope", async () => {
    let open = [1, 2];
    const runs: (number | null)[] = [];
    const make = () => {
      const q = queue({ journals: () => open });
      q.recurring('each', { every: 10 * MINUTE, firstAfter: 0, perJournal: true }, async () => {
        runs.push(currentJournalId());
      });
      return q;
    };
    const [a, b] = [make(), make()];
    // The row such a pass had before journals, as an upgraded installation has it: it goes.
    await database.db.insert(jobs).values({
      name: 'each',
      key: recurringKey('each'),
      runAt: new Date(clock.now()),
      createdAt: new Date(clock.now()),
      journalId: 1,
    });
    await Promise.all([a.ensureRecurring(), b.ensureRecurring()]);
    const rows = await database.db.select().from(jobs).where(eq(jobs.name, 'each'));
    expect(rows.map((r) => [r.key, r.journalId]).sort()).toEqual([
      ['every:each:j1', 1],
      ['every:each:j2', 2],
    ]);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs.sort()).toEqual([1, 2]);
    // A journal made since gets its row; an archived one is passed over (its row stays, idle).
    open = [2, 3];
    await a.ensureRecurring();
    clock.advance(10 * MINUTE);
    runs.length = 0;
    await Promise.all([b.runDue(), a.runDue()]);
    expect(runs.sort()).toEqual([2, 3]);
    const [three] = await a.byKeys([recurringKey('each', 3)]);
    expect(three).toMatchObject({ status: 'queued', journalId: 3 });
  });

  it('prunes done jobs after a month, keeping failed ones', async () => {
    const q = queue();
    q.define('old', async () => undefined);
    q.define('bad', async () => {
      throw new PermanentJobError('no');
    });
    await q.enqueue(database.db, 'old', {});
    await q.enqueue(database.db, 'bad', {});
    await q.runDue();
    await q.ensureRecurring();
    clock.advance(31 * 24 * 60 * MINUTE);
    await q.runDue();
    const left = await database.db.select({ name: jobs.name, status: jobs.status }).from(jobs);
    expect(left.map((r) => r.name).sort()).toEqual(['bad', 'jobs.prune']);
  });

  it('picks up a job enqueued in this process at once, after the transaction commits', async () => {
    const q = queue({ pollMs: 60 * MINUTE });
    const done = gate();
    let seenCommitted = false;
    q.define('prompt', async (_p, ctx) => {
      const [row] = await database.db.select().from(jobs).where(eq(jobs.id, ctx.job.id));
      seenCommitted = row.status === 'running';
      done.open();
    });
    await q.start();
    try {
      const started = performance.now();
      await database.db.transaction(async (tx) => {
        await q.enqueue(tx, 'prompt', {});
        // The queue's nudge (an immediate) has fired while the transaction is still open: its claim either
        // waits behind it (PGlite's one connection) or does not see the job (PostgreSQL).
        await nextTurn();
        await nextTurn();
      });
      await done.opened;
      expect(performance.now() - started).toBeLessThan(2000);
      expect(seenCommitted).toBe(true);
    } finally {
      await q.stop();
    }
  });

  it('runs jobs of a name limited to one at a time one after another, others beside them', async () => {
    const q = queue({ pollMs: 60 * MINUTE });
    let now = 0;
    let most = 0;
    const order: string[] = [];
    const finished = gate();
    const freeRan = gate();
    q.define<{ n: number }>(
      'serial',
      async (p) => {
        most = Math.max(most, ++now);
        // The first holds its place until the other job has run beside it: the next serial one must wait.
        if (p.n === 1) await freeRan.opened;
        await nextTurn();
        order.push(`serial ${p.n}`);
        now--;
        if (p.n === 3) finished.open();
      },
      { concurrency: 1 },
    );
    q.define('free', async () => {
      order.push('free');
      freeRan.open();
    });
    for (const n of [1, 2, 3]) await q.enqueue(database.db, 'serial', { n });
    await q.enqueue(database.db, 'free', {});
    await q.start();
    await finished.opened;
    await q.stop();
    expect(most).toBe(1);
    expect(order.filter((o) => o.startsWith('serial'))).toEqual(['serial 1', 'serial 2', 'serial 3']);
    expect(order.indexOf('free')).toBeLessThan(order.indexOf('serial 3'));
  });

  it('stop() takes no new job and waits for the running ones; a long job stopped between items resumes later', async () => {
    const q = queue({ pollMs: 60 * MINUTE });
    const release = gate();
    const entered = gate();
    const done: string[] = [];
    q.define<{ n: string }>('slow', async (p) => {
      entered.open();
      await release.opened;
      done.push(p.n);
    });
    q.define<{ items: number }>('long', async (p, ctx) => {
      for (let i = 0; i < p.items; i++) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        await nextTurn();
      }
      done.push('long');
    });
    await q.start();
    await q.enqueue(database.db, 'slow', { n: 'first' });
    await entered.opened;
    const { id: longId } = await q.enqueue(database.db, 'long', { items: 1_000_000_000 });
    await until(
      async () => (await database.db.select().from(jobs).where(eq(jobs.id, longId)))[0].status === 'running',
    );
    let stopped = false;
    const stopping = q.stop().then(() => {
      stopped = true;
    });
    await q.enqueue(database.db, 'slow', { n: 'after stop' });
    // The long job has stopped between two items and is put back; the slow one still holds the stop.
    await until(
      async () => (await database.db.select().from(jobs).where(eq(jobs.id, longId)))[0].status === 'queued',
    );
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(done).toEqual(['first']);
    const rows = await database.db.select().from(jobs).orderBy(jobs.id);
    const states = rows.filter((r) => r.name !== 'jobs.prune').map((r) => [r.name, r.status, r.attempts]);
    expect(states).toEqual([
      ['slow', 'done', 1],
      ['long', 'queued', 0],
      ['slow', 'queued', 0],
    ]);
    expect(new JobInterruptedError('x')).toBeInstanceOf(Error);
  });
});

/** The PostgreSQL server the suite runs on (scripts/test-all.sh), whichever database this file's other tests use. */
const pgUrl =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

describe('several processes on one PostgreSQL database', () => {
  let name: string;
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    name = `colophon_jobs_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    // Two pools of their own, as two server processes would have.
    one = await openDatabase({ url: url.toString() });
    two = await openDatabase({ url: url.toString() });
    await asOwner(() =>
      one.db.execute(sql`create table job_effects (job_id int not null, worker text not null)`),
    );
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('runs each of many jobs exactly once between two queues', async () => {
    const N = 300;
    const make = (database: Database, who: string) => {
      const q = new JobQueue(database.db, {
        clock: systemClock,
        log: silentLog,
        listen: database.listen?.bind(database),
        pollMs: 50,
        concurrency: 4,
      });
      q.define('effect', async (_p, ctx) => {
        await ctx.complete(async (tx) => {
          await tx.execute(sql`insert into job_effects values (${ctx.job.id}, ${who})`);
        });
      });
      return q;
    };
    const [a, b] = [make(one, 'one'), make(two, 'two')];
    await one.db.transaction(async (tx) => {
      for (let i = 0; i < N; i++) await a.enqueue(tx, 'effect', { i });
    });
    await Promise.all([a.start(), b.start()]);
    const count = async () =>
      Number(
        (
          (await one.db.execute(sql`select count(*)::int as n from job_effects`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0].n,
      );
    await until(async () => (await count()) >= N, 20_000);
    await Promise.all([a.stop(), b.stop()]);
    const rows = (await one.db.execute(
      sql`select job_id, count(*)::int as n from job_effects group by job_id having count(*) > 1`,
    )) as unknown as { rows: unknown[] };
    expect(rows.rows).toEqual([]);
    expect(await count()).toBe(N);
    const statuses = await one.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.name, 'effect'));
    expect(statuses.every((s) => s.status === 'done')).toBe(true);
  });

  it("hears another process's enqueue at its commit (LISTEN/NOTIFY), not at the next poll", async () => {
    expect(one.listen).toBeTypeOf('function');
    const ran = gate();
    const worker = new JobQueue(two.db, {
      clock: systemClock,
      log: silentLog,
      listen: two.listen?.bind(two),
      pollMs: 60 * MINUTE,
    });
    worker.define('hello', async () => ran.open());
    const sender = new JobQueue(one.db, {
      clock: systemClock,
      log: silentLog,
      listen: one.listen?.bind(one),
      pollMs: 60 * MINUTE,
    });
    sender.define('unrelated', async () => undefined);
    await worker.start();
    await sender.start();
    try {
      const started = performance.now();
      await sender.enqueue(one.db, 'hello', {});
      await ran.opened;
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      await worker.stop();
      await sender.stop();
    }
  });
});
