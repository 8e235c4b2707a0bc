import { randomBytes } from 'node:crypto';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { type FsOps, describeFsError, ensureDir, nodeFs } from '../storage.ts';

export interface Mail {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Where replies go. The sender is always the journal's own address: mail "from" a user fails DMARC. */
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe on alerts. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** One attempt; throws when the message could not be written to the outbox or handed to SMTP. */
  send(mail: Mail): Promise<void>;
  /**
   * For notices that must not undo the action they report: never throws. True when delivered now; false
   * when it failed now and is retried in the background (with backoff, a bounded number of times, each
   * failure logged).
   */
  sendQuietly(mail: Mail): Promise<boolean>;
  /** Stops the retries: each message still waiting gets one last attempt, and any that fails is logged. */
  close(): Promise<void>;
}

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface RetryOptions {
  /** The wait before each retry; their number bounds the retries. */
  delays: number[];
  /** At most this many messages wait for a retry at once; past it a failed message is logged as lost. */
  maxWaiting: number;
  /** Runs `retry` after `ms` (a timer that does not keep the process alive); tests drive it by hand. */
  schedule(retry: () => Promise<unknown>, ms: number): { cancel(): void };
}

/** Five retries over about an hour and three quarters: a full disk freed, an SMTP server back up. */
export const DEFAULT_RETRY: RetryOptions = {
  delays: [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000],
  maxWaiting: 500,
  schedule(retry, ms) {
    const timer = setTimeout(() => void retry(), ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** How long stopping the server waits for the last attempts (the shutdown gives up after 15 s). */
const CLOSE_BUDGET_MS = 8_000;

/**
 * With SMTP_URL the mail goes to that server; without it each message is written as an .eml file under
 * DATA_DIR/outbox/, which any mail client opens (written beside and renamed, so no half-written message
 * appears there). A message that fails is retried in this process (in memory: messages still waiting when
 * the server stops get one last attempt, then are logged; a database queue is to replace this).
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: Logger;
  fs?: FsOps;
  retry?: Partial<RetryOptions>;
}): Mailer {
  const transport: Transporter = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const fs = opts.fs ?? nodeFs;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...opts.retry };
  const { log } = opts;

  async function send(mail: Mail): Promise<void> {
    const info = await transport.sendMail({
      from: opts.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      replyTo: mail.replyTo,
      headers: mail.headers,
    });
    if (!opts.smtpUrl) {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(opts.outboxDir, name);
      const tmp = path.join(opts.outboxDir, `.${name}.tmp`);
      try {
        await ensureDir(fs, opts.outboxDir);
        await fs.writeFile(tmp, (info as unknown as { message: Buffer }).message);
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      }
      log.info({ to: mail.to, subject: mail.subject, file }, 'e-mail written to outbox');
    } else {
      log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'e-mail sent');
    }
  }

  interface Waiting {
    mail: Mail;
    attempts: number;
    timer: { cancel(): void } | null;
  }
  const waiting = new Set<Waiting>();
  let closed = false;
  const about = (mail: Mail) => ({ to: mail.to, subject: mail.subject });

  /** After a failed attempt: the next retry, or the end of them. */
  function later(w: Waiting, err: unknown) {
    const delay = retry.delays[w.attempts - 1];
    if (closed || delay === undefined) {
      waiting.delete(w);
      log.error(
        { err, reason: describeFsError(err), ...about(w.mail), attempts: w.attempts },
        `e-mail not delivered after ${w.attempts} attempts; it is not retried any more`,
      );
      return;
    }
    if (!waiting.has(w) && waiting.size >= retry.maxWaiting) {
      log.error(
        { err, reason: describeFsError(err), ...about(w.mail) },
        `e-mail not delivered, and ${waiting.size} others already wait for a retry: not retried`,
      );
      return;
    }
    waiting.add(w);
    const level = w.attempts === 1 ? 'error' : 'warn';
    log[level](
      {
        err,
        reason: describeFsError(err),
        ...about(w.mail),
        attempt: w.attempts,
        retryInSeconds: delay / 1000,
      },
      `e-mail could not be sent (attempt ${w.attempts}); retrying in ${delay / 1000} s`,
    );
    w.timer = retry.schedule(() => attempt(w), delay);
  }

  async function attempt(w: Waiting): Promise<boolean> {
    w.timer = null;
    w.attempts++;
    try {
      await send(w.mail);
      waiting.delete(w);
      if (w.attempts > 1)
        log.info({ ...about(w.mail), attempts: w.attempts }, `e-mail delivered at attempt ${w.attempts}`);
      return true;
    } catch (err) {
      later(w, err);
      return false;
    }
  }

  return {
    send,
    sendQuietly: (mail) => attempt({ mail, attempts: 0, timer: null }),
    async close() {
      closed = true;
      const last = [...waiting];
      for (const w of last) w.timer?.cancel();
      // One last attempt each, within the shutdown's time: what is still under way then is logged as lost.
      let budget: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(last.map((w) => attempt(w))),
        new Promise((resolve) => {
          budget = setTimeout(resolve, CLOSE_BUDGET_MS);
          budget.unref();
        }),
      ]);
      clearTimeout(budget);
      for (const w of waiting) {
        log.error(
          { ...about(w.mail), attempts: w.attempts },
          'e-mail not delivered: the server stopped while it was still being retried',
        );
      }
      waiting.clear();
      transport.close();
    },
  };
}
