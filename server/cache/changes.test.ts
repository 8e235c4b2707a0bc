import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { scratchDatabase, silentLog } from '../testing/harness.ts';
import { type Changed, ChangeFeed } from './changes.ts';

/**
 * The change feed (decision 0031): what a committed change names reaches the followers of this process after
 * the commit, and on PostgreSQL those of every other process: by its notification, or, before that has
 * arrived, by the version the next request reads.
 */

function recorder(feed: ChangeFeed) {
  const heard: (string[] | 'all')[] = [];
  let waiting: { until: (h: Changed) => boolean; resolve: () => void } | null = null;
  feed.follow((changed) => {
    heard.push(changed === 'all' ? 'all' : [...changed].sort());
    if (waiting?.until(changed)) {
      waiting.resolve();
      waiting = null;
    }
  });
  return {
    heard,
    /** Resolves when a change passing `until` is heard (a notification arrives when it arrives). */
    next(until: (h: Changed) => boolean) {
      return new Promise<void>((resolve) => {
        waiting = { until, resolve };
      });
    },
  };
}

describe('in one process (PGlite, or PostgreSQL alike)', () => {
  let database: Database;
  let drop = async () => {};
  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      const scratch = await scratchDatabase(process.env.DATABASE_URL);
      drop = scratch.drop;
      database = await openDatabase({ url: scratch.url });
    } else database = await openDatabase({ memory: true });
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });

  it('tells the followers after the commit, never for a change rolled back', async () => {
    const feed = new ChangeFeed({ db: database.db, log: silentLog });
    const { heard } = recorder(feed);
    let beforeCommit: number | null = null;
    await database.db.transaction(async (tx) => {
      await feed.publish(tx, ['article:1', 'catalog', 'article:1']);
      beforeCommit = heard.length;
    });
    expect(beforeCommit).toBe(0);
    expect(heard).toEqual([['j1:article:1', 'j1:catalog']]);

    await expect(
      database.db.transaction(async (tx) => {
        await feed.publish(tx, ['site']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(heard).toEqual([['j1:article:1', 'j1:catalog']]);

    // A savepoint's change waits for the outer commit.
    let afterSavepoint: number | null = null;
    await database.db.transaction(async (tx) => {
      await tx.transaction(async (inner) => feed.publish(inner, ['issue:2']));
      afterSavepoint = heard.length;
    });
    expect(afterSavepoint).toBe(1);
    expect(heard.at(-1)).toEqual(['j1:issue:2']);

    // Names published at several points of one transaction go out together, once, at its end.
    await database.db.transaction(async (tx) => {
      await feed.publish(tx, ['catalog']);
      await tx.transaction(async (inner) => feed.publish(inner, ['article:4']));
      await feed.publish(tx, ['catalog', 'reviews']);
    });
    expect(heard.at(-1)).toEqual(['j1:article:4', 'j1:catalog', 'j1:reviews']);
    expect(heard).toHaveLength(3);

    // Outside a transaction, the change has committed already.
    await feed.publish(database.db, ['volume:3']);
    expect(heard.at(-1)).toEqual(['j1:volume:3']);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('across processes on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: Database[] = [];
  const feeds: ChangeFeed[] = [];
  const open = async () => {
    const database = await openDatabase({ url });
    opened.push(database);
    const feed = new ChangeFeed({ db: database.db, log: silentLog, listen: database.listen?.bind(database) });
    feeds.push(feed);
    return { database, feed };
  };
  beforeAll(async () => {
    ({ url, drop } = await scratchDatabase(process.env.DATABASE_URL!));
  });
  afterAll(async () => {
    for (const feed of feeds) await feed.stop();
    for (const database of opened) await database.close();
    await drop?.();
  });

  it('a change through one is applied by the other on its next request, heard or not', async () => {
    const a = await open();
    const b = await open();
    // b listens; its notification may come after b's next request: the version read covers that.
    await b.feed.start();
    const seenByB = recorder(b.feed);
    const heard = seenByB.next((c) => c === 'all' || c.has('j1:article:7'));
    await a.database.db.transaction(async (tx) => {
      await a.feed.publish(tx, ['article:7']);
    });
    await b.feed.sync();
    await heard;
    // Either the notification came first (exactly these names, then the version read finds nothing new),
    // or the version read did (everything dropped, then the late notification is not applied twice).
    expect([[['j1:article:7']], ['all']]).toContainEqual(seenByB.heard);
    seenByB.heard.length = 0;
    await b.feed.sync();
    expect(seenByB.heard).toEqual([]);
  });

  it('the calls of one turn share a read; a call after it was sent gets a read of its own, which sees a change committed in between', async () => {
    const a = await open();
    const c = await open(); // never started: only its version reads tell it of changes
    const seenByC = recorder(c.feed);
    await c.feed.sync();
    seenByC.heard.length = 0;
    const first = c.feed.sync();
    expect(c.feed.sync()).toBe(first);
    // The first read is sent once this turn ends; a change committed after that is not in it...
    await new Promise((resolve) => setImmediate(resolve));
    await a.database.db.transaction(async (tx) => {
      await a.feed.publish(tx, ['issue:9']);
    });
    // ...and a call made now, after the commit, waits for a read sent after it: it sees the change.
    const second = c.feed.sync();
    expect(second).not.toBe(first);
    await Promise.all([first, second]);
    expect(seenByC.heard).toEqual(['all']);
  });

  it('a process not listening finds every change by the version it reads, and only new ones', async () => {
    const a = await open();
    const c = await open(); // never started: it does not LISTEN
    const seenByC = recorder(c.feed);
    await c.feed.sync();
    seenByC.heard.length = 0;
    await c.feed.sync();
    expect(seenByC.heard).toEqual([]);
    await a.database.db.transaction(async (tx) => {
      await a.feed.publish(tx, ['site']);
    });
    await c.feed.sync();
    expect(seenByC.heard).toEqual(['all']);
    await c.feed.sync();
    expect(seenByC.heard).toEqual(['all']);

    // A transaction still open is not seen: not applied before it commits.
    const held = new pg.Client({ connectionString: url });
    await held.connect();
    try {
      await held.query('begin');
      await held.query('update cache_version set version = version + 1 where id = 1');
      const reading = c.feed.sync();
      await reading;
      expect(seenByC.heard).toEqual(['all']);
      await held.query('commit');
      await c.feed.sync();
      expect(seenByC.heard).toEqual(['all', 'all']);
    } finally {
      await held.end();
    }
  });

  it('names are heard exactly by a listening process, and its own change is applied once', async () => {
    const a = await open();
    const b = await open();
    await a.feed.start();
    await b.feed.start();
    const seenByA = recorder(a.feed);
    const seenByB = recorder(b.feed);
    const bHeard = seenByB.next((ch) => ch !== 'all' && ch.has('j1:content:about'));
    // Its own notification comes back to a: heard after this one, which b needs too.
    const aHeardLater = seenByA.next((ch) => ch !== 'all' && ch.has('j1:issue:9'));
    await a.database.db.transaction(async (tx) => {
      await a.feed.publish(tx, ['content:about']);
    });
    await bHeard;
    expect(seenByB.heard).toEqual([['j1:content:about']]);
    await a.database.db.transaction(async (tx) => {
      await a.feed.publish(tx, ['issue:9']);
    });
    await aHeardLater;
    // Notifications arrive in the order of the commits: once b's next change is heard by a, a's own two
    // came back to it too, and were not applied again.
    const fromB = seenByA.next((ch) => ch !== 'all' && ch.has('j1:volume:1'));
    await b.database.db.transaction(async (tx) => {
      await b.feed.publish(tx, ['volume:1']);
    });
    await fromB;
    expect(seenByA.heard).toEqual([['j1:content:about'], ['j1:issue:9'], ['j1:volume:1']]);
  });

  it('a lost LISTEN connection drops everything, and listening starts again', async () => {
    const a = await open();
    const b = await open();
    await b.feed.start();
    const seenByB = recorder(b.feed);
    const dropped = seenByB.next((ch) => ch === 'all');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and query = 'LISTEN "colophon_changes"'`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const { pid } of rows) await admin.query('select pg_terminate_backend($1)', [pid]);
      await dropped;
      expect(seenByB.heard).toContainEqual('all');
      // Listening again (after a second): a's next change is heard by name.
      for (;;) {
        const { rows: again } = await admin.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and query = 'LISTEN "colophon_changes"'`,
        );
        if (again[0].n >= rows.length) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const named = seenByB.next((ch) => ch !== 'all' && ch.has('j1:volume:4'));
      await a.database.db.transaction(async (tx) => {
        await a.feed.publish(tx, ['volume:4']);
      });
      await named;
    } finally {
      await admin.end();
    }
  });
});
