import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../testing/harness.ts';
import { createMailer } from './mailer.ts';

const mail = {
  to: 'reader@example.org',
  subject: 'Your account is approved',
  text: 'Dear reader,\n\nWelcome.\n',
  replyTo: 'editor@example.org',
};

describe('mailer', () => {
  it('writes each message as an .eml file in the outbox when no SMTP server is configured', async () => {
    const outboxDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'colophon-mail-')), 'outbox');
    const mailer = createMailer({ from: 'editorial@journal.test', outboxDir, log: silentLog });
    await mailer.send(mail);
    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = readFileSync(path.join(outboxDir, files[0]), 'utf8');
    expect(eml).toMatch(/^From: editorial@journal\.test$/m);
    expect(eml).toMatch(/^To: reader@example\.org$/m);
    expect(eml).toMatch(/^Reply-To: editor@example\.org$/m);
    expect(eml).toMatch(/^Subject: Your account is approved$/m);
    expect(eml).toContain('Welcome.');
  });

  it('delivers through a real SMTP peer, from the journal address', async () => {
    const received: { from: string; to: string[]; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk) => {
          data += chunk;
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'editorial@journal.test',
      outboxDir: '/nonexistent',
      log: silentLog,
    });
    try {
      await mailer.send(mail);
      expect(received).toHaveLength(1);
      expect(received[0].from).toBe('editorial@journal.test');
      expect(received[0].to).toEqual(['reader@example.org']);
      // The From header too, not only the envelope: mail "from" a user's own address lands in spam (DMARC).
      expect(received[0].data).toMatch(/^From: editorial@journal\.test\r?$/m);
      expect(received[0].data).toMatch(/^Reply-To: editor@example\.org\r?$/m);
      expect(received[0].data).toContain('Subject: Your account is approved');
      expect(received[0].data).toContain('Content-Type: text/plain');
    } finally {
      await mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('throws when the SMTP server cannot be reached (retries are the job queue\'s: service.test.ts)', async () => {
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'a@journal.test',
      outboxDir: '/x',
      log: silentLog,
    });
    await expect(mailer.send(mail)).rejects.toThrow();
    await mailer.close();
  });
});
