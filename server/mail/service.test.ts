import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, ManualClock, MINUTE, SECOND } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { JobQueue } from '../jobs/queue.ts';
import { jobs } from '../jobs/tables.ts';
import { faultyFs } from '../testing/faulty-fs.ts';
import { captureMailer, silentLog, testDatabase } from '../testing/harness.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { LINK_REMOVED } from './secrets.ts';
import { MailService } from './service.ts';
import { mailLog } from './tables.ts';

let database: Database;
let clock: ManualClock;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database?.close());
beforeEach(async () => {
  clock = new ManualClock(new Date('2026-05-01T08:00:00Z'));
  await database.db.delete(mailLog);
  await database.db.delete(jobs);
});

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

function mailService(transport: Mailer, secret = SECRET) {
  const queue = new JobQueue(database.db, { clock, log: silentLog });
  const mail = new MailService(database.db, {
    transport,
    jobs: queue,
    clock,
    secret,
    domain: 'journal.test',
    log: silentLog,
  });
  return { queue, mail };
}

const message = {
  to: 'reader@example.org',
  subject: 'Your account is approved',
  text: 'Dear reader,\n\nWelcome.\n',
};

const outbox = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'colophon-mail-')), 'outbox');
const filesIn = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const logRows = () => database.db.select().from(mailLog).orderBy(mailLog.id);

describe('queued e-mail', () => {
  it('a full disk: no half-written file, retried with backoff on the clock, delivered once there is room; each attempt in the log', async () => {
    const dir = outbox();
    const faults = faultyFs();
    const { queue, mail } = mailService(
      createMailer({ from: 'editorial@journal.test', outboxDir: dir, log: silentLog, fs: faults.fs }),
    );
    faults.fail('ENOSPC');
    await mail.queue(database.db, message);
    expect(await logRows()).toMatchObject([
      { status: 'queued', attempts: 0, recipients: 'reader@example.org' },
    ]);

    await queue.runDue();
    expect(filesIn(dir)).toEqual([]); // the half-written .tmp is gone
    expect(await logRows()).toMatchObject([
      { status: 'queued', attempts: 1, lastError: 'the disk is full (ENOSPC)' },
    ]);

    clock.advance(30 * SECOND - 1);
    expect(await queue.runDue()).toBe(0);
    clock.advance(1);
    await queue.runDue(); // still full
    expect(await logRows()).toMatchObject([{ status: 'queued', attempts: 2 }]);

    faults.heal();
    clock.advance(2 * MINUTE);
    await queue.runDue();
    const files = filesIn(dir);
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(dir, files[0]), 'utf8');
    expect(eml).toContain('Welcome.');
    const [row] = await logRows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    expect(row.sentAt?.getTime()).toBe(clock.now());
    // One Message-ID per logged message: a repeated copy would be recognisable as the same message.
    expect(eml).toMatch(new RegExp(`^Message-ID: <mail-${row.id}@journal\\.test>$`, 'm'));
  });

  it('gives up after its last attempt: failed in the log, with the reason, and kept as a failed job', async () => {
    const faults = faultyFs();
    const { queue, mail } = mailService(
      createMailer({ from: 'a@journal.test', outboxDir: outbox(), log: silentLog, fs: faults.fs }),
    );
    faults.fail('EROFS');
    await mail.queue(database.db, message);
    for (let i = 0; i < 8; i++) {
      await queue.runDue();
      clock.advance(HOUR);
    }
    expect(await logRows()).toMatchObject([
      { status: 'failed', attempts: 6, lastError: 'it is on a read-only file system (EROFS)', sentAt: null },
    ]);
    expect(await queue.list('failed')).toMatchObject([{ name: 'mail.send', attempts: 6 }]);
  });

  it('an SMTP server that refuses for a while (451): delivered on a retry', async () => {
    const received: string[] = [];
    let refusals = 1;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk) => {
          data += chunk;
        });
        stream.on('end', () => {
          if (refusals-- > 0) {
            callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
            return;
          }
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const transport = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'editorial@journal.test',
      outboxDir: '/nonexistent',
      log: silentLog,
    });
    const { queue, mail } = mailService(transport);
    try {
      await mail.queue(database.db, message);
      await queue.runDue();
      expect(received).toHaveLength(0);
      expect((await logRows())[0]).toMatchObject({
        status: 'queued',
        attempts: 1,
        lastError: expect.stringMatching(/451/),
      });
      clock.advance(30 * SECOND);
      await queue.runDue();
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Subject: Your account is approved');
      expect((await logRows())[0]).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('is neither logged nor sent when the transaction that queued it rolls back', async () => {
    const transport = captureMailer();
    const { queue, mail } = mailService(transport);
    await expect(
      database.db.transaction(async (tx) => {
        await mail.queue(tx, message);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await queue.runDue();
    expect(transport.sent).toEqual([]);
    expect(await logRows()).toEqual([]);
  });

  it('keeps the secrets of its links out of the job and the log, yet sends them', async () => {
    const transport = captureMailer();
    const { queue, mail } = mailService(transport);
    const token = 'Zm9vYmFyLXNlY3JldC10b2tlbi0xMjM0NTY3ODkwYWJj';
    const link = `http://journal.test/reset-password?token=${token}`;
    await mail.queue(
      database.db,
      {
        ...message,
        text: `Choose a new password: ${link}\n\nThe link works for an hour.\n`,
        html: `<a href="${link}">Choose</a>`,
        headers: { 'List-Unsubscribe': `<${link}>` },
      },
      { secrets: [token], key: 'reset:1' },
    );
    const [job] = await database.db.select().from(jobs);
    expect(JSON.stringify(job)).not.toContain(token);
    const [row] = await logRows();
    expect(row.body).toBe(`Choose a new password: ${LINK_REMOVED}\n\nThe link works for an hour.\n`);
    expect(JSON.stringify(row)).not.toContain(token);

    await queue.runDue();
    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0].text).toContain(link);
    expect(transport.sent[0].html).toBe(`<a href="${link}">Choose</a>`);
    expect(transport.sent[0].headers).toEqual({ 'List-Unsubscribe': `<${link}>` });

    // Queued again with its key: the same message, not a second one.
    expect(
      await mail.queue(database.db, { ...message, text: link }, { secrets: [token], key: 'reset:1' }),
    ).toEqual({
      logId: row.id,
      created: false,
    });
    expect(await logRows()).toHaveLength(1);
  });

  it('refuses a secret the message does not contain, or one too short to be a secret', async () => {
    const { mail } = mailService(captureMailer());
    await expect(
      mail.queue(database.db, message, { secrets: ['not-in-this-message-at-all'] }),
    ).rejects.toThrow(/does not contain/);
    await expect(mail.queue(database.db, message, { secrets: ['reader'] })).rejects.toThrow(/16 characters/);
    expect(await logRows()).toEqual([]);
  });

  it('fails at once, and says why, when the server secret changed since a message with secrets was queued', async () => {
    const transport = captureMailer();
    const before = mailService(transport, SECRET);
    const token = 'a-secret-token-of-some-length-0123456789';
    await before.mail.queue(
      database.db,
      { ...message, text: `Confirm: http://journal.test/c?token=${token}` },
      { secrets: [token] },
    );
    const after = mailService(transport, `${SECRET}-rotated`);
    await after.queue.runDue();
    expect(transport.sent).toEqual([]);
    expect((await logRows())[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/SESSION_SECRET/),
    });
    expect(await after.queue.list('failed')).toHaveLength(1);
  });
});

describe('the communication log of a submission', () => {
  it('lists its e-mails newest first, and only its own', async () => {
    const transport = captureMailer();
    const { queue, mail } = mailService(transport);
    const { users } = await import('../accounts/tables.ts');
    const { submissions } = await import('../submissions/tables.ts');
    const [user] = await database.db
      .insert(users)
      .values({
        username: 'logger',
        passwordHash: 'x',
        email: 'logger@example.org',
        fullName: 'L',
        contactNumber: '1',
        institution: 'I',
      })
      .returning({ id: users.id });
    const [a, b] = await database.db
      .insert(submissions)
      .values(
        ['COL-2026-9001', 'COL-2026-9002'].map((reference) => ({
          reference,
          userId: user.id,
          title: 'T',
          articleType: 'Research Article',
          keywords: 'k',
          abstract: 'a',
        })),
      )
      .returning({ id: submissions.id });
    await mail.queue(database.db, { ...message, subject: 'Received' }, { submissionId: a.id });
    clock.advance(MINUTE);
    await mail.queue(database.db, { ...message, subject: 'Other' }, { submissionId: b.id });
    clock.advance(MINUTE);
    await mail.queue(database.db, { ...message, subject: 'Decision' }, { submissionId: a.id });
    await mail.queue(database.db, { ...message, subject: 'Not about a submission' });
    await queue.runDue();
    const log = await mail.log(a.id);
    expect(log.map((m) => m.subject)).toEqual(['Decision', 'Received']);
    expect(log[0]).toMatchObject({
      recipients: 'reader@example.org',
      body: message.text,
      status: 'sent',
      attempts: 1,
      lastError: null,
      queuedAt: clock.date().toISOString(),
      sentAt: clock.date().toISOString(),
    });
    await database.db.delete(submissions).where(eq(submissions.userId, user.id));
    await database.db.delete(users).where(eq(users.id, user.id));
  });
});
