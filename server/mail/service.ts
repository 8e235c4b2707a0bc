import { desc, eq } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { type JobContext, type JobQueue, PermanentJobError } from '../jobs/queue.ts';
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
}

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
}

export const MAIL_JOB = 'mail.send';

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
 * backoff, and each attempt's result kept in the mail log. `send(mail)` is for the few messages whose
 * failure the user must be told of at once (one attempt, in the request, logged too).
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
    },
  ) {
    this.key = mailSecretsKey(deps.secret);
    deps.jobs.define<MailJob>(MAIL_JOB, (payload, ctx) => this.deliver(payload, ctx));
  }

  /** Queues a message in the caller's transaction (or on its own with the database itself). */
  async queue(tx: Tx, mail: Mail, opts: MailOptions = {}): Promise<{ logId: number; created: boolean }> {
    const secrets = checkSecrets(mail, opts.secrets);
    const payload: MailJob = {
      mail: hideSecrets(mail, secrets),
      ...(secrets.length ? { sealed: sealSecrets(secrets, this.key) } : {}),
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

  /** Sends now, once, and logs it; throws when it could not be sent (the caller tells the user). */
  async send(mail: Mail, opts: Omit<MailOptions, 'key'> = {}): Promise<void> {
    const secrets = checkSecrets(mail, opts.secrets);
    const now = this.deps.clock.date();
    const [row] = await this.db
      .insert(mailLog)
      .values({
        queuedAt: now,
        recipients: recipientsOf(mail),
        subject: redactLinks(mail.subject, secrets),
        body: redactLinks(mail.text, secrets),
        submissionId: opts.submissionId ?? null,
        attempts: 1,
      })
      .returning({ id: mailLog.id });
    try {
      await this.deps.transport.send(mail, { messageId: this.messageId(row.id) });
    } catch (err) {
      await this.db
        .update(mailLog)
        .set({ status: 'failed', lastError: failure(err) })
        .where(eq(mailLog.id, row.id));
      throw err;
    }
    await this.db
      .update(mailLog)
      .set({ status: 'sent', sentAt: this.deps.clock.date() })
      .where(eq(mailLog.id, row.id));
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
