import { DAY, HOUR, MINUTE, SECOND } from '../clock.ts';
import type { Tx } from '../db/client.ts';

/**
 * What a job's handler and its callers see of the queue (decision 0022): the job's context, the options of a
 * handler and of an enqueue, and the errors a handler throws to say how its attempt ended. The queue itself is
 * `queue.ts` (which re-exports all of this); the SQL of its rows is `rows.ts`.
 */

/** What a handler knows of the job it runs. */
export interface JobInfo {
  id: number;
  name: string;
  key: string | null;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
}

export interface JobContext {
  job: JobInfo;
  /**
   * Runs `fn` in one transaction that also marks the job done: its changes commit exactly when the job is
   * recorded as completed, so a retry or a takeover never applies them twice. Throws `LeaseLostError` (and
   * rolls back) when another process has taken the job over meanwhile.
   */
  complete<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Aborted when the queue stops: a long job stops between two items by throwing `signal.reason`. */
  signal: AbortSignal;
}

export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<void>;

export interface HandlerOptions {
  /** The wait before retry n (1 = after the first failure), in milliseconds. */
  backoff?: (attempt: number) => number;
  /** Attempts before the job is kept as failed (default 6: the first and five retries). */
  maxAttempts?: number;
  /** At most this many of these jobs at once in this process (e.g. 1: one after another). */
  concurrency?: number;
}

export interface EnqueueOptions {
  /** Not before this moment (default: now). */
  runAt?: Date | number;
  /** Idempotency key: a job with this key already exists (whatever its state) → that job, nothing new. */
  key?: string;
  maxAttempts?: number;
}

/** Thrown by `ctx.complete` when the job's lease was lost (another process took it over). */
export class LeaseLostError extends Error {}

/** Thrown by a handler for a failure that no retry can mend: the job is kept as failed at once. */
export class PermanentJobError extends Error {}

/**
 * Thrown by a handler whose job must wait until `until` (ms since the epoch): put back for then, with the
 * message as its last error, the attempt not counted (an e-mail held by its recipient's daily limit).
 */
export class DeferJobError extends Error {
  constructor(
    readonly until: number,
    message: string,
  ) {
    super(message);
  }
}

/** The reason a stopped job's signal carries: the job is put back as it was, not counted as a failure. */
export class JobInterruptedError extends Error {}

/** Retries after 30 s, 2 min, 10 min, 30 min, then every hour: a full disk freed, an SMTP server back up. */
export const DEFAULT_BACKOFF = (attempt: number): number =>
  [30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE][attempt - 1] ?? HOUR;

export const DEFAULT_MAX_ATTEMPTS = 6;
/** How long a claim holds a job; renewed while it runs (a third of it), taken over when it runs out. */
export const DEFAULT_LEASE_MS = 5 * MINUTE;
/** Done jobs are kept this long (their keys keep a repeated enqueue from running them again), then pruned. */
export const KEEP_DONE_MS = 30 * DAY;
