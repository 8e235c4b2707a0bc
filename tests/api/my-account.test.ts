import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_PROBLEMS } from '../../common/account.ts';
import { accountResponse, accountSessionResponse } from '../../common/api.ts';
import { emailChanges } from '../../server/accounts/tables.ts';
import { DAY, HOUR } from '../../server/clock.ts';
import { mailLog } from '../../server/mail/tables.ts';
import { createTestContext, type TestContext } from '../../server/testing/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown, remoteAddress?: string) =>
  t.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload: payload as never }),
    ...(remoteAddress ? { remoteAddress } : {}),
  });

async function account(role: 'researcher' | 'author' = 'researcher') {
  const user = await t.createUser({ role, status: 'approved' });
  return { ...user, token: await t.login(user.username, user.password) };
}

describe('GET and PATCH /api/account', () => {
  it("shows and edits one's own name, institution, contact number and ORCID iD", async () => {
    const me = await account();
    const before = await call('GET', '/api/account', me.token);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      username: me.username,
      email: me.email,
      orcid: null,
      pendingEmail: null,
    });
    // What the route answers is what it declares (the OpenAPI document's schema).
    expect(accountResponse.strict().safeParse(before.json()).error).toBeUndefined();

    const res = await call('PATCH', '/api/account', me.token, {
      fullName: 'Grace Hopper',
      institution: 'Yale University',
      contactNumber: '+1 203 432 4771',
      orcid: 'https://orcid.org/0000-0002-1825-0097',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      fullName: 'Grace Hopper',
      institution: 'Yale University',
      contactNumber: '+1 203 432 4771',
      orcid: '0000-0002-1825-0097',
    });
    // One field at a time; an empty ORCID iD removes it.
    expect((await call('PATCH', '/api/account', me.token, { orcid: '' })).json().orcid).toBeNull();
    expect((await call('GET', '/api/account', me.token)).json().fullName).toBe('Grace Hopper');
  });

  it('refuses bad values field by field with 400', async () => {
    const me = await account();
    const res = await call('PATCH', '/api/account', me.token, {
      fullName: ' ',
      contactNumber: 'call me',
      orcid: '0000-0002-1825-0098',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      fullName: 'Full name is required.',
      contactNumber: 'Contact number must be a phone number.',
      orcid: 'This ORCID iD has a wrong check digit: copy it from your ORCID record.',
    });
    expect((await call('PATCH', '/api/account', me.token, {})).statusCode).toBe(400);
    expect((await call('PATCH', '/api/account', me.token, { orcid: 42 })).statusCode).toBe(400);
    expect((await call('PATCH', '/api/account', undefined, { fullName: 'X' })).statusCode).toBe(401);
  });
});

describe('POST /api/account/password', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const me = await account();
    const other = await t.login(me.username, me.password);
    const wrong = await call('POST', '/api/account/password', me.token, {
      currentPassword: 'not-my-password',
      newPassword: 'a-better-password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ currentPassword: 'Your current password is not right.' });

    const short = await call('POST', '/api/account/password', me.token, {
      currentPassword: me.password,
      newPassword: 'short',
    });
    expect(short.json().errors).toEqual({ newPassword: 'New password must be at least 8 characters.' });

    const ok = await call('POST', '/api/account/password', me.token, {
      currentPassword: me.password,
      newPassword: 'a-better-password',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().endedSessions).toBe(1);
    expect((await call('GET', '/api/auth/me', me.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', other)).statusCode).toBe(401);
    await t.login(me.username, 'a-better-password');
    expect(t.mail.at(-1)).toMatchObject({
      to: me.email,
      subject: expect.stringMatching(/password was changed/),
    });
  });

  it('counts wrong current passwords as failed sign-ins (slowed like the login)', async () => {
    const limited = await createTestContext({ RATE_LIMIT_LOGIN_USER: '5/15m' });
    try {
      const user = await limited.createUser({ role: 'researcher', status: 'approved' });
      const token = await limited.login(user.username, user.password);
      const change = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/account/password',
          headers: { authorization: `Bearer ${token}` },
          payload: { currentPassword: 'guess-guess', newPassword: 'a-better-password' },
        });
      expect((await change()).statusCode).toBe(400);
      expect((await change()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('changing the e-mail address', () => {
  const confirmLink = (to: string) => {
    const mail = t.mail.filter((m) => m.to === to && m.subject.startsWith('Confirm your new e-mail')).at(-1);
    const m = /http:\/\/journal\.test\/account\/email\/confirm\?token=([\w-]+)/.exec(mail?.text ?? '');
    if (!m) throw new Error(`no confirmation link to ${to}`);
    return m[1];
  };

  it('sends a link to the new address, tells the old one, and changes nothing until it is opened', async () => {
    const me = await account();
    const res = await call('POST', '/api/account/email', me.token, {
      email: 'New.Me@example.net',
      password: me.password,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().pendingEmail.email).toBe('New.Me@example.net');
    expect(
      t.mail.find(
        (m) => m.to === me.email && /change of your .* e-mail address was requested/.test(m.subject),
      )?.text,
    ).toContain('New.Me@example.net');
    const profile = (await call('GET', '/api/account', me.token)).json();
    expect(profile.email).toBe(me.email);
    expect(profile.pendingEmail).toMatchObject({ email: 'New.Me@example.net' });
    expect(accountResponse.strict().safeParse(profile).error).toBeUndefined();

    const token = confirmLink('New.Me@example.net');
    expect(await t.services.myAccount.checkEmailLink(token)).toEqual({
      ok: true,
      email: 'New.Me@example.net',
      username: me.username,
    });
    const done = await call('POST', '/api/account/email/confirm', undefined, { token });
    expect(done.statusCode, done.body).toBe(200);
    expect((await call('GET', '/api/account', me.token)).json()).toMatchObject({
      email: 'New.Me@example.net',
      pendingEmail: null,
    });
    expect(t.mail.at(-1)).toMatchObject({
      to: me.email,
      subject: expect.stringMatching(/e-mail address was changed/),
    });
    expect((await call('POST', '/api/account/email/confirm', undefined, { token })).json().message).toBe(
      LINK_PROBLEMS.used,
    );
  });

  it('refuses a wrong password, an address in use (any case), its own address, and bad input', async () => {
    const me = await account();
    const other = await account();
    const ask = (payload: unknown) => call('POST', '/api/account/email', me.token, payload);
    expect((await ask({ email: 'fresh@example.net', password: 'wrong-one' })).json().errors).toEqual({
      password: 'Your current password is not right.',
    });
    const taken = await ask({ email: other.email.toUpperCase(), password: me.password });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ email: 'An account with that email address already exists.' });
    expect((await ask({ email: me.email, password: me.password })).statusCode).toBe(400);
    expect((await ask({ email: 'not an address', password: me.password })).json().errors).toEqual({
      email: 'New email must be a valid email address.',
    });
  });

  it('refuses a link once it expired, and an address taken meanwhile with 409', async () => {
    const me = await account();
    await call('POST', '/api/account/email', me.token, { email: 'late@example.net', password: me.password });
    const late = confirmLink('late@example.net');
    t.clock.advance(DAY + HOUR);
    expect(
      (await call('POST', '/api/account/email/confirm', undefined, { token: late })).json().message,
    ).toBe(LINK_PROBLEMS.expired);

    // A day later the sign-in has ended too (SESSION_TTL 8h): sign in again.
    const token = await t.login(me.username, me.password);
    await call('POST', '/api/account/email', token, {
      email: 'contested@example.net',
      password: me.password,
    });
    const contested = confirmLink('contested@example.net');
    const rival = await account();
    await call('POST', '/api/account/email', rival.token, {
      email: 'contested@example.net',
      password: rival.password,
    });
    expect(
      (
        await call('POST', '/api/account/email/confirm', undefined, {
          token: confirmLink('contested@example.net'),
        })
      ).statusCode,
    ).toBe(200);
    const refused = await call('POST', '/api/account/email/confirm', undefined, { token: contested });
    expect(refused.statusCode).toBe(409);
    expect((await call('GET', '/api/account', token)).json().email).toBe(me.email);
  });

  it('queues both e-mails with the request: a new address at its daily limit is refused at once, and nothing is kept', async () => {
    const limited = await createTestContext({ MAIL_LIMIT_RECIPIENT: '1/1d' });
    try {
      const user = await limited.createUser({ role: 'researcher', status: 'approved' });
      const token = await limited.login(user.username, user.password);
      const ask = (email: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/account/email',
          headers: { authorization: `Bearer ${token}` },
          payload: { email, password: user.password },
        });
      // Not sent yet, but queued: in the mail log with the request, before any job has run.
      const first = await limited.injectOnly({
        method: 'POST',
        url: '/api/account/email',
        headers: { authorization: `Bearer ${token}` },
        payload: { email: 'first@example.net', password: user.password },
      });
      expect(first.statusCode, first.body).toBe(202);
      const queued = await limited.services.db.select().from(mailLog);
      expect(queued.map((m) => [m.recipients, m.status]).sort()).toEqual([
        ['first@example.net', 'queued'],
        [user.email, 'queued'],
      ]);
      await limited.runJobs();
      expect(limited.mail.map((m) => m.to).sort()).toEqual(['first@example.net', user.email].sort());
      // The new address has had its one e-mail of the day: refused at once, and the request not stored.
      const again = await ask('first@example.net');
      expect(again.statusCode).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
      const pending = await limited.services.db
        .select()
        .from(emailChanges)
        .where(eq(emailChanges.userId, user.id));
      expect(pending).toHaveLength(1);
      expect(await limited.services.db.select().from(mailLog)).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  it('lists only my open sessions, marks this one, ends one or all the others', async () => {
    const me = await account();
    const laptop = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: me.username, password: me.password },
      headers: { 'user-agent': 'Laptop browser' },
      remoteAddress: '192.0.2.44',
    });
    const laptopToken = laptop.json().token as string;
    const phone = await t.login(me.username, me.password);
    const someoneElse = await account();

    const list = (await call('GET', '/api/account/sessions', me.token)).json() as {
      id: string;
      current: boolean;
      userAgent: string | null;
      ip: string | null;
      lastSeenAt: string | null;
    }[];
    expect(list).toHaveLength(3);
    for (const item of list) expect(accountSessionResponse.strict().safeParse(item).error).toBeUndefined();
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const laptopSession = list.find((s) => s.userAgent === 'Laptop browser')!;
    expect(laptopSession).toMatchObject({ ip: '192.0.2.44', current: false, lastSeenAt: expect.any(String) });

    // Not someone else's session: 404, as if it did not exist.
    const theirs = (await call('GET', '/api/account/sessions', someoneElse.token)).json()[0].id;
    expect((await call('DELETE', `/api/account/sessions/${theirs}`, me.token)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/account/sessions/not-a-uuid', me.token)).statusCode).toBe(400);

    expect((await call('DELETE', `/api/account/sessions/${laptopSession.id}`, me.token)).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/api/auth/me', laptopToken)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/account/sessions/${laptopSession.id}`, me.token)).statusCode).toBe(
      404,
    );

    const others = await call('POST', '/api/account/sessions/end-others', me.token);
    expect(others.json()).toMatchObject({ ended: 1 });
    expect((await call('GET', '/api/auth/me', phone)).statusCode).toBe(401);
    expect((await call('GET', '/api/auth/me', me.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', someoneElse.token)).statusCode).toBe(200);

    // Ending the current session signs out.
    const mine = (await call('GET', '/api/account/sessions', me.token)).json()[0].id;
    const out = await call('DELETE', `/api/account/sessions/${mine}`, me.token);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/colophon_session=;/);
    expect((await call('GET', '/api/auth/me', me.token)).statusCode).toBe(401);
  });

  it("refreshes a session's last-seen time at most every five minutes, by the clock", async () => {
    const me = await account();
    const lastSeen = async () => (await call('GET', '/api/account/sessions', me.token)).json()[0].lastSeenAt;
    const first = await lastSeen();
    t.clock.advance(60_000);
    expect(await lastSeen()).toBe(first);
    t.clock.advance(5 * 60_000);
    expect(await lastSeen()).toBe(t.clock.date().toISOString());
  });
});
