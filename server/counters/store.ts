import { and, eq, lte, sql } from 'drizzle-orm';
import { type Clock, MINUTE } from '../clock.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { type AttemptStore, type AttemptWindow, MAX_TAGS } from './attempts.ts';
import { counters } from './tables.ts';

/** `login-pair:…` → name `login-pair`, key `…` (a key without a colon is its own name). */
function split(key: string): { name: string; key: string } {
  const at = key.indexOf(':');
  return at > 0 ? { name: key.slice(0, at), key: key.slice(at + 1) } : { name: key, key: '' };
}

interface Row {
  n: number;
  reset_at: string | Date;
  last_at: string | Date;
  tags: number;
}

const ms = (v: string | Date) => (v instanceof Date ? v.getTime() : new Date(v).getTime());
const view = (r: Row): AttemptWindow => ({
  count: Number(r.n),
  resetAt: ms(r.reset_at),
  lastAt: ms(r.last_at),
  tags: Number(r.tags),
});

/**
 * The attempt counters in the database (`counters`), for several server processes on one PostgreSQL: ten
 * failed sign-ins spread over three processes are ten. Each attempt is one statement (an upsert that counts
 * and answers the window's count), so simultaneous attempts from several processes are all counted: the row
 * lock of `on conflict do update` orders them. Times come from the caller (the services' clock).
 */
export class DbAttemptStore implements AttemptStore {
  constructor(private readonly db: Db) {}

  async add(fullKey: string, windowMs: number, now: number, tag?: string): Promise<AttemptWindow> {
    const { name, key } = split(fullKey);
    const at = new Date(now).toISOString();
    const resetAt = new Date(now + windowMs).toISOString();
    const tagValue = tag ?? null;
    const result = await this.db.execute(sql`
      insert into ${counters} as c (name, key, window_start, reset_at, n, last_at, tags)
      values (${name}, ${key}, ${at}::timestamptz, ${resetAt}::timestamptz, 1, ${at}::timestamptz,
              case when ${tagValue}::text is null then '{}'::text[] else array[${tagValue}::text] end)
      on conflict (name, key) do update set
        n = case when c.reset_at <= ${at}::timestamptz then 1 else c.n + 1 end,
        window_start = case when c.reset_at <= ${at}::timestamptz then excluded.window_start else c.window_start end,
        reset_at = case when c.reset_at <= ${at}::timestamptz then excluded.reset_at else c.reset_at end,
        last_at = ${at}::timestamptz,
        tags = case
          when c.reset_at <= ${at}::timestamptz then excluded.tags
          when ${tagValue}::text is null or ${tagValue}::text = any(c.tags)
            or cardinality(c.tags) >= ${MAX_TAGS} then c.tags
          else c.tags || ${tagValue}::text end
      returning n, reset_at, last_at, cardinality(tags) as tags`);
    return view(rowsOf<Row>(result)[0]);
  }

  async get(fullKey: string, now: number): Promise<AttemptWindow | null> {
    const { name, key } = split(fullKey);
    const result = await this.db.execute(sql`
      select n, reset_at, last_at, cardinality(tags) as tags from ${counters}
      where name = ${name} and key = ${key} and reset_at > ${new Date(now).toISOString()}::timestamptz`);
    const row = rowsOf<Row>(result)[0];
    return row ? view(row) : null;
  }

  async delete(fullKey: string): Promise<void> {
    const { name, key } = split(fullKey);
    await this.db.delete(counters).where(and(eq(counters.name, name), eq(counters.key, key)));
  }

  /** Deletes the closed windows; returns how many. */
  async prune(now: number): Promise<number> {
    const gone = await this.db
      .delete(counters)
      .where(lte(counters.resetAt, new Date(now)))
      .returning({ name: counters.name });
    return gone.length;
  }
}

/** How often closed counter windows are deleted (any process runs the pass, once per interval). */
export const PRUNE_EVERY_MS = 15 * MINUTE;

/** The recurring job that deletes closed windows (one row on the queue, whatever the number of processes). */
export function defineCounterPruning(jobs: JobQueue, store: DbAttemptStore, clock: Clock): void {
  jobs.recurring('counters.prune', { every: PRUNE_EVERY_MS }, async () => {
    await store.prune(clock.now());
  });
}
