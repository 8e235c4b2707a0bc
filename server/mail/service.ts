import { desc, eq } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { RateLimit } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { type AttemptStore, waitText } from '../counters/attempts.ts';
import { tooManyAttempts } from '../errors.ts';
import { DeferJobError, type JobContext, type JobQueue, PermanentJobError } from '../jobs/queue.ts';
import type { Logger } from '../services.ts';
import { describeFsError } from '../storage.ts';
import type { Mail, Mailer } from './mailer.ts';
import {
  checkSecrets,
  hideSecrets,
  mailSecretsKey,
  openSecrets,
  redactLinks,
  revealSecrets,
  sealSecrets,
} from './secrets.ts';
import { type MailStatus, mailLog } from './tables.ts';

export interface MailOptions {
  /** The submission the message is about: it then appears in that submission's communication log. */
  submissionId?: number;
  /**
   * Strings in the message that must never be stored in clear: the tokens of the links it carries (reset,
   * confirmation, unsubscribe, invitation). The log shows each link holding one as "[link removed]".
   */
  secrets?: string[];
  /** Idempotency key of the sending job: a message queued twice with one key is queued (and sent) once. */
  key?: string;
  /**
   * A message a person asks for now (an editor's "remind now"): refused with 429 (and Retry-After) when a
   * recipient has reached the daily limit (`MAIL_LIMIT_RECIPIENT`), so the person is told at once; other
   * messages over the limit are held until it opens again (decision 0038).
   */
  manual?: boolean;
  /**
   * A notice to the journal's own office (decision 0060): not counted against the per-recipient limit, like
   * the installation's EDITORIAL_EMAIL, whether the office is an address of the journal's or its editors.
   */
  office?: boolean;
}

/** The journal-wide limit of e-mails per recipient (decision 0038): counted in the shared counter store. */
export interface RecipientLimit {
  /** The shared counter store (the database with PostgreSQL: every process counts in it). */
  counters: AttemptStore;
  /** `MAIL_LIMIT_RECIPIENT`: this many e-mails per recipient per window; null: no limit. */
  limit: RateLimit;
  /** The journal's own addresses (its sender, the editorial inbox): never limited. */
  exempt: string[];
}

const LIMIT_COUNTER = 'mail-recipient';

/** One message of the log, as the desk shows it. */
export interface MailLogEntry {
  id: number;
  queuedAt: string;
  sentAt: string | null;
  recipients: string;
  subject: string;
  /** The text, links with secrets removed. */
  body: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
}

/** What the `mail.send` job keeps: the message with its secrets replaced by markers, and them sealed. */
interface MailJob {
  mail: Mail;
  sealed?: string;
  /** To the journal's office: exempt from the per-recipient limit. */
  office?: true;
}

export const MAIL_JOB = 'mail.send';

/** "a day", "12 hours": a limit's window, for messages. */
const windowText = (ms: number) =>
  ms === 86_400_000
    ? 'a day'
    : ms % 3_600_000 === 0
      ? `${ms / 3_600_000} hours`
      : `${Math.round(ms / 60_000)} minutes`;

const recipientsOf = (mail: Mail) => (Array.isArray(mail.to) ? mail.to.join(', ') : mail.to);
/** Why an attempt failed, in words: a file-system fault of the outbox (it has a path), or what SMTP said. */
const failure = (err: unknown) =>
  (typeof (err as { path?: unknown })?.path === 'string'
    ? describeFsError(err)
    : err instanceof Error
      ? err.message
      : String(err)
  ).slice(0, 1000) || 'could not be sent';

/**
 * The one way the journal sends e-mail (decision 0022). `queue(tx, mail)` in the transaction of the change
 * the message reports: it is sent by a job after the commit (never if the change rolled back), retried with
 * backoff, and each attempt's result kept in the mail log. A message a person asks for now (`manual`) is
 * refused at once when its recipient has reached the daily limit (decision 0048: no message is sent outside
 * a transaction any more).
 */
export class MailService {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      transport: Mailer;
      jobs: JobQueue;
      clock: Clock;
      /** The server's secret (SESSION_SECRET): the key of the sealed mail secrets is derived from it. */
      secret: string;
      /** The host name in Message-IDs (the journal's public address). */
      domain: string;
      log: Logger;
      /** The journal-wide limit of e-mails per recipient; none when absent. */
      recipients?: RecipientLimit;
    },
  ) {
    this.key = mailSecretsKey(deps.secret);
    deps.jobs.define<MailJob>(MAIL_JOB, (payload, ctx) => this.deliver(payload, ctx));
  }

  /** Queues a message in the caller's transaction (or on its own with the database itself). */
  async queue(tx: Tx, mail: Mail, opts: MailOptions = {}): Promise<{ logId: number; created: boolean }> {
    const secrets = checkSecrets(mail, opts.secrets);
    if (opts.manual) await this.refuseOverLimit(mail);
    const payload: MailJob = {
      mail: hideSecrets(mail, secrets),
      ...(secrets.length ? { sealed: sealSecrets(secrets, this.key) } : {}),
      ...(opts.office ? { office: true as const } : {}),
    };
    const job = await this.deps.jobs.enqueue(tx, MAIL_JOB, payload, { key: opts.key });
    if (!job.created) {
      const [existing] = await tx.select({ id: mailLog.id }).from(mailLog).where(eq(mailLog.jobId, job.id));
      return { logId: existing?.id ?? 0, created: false };
    }
    const [row] = await tx
      .insert(mailLog)
      .values({
        queuedAt: this.deps.clock.date(),
        recipients: recipientsOf(mail),
        subject: redactLinks(mail.subject, secrets),
        body: redactLinks(mail.text, secrets),
        submissionId: opts.submissionId ?? null,
        jobId: job.id,
      })
      .returning({ id: mailLog.id });
    return { logId: row.id, created: true };
  }

  /** The communication log of a submission: every message about it, newest first. */
  async log(submissionId: number): Promise<MailLogEntry[]> {
    const rows = await this.db
      .select()
      .from(mailLog)
      .where(eq(mailLog.submissionId, submissionId))
      .orderBy(desc(mailLog.queuedAt), desc(mailLog.id));
    return rows.map((r) => ({
      id: r.id,
      queuedAt: r.queuedAt.toISOString(),
      sentAt: r.sentAt?.toISOString() ?? null,
      recipients: r.recipients,
      subject: r.subject,
      body: r.body,
      status: r.status,
      attempts: r.attempts,
      lastError: r.lastError,
    }));
  }

  /** The recipients the limit applies to: every address but the journal's own, lower-cased. */
  private limited(mail: Mail): string[] {
    const r = this.deps.recipients;
    if (!r?.limit) return [];
    const exempt = new Set(r.exempt.map((a) => a.trim().toLowerCase()));
    const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).map((a) => a.trim().toLowerCase());
    return [...new Set(to)].filter((a) => a && !exempt.has(a));
  }

  /** Refuses (429) a message one of whose recipients has had the limit's number of e-mails in its window. */
  private async refuseOverLimit(mail: Mail): Promise<void> {
    const r = this.deps.recipients;
    if (!r?.limit) return;
    const now = this.deps.clock.now();
    for (const to of this.limited(mail)) {
      const open = await r.counters.get(`${LIMIT_COUNTER}:${to}`, now);
      if (open && open.count >= r.limit.max) {
        throw this.overLimitError({
          to,
          max: r.limit.max,
          resetAt: open.resetAt,
          windowMs: r.limit.windowSeconds * 1000,
        });
      }
    }
  }

  /** Counts a message about to go against each recipient's limit; the first recipient it takes past it. */
  private async countAgainstLimit(mail: Mail) {
    const r = this.deps.recipients;
    if (!r?.limit) return null;
    const now = this.deps.clock.now();
    const windowMs = r.limit.windowSeconds * 1000;
    for (const to of this.limited(mail)) {
      const open = await r.counters.add(`${LIMIT_COUNTER}:${to}`, windowMs, now);
      if (open.count > r.limit.max) return { to, max: r.limit.max, resetAt: open.resetAt, windowMs };
    }
    return null;
  }

  private overLimitError(o: { to: string; max: number; resetAt: number; windowMs: number }) {
    const wait = o.resetAt - this.deps.clock.now();
    return tooManyAttempts(
      `${o.to} has already had ${o.max} e-mails from the journal in ${windowText(o.windowMs)}, the most it sends one person: try again in ${waitText(wait)}.`,
      wait,
    );
  }

  /** One stable Message-ID per logged message: a copy sent twice (see decision 0022) is known as the same. */
  private messageId(logId: number) {
    return `<mail-${logId}@${this.deps.domain}>`;
  }

  /** The `mail.send` job: one attempt, its result in the log; "sent" is recorded with the job's completion. */
  private async deliver(payload: MailJob, ctx: JobContext): Promise<void> {
    const where = eq(mailLog.jobId, ctx.job.id);
    const [entry] = await this.db.select({ id: mailLog.id }).from(mailLog).where(where);
    let mail: Mail;
    try {
      mail = revealSecrets(payload.mail, payload.sealed ? openSecrets(payload.sealed, this.key) : []);
    } catch {
      const lastError =
        "its links' secrets cannot be read: the server's secret (SESSION_SECRET) has changed since it was queued";
      await this.db
        .update(mailLog)
        .set({ status: 'failed', lastError, attempts: ctx.job.attempt })
        .where(where);
      throw new PermanentJobError(lastError);
    }
    // Over a recipient's daily limit: held (not sent, not failed) until the limit's window opens again.
    const over = payload.office ? null : await this.countAgainstLimit(mail);
    if (over) {
      const until = new Date(over.resetAt).toISOString();
      const lastError = `Held: ${over.to} has had ${over.max} e-mails from the journal in ${windowText(over.windowMs)}, the limit; it is sent after ${until}.`;
      await this.db.update(mailLog).set({ lastError }).where(where);
      this.deps.log.warn(
        { job: ctx.job, to: over.to, until },
        'mail: held, its recipient has reached the daily limit of e-mails',
      );
      throw new DeferJobError(over.resetAt, lastError);
    }
    await this.db.update(mailLog).set({ attempts: ctx.job.attempt }).where(where);
    try {
      await this.deps.transport.send(mail, { messageId: this.messageId(entry?.id ?? ctx.job.id) });
    } catch (err) {
      const status = ctx.job.attempt >= ctx.job.maxAttempts ? 'failed' : 'queued';
      await this.db
        .update(mailLog)
        .set({ status, lastError: failure(err) })
        .where(where);
      throw err;
    }
    await ctx.complete((tx) =>
      tx.update(mailLog).set({ status: 'sent', sentAt: this.deps.clock.date() }).where(where),
    );
  }
}
