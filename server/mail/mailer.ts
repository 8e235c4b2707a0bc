import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

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
  send(mail: Mail): Promise<void>;
  /** Sends, and logs instead of throwing: for notices that must not undo the action they report. */
  sendQuietly(mail: Mail): Promise<boolean>;
  close(): void;
}

interface Logger {
  info(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * With SMTP_URL the mail goes to that server; without it each message is written as an .eml file under
 * DATA_DIR/outbox/, which any mail client opens.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string; log: Logger }): Mailer {
  const transport: Transporter = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

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
      await mkdir(opts.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(opts.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, (info as unknown as { message: Buffer }).message);
      opts.log.info({ to: mail.to, subject: mail.subject, file }, 'e-mail written to outbox');
    } else {
      opts.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'e-mail sent');
    }
  }

  return {
    send,
    async sendQuietly(mail) {
      try {
        await send(mail);
        return true;
      } catch (err) {
        opts.log.error({ err, to: mail.to, subject: mail.subject }, 'e-mail could not be sent');
        return false;
      }
    },
    close: () => transport.close(),
  };
}
