import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { JobQueue } from '../jobs/queue.ts';
import { jobs } from '../jobs/tables.ts';
import { silentLog, testDatabase } from '../testing/harness.ts';
import { EventBus } from './bus.ts';

/** The outbox (decision 0031): an event is one job per follower, written in the change's transaction. */

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database?.close());

describe('EventBus', () => {
  it('writes one job per follower with the change, none when it rolls back, and each runs once', async () => {
    const queue = new JobQueue(database.db, { clock: new ManualClock(Date.parse('2026-03-02T09:00:00Z')), log: silentLog });
    const bus = new EventBus(queue);
    const seen: string[] = [];
    queue.define<{ article: number }>('corpus.read', async (p) => {
      seen.push(`corpus ${p.article}`);
    });
    queue.define<{ articleId: number }>('feed.refresh', async (p) => {
      seen.push(`feed ${p.articleId}`);
    });
    bus.follow('article.changed', 'corpus.read', ({ articleId }) => ({ article: articleId }));
    bus.follow('article.changed', 'feed.refresh');
    expect(bus.followers('article.changed')).toEqual(['corpus.read', 'feed.refresh']);
    expect(bus.followers('manuscript.arrived')).toEqual([]);

    await expect(
      database.db.transaction(async (tx) => {
        await bus.emit(tx, 'article.changed', { articleId: 1 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await database.db.select().from(jobs)).toEqual([]);

    await database.db.transaction(async (tx) => {
      await bus.emit(tx, 'article.changed', { articleId: 2 });
    });
    // No follower: nothing written.
    await bus.emit(database.db, 'manuscript.arrived', { submissionId: 5 });
    const written = await database.db.select({ name: jobs.name, payload: jobs.payload }).from(jobs);
    expect(written).toEqual([
      { name: 'corpus.read', payload: { article: 2 } },
      { name: 'feed.refresh', payload: { articleId: 2 } },
    ]);
    expect(await queue.runDue()).toBe(2);
    expect(await queue.runDue()).toBe(0);
    expect(seen.sort()).toEqual(['corpus 2', 'feed 2']);
  });
});
