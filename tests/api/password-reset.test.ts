import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_PROBLEMS } from '../../common/account.ts';
import { logRequest } from '../../server/accounts/links.ts';
import { RESET_JOB } from '../../server/accounts/password-reset.ts';
import { passwordResets } from '../../server/accounts/tables.ts';
import { HOUR, MINUTE } from '../../server/clock.ts';
import { jobs } from '../../server/jobs/tables.ts';
import { mailLog } from '../../server/mail/tables.ts';
import { createTestContext, type TestContext } from '../../server/testing/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

const ask = async (identifier: unknown, remoteAddress = '192.0.2.1', ctx = t) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/password-reset',
    payload: { identifier } as never,
    remoteAddress,
  });
  await ctx.runJobs();
  return res;
};
const confirm = (token: unknown, password: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    payload: { token, password } as never,
  });
const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
const resetMails = (to: string) =>
  t.mail.filter((m) => m.to === to && m.subject.startsWith('Choose a new password'));
const linkIn = (text: string) => {
  const m = /http:\/\/journal\.test\/reset-password\?token=([\w-]+)/.exec(text);
  if (!m) throw new Error(`no reset link in:\n${text}`);
  return m[1];
};

describe('forgotten password', () => {
  it('answers the same whether or not an account matches, and e-mails only a real account', async () => {
    const user = await t.createUser({ role: 'researcher', status: 'approved' });
    const known = await ask(user.username);
    const unknown = await ask('nobody-by-that-name');
    const unknownEmail = await ask('nobody@example.org');
    for (const res of [known, unknown, unknownEmail]) expect(res.statusCode).toBe(202);
    expect(new Set([known.body, unknown.body, unknownEmail.body]).size).toBe(1);
    expect(resetMails(user.email)).toHaveLength(1);
    expect(t.mail.filter((m) => m.to === 'nobody@example.org')).toHaveLength(0);
    // By e-mail address, in any case, too.
    await ask(user.email.toUpperCase());
    expect(resetMails(user.email)).toHaveLength(2);
  });

  it('answers before the account is even looked up: a stalled mail server does not hold the answer, nor lose the link', async () => {
    const user = await t.createUser({ role: 'researcher', status: 'approved' });
    const mailer = t.services.mailer;
    const original = mailer.send;
    let release = () => {};
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = () => {};
    const sendingStarted = new Promise<void>((resolve) => {
      reached = resolve;
    });
    mailer.send = async (mail) => {
      reached();
      await stalled;
      return original.call(mailer, mail);
    };
    let sending: Promise<number> | undefined;
    try {
      const res = await t.injectOnly({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { identifier: user.username },
      });
      expect(res.statusCode).toBe(202);
      // Answered with only a job queued: no account looked up, no link made yet.
      expect(
        await t.services.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id)),
      ).toEqual([]);
      expect(await t.services.jobs.list('queued')).toMatchObject([{ name: RESET_JOB }]);
      // The job makes the link and queues its e-mail; the sending waits on the stalled server.
      sending = t.runJobs();
      await sendingStarted;
      expect(resetMails(user.email)).toHaveLength(0);
      expect(
        await t.services.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id)),
      ).toHaveLength(1);
    } finally {
      release();
      await sending;
      mailer.send = original;
    }
    expect(resetMails(user.email)).toHaveLength(1);
  });

  it('keeps only a hash of the link, sets a new password once, and ends every session', async () => {
    const user = await t.createUser({ role: 'author', status: 'approved' });
    const sessionA = await t.login(user.username, user.password);
    const sessionB = await t.login(user.username, user.password);
    await ask(user.username);
    const token = linkIn(resetMails(user.email).at(-1)!.text);
    const rows = await t.services.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).not.toContain(token);
    expect(rows[0].expiresAt.getTime() - rows[0].createdAt.getTime()).toBe(HOUR);
    // Nor is the token in clear in the queued job or the mail log (decision 0022).
    const stored = JSON.stringify([
      await t.services.db.select().from(jobs),
      await t.services.db.select().from(mailLog).where(eq(mailLog.recipients, user.email)),
    ]);
    expect(stored).toContain('Choose a new password');
    expect(stored).toContain('[link removed]');
    expect(stored).not.toContain(token);

    expect(await t.services.passwordReset.check(token)).toEqual({ ok: true, username: user.username });
    const short = await confirm(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password).toBe('New password must be at least 8 characters.');

    const done = await confirm(token, 'a-brand-new-password');
    expect(done.statusCode, done.body).toBe(200);
    expect((await me(sessionA)).statusCode).toBe(401);
    expect((await me(sessionB)).statusCode).toBe(401);
    await expect(t.login(user.username, user.password)).rejects.toThrow(/401/);
    await t.login(user.username, 'a-brand-new-password');
    expect(t.mail.at(-1)?.subject).toMatch(/password was changed/);

    const again = await confirm(token, 'yet-another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(LINK_PROBLEMS.used);
  });

  it('refuses an expired link, an unknown one, and earlier links once one is used', async () => {
    const user = await t.createUser({ role: 'researcher', status: 'pending' });
    await ask(user.username);
    const first = linkIn(resetMails(user.email).at(-1)!.text);
    t.clock.advance(HOUR + MINUTE);
    expect((await confirm(first, 'a-brand-new-password')).json().message).toBe(LINK_PROBLEMS.expired);
    expect(await t.services.passwordReset.check(first)).toEqual({ ok: false, problem: 'expired' });

    expect((await confirm('not-a-real-token', 'a-brand-new-password')).json()).toMatchObject({
      message: LINK_PROBLEMS.unknown,
    });

    await ask(user.username);
    const second = linkIn(resetMails(user.email).at(-1)!.text);
    await ask(user.username);
    const third = linkIn(resetMails(user.email).at(-1)!.text);
    expect((await confirm(third, 'a-brand-new-password')).statusCode).toBe(200);
    expect((await confirm(second, 'another-new-password')).json().message).toBe(LINK_PROBLEMS.used);
  });

  it('sends at most three links an hour to one account, still answering the same', async () => {
    const user = await t.createUser({ role: 'researcher', status: 'approved' });
    for (let i = 0; i < 5; i++) expect((await ask(user.username)).statusCode).toBe(202);
    expect(resetMails(user.email)).toHaveLength(3);
    t.clock.advance(HOUR);
    await ask(user.username);
    expect(resetMails(user.email)).toHaveLength(4);
  });

  it('limits requests per address with 429', async () => {
    const limited = await createTestContext({ RATE_LIMIT_PASSWORD_RESET: '2/1h' });
    try {
      expect((await ask('a', '198.51.100.4', limited)).statusCode).toBe(202);
      expect((await ask('b', '198.51.100.4', limited)).statusCode).toBe(202);
      const third = await ask('c', '198.51.100.4', limited);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect((await ask('c', '198.51.100.5', limited)).statusCode).toBe(202);
    } finally {
      await limited.close();
    }
  });

  it('refuses bad input with 400, never 500', async () => {
    for (const identifier of ['', '   ', 42, null, 'x'.repeat(300), 'a\u0000b', 'a\ud800b']) {
      expect((await ask(identifier)).statusCode).toBe(400);
    }
    expect((await confirm(undefined, 'a-long-password')).statusCode).toBe(400);
    expect((await confirm('x'.repeat(500), 'a-long-password')).statusCode).toBe(400);
  });
});

describe('the request log', () => {
  it('never holds a working link: the logger main.ts makes hides ?token=', async () => {
    const lines: string[] = [];
    const log = pino(
      { level: 'info', serializers: { req: logRequest } },
      { write: (line: string) => lines.push(line) },
    );
    const app = Fastify({ loggerInstance: log });
    app.get('/reset-password', async () => 'page');
    await app.inject({ method: 'GET', url: '/reset-password?token=s3cret-Link_value&next=1' });
    await app.close();
    const logged = lines.join('');
    expect(logged).toContain('/reset-password?token=[hidden]&next=1');
    expect(logged).not.toContain('s3cret-Link_value');
  });
});
