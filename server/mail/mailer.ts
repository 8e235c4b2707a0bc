import { randomBytes } from 'node:crypto';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { type FsOps, ensureDir, nodeFs } from '../storage.ts';

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

/**
 * The transport: one attempt at handing a message over (to SMTP, or to the outbox folder). Services do not
 * call it: they go through MailService (server/mail/service.ts), which queues, retries and logs.
 */
export interface Mailer {
  /** One attempt; throws when the message could not be written to the outbox or handed to SMTP. */
  send(mail: Mail, opts?: { messageId?: string }): Promise<void>;
  close(): Promise<void>;
}

interface Logger {
  info(obj: unknown, msg?: string): void;
}

/**
 * With SMTP_URL the mail goes to that server; without it each message is written as an .eml file under
 * DATA_DIR/outbox/, which any mail client opens (written beside and renamed, so no half-written message
 * appears there). One attempt per call: retries are the job queue's (MailService).
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: Logger;
  fs?: FsOps;
}): Mailer {
  const transport: Transporter = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const fs = opts.fs ?? nodeFs;
  const { log } = opts;

  return {
    async send(mail, { messageId } = {}) {
      const info = await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        replyTo: mail.replyTo,
        headers: mail.headers,
        messageId,
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
    },
    async close() {
      transport.close();
    },
  };
}
