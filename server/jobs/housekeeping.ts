import { asOwner } from '../db/scope.ts';
import { sql } from 'drizzle-orm';
import { HOUR } from '../clock.ts';
import type { Database } from '../db/client.ts';
import type { JobQueue } from './queue.ts';

/** How often the housekeeping passes run (and the wait before their first run). */
export const HOUSEKEEPING_EVERY = 6 * HOUR;

/**
 * The server's own chores, on the job queue (decision 0048): recurring passes have one row whatever the
 * number of processes, so each runs once per period across them, at the queue's clock, and a process killed
 * in the middle leaves the row to the next claim. Defined by the composition root (server/main.ts) on the
 * queue of a process that runs jobs.
 */
export function defineHousekeeping(
  jobs: JobQueue,
  s: {
    database: Pick<Database, 'kind' | 'db'>;
    accounts: { pruneSessions(): Promise<void> };
    citations: { warmUp(): void };
  },
): void {
  // Old sessions go; the table otherwise grows with every sign-in.
  jobs.recurring('accounts.prune-sessions', { every: HOUSEKEEPING_EVERY }, () => s.accounts.pruneSessions());
  // PGlite has no autovacuum, so its tables and indexes are vacuumed here; PostgreSQL vacuums itself.
  if (s.database.kind === 'pglite') {
    jobs.recurring('db.vacuum', { every: HOUSEKEEPING_EVERY }, async () => {
      // As the tables' owner: the journals' roles may not vacuum them (decision 0053).
      await asOwner(() => s.database.db.execute(sql.raw('VACUUM ANALYZE')));
    });
  }
  // The citation styles compile on first use (about a quarter of a second): at the start of each process
  // (its own memory), rather than in the first reader's request for an article.
  jobs.atStart('citations.warm-up', () => s.citations.warmUp());
}
