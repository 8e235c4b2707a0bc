import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERSHIP_MESSAGES } from '../../common/account.ts';
import type { Role, Status } from '../../common/roles.ts';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { asSite, withJournal } from '../../server/db/scope.ts';
import { createIssueInNewVolume, makeJournal, publishArticle } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * Accounts are the site's, roles the journal's (decision 0054), through the real HTTP layer: journal A is the
 * first journal at `/`, B and C answer at `/jb` and `/jc`, D at its own domain.
 */
let t: TestContext;
let B = 0;
let C = 0;
let D = 0;
let adminToken = '';

const prefix = (journal: number) => (journal === 1 ? '' : journal === B ? '/jb' : '/jc');

async function call(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  opts: { token?: string; payload?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
    ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
  });
  const json = String(res.headers['content-type']).startsWith('application/json') ? res.json() : null;
  return { status: res.statusCode, json, headers: res.headers };
}

/** Gives an existing account a role in another journal (a direct insert in that journal's scope). */
function addMembership(journal: number, userId: number, role: Role, status: Status) {
  return withJournal(journal, () =>
    t.services.db.insert(journalMemberships).values({ userId, role, status }),
  );
}

async function login(username: string, password: string, journal = 1) {
  const res = await call('POST', `${prefix(journal)}/api/auth/login`, { payload: { username, password } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.token as string;
}

const registration = (over: Record<string, string>) => ({
  username: 'newcomer',
  password: 'a-long-password',
  email: 'newcomer@example.org',
  fullName: 'Nadia Newcomer',
  contactNumber: '+44 20 7946 0000',
  institution: 'Somewhere',
  role: 'author',
  ...over,
});

beforeAll(async () => {
  t = await createTestContext();
  // Each journal with its settings and pages, and no member yet (the admin account is the site's, not B's).
  B = await makeJournal(t, { title: 'Journal B', path: 'jb' }, {}, { admin: null });
  C = await makeJournal(t, { title: 'Journal C', path: 'jc' }, {}, { admin: null });
  D = await makeJournal(t, { title: 'Journal D', domain: 'journal-d.example.org' }, {}, { admin: null });
  adminToken = await login('admin', 'admin-pass-123');
}, 120_000);

afterAll(() => t.close());

describe('one account, a role in each journal', () => {
  it('is an author in A, a researcher in B and an editor in C, whatever journal it signed in at', async () => {
    const who = await t.createUser({ role: 'author', status: 'approved' });
    await addMembership(B, who.id, 'researcher', 'approved');
    await addMembership(C, who.id, 'editor', 'approved');
    // Signed in at B: the token's claims say researcher, which no other journal believes.
    const token = await login(who.username, who.password, B);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ role: 'researcher', status: 'approved' });

    for (const [p, role] of [
      ['', 'author'],
      ['/jb', 'researcher'],
      ['/jc', 'editor'],
    ] as const) {
      const me = await call('GET', `${p}/api/auth/me`, { token });
      expect(me.status).toBe(200);
      expect(me.json).toMatchObject({ id: who.id, role, status: 'approved' });
      const desk = await call('GET', `${p}/api/editor/pending-users`, { token });
      expect(desk.status, p).toBe(role === 'editor' ? 200 : 403);
    }
  });

  it('approves downloads per journal: approved in B is not approved in A', async () => {
    const issueId = await createIssueInNewVolume(t, adminToken, { number: 31, year: 2026 });
    const article = await publishArticle(t, adminToken, {
      issueId,
      title: 'Per journal',
      doi: '10.1234/pj.1',
    });
    const who = await t.createUser({ role: 'researcher', status: 'pending' });
    await addMembership(B, who.id, 'researcher', 'approved');
    const token = await login(who.username, who.password);
    const download = () => call('GET', `/api/articles/${article.id}/download`, { token });
    expect((await download()).status).toBe(403);
    const editorA = await t.createUser({ role: 'editor', status: 'approved' });
    const editorToken = await login(editorA.username, editorA.password);
    expect((await call('POST', `/api/editor/approve-user/${who.id}`, { token: editorToken })).status).toBe(
      200,
    );
    expect((await download()).status).toBe(200);
  });
});

describe('signed in at a journal one is not a member of', () => {
  it('reads, has no role, and asks to join: a pending membership its editors approve', async () => {
    const who = await t.createUser({ role: 'author', status: 'approved' });
    const signedIn = await call('POST', '/jb/api/auth/login', {
      payload: { username: who.username, password: who.password },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.message).toBe(MEMBERSHIP_MESSAGES.notAMember);
    expect(signedIn.headers['set-cookie']).toMatch(/Path=\/(;|$)/);
    const token = signedIn.json.token as string;
    expect((await call('GET', '/jb/api/auth/me', { token })).json).toMatchObject({
      role: null,
      status: null,
    });
    expect((await call('GET', '/jb/api/articles/public/list', { token })).status).toBe(200);
    expect((await call('GET', '/jb/api/editor/pending-users', { token })).status).toBe(403);
    expect((await call('GET', '/jb/api/account', { token })).json).toMatchObject({
      username: who.username,
      role: null,
    });

    const joined = await call('POST', '/jb/api/auth/join', { token, payload: { role: 'researcher' } });
    expect(joined.status, JSON.stringify(joined.json)).toBe(201);
    expect(joined.json).toMatchObject({
      message: MEMBERSHIP_MESSAGES.joined,
      user: { role: 'researcher', status: 'pending' },
    });
    const again = await call('POST', '/jb/api/auth/join', { token, payload: { role: 'author' } });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(MEMBERSHIP_MESSAGES.alreadyMember);
    expect((await call('POST', '/jb/api/auth/join', { token, payload: { role: 'editor' } })).status).toBe(
      400,
    );
    // Its role in A is untouched.
    expect((await call('GET', '/api/auth/me', { token })).json).toMatchObject({
      role: 'author',
      status: 'approved',
    });

    const editorB = await t.createUser({ role: 'researcher', status: 'approved' });
    await addMembership(B, editorB.id, 'editor', 'approved');
    const editorToken = await login(editorB.username, editorB.password, B);
    const pending = await call('GET', '/jb/api/editor/pending-users', { token: editorToken });
    expect(pending.json).toContainEqual(expect.objectContaining({ id: who.id, role: 'researcher' }));
    const approve = await call('POST', `/jb/api/editor/approve-user/${who.id}`, { token: editorToken });
    expect(approve.status).toBe(200);
    expect((await call('GET', '/jb/api/auth/me', { token })).json).toMatchObject({
      role: 'researcher',
      status: 'approved',
    });
  });
});

describe("the site's own pages (no journal at the site's root)", () => {
  it('have no journal to join: refused, and no membership is written', async () => {
    const who = await t.createUser({ role: 'author', status: 'approved' });
    const user = await t.services.accounts.sessionUser(who.id);
    // The site's scope is what a request to the site's own host gets when no journal answers at its root.
    await expect(asSite(() => t.services.accounts.join(user, 'researcher'))).rejects.toMatchObject({
      code: 'not_found',
      message: MEMBERSHIP_MESSAGES.noJournalHere,
    });
    const memberships = await asSite(() =>
      t.services.db
        .select({ journalId: journalMemberships.journalId })
        .from(journalMemberships)
        .where(eq(journalMemberships.userId, who.id)),
    );
    expect(memberships).toEqual([{ journalId: 1 }]);
  });
});

describe('registering at journal B', () => {
  it("makes the site's account and a pending membership of B only", async () => {
    const res = await call('POST', '/jb/api/auth/register', {
      payload: registration({ role: 'researcher' }),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const [row] = await t.services.db.select().from(users).where(eq(users.username, 'newcomer'));
    const inB = await withJournal(B, () =>
      t.services.db.select().from(journalMemberships).where(eq(journalMemberships.userId, row.id)),
    );
    expect(inB).toEqual([expect.objectContaining({ role: 'researcher', status: 'pending' })]);
    const inA = await t.services.db
      .select()
      .from(journalMemberships)
      .where(eq(journalMemberships.userId, row.id));
    expect(inA).toEqual([]);
    const token = await login('newcomer', 'a-long-password', B);
    expect((await call('GET', '/api/auth/me', { token })).json).toMatchObject({ role: null });
    expect((await call('GET', '/jb/api/auth/me', { token })).json).toMatchObject({
      role: 'researcher',
      status: 'pending',
    });
  });

  it('answers a taken username or e-mail with the spec message, telling the owner to sign in and join', async () => {
    const taken = await call('POST', '/jb/api/auth/register', {
      payload: registration({ username: 'ADMIN', email: 'someone@example.org' }),
    });
    expect(taken.status).toBe(409);
    expect(taken.json.message).toBe('That username is already taken.');
    expect(taken.json.errors.username).toContain(MEMBERSHIP_MESSAGES.signInAndJoin);
    const email = await call('POST', '/jc/api/auth/register', {
      payload: registration({ username: 'someone', email: 'NEWCOMER@example.org' }),
    });
    expect(email.status).toBe(409);
    expect(email.json.message).toBe('An account with that email address already exists.');
    expect(email.json.errors.email).toContain(MEMBERSHIP_MESSAGES.signInAndJoin);
  });
});

describe("an editor or admin of A and B's members", () => {
  it('cannot list, approve, change or learn of them: the answers are those of an account that does not exist', async () => {
    const pendingB = await withJournal(B, () => t.createUser({ role: 'author', status: 'pending' }));
    const memberB = await withJournal(B, () => t.createUser({ role: 'researcher', status: 'approved' }));
    const editorA = await t.createUser({ role: 'editor', status: 'approved' });
    const editorToken = await login(editorA.username, editorA.password);
    const nobody = 987654;

    const pending = await call('GET', '/api/editor/pending-users', { token: editorToken });
    expect(pending.json.map((u: { id: number }) => u.id)).not.toContain(pendingB.id);
    for (const id of [pendingB.id, memberB.id]) {
      const approve = await call('POST', `/api/editor/approve-user/${id}`, { token: editorToken });
      const unknown = await call('POST', `/api/editor/approve-user/${nobody}`, { token: editorToken });
      expect([approve.status, approve.json]).toEqual([unknown.status, unknown.json]);
      expect(approve.status).toBe(404);
      const patch = await call('PATCH', `/api/admin/users/${id}`, {
        token: adminToken,
        payload: { role: 'editor' },
      });
      const patchUnknown = await call('PATCH', `/api/admin/users/${nobody}`, {
        token: adminToken,
        payload: { role: 'editor' },
      });
      expect([patch.status, patch.json]).toEqual([404, patchUnknown.json]);
    }
    const search = await call('GET', `/api/admin/users?q=${memberB.username}`, { token: adminToken });
    expect(search.json).toEqual({ users: [], total: 0 });
    // Nothing changed in B.
    const inB = await withJournal(B, () =>
      t.services.db
        .select({ role: journalMemberships.role, status: journalMemberships.status })
        .from(journalMemberships)
        .where(eq(journalMemberships.userId, pendingB.id)),
    );
    expect(inB).toEqual([{ role: 'author', status: 'pending' }]);
    // A's editor at B is nobody there; so is the site admin (running the site makes no one an editor).
    for (const token of [editorToken, adminToken]) {
      expect((await call('GET', '/jb/api/editor/pending-users', { token })).status).toBe(403);
      expect((await call('GET', '/jb/api/admin/users', { token })).status).toBe(403);
    }
  });

  it("B's admin manages B's members only, and the digest of B goes to B's editors about B's accounts", async () => {
    const adminB = await withJournal(B, () => t.createUser({ role: 'admin', status: 'approved' }));
    const tokenB = await login(adminB.username, adminB.password, B);
    const memberA = await t.createUser({ role: 'researcher', status: 'approved' });
    expect(
      (
        await call('PATCH', `/jb/api/admin/users/${memberA.id}`, {
          token: tokenB,
          payload: { role: 'editor' },
        })
      ).status,
    ).toBe(404);
    const list = await call('GET', '/jb/api/admin/users?limit=200', { token: tokenB });
    expect(list.json.users.map((u: { id: number }) => u.id)).not.toContain(memberA.id);
    expect(list.json.users.map((u: { id: number }) => u.id)).toContain(adminB.id);

    const waitingA = await t.createUser({ role: 'author', status: 'pending', username: 'waiting_in_a' });
    const waitingB = await withJournal(B, () =>
      t.createUser({ role: 'author', status: 'pending', username: 'waiting_in_b' }),
    );
    await t.services.settings.journal();
    const before = t.mail.length;
    // Each journal's pass, in its scope (the queue runs one per journal: decision 0058).
    for (const id of [1, B]) await withJournal(id, () => t.services.pendingDigest.run());
    await t.runJobs();
    const digests = t.mail.slice(before).filter((m) => /waiting/i.test(m.subject));
    const toB = digests.filter((m) => m.text.includes(waitingB.username));
    const toA = digests.filter((m) => m.text.includes(waitingA.username));
    expect(toB.map((m) => m.to)).toContain(adminB.email);
    expect(toB.every((m) => !m.text.includes(waitingA.username))).toBe(true);
    expect(toA.map((m) => m.to)).not.toContain(adminB.email);
    expect(toA.every((m) => !m.text.includes(waitingB.username))).toBe(true);
  });
});

describe('the site admin', () => {
  it('suspends an account everywhere and lifts it; a journal admin cannot', async () => {
    const who = await t.createUser({ role: 'author', status: 'approved' });
    await addMembership(B, who.id, 'author', 'approved');
    const token = await login(who.username, who.password, B);
    const adminB = await withJournal(B, () => t.createUser({ role: 'admin', status: 'approved' }));
    const tokenB = await login(adminB.username, adminB.password, B);
    const refused = await call('PATCH', `/jb/api/site/users/${who.id}`, {
      token: tokenB,
      payload: { suspended: true },
    });
    expect(refused.status).toBe(403);

    const suspend = await call('PATCH', `/jb/api/site/users/${who.id}`, {
      token: adminToken,
      payload: { suspended: true },
    });
    expect(suspend.status, JSON.stringify(suspend.json)).toBe(200);
    expect(suspend.json).toMatchObject({ id: who.id, suspended: true });
    expect((await call('GET', '/jb/api/auth/me', { token })).status).toBe(401);
    for (const p of ['', '/jb']) {
      const again = await call('POST', `${p}/api/auth/login`, {
        payload: { username: who.username, password: who.password },
      });
      expect(again.status).toBe(403);
      expect(again.json.message).toMatch(/suspended/);
    }
    expect(
      (await call('PATCH', `/api/site/users/${who.id}`, { token: adminToken, payload: { suspended: 'yes' } }))
        .status,
    ).toBe(400);
    expect(
      (await call('PATCH', `/api/site/users/987654`, { token: adminToken, payload: { suspended: true } }))
        .status,
    ).toBe(404);
    expect(
      (await call('PATCH', `/api/site/users/${who.id}`, { token: adminToken, payload: { suspended: false } }))
        .status,
    ).toBe(200);
    // Its memberships were left as they were.
    expect(await login(who.username, who.password, B)).toBeTruthy();
    const [m] = await withJournal(B, () =>
      t.services.db
        .select()
        .from(journalMemberships)
        .where(and(eq(journalMemberships.userId, who.id))),
    );
    expect(m).toMatchObject({ role: 'author', status: 'approved' });
  });
});

describe('sessions across addresses', () => {
  it("accepts a journal's own domain as same-site for cookie writes, and refuses another journal's", async () => {
    const who = await t.createUser({ role: 'author', status: 'approved' });
    await addMembership(D, who.id, 'author', 'approved');
    const host = 'journal-d.example.org';
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host },
      payload: { username: who.username, password: who.password },
    });
    expect(signedIn.statusCode).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
    expect(String(signedIn.headers['set-cookie'])).toMatch(/Path=\/(;|$)/);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { host, cookie } });
    expect(me.json()).toMatchObject({ id: who.id, role: 'author' });
    const join = (origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/join',
        headers: { host, cookie, origin },
        payload: { role: 'researcher' },
      });
    // Its own domain: same-site (the answer is the join's own 409: it is a member already).
    expect((await join(`https://${host}`)).statusCode).toBe(409);
    const foreign = await join('https://journal-other.example.org');
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe('Cross-site requests are not allowed.');
  });
});
