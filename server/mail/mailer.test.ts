import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { faultyFs } from '../testing/faulty-fs.ts';
import { silentLog } from '../testing/harness.ts';
import { DEFAULT_RETRY, type RetryOptions, createMailer } from './mailer.ts';

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

  it('reports a failed delivery without throwing from sendQuietly', async () => {
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'a@journal.test',
      outboxDir: '/x',
      log: silentLog,
    });
    expect(await mailer.sendQuietly(mail)).toBe(false);
    await expect(mailer.send(mail)).rejects.toThrow();
    await mailer.close();
  });
});

/** Retries run when the test says so, not on a timer. */
function byHand() {
  const due: { run: () => Promise<unknown>; ms: number; cancelled: boolean }[] = [];
  const schedule: RetryOptions['schedule'] = (run, ms) => {
    const d = { run, ms, cancelled: false };
    due.push(d);
    return {
      cancel: () => {
        d.cancelled = true;
      },
    };
  };
  return {
    schedule,
    /** The waits asked for so far and not yet run. */
    waits: () => due.filter((d) => !d.cancelled).map((d) => d.ms),
    /** Runs the next retry now; returns the wait it had asked for. */
    async next(): Promise<number> {
      const d = due.shift();
      if (!d || d.cancelled) throw new Error('no retry is waiting');
      await d.run();
      return d.ms;
    },
  };
}

function capturingLog() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg: msg ?? '' });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const filesIn = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

describe('mailer: a message that cannot be written or sent is retried, not dropped', () => {
  const outbox = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'colophon-mail-')), 'outbox');

  it('a full disk: no half-written file, retried with growing waits, delivered once the disk has room', async () => {
    const outboxDir = outbox();
    const faults = faultyFs();
    const timers = byHand();
    const { lines, log } = capturingLog();
    const mailer = createMailer({
      from: 'editorial@journal.test',
      outboxDir,
      log,
      fs: faults.fs,
      retry: { schedule: timers.schedule },
    });
    faults.fail('ENOSPC');
    expect(await mailer.sendQuietly(mail)).toBe(false);
    expect(filesIn(outboxDir)).toEqual([]); // the half-written .tmp is gone
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        obj: expect.objectContaining({
          reason: 'the disk is full (ENOSPC)',
          to: mail.to,
          subject: mail.subject,
          retryInSeconds: 30,
        }),
      }),
    ]);
    expect(timers.waits()).toEqual([DEFAULT_RETRY.delays[0]]);

    expect(await timers.next()).toBe(30_000); // still full
    expect(filesIn(outboxDir)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', obj: { attempt: 2, retryInSeconds: 120 } });
    expect(timers.waits()).toEqual([DEFAULT_RETRY.delays[1]]);

    faults.heal();
    await timers.next();
    const files = filesIn(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[^.].*\.eml$/);
    expect(readFileSync(path.join(outboxDir, files[0]), 'utf8')).toContain('Welcome.');
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'e-mail delivered at attempt 3' });
    expect(timers.waits()).toEqual([]);
    await mailer.close();
  });

  it('is retried a bounded number of times, then given up with an error in the log', async () => {
    const outboxDir = outbox();
    const faults = faultyFs();
    const timers = byHand();
    const { lines, log } = capturingLog();
    const mailer = createMailer({
      from: 'a@journal.test',
      outboxDir,
      log,
      fs: faults.fs,
      retry: { schedule: timers.schedule },
    });
    faults.fail('EROFS');
    expect(await mailer.sendQuietly(mail)).toBe(false);
    const waited: number[] = [];
    while (timers.waits().length) waited.push(await timers.next());
    expect(waited).toEqual(DEFAULT_RETRY.delays);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      obj: { attempts: DEFAULT_RETRY.delays.length + 1, reason: 'it is on a read-only file system (EROFS)' },
      msg: expect.stringMatching(/not delivered after 6 attempts/),
    });
    expect(filesIn(outboxDir)).toEqual([]);
    await mailer.close();
  });

  it('on shutdown, a message still waiting gets one last attempt; one that fails again is logged', async () => {
    const outboxDir = outbox();
    const faults = faultyFs();
    const timers = byHand();
    const { lines, log } = capturingLog();
    const mailer = createMailer({
      from: 'a@journal.test',
      outboxDir,
      log,
      fs: faults.fs,
      retry: { schedule: timers.schedule },
    });
    faults.fail('EACCES');
    expect(await mailer.sendQuietly(mail)).toBe(false);
    expect(await mailer.sendQuietly({ ...mail, subject: 'Second' })).toBe(false);
    faults.heal();
    await mailer.close();
    expect(filesIn(outboxDir)).toHaveLength(2);
    expect(timers.waits()).toEqual([]); // the timers were cancelled

    const other = createMailer({
      from: 'a@journal.test',
      outboxDir: outbox(),
      log,
      fs: faults.fs,
      retry: { schedule: timers.schedule },
    });
    faults.fail('EACCES');
    expect(await other.sendQuietly(mail)).toBe(false);
    await other.close();
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      obj: { attempts: 2 },
      msg: expect.stringMatching(/not delivered/),
    });
  });

  it('keeps at most maxWaiting messages waiting; past that a failure is logged as not retried', async () => {
    const faults = faultyFs();
    const timers = byHand();
    const { lines, log } = capturingLog();
    const mailer = createMailer({
      from: 'a@journal.test',
      outboxDir: outbox(),
      log,
      fs: faults.fs,
      retry: { schedule: timers.schedule, maxWaiting: 1 },
    });
    faults.fail('ENOSPC');
    await mailer.sendQuietly(mail);
    await mailer.sendQuietly({ ...mail, subject: 'One too many' });
    expect(timers.waits()).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      obj: { subject: 'One too many' },
      msg: expect.stringMatching(/not retried/),
    });
    faults.heal();
    await mailer.close();
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
            const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(err);
            return;
          }
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const timers = byHand();
    const { lines, log } = capturingLog();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'editorial@journal.test',
      outboxDir: '/nonexistent',
      log,
      retry: { schedule: timers.schedule },
    });
    try {
      expect(await mailer.sendQuietly(mail)).toBe(false);
      expect(received).toHaveLength(0);
      expect(lines.at(-1)).toMatchObject({ level: 'error', obj: { retryInSeconds: 30 } });
      await timers.next();
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Subject: Your account is approved');
    } finally {
      await mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
