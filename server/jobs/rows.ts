import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../services.ts';
import { DeferJobError, LeaseLostError, PermanentJobError } from './job.ts';
import { jobs } from './tables.ts';

/** A job as its claim returns it. */
export interface Claimed {
  id: number;
  name: string;
  key: string | null;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  request_id: string | null;
  journal_id: number | null;
}

/** What the outcome of an attempt depends on in a job's definition. */
export interface Pass {
  /** The wait before retry n (1 = after the first failure). */
  backoff: (attempt: number) => number;
  /** A recurring pass's interval: rescheduled after each run, never retried. */
  every?: number;
}

const errorText = (err: unknown) =>
  (err instanceof Error ? err.message || err.name : String(err)).slice(0, 2000) || 'failed';

/**
 * The SQL of one queue's rows (decision 0022): the claim (SKIP LOCKED, a lease in this worker's name), the
 * test that a row is still this attempt's, and the outcome of an attempt (done, rescheduled, retried, put
 * back, deferred or kept as failed). The scheduler in `queue.ts` decides when; this writes what.
 */
export class JobRows {
  constructor(
    private readonly db: Db,
    private readonly opts: { clock: Clock; log: Logger; workerId: string; leaseMs: number },
  ) {}

  /**
   * Takes the oldest due job this process has a handler for: a queued one whose time has come, or a running
   * one whose lease ran out (its process died: taken over, the attempt counted). SKIP LOCKED lets claims
   * from several processes pass each other without waiting or taking the same job.
   */
  async claim(names: string[]): Promise<Claimed | null> {
    if (!names.length) return null;
    const now = new Date(this.opts.clock.now()).toISOString();
    const until = new Date(this.opts.clock.now() + this.opts.leaseMs).toISOString();
    const result = await this.db.execute(sql`
      update ${jobs} set
        status = 'running',
        attempts = ${jobs.attempts} + 1,
        locked_by = ${this.opts.workerId},
        locked_until = ${until}::timestamptz,
        last_error = case when ${jobs.status} = 'running'
          then 'attempt ' || ${jobs.attempts} || ' did not finish: the process running it stopped'
          else ${jobs.lastError} end
      where ${jobs.id} = (
        select id from ${jobs}
        where name in (${sql.join(
          names.map((n) => sql`${n}`),
          sql`, `,
        )})
          and run_at <= ${now}::timestamptz
          and (status = 'queued' or (status = 'running' and locked_until <= ${now}::timestamptz))
        order by run_at, id
        limit 1
        for update skip locked
      )
      returning id, name, key, payload, attempts, max_attempts, last_error, request_id, journal_id`);
    return (result as unknown as { rows: Claimed[] }).rows[0] ?? null;
  }

  /** The row is still ours: this attempt's claim, not taken over since. */
  mine(job: Claimed) {
    return and(
      eq(jobs.id, job.id),
      eq(jobs.status, 'running'),
      eq(jobs.lockedBy, this.opts.workerId),
      eq(jobs.attempts, job.attempts),
    );
  }

  /** The row after a successful attempt: done, or (a recurring pass) queued for its next time. */
  doneValues(pass: Pass | undefined) {
    const now = this.opts.clock.now();
    const free = { lockedBy: null, lockedUntil: null };
    if (pass?.every !== undefined) {
      return {
        ...free,
        status: 'queued' as const,
        attempts: 0,
        lastError: null,
        runAt: new Date(now + pass.every),
        finishedAt: new Date(now),
      };
    }
    return { ...free, status: 'done' as const, lastError: null, finishedAt: new Date(now) };
  }

  /** After a failed attempt: put back (stopping), retried later, or kept as failed. */
  async settle(job: Claimed, pass: Pass, err: unknown, interrupted: boolean): Promise<void> {
    const { log } = this.opts;
    const now = this.opts.clock.now();
    const info = { id: job.id, name: job.name, key: job.key, attempt: job.attempts };
    if (interrupted) {
      await this.db
        .update(jobs)
        .set({
          status: 'queued',
          attempts: job.attempts - 1,
          lockedBy: null,
          lockedUntil: null,
          runAt: new Date(now),
        })
        .where(this.mine(job));
      log.info({ job: info }, 'job queue: a job was stopped by the shutdown; it resumes on the next start');
      return;
    }
    if (err instanceof DeferJobError) {
      // Not a failure: the job waits for its time, its attempt not counted.
      await this.db
        .update(jobs)
        .set({
          status: 'queued',
          attempts: job.attempts - 1,
          lockedBy: null,
          lockedUntil: null,
          lastError: errorText(err),
          runAt: new Date(Math.max(now, err.until)),
        })
        .where(this.mine(job));
      log.info(
        { job: info, until: new Date(err.until).toISOString() },
        `job ${job.name} deferred: ${err.message}`,
      );
      return;
    }
    const lastError = errorText(err);
    // A recurring pass is not retried: its next time is its retry.
    const retry =
      pass.every === undefined && !(err instanceof PermanentJobError) && job.attempts < job.max_attempts;
    if (err instanceof LeaseLostError) {
      log.warn({ err, job: info }, 'job queue: lease lost; the other process finishes the job');
      return;
    }
    if (retry) {
      const delay = pass.backoff(job.attempts);
      await this.db
        .update(jobs)
        .set({ status: 'queued', lockedBy: null, lockedUntil: null, lastError, runAt: new Date(now + delay) })
        .where(this.mine(job));
      log[job.attempts === 1 ? 'error' : 'warn'](
        { err, job: info, retryInSeconds: delay / 1000 },
        `job ${job.name} failed (attempt ${job.attempts} of ${job.max_attempts}); retrying in ${delay / 1000} s`,
      );
    } else if (pass.every !== undefined) {
      await this.db
        .update(jobs)
        .set({
          status: 'queued',
          attempts: 0,
          lockedBy: null,
          lockedUntil: null,
          lastError,
          runAt: new Date(now + pass.every),
        })
        .where(this.mine(job));
      log.error({ err, job: info }, `recurring job ${job.name} failed; it runs again at its next time`);
    } else {
      await this.db
        .update(jobs)
        .set({ status: 'failed', lockedBy: null, lockedUntil: null, lastError, finishedAt: new Date(now) })
        .where(this.mine(job));
      log.error({ err, job: info }, `job ${job.name} failed after ${job.attempts} attempts; kept as failed`);
    }
  }
}
