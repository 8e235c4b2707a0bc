import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * The durable job queue (decision 0022): background work as rows, claimed by any server process with
 * `FOR UPDATE SKIP LOCKED`. A job is inserted in the transaction of the change that asks for it, so it exists
 * exactly when that change committed. Every time here comes from the one clock (server/clock.ts), never from
 * the database's now(), so tests drive retries and leases with a ManualClock.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    /** The handler's name (e.g. `mail.send`): a process claims only the names it has handlers for. */
    name: text('name').notNull(),
    /** Idempotency key: a second enqueue with the same key is the same job. Recurring passes use `every:NAME`. */
    key: text('key'),
    payload: jsonb('payload').notNull().default({}),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    /** Not before this moment (the first run, or the next retry after a failure). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    /** Attempts started so far (a claim counts one, even if its process then died). */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(6),
    /** The queue instance holding the job while it runs, and until when: past it another may take it over. */
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The last failure (kept on a job that then succeeded only until it does). */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The request that enqueued the job (its X-Request-Id): the job's log lines name it (decision 0030). */
    requestId: text('request_id'),
    /**
     * The journal the job works for (decision 0053): the scope it runs in, as the request that queued it had;
     * null for the site's own chores, which pass over every journal themselves.
     */
    journalId: integer('journal_id'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_key_idx').on(t.key),
    // What a claim looks for: queued jobs that are due, and running ones whose lease has run out.
    index('jobs_due_idx').on(t.runAt).where(sql`${t.status} in ('queued', 'running')`),
    index('jobs_finished_idx').on(t.status, t.finishedAt),
  ],
);
