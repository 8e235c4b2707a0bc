import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { type Clock, HOUR, MINUTE, SECOND } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { currentJournalId, FIRST_JOURNAL, type Scope } from '../db/scope.ts';
import { currentRequestId, outsideRequests, requestContext } from '../request-context.ts';
import type { Logger } from '../services.ts';
import {
  DEFAULT_BACKOFF,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  type EnqueueOptions,
  type HandlerOptions,
  type JobContext,
  type JobHandler,
  type JobInfo,
  JobInterruptedError,
  KEEP_DONE_MS,
  LeaseLostError,
  PermanentJobError,
} from './job.ts';
import { type Claimed, JobRows } from './rows.ts';
import { type JobStatus, jobs } from './tables.ts';

// The handlers' side of the queue (job.ts), where its callers have always imported it from.
export * from './job.ts';

interface Definition {
  handler: JobHandler<never>;
  backoff: (attempt: number) => number;
  maxAttempts: number;
  concurrency: number;
  /** Jobs of this name running in this process. */
  running: number;
  /** Recurring passes: the interval, and the wait before the first run. */
  every?: number;
  firstAfter?: number;
  /** A recurring pass over a journal's data: one row per journal, each run in its journal's scope. */
  perJournal?: boolean;
}

/**
 * The key of a recurring pass's row: `every:NAME` for a chore of the site's, `every:NAME:j3` for journal 3's
 * run of a pass over each journal (decision 0058). The key is what makes each run once across processes.
 */
export function recurringKey(name: string, journalId?: number | null): string {
  return journalId ? `every:${name}:j${journalId}` : `every:${name}`;
}

/** Listens for the queue's notifications (PostgreSQL's LISTEN on a connection of its own). */
export type Listen = (
  channel: string,
  onNotify: (payload: string) => void,
  onError: (err: Error) => void,
) => Promise<() => Promise<void>>;

export const CHANNEL = 'colophon_jobs';

/**
 * The durable job queue (decision 0022). `enqueue` inserts a job in the caller's transaction; any process
 * that has a handler for its name runs it (`start()`: promptly when enqueued here or notified, otherwise at
 * the next poll), retrying with backoff and keeping it as failed after its last attempt. `runDue()` runs
 * everything due at the clock's now, one job after another: tests drive the queue with it.
 */
export class JobQueue {
  private readonly definitions = new Map<string, Definition>();
  /** The SQL of this queue's rows: claims, leases, outcomes. */
  private readonly rows: JobRows;
  /** This instance's name in `locked_by`: the lease is its own. */
  readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private started = false;
  private stopping = false;
  /** The claim loop under way, if any (stop() waits for it: a claim in flight may still bring a job). */
  private pumping: Promise<void> | null = null;
  private again = false;
  private poll: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private listening = false;

  constructor(
    private readonly db: Db,
    private readonly opts: {
      clock: Clock;
      log: Logger;
      /** Jobs run at once by this process (default 4). */
      concurrency?: number;
      /** The poll when nothing was notified (default 5 s). */
      pollMs?: number;
      leaseMs?: number;
      /** PostgreSQL: notifications on commit, from any process (PGlite has one connection: no LISTEN). */
      listen?: Listen;
      /** Before each handler runs (the change feed's sync: what the process keeps is current, decision 0031). */
      beforeRun?: () => Promise<void>;
      /**
       * The journals whose recurring passes run (every journal not archived: `JournalDirectory`), read at each
       * poll: a journal made since gets its rows. Default: the first journal alone.
       */
      journals?: () => readonly number[];
    },
  ) {
    this.rows = new JobRows(db, {
      clock: opts.clock,
      log: opts.log,
      workerId: this.workerId,
      leaseMs: this.leaseMs,
    });
    // Done jobs are kept a month for their keys, then deleted; failed ones stay until someone looks.
    this.recurring('jobs.prune', { every: 6 * HOUR, firstAfter: 10 * MINUTE }, async () => {
      const before = new Date(this.opts.clock.now() - KEEP_DONE_MS);
      await this.db.delete(jobs).where(and(eq(jobs.status, 'done'), lt(jobs.finishedAt, before)));
    });
  }

  private get leaseMs() {
    return this.opts.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Registers the handler of the jobs named `name` (one per name). */
  define<P>(name: string, handler: JobHandler<P>, options: HandlerOptions = {}): void {
    if (this.definitions.has(name)) throw new Error(`The job "${name}" is defined twice.`);
    this.definitions.set(name, {
      handler: handler as JobHandler<never>,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      concurrency: options.concurrency ?? Number.POSITIVE_INFINITY,
      running: 0,
    });
  }

  /**
   * A periodic pass: one row (key `every:NAME`) whatever the number of processes, run every `every` ms
   * (the first time `firstAfter` ms after the first start), rescheduled when it ends, failed or not.
   *
   * `perJournal`: a pass over a journal's data (reminders, digests, alerts, the corpus's catch-up). One row
   * per journal (`every:NAME:j3`, naming the journal), so each journal's run happens once across processes,
   * in that journal's scope (its rows, its settings and time zone), on its own schedule, failing alone; a
   * journal archived since is passed over (decision 0058).
   */
  recurring(
    name: string,
    when: { every: number; firstAfter?: number; perJournal?: boolean },
    handler: JobHandler<void>,
    options: HandlerOptions = {},
  ): void {
    const run: JobHandler<void> = when.perJournal
      ? async (payload, ctx) => {
          const journal = currentJournalId();
          if (journal !== null && this.journalIds().includes(journal)) await handler(payload, ctx);
        }
      : handler;
    this.define(name, run, options);
    const def = this.definitions.get(name)!;
    def.every = when.every;
    def.firstAfter = when.firstAfter ?? when.every;
    def.perJournal = when.perJournal;
  }

  /** The journals whose passes run now. */
  private journalIds(): readonly number[] {
    return this.opts.journals?.() ?? [FIRST_JOURNAL];
  }

  /** Work of this process's own, run once when its queue starts (see `atStart`). */
  private readonly startups: { name: string; run: () => void | Promise<void> }[] = [];

  /**
   * Work on this process's own memory, run once when its queue starts (the citation styles compiled before a
   * reader asks): not stored, since every process needs its own run and a restarted one starts afresh.
   * Launched with the queue's jobs (stop() waits for it), a failure logged.
   */
  atStart(name: string, run: () => void | Promise<void>): void {
    this.startups.push({ name, run });
  }

  /**
   * Adds a job, inside the caller's transaction when `dbOrTx` is one: the job exists exactly when that
   * transaction commits. With a `key` already used, nothing is added and that job's id is returned.
   */
  async enqueue(
    dbOrTx: Tx,
    name: string,
    payload: unknown = {},
    options: EnqueueOptions = {},
  ): Promise<{ id: number; created: boolean }> {
    const now = this.opts.clock.now();
    const runAt =
      options.runAt === undefined
        ? now
        : typeof options.runAt === 'number'
          ? options.runAt
          : options.runAt.getTime();
    const [row] = await dbOrTx
      .insert(jobs)
      .values({
        name,
        key: options.key ?? null,
        payload: payload ?? {},
        runAt: new Date(runAt),
        maxAttempts: options.maxAttempts ?? this.definitions.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        createdAt: new Date(now),
        requestId: currentRequestId() ?? null,
        // The journal it works for: it runs in that journal's scope (decision 0053).
        journalId: currentJournalId(),
      })
      .onConflictDoNothing({ target: jobs.key })
      .returning({ id: jobs.id });
    if (!row) {
      const [existing] = await dbOrTx.select({ id: jobs.id }).from(jobs).where(eq(jobs.key, options.key!));
      return { id: existing.id, created: false };
    }
    if (this.listening) await dbOrTx.execute(sql`select pg_notify(${CHANNEL}, '')`);
    // Here: looked for at once (on PGlite the claim waits behind the caller's transaction on the one
    // connection; on PostgreSQL the notification arrives when it commits).
    if (runAt <= now) this.nudge();
    return { id: row.id, created: true };
  }

  /** Runs every job due now, one after another, until none is left; returns how many ran. */
  async runDue(): Promise<number> {
    let n = 0;
    for (;;) {
      const job = await this.claim();
      if (!job) return n;
      // Run by hand: not interrupted by a stop() of the started queue.
      await this.execute(job, new AbortController().signal);
      n++;
    }
  }

  /**
   * Makes sure each recurring pass has its row, and each pass over the journals a row per journal
   * (idempotent: the key is the pass's name, and its journal's).
   */
  async ensureRecurring(): Promise<void> {
    const now = this.opts.clock.now();
    const journals = [...this.journalIds()];
    for (const [name, def] of this.definitions) {
      if (def.every === undefined) continue;
      const owners = def.perJournal ? journals : [null];
      if (!owners.length) continue;
      await this.db
        .insert(jobs)
        .values(
          owners.map((journalId) => ({
            name,
            key: recurringKey(name, journalId),
            runAt: new Date(now + (def.firstAfter ?? def.every!)),
            maxAttempts: def.maxAttempts,
            createdAt: new Date(now),
            journalId,
          })),
        )
        .onConflictDoNothing({ target: jobs.key });
      // The one row such a pass had before journals (it would run for the first journal a second time).
      if (def.perJournal) await this.db.delete(jobs).where(eq(jobs.key, recurringKey(name)));
    }
    this.registeredFor = journals.join(',');
  }

  /** The journals the recurring rows were last made for: another list (a journal made) makes them again. */
  private registeredFor: string | null = null;

  /** Starts taking jobs: now, on every enqueue here, on notifications, and at each poll. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // The poll first: whatever fails below (the database restarting just then) is tried again at each poll,
    // instead of leaving the process without a queue until it is restarted (issue 22).
    this.poll = setInterval(
      () => {
        if (!this.recurringReady || this.registeredFor !== this.journalIds().join(','))
          void this.registerRecurring();
        if (this.opts.listen && !this.listening) void this.startListening();
        void this.pump();
      },
      this.opts.pollMs ?? 5 * SECOND,
    );
    this.poll.unref();
    await this.registerRecurring();
    await this.startListening();
    void this.pump();
    for (const { name, run } of this.startups) {
      const started = outsideRequests(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        if (!this.stopping) await run();
      })
        .catch((err) => this.opts.log.error({ err }, `job queue: ${name} (at start) failed`))
        .finally(() => this.running.delete(started));
      this.running.add(started);
    }
  }

  private recurringReady = false;

  /** `ensureRecurring`, once it has worked; a failure is logged and tried again at the next poll. */
  private async registerRecurring(): Promise<void> {
    try {
      await this.ensureRecurring();
      this.recurringReady = true;
    } catch (err) {
      this.opts.log.warn(
        { err },
        'job queue: could not register the recurring passes; trying again at the next poll',
      );
    }
  }

  /** Stops taking jobs; the jobs running finish (or stop between items and are put back), then it resolves. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.poll) clearInterval(this.poll);
    if (this.followUp) clearTimeout(this.followUp);
    this.abort.abort(new JobInterruptedError('the server is stopping'));
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = null;
    this.listening = false;
    await this.pumping;
    await this.idle();
  }

  /** How many jobs this process is running now. */
  get busy(): number {
    return this.running.size;
  }

  /** Resolves when the jobs this process is running have ended. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Jobs in one state, newest first (a failed job keeps its attempts and last error). */
  async list(status: JobStatus, limit = 100) {
    return this.db
      .select()
      .from(jobs)
      .where(eq(jobs.status, status))
      .orderBy(sql`${jobs.id} desc`)
      .limit(limit);
  }

  /** The jobs with these keys (tests, and a service asking after its own jobs). */
  async byKeys(keys: string[]) {
    if (!keys.length) return [];
    return this.db.select().from(jobs).where(inArray(jobs.key, keys));
  }

  private async startListening(): Promise<void> {
    if (!this.opts.listen || this.stopping || this.connecting) return;
    this.connecting = true;
    let lost = false;
    try {
      this.unlisten = await this.opts.listen(
        CHANNEL,
        () => this.nudge([]),
        (err) => {
          lost = true;
          this.listening = false;
          this.opts.log.warn({ err }, 'job queue: lost its LISTEN connection; polling until it is back');
        },
      );
      // Lost already (between the LISTEN and here): the next poll listens again.
      this.listening = !lost;
    } catch (err) {
      this.opts.log.warn({ err }, 'job queue: could not LISTEN; polling instead');
    } finally {
      this.connecting = false;
    }
  }

  /** A LISTEN connection is being made (the poll does not start a second one meanwhile). */
  private connecting = false;

  private followUp: NodeJS.Timeout | null = null;

  /**
   * Looks for work now, and again shortly: a job enqueued in a transaction still open is seen once it
   * commits (on PGlite the claim waits behind it on the one connection; on PostgreSQL the notification
   * brings it, and the follow-ups catch a short transaction where nothing listens).
   */
  private nudge(followUps = [100, 1000]): void {
    if (!this.started || this.stopping) return;
    // Outside the request that enqueued (if any): the claims serve every job, each run in its own context.
    outsideRequests(() => setImmediate(() => void this.pump()));
    if (this.followUp || !followUps.length) return;
    const [next, ...rest] = followUps;
    this.followUp = outsideRequests(() =>
      setTimeout(() => {
        this.followUp = null;
        this.nudge(rest);
      }, next),
    );
    this.followUp.unref();
  }

  /** Claims and launches jobs while this process has room for them. */
  private pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = this.pumpLoop().finally(() => {
      this.pumping = null;
    });
    return this.pumping;
  }

  private async pumpLoop(): Promise<void> {
    try {
      do {
        this.again = false;
        while (!this.stopping && this.running.size < (this.opts.concurrency ?? 4)) {
          const job = await this.claim();
          if (!job) break;
          const run = this.execute(job, this.abort.signal).finally(() => {
            this.running.delete(run);
            this.nudge([]);
          });
          this.running.add(run);
        }
      } while (this.again && !this.stopping);
    } catch (err) {
      this.opts.log.error({ err }, 'job queue: claiming a job failed');
    }
  }

  /** Claims the oldest due job of a name this process has room for (`JobRows.claim`). */
  private claim(): Promise<Claimed | null> {
    const names = [...this.definitions].filter(([, d]) => d.running < d.concurrency).map(([name]) => name);
    return this.rows.claim(names);
  }

  /** After a failed attempt: its row's outcome; an attempt stopped by stop() is put back, not counted. */
  private settle(job: Claimed, def: Definition, err: unknown): Promise<void> {
    const interrupted = err instanceof JobInterruptedError || err === this.abort.signal.reason;
    return this.rows.settle(job, def, err, interrupted);
  }

  private async execute(job: Claimed, signal: AbortSignal): Promise<void> {
    const def = this.definitions.get(job.name);
    if (!def) return; // not claimable: claims name only the defined
    def.running++;
    try {
      // In the context of the request that enqueued it, if any: its log lines name that request (reqId); and
      // for the journal it was queued for (decision 0053). A chore of the site's (no journal) passes over
      // the journals itself.
      const run = () => this.attempt(job, def, signal);
      const scope: Scope | undefined = job.journal_id
        ? { kind: 'journal', journalId: job.journal_id }
        : undefined;
      await (job.request_id || scope
        ? requestContext.run({ requestId: job.request_id ?? undefined, scope }, run)
        : outsideRequests(run));
    } finally {
      def.running--;
    }
  }

  private async attempt(job: Claimed, def: Definition, signal: AbortSignal): Promise<void> {
    const { log } = this.opts;
    const info: JobInfo = {
      id: job.id,
      name: job.name,
      key: job.key,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
    };
    if (job.attempts > job.max_attempts) {
      // Taken over after its last attempt's process died: no attempt is left.
      await this.settle(job, def, new PermanentJobError(job.last_error ?? 'no attempts left'));
      return;
    }
    if (job.request_id) log.info({ job: info }, `job ${job.name} started, for request ${job.request_id}`);
    let completed = false;
    const ctx: JobContext = {
      job: info,
      signal,
      complete: async (fn) =>
        this.db.transaction(async (tx) => {
          const result = await fn(tx);
          const [row] = await tx
            .update(jobs)
            .set(this.rows.doneValues(def))
            .where(this.rows.mine(job))
            .returning({ id: jobs.id });
          if (!row) throw new LeaseLostError(`job ${job.id} (${job.name}) was taken over by another process`);
          completed = true;
          return result;
        }),
    };
    // The lease is renewed while the handler runs, so only a process that died loses its jobs.
    const heartbeat = setInterval(() => {
      void this.db
        .update(jobs)
        .set({ lockedUntil: new Date(this.opts.clock.now() + this.leaseMs) })
        .where(this.rows.mine(job))
        .catch((err) => log.warn({ err, job: info }, 'job queue: renewing a lease failed'));
    }, this.leaseMs / 3);
    heartbeat.unref();
    try {
      await this.opts.beforeRun?.();
      await def.handler(job.payload as never, ctx);
      clearInterval(heartbeat);
      if (!completed) {
        const [row] = await this.persist(() =>
          this.db
            .update(jobs)
            .set(this.rows.doneValues(def))
            .where(this.rows.mine(job))
            .returning({ id: jobs.id }),
        );
        if (!row)
          log.warn({ job: info }, 'job queue: a job finished after another process had taken it over');
      }
    } catch (err) {
      clearInterval(heartbeat);
      if (completed) {
        log.error({ err, job: info }, 'job queue: a job failed after it had completed; kept as done');
        return;
      }
      await this.persist(() => this.settle(job, def, err)).catch((e) =>
        log.error({ err: e, job: info }, 'job queue: recording a failure failed'),
      );
    }
  }

  /**
   * Writes a job's outcome. While the database is briefly unavailable (a restart, a fail-over: its connections
   * ended under the job) it tries again after 0.5, 1, 2, 4... s, up to half the lease, so that a job whose
   * outcome was lost in the gap is not left "running" until its lease runs out (issue 22).
   */
  private async persist<T>(write: () => Promise<T>): Promise<T> {
    for (let wait = 500; ; wait *= 2) {
      try {
        return await write();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || this.stopping || wait > this.leaseMs / 2) throw err;
        this.opts.log.warn(
          { err },
          `job queue: the database is unavailable; writing a job's outcome again in ${wait / 1000} s`,
        );
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
