import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginThrottle } from '../accounts/login-throttle.ts';
import { ManualClock, MINUTE, SECOND } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { openDatabase } from '../db/client.ts';
import { scratchDatabase } from '../testing/harness.ts';
import { RateLimiter } from './attempts.ts';
import { DbAttemptStore } from './store.ts';
import { counters } from './tables.ts';

// On PGlite, or on PostgreSQL with DATABASE_URL (where several pools stand for several processes).
let database: Database;
let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;
let others: Database[] = [];
beforeAll(async () => {
  scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL) : null;
  database = await openDatabase(scratch ? { url: scratch.url } : { memory: true });
});
afterAll(async () => {
  for (const d of others) await d.close();
  await database.close();
  await scratch?.drop();
});

const T0 = Date.UTC(2026, 10, 27, 9);

describe('DbAttemptStore', () => {
  it('counts within a window that opens with the first attempt, then starts afresh', async () => {
    const store = new DbAttemptStore(database.db);
    expect(await store.get('t1:a', T0)).toBeNull();
    expect(await store.add('t1:a', MINUTE, T0, '192.0.2.1')).toEqual({
      count: 1,
      resetAt: T0 + MINUTE,
      lastAt: T0,
      tags: 1,
    });
    await store.add('t1:a', MINUTE, T0 + 10 * SECOND, '192.0.2.1');
    const third = await store.add('t1:a', MINUTE, T0 + 20 * SECOND, '192.0.2.2');
    expect(third).toEqual({ count: 3, resetAt: T0 + MINUTE, lastAt: T0 + 20 * SECOND, tags: 2 });
    expect(await store.get('t1:a', T0 + 30 * SECOND)).toEqual(third);
    // Another name with the same key, and another key, are other counters.
    expect((await store.add('t2:a', MINUTE, T0)).count).toBe(1);
    expect((await store.add('t1:b', MINUTE, T0)).count).toBe(1);
    // The window closed: get sees nothing, the next attempt opens a new one.
    expect(await store.get('t1:a', T0 + MINUTE)).toBeNull();
    expect(await store.add('t1:a', MINUTE, T0 + MINUTE + 1)).toEqual({
      count: 1,
      resetAt: T0 + 2 * MINUTE + 1,
      lastAt: T0 + MINUTE + 1,
      tags: 0,
    });
    await store.delete('t1:a');
    expect(await store.get('t1:a', T0 + MINUTE + 2)).toBeNull();
  });

  it('prunes closed windows only', async () => {
    const store = new DbAttemptStore(database.db);
    await store.add('p:old', MINUTE, T0);
    await store.add('p:new', 10 * MINUTE, T0);
    expect(await store.prune(T0 + 2 * MINUTE)).toBeGreaterThanOrEqual(1);
    const left = (await database.db.select().from(counters)).map((r) => `${r.name}:${r.key}`);
    expect(left).toContain('p:new');
    expect(left).not.toContain('p:old');
  });

  it('counts every one of many simultaneous attempts (one upsert each)', async () => {
    const store = new DbAttemptStore(database.db);
    const results = await Promise.all(Array.from({ length: 30 }, () => store.add('burst:x', MINUTE, T0)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
  });

  it.runIf(process.env.DATABASE_URL)(
    'three processes (three pools) share one limit: ten attempts are ten',
    async () => {
      // The same database through pools of their own, as three server processes would have.
      const pools = await Promise.all([0, 1].map(() => openDatabase({ url: scratch!.url })));
      others = pools;
      const stores = [database, ...pools].map((d) => new DbAttemptStore(d.db));
      const limiters = stores.map(
        (store) => new RateLimiter({ max: 10, windowSeconds: 900 }, 'Slow down.', { store, name: 'shared' }),
      );
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          limiters[i % 3].hit('203.0.113.5', T0).then(
            () => 'ok',
            (e: { code: string }) => e.code,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(10);
      expect(outcomes.filter((o) => o === 'too_many_attempts')).toHaveLength(2);
    },
  );

  it('serves the sign-in throttle as the memory store does', async () => {
    const clock = new ManualClock(T0);
    const throttle = new LoginThrottle(
      new DbAttemptStore(database.db),
      { perAddress: null, perAccount: { max: 3, windowSeconds: 900 } },
      clock,
    );
    await throttle.failed('Editor', '198.51.100.1');
    // The next try from that address for that username waits a second.
    await expect(throttle.admit('editor', '198.51.100.1')).rejects.toMatchObject({
      code: 'too_many_attempts',
    });
    clock.advance(SECOND);
    await throttle.admit('editor', '198.51.100.1');
    await throttle.failed('editor', '198.51.100.2');
    const alarm = await throttle.failed('editor', '198.51.100.3');
    expect(alarm).toEqual({ failures: 3, addresses: 3, windowMs: 900_000 });
    expect(await throttle.failed('editor', '198.51.100.4')).toBeNull();
  });
});
