import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { journalMemberships, sessions, users } from '../../server/accounts/tables.ts';
import { auditLog } from '../../server/audit/tables.ts';
import {
  type TestContext,
  createTestContext,
  fixture,
  jwtPayload,
  multipart,
} from '../../server/testing/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

const registration = (over: Record<string, unknown> = {}) => ({
  username: 'ada',
  password: 'analytical-engine',
  email: 'ada@example.org',
  fullName: 'Ada Lovelace',
  contactNumber: '+44 20 7946 0000',
  institution: 'University of London',
  role: 'author',
  ...over,
});

const post = (url: string, payload: unknown, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as never,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

async function publishOneArticle(adminToken: string): Promise<number> {
  const h = { authorization: `Bearer ${adminToken}` };
  const vol = await t.app.inject({
    method: 'POST',
    url: '/api/editor/volume',
    headers: h,
    payload: { title: 'Volume 9', volume_number: 9, year: 2025 },
  });
  const issue = await t.app.inject({
    method: 'POST',
    url: '/api/editor/issue',
    headers: h,
    payload: { title: 'Issue 1', description: 'x', volume_id: vol.json().volume.id },
  });
  const body = await multipart(
    {
      title: 'Download me',
      abstract: 'A',
      keywords: 'k',
      pages: '3-9',
      doi: '10.5555/flow.1',
      issue_id: String(issue.json().issue.id),
      authors: JSON.stringify([{ name: 'N', email: 'n@example.org', affiliation: 'U' }]),
    },
    { pdf: { name: 'x.pdf', data: fixture('manuscript.pdf') } },
  );
  const up = await t.app.inject({
    method: 'POST',
    url: '/api/articles/admin/upload',
    headers: { ...h, ...body.headers },
    payload: body.payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  return up.json().article.id;
}

describe('registration', () => {
  it('registers a pending account with the approval notice', async () => {
    const res = await post('/api/auth/register', registration());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: MESSAGES.registrationNotice });
    const [row] = await t.services.db.select().from(users).where(eq(users.username, 'ada'));
    const [member] = await t.services.db
      .select()
      .from(journalMemberships)
      .where(eq(journalMemberships.userId, row.id));
    expect(member.status).toBe('pending');
    expect(member.role).toBe('author');
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('tells a researcher what a researcher waits for: nothing about uploading manuscripts (issue 22)', async () => {
    const res = await post(
      '/api/auth/register',
      registration({ username: 'reader22', email: 'reader22@example.org', role: 'researcher' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { message } = res.json();
    expect(message).toMatch(/^Registration successful\. Access to published articles requires approval/);
    expect(message).not.toMatch(/upload|manuscript|Authors/i);
  });

  it('refuses a taken username or e-mail, whatever the case, with 409', async () => {
    const again = await post(
      '/api/auth/register',
      registration({ username: 'ADA', email: 'other@example.org' }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('That username is already taken.');
    const email = await post(
      '/api/auth/register',
      registration({ username: 'ada2', email: 'Ada@Example.org' }),
    );
    expect(email.statusCode).toBe(409);
    expect(email.json().message).toBe('An account with that email address already exists.');
  });

  it.each([
    ['username', '', 'Username is required.'],
    ['password', 'short', 'Password must be at least 8 characters.'],
    ['email', 'not-an-email', 'Email must be a valid email address.'],
    ['fullName', '  ', 'Full name is required.'],
    ['contactNumber', '', 'Contact number is required.'],
    ['institution', '', 'Institution is required.'],
    ['role', 'admin', 'Role is required: choose researcher or author.'],
    ['role', 'editor', 'Role is required: choose researcher or author.'],
    ['role', undefined, 'Role is required: choose researcher or author.'],
  ])('refuses %s=%j with 400 and a message tied to the field', async (field, value, message) => {
    const res = await post(
      '/api/auth/register',
      registration({ username: 'newbie', email: 'newbie@example.org', [field]: value }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(message);
    const [row] = await t.services.db.select().from(users).where(eq(users.username, 'newbie'));
    expect(row).toBeUndefined();
  });

  it('answers 400, never 500, to wrong types, over-long strings and malformed JSON', async () => {
    expect((await post('/api/auth/register', { ...registration(), username: 42 })).statusCode).toBe(400);
    expect((await post('/api/auth/register', registration({ fullName: 'x'.repeat(5000) }))).statusCode).toBe(
      400,
    );
    expect((await post('/api/auth/register', [1, 2])).statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The request body is not valid JSON.');
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: 'username=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(415);
  });
});

describe('login and sessions', () => {
  it('returns a signed token carrying role, status, exp and the session id, and sets an httpOnly cookie', async () => {
    const res = await post('/api/auth/login', { username: 'ada', password: 'analytical-engine' });
    expect(res.statusCode).toBe(200);
    const { token, message } = res.json();
    expect(message).toMatch(/awaiting approval/);
    const claims = jwtPayload(token);
    expect(claims).toMatchObject({
      username: 'ada',
      role: 'author',
      status: 'pending',
      sub: expect.any(String),
    });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 7 * 3600);
    expect(claims.exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 8 * 3600);
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^colophon_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('accepts the username in any case', async () => {
    expect(
      (await post('/api/auth/login', { username: 'ADA', password: 'analytical-engine' })).statusCode,
    ).toBe(200);
  });

  it('refuses wrong credentials with 401 and the spec message, alike for unknown users', async () => {
    const wrong = await post('/api/auth/login', { username: 'ada', password: 'wrong-password' });
    const unknown = await post('/api/auth/login', { username: 'nobody-here', password: 'wrong-password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: MESSAGES.invalidLogin });
    }
  });

  it('requires username and password', async () => {
    const res = await post('/api/auth/login', { username: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      username: 'Username is required.',
      password: 'Password is required.',
    });
  });

  it('revokes the session on logout, for bearer tokens and cookies alike', async () => {
    const token = await t.login('ada', 'analytical-engine');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(200);
    const out = await post('/api/auth/logout', {}, token);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.statusCode).toBe(401);

    const cookieToken = await t.login('ada', 'analytical-engine');
    const cookie = { cookie: `colophon_session=${cookieToken}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: cookie })).statusCode).toBe(
      200,
    );
    // A browser says where the post comes from; the same post with no sign of its origin is refused.
    const bare = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: cookie });
    expect(bare.statusCode).toBe(403);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...cookie, host: 'journal.test', origin: 'http://journal.test' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: cookie })).statusCode).toBe(
      401,
    );
  });

  it('refuses forged, expired and garbage tokens', async () => {
    const token = await t.login('ada', 'analytical-engine');
    const [h, p] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...jwtPayload(token), role: 'admin' })).toString('base64url')}.${token.split('.')[2]}`;
    for (const bad of [forged, 'garbage', `${h}.${p}.`, '']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${bad}` },
      });
      expect(res.statusCode).toBe(401);
    }
    // A session past its end is refused even though its row exists.
    const claims = jwtPayload(token);
    await t.services.db
      .update(sessions)
      .set({ expiresAt: new Date(t.clock.now() - 1000) })
      .where(eq(sessions.id, String(claims.sid)));
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a cookie-authenticated write from another site, an opaque origin, or with no sign of its origin', async () => {
    const token = await t.login('ada', 'analytical-engine');
    const cookie = `colophon_session=${token}`;
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { referer: 'https://evil.example/page' },
      {},
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/subscription',
        headers: { cookie, host: 'journal.test', ...headers },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().message).toBe('Cross-site requests are not allowed.');
    }
    for (const headers of [
      { origin: 'http://journal.test' },
      { 'sec-fetch-site': 'same-origin' },
      { referer: 'http://journal.test/subscription' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/subscription',
        headers: { cookie, host: 'journal.test', ...headers },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBeLessThan(300);
    }
  });

  it("expires sessions after SESSION_TTL, by the services' clock", async () => {
    const short = await createTestContext({ SESSION_TTL: '2s' });
    try {
      // Tokens count whole seconds: start on one, so that 1.5 s later is surely before the end.
      short.clock.set(Math.ceil(Date.now() / 1000) * 1000);
      const token = await short.login('admin', 'admin-pass-123');
      const claims = jwtPayload(token);
      expect(Number(claims.exp) - Number(claims.iat)).toBe(2);
      const me = () =>
        short.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
        });
      short.clock.advance(1500);
      expect((await me()).statusCode).toBe(200);
      short.clock.advance(1000);
      expect((await me()).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('the whole road from registration to download', () => {
  it('register → login → 403 before approval → editor approves (e-mail) → download → logout → token refused', async () => {
    const adminToken = await t.login('admin', 'admin-pass-123');
    const articleId = await publishOneArticle(adminToken);

    expect(
      (
        await post(
          '/api/auth/register',
          registration({ username: 'grace', email: 'grace@example.org', role: 'researcher' }),
        )
      ).statusCode,
    ).toBe(201);
    const token = await t.login('grace', 'analytical-engine');
    const claims = jwtPayload(token);
    expect(claims).toMatchObject({ role: 'researcher', status: 'pending' });

    const anonymous = await t.app.inject({ method: 'GET', url: `/api/articles/${articleId}/download` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe(MESSAGES.downloadNeedsApproval);
    const before = await t.app.inject({
      method: 'GET',
      url: `/api/articles/${articleId}/download`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe(MESSAGES.downloadNeedsApproval);

    const editor = await t.createUser({ role: 'editor', status: 'approved' });
    const editorToken = await t.login(editor.username, editor.password);
    const pending = await t.app.inject({
      method: 'GET',
      url: '/api/editor/pending-users',
      headers: { authorization: `Bearer ${editorToken}` },
    });
    const grace = pending.json().find((u: { username: string }) => u.username === 'grace');
    expect(grace).toEqual({
      id: expect.any(Number),
      username: 'grace',
      email: 'grace@example.org',
      role: 'researcher',
    });

    const mailsBefore = t.mail.length;
    const approve = await post(`/api/editor/approve-user/${grace.id}`, undefined, editorToken);
    expect(approve.statusCode).toBe(200);
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({ to: 'grace@example.org', subject: expect.stringMatching(/approved/) }),
    ]);
    const stillPending = await t.app.inject({
      method: 'GET',
      url: '/api/editor/pending-users',
      headers: { authorization: `Bearer ${editorToken}` },
    });
    expect(stillPending.json().map((u: { id: number }) => u.id)).not.toContain(grace.id);
    const [audit] = await t.services.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(grace.id)));
    expect(audit).toMatchObject({ action: 'user.update', actorUsername: editor.username });

    // The same token works now: the guard reads the account's current status.
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/articles/${articleId}/download`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-type']).toBe('application/pdf');
    expect(after.headers['content-disposition']).toMatch(
      /^attachment; filename="[a-z0-9-]+-v9i1-\d+-download-me\.pdf"/,
    );
    expect(after.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(after.rawPayload.equals(fixture('manuscript.pdf'))).toBe(true);

    await post('/api/auth/logout', {}, token);
    const revoked = await t.app.inject({
      method: 'GET',
      url: `/api/articles/${articleId}/download`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.statusCode).toBe(401);
  });

  it('lets anyone download when the journal opens downloads', async () => {
    const journal = await t.services.settings.journal();
    await t.services.settings.set(t.services.db, 'journal', { ...journal, downloads: 'open' });
    try {
      const [first] = await t.services.catalog.papers();
      const res = await t.app.inject({ method: 'GET', url: `/api/articles/${first.id}/download` });
      expect(res.statusCode).toBe(200);
    } finally {
      await t.services.settings.set(t.services.db, 'journal', { ...journal, downloads: 'approved-accounts' });
    }
  });
});

describe("the editors' decision on a pending account", () => {
  it('rejects with an e-mail and signs the account out; refuses accounts not waiting for approval with 409', async () => {
    const editor = await t.createUser({ role: 'editor', status: 'approved' });
    const editorToken = await t.login(editor.username, editor.password);
    const pending = await t.createUser({ role: 'author', status: 'pending' });
    const pendingToken = await t.login(pending.username, pending.password);

    const mailsBefore = t.mail.length;
    const reject = await post(`/api/editor/reject-user/${pending.id}`, undefined, editorToken);
    expect(reject.statusCode, reject.body).toBe(200);
    expect(reject.json().user).toMatchObject({ id: pending.id, status: 'rejected' });
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({ to: pending.email, subject: expect.stringMatching(/registration/) }),
    ]);
    const signedOut = await t.app.inject({
      method: 'GET',
      url: '/api/user/subscription',
      headers: { authorization: `Bearer ${pendingToken}` },
    });
    expect(signedOut.statusCode).toBe(401);
    // Rejecting twice: nothing is waiting any more.
    const again = await post(`/api/editor/reject-user/${pending.id}`, undefined, editorToken);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This account is rejected, not waiting for approval.');

    // An editor's decision cannot reach accounts that are not waiting: a suspended one, another editor.
    const suspended = await t.createUser({ role: 'researcher', status: 'suspended' });
    const colleague = await t.createUser({ role: 'editor', status: 'approved' });
    const mails = t.mail.length;
    for (const [url, who] of [
      [`/api/editor/approve-user/${suspended.id}`, suspended],
      [`/api/editor/reject-user/${colleague.id}`, colleague],
    ] as const) {
      const res = await post(url, undefined, editorToken);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toMatch(/not waiting for approval\.$/);
      expect((await t.services.accounts.getUser(who.id)).status).toBe(
        who === suspended ? 'suspended' : 'approved',
      );
    }
    expect(t.mail.length).toBe(mails);
  });
});

describe('account administration', () => {
  it('changes roles and statuses, and a suspension ends open sessions at once', async () => {
    const adminToken = await t.login('admin', 'admin-pass-123');
    const u = await t.createUser({ role: 'author', status: 'approved' });
    const token = await t.login(u.username, u.password);

    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${u.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { role: 'editor' },
    });
    expect(promote.statusCode).toBe(200);
    expect(promote.json()).toMatchObject({ role: 'editor', status: 'approved' });
    // The old token (role author) now reaches the editorial API: the current role rules.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/editor/volumes',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(200);

    const suspend = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${u.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { status: 'suspended' },
    });
    expect(suspend.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(401);
    const login = await post('/api/auth/login', { username: u.username, password: u.password });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toMatch(/suspended/);
  });

  it('searches and filters users', async () => {
    const adminToken = await t.login('admin', 'admin-pass-123');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?q=ada&role=author',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().users.map((u: { username: string }) => u.username)).toEqual(['ada']);
    expect(res.json().users[0]).not.toHaveProperty('passwordHash');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?role=king',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses bad ids and changes with 4xx', async () => {
    const adminToken = await t.login('admin', 'admin-pass-123');
    const h = { authorization: `Bearer ${adminToken}` };
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/admin/users/abc',
          headers: h,
          payload: { role: 'editor' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/admin/users/999999',
          headers: h,
          payload: { role: 'editor' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/admin/users/1', headers: h, payload: {} }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/admin/users/1',
          headers: h,
          payload: { role: 'overlord' },
        })
      ).statusCode,
    ).toBe(400);
    const self = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/users/1',
      headers: h,
      payload: { status: 'suspended' },
    });
    expect(self.statusCode).toBe(409);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/editor/approve-user/99999999999', headers: h }))
        .statusCode,
    ).toBe(400);
  });
});

describe('rate limits', () => {
  it('answers 429 with a clear message once the login allowance is spent', async () => {
    const limited = await createTestContext({
      RATE_LIMIT_LOGIN: '3/1m',
      RATE_LIMIT_LOGIN_USER: 'off',
      RATE_LIMIT_REGISTER: '1/1h',
      RATE_LIMIT_CONTACT: '1/1h',
    });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'x', password: 'wrong-password' },
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const res = await attempt();
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toBe(MESSAGES.tooManyRequests);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

      const reg = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({
            username: `u${Math.random()}`.slice(0, 12).replace('.', ''),
            email: `${Math.random()}@example.org`,
          }),
        });
      expect((await reg()).statusCode).toBe(201);
      expect((await reg()).statusCode).toBe(429);
      const contact = () =>
        limited.app.inject({
          method: 'POST',
          url: '/contact',
          payload: { name: 'a', email: 'a@example.org', message: 'm' },
        });
      expect((await contact()).statusCode).toBe(200);
      expect((await contact()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('limits wrong passwords per username and address: that address waits, the others do not', async () => {
    const limited = await createTestContext({ RATE_LIMIT_LOGIN_USER: '2/1m' });
    try {
      const attempt = (password: string, remoteAddress = '203.0.113.66') =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'admin', password },
          remoteAddress,
        });
      expect((await attempt('nope-nope-1')).statusCode).toBe(401);
      limited.clock.advance(1000);
      expect((await attempt('nope-nope-2')).statusCode).toBe(401);
      expect((await attempt('admin-pass-123')).statusCode).toBe(429);
      expect((await attempt('admin-pass-123', '192.0.2.10')).statusCode).toBe(200);
      limited.clock.advance(60_000);
      expect((await attempt('admin-pass-123')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
