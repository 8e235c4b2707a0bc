import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { asSite, withJournal } from '../../server/db/scope.ts';
import { journals } from '../../server/journals/tables.ts';
import { settings } from '../../server/settings/tables.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { postManuscript } from '../../server/testing/factories.ts';
import { MESSAGES } from '../../common/messages.ts';

/**
 * The site admin's journals (issue 24, decision 0055), through the real HTTP layer: made at a path or a
 * domain with their first editor, every refusal, the new journal answering at its address with its own
 * settings and none of the first journal's content, a move keeping a 301 from the old address, and a
 * journal made whole or not at all.
 */
let t: TestContext;
let siteAdmin: Record<string, string>;
let editorAccount: { id: number; username: string; email: string; password: string };
let editor: Record<string, string>;

const list = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/admin/journals', headers });
const create = (payload: object, headers = siteAdmin) =>
  t.app.inject({ method: 'POST', url: '/api/admin/journals', headers, payload });

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  siteAdmin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  editorAccount = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(editorAccount.username, editorAccount.password)}` };
});
afterAll(() => t?.close());

describe('/api/admin/journals', () => {
  it('is the site admin’s alone: 401 signed out, 403 for a journal’s editor', async () => {
    expect((await list({})).statusCode).toBe(401);
    const res = await list(editor);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/site admin/);
    expect((await create({ title: 'X', path: 'x-journal', editor: 'admin' }, editor)).statusCode).toBe(403);
    const first = await list(siteAdmin);
    expect(first.statusCode).toBe(200);
    expect(first.json().journals).toEqual([
      expect.objectContaining({
        id: 1,
        path: null,
        domain: null,
        status: 'open',
        url: 'http://journal.test',
      }),
    ]);
    expect(first.json().journals[0].articles).toBeGreaterThan(0);
  });

  it('makes a journal at a path, with its own settings and pages, no demo content, and its first editor', async () => {
    const res = await create({
      title: 'Journal of Tidal Studies',
      path: 'Tides',
      editor: editorAccount.email,
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().journal;
    expect(made).toMatchObject({
      title: 'Journal of Tidal Studies',
      path: 'tides',
      domain: null,
      url: 'http://journal.test/tides',
      status: 'open',
      articles: 0,
      submissions: 0,
    });

    // Its settings are the first run's, named by its title; its pages are there; journal 1's are untouched.
    const own = await withJournal(made.id, () => t.services.settings.journal());
    expect(own.name).toBe('Journal of Tidal Studies');
    expect(own.doiPrefix).toBe((await t.services.settings.journal()).doiPrefix);
    expect((await t.services.settings.journal()).name).not.toBe('Journal of Tidal Studies');
    const keys = await asSite(() =>
      t.services.db.select({ key: settings.key }).from(settings).where(eq(settings.journalId, made.id)),
    );
    const firstKeys = await t.services.db.select({ key: settings.key }).from(settings);
    expect(keys.map((k) => k.key).sort()).toEqual(
      firstKeys
        .map((k) => k.key)
        .filter((k) => !k.startsWith('seed.'))
        .sort(),
    );

    // The first editor runs the journal: its admin, approved (decision 0062).
    const [member] = await asSite(() =>
      t.services.db
        .select()
        .from(journalMemberships)
        .where(
          and(eq(journalMemberships.journalId, made.id), eq(journalMemberships.userId, editorAccount.id)),
        ),
    );
    expect(member).toMatchObject({ role: 'admin', status: 'approved' });

    // Who made it is in the new journal's audit log, not in the first journal's.
    const audit = await withJournal(made.id, () => t.services.audit.page(10, 0));
    expect(audit.entries).toEqual([
      expect.objectContaining({
        action: 'journal.create',
        actorUsername: 'admin',
        targetId: String(made.id),
      }),
    ]);
    const firstAudit = await t.services.audit.page(50, 0);
    expect(firstAudit.entries.some((e) => e.action.startsWith('journal.'))).toBe(false);

    // It answers at its path, as itself, with no articles; the first journal keeps its own at `/`.
    const identify = await t.app.inject({ method: 'GET', url: '/tides/oai?verb=Identify' });
    expect(identify.statusCode).toBe(200);
    expect(identify.body).toContain('Journal of Tidal Studies');
    const articles = await t.app.inject({ method: 'GET', url: '/tides/api/articles/public/list' });
    expect(articles.statusCode).toBe(200);
    expect(JSON.stringify(articles.json())).not.toContain('"title"');
    const root = await t.app.inject({ method: 'GET', url: '/api/articles/public/list' });
    expect(JSON.stringify(root.json())).toContain('"title"');
    expect((await list(siteAdmin)).json().journals.map((j: { path: string | null }) => j.path)).toEqual([
      null,
      'tides',
    ]);
  });

  it('makes a journal at a domain, the first editor named by username', async () => {
    const res = await create({
      title: 'Harbour Review',
      domain: 'Harbour.Example.org',
      editor: editorAccount.username,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().journal).toMatchObject({
      domain: 'harbour.example.org',
      path: null,
      url: 'http://harbour.example.org',
    });
    const identify = await t.app.inject({
      method: 'GET',
      url: '/oai?verb=Identify',
      headers: { host: 'harbour.example.org' },
    });
    expect(identify.body).toContain('Harbour Review');
  });

  it('refuses each bad address and an unknown editor, in words, making nothing', async () => {
    const before = (await list(siteAdmin)).json().journals.length;
    const refused = async (payload: object, status: number, field: string, message: RegExp) => {
      const res = await create({ title: 'Refused', editor: 'admin', ...payload });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().errors?.[field] ?? res.json().message).toMatch(message);
    };
    await refused({ path: 'volumes' }, 400, 'path', /site’s own addresses/);
    await refused({ path: 'api' }, 400, 'path', /site’s own addresses/);
    await refused({ path: 'Not a path!' }, 400, 'path', /lower-case letters/);
    await refused({ path: 'tides' }, 409, 'path', /Journal of Tidal Studies/);
    await refused({ domain: 'https://x.example.org/' }, 400, 'domain', /host name/);
    await refused({ domain: 'journal.test' }, 400, 'domain', /site’s own address/);
    await refused({ domain: 'harbour.example.org' }, 409, 'domain', /Harbour Review/);
    await refused({}, 400, 'path', /path or a domain/);
    await refused({ path: 'both-ways', domain: 'both.example.org' }, 400, 'domain', /not both/);
    await refused(
      { path: 'nobody-edits', editor: 'no-such-person@example.org' },
      400,
      'editor',
      /No account/,
    );
    await refused({ path: 'untitled', title: '  ' }, 400, 'title', /title is required/);
    expect((await list(siteAdmin)).json().journals.length).toBe(before);
  });

  it('moves a journal to another path and to a domain, the old addresses answering 301', async () => {
    const made = (await create({ title: 'Moving Journal', path: 'moving', editor: 'admin' })).json().journal;
    const move = (payload: object, headers = siteAdmin) =>
      t.app.inject({ method: 'POST', url: `/api/admin/journals/${made.id}/move`, headers, payload });
    expect((await move({ path: 'moved' }, editor)).statusCode).toBe(403);

    const moved = await move({ path: 'moved' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().journal).toMatchObject({
      path: 'moved',
      url: 'http://journal.test/moved',
      aliases: ['/moving'],
    });
    const old = await t.app.inject({ method: 'GET', url: '/moving/volumes?page=2' });
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('http://journal.test/moved/volumes?page=2');
    expect((await t.app.inject({ method: 'GET', url: '/moved/oai?verb=Identify' })).body).toContain(
      'Moving Journal',
    );

    // Another journal may not take the old path: its links lead to the moved journal.
    const taken = await create({ title: 'Squatter', path: 'moving', editor: 'admin' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.path).toMatch(/was the address of the journal “Moving Journal”/);
    expect((await move({ path: 'tides' })).statusCode).toBe(409);

    const toDomain = await move({ domain: 'moving.example.org' });
    expect(toDomain.statusCode, toDomain.body).toBe(200);
    expect(toDomain.json().journal).toMatchObject({
      path: null,
      domain: 'moving.example.org',
      aliases: ['/moving', '/moved'],
    });
    const fromPath = await t.app.inject({ method: 'GET', url: '/moved/about' });
    expect(fromPath.statusCode).toBe(301);
    expect(fromPath.headers.location).toBe('http://moving.example.org/about');

    const moves = (await withJournal(made.id, () => t.services.audit.page(10, 0))).entries;
    expect(moves.filter((e) => e.action === 'journal.move').map((e) => e.details)).toEqual([
      { from: '/moved', to: 'moving.example.org' },
      { from: '/moving', to: '/moved' },
    ]);

    // And back to its first path: that address is its own again, not an alias.
    const back = await move({ path: 'moving' });
    expect(back.json().journal).toMatchObject({ path: 'moving', aliases: ['/moved', 'moving.example.org'] });
    const fromDomain = await t.app.inject({
      method: 'GET',
      url: '/about',
      headers: { host: 'moving.example.org' },
    });
    expect(fromDomain.statusCode).toBe(301);
    expect(fromDomain.headers.location).toBe('http://journal.test/moving/about');

    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/journals/999/move',
          headers: siteAdmin,
          payload: { path: 'nowhere' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('closes, archives and reopens a journal', async () => {
    const [tides] = (await list(siteAdmin))
      .json()
      .journals.filter((j: { path: string }) => j.path === 'tides');
    const status = (s: string, headers = siteAdmin) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/journals/${tides.id}/status`,
        headers,
        payload: { status: s },
      });
    expect((await status('closed', editor)).statusCode).toBe(403);
    expect((await status('closed')).json().journal.status).toBe('closed');
    expect(t.services.journals.get(tides.id)?.status).toBe('closed');
    expect((await status('archived')).json().journal.status).toBe('archived');
    expect((await status('open')).json().journal.status).toBe('open');
    expect((await status('deleted')).statusCode).toBe(400);
  });

  it('takes no new manuscript in a closed journal, and takes them again once reopened', async () => {
    const user = await t.createUser({ role: 'author', status: 'approved' });
    const author = await t.login(user.username, user.password);
    await t.services.journalAdmin.setStatus(1, { status: 'closed' });
    const refused = await postManuscript(t, author);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MESSAGES.journalClosed);
    await t.services.journalAdmin.setStatus(1, { status: 'open' });
    expect((await postManuscript(t, author)).statusCode).toBe(201);
  });

  it('makes a journal whole or not at all: a failure part-way leaves no journal, and the path free', async () => {
    const spy = vi.spyOn(t.services.settings, 'setDefault').mockImplementationOnce(async () => {
      throw new Error('the disk filled up');
    });
    await expect(
      t.services.journalAdmin.create({ title: 'Half Made', path: 'half-made', editor: 'admin' }),
    ).rejects.toThrow('the disk filled up');
    spy.mockRestore();
    const rows = await asSite(() =>
      t.services.db.select().from(journals).where(eq(journals.path, 'half-made')),
    );
    expect(rows).toEqual([]);
    expect(t.services.journals.list().some((j) => j.path === 'half-made')).toBe(false);
    const again = await create({ title: 'Half Made', path: 'half-made', editor: 'admin' });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('lets a journal editor of the new journal in no further: being its editor is not being the site admin', async () => {
    const [row] = await t.services.db
      .select({ siteAdmin: users.siteAdmin })
      .from(users)
      .where(eq(users.id, editorAccount.id));
    expect(row.siteAdmin).toBe(false);
    expect((await list(editor)).statusCode).toBe(403);
  });

  it('moves the first journal from the site’s root to a path (last: `/` is then the site’s own)', async () => {
    const name = (await t.services.settings.journal()).name;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/journals/1/move',
      headers: siteAdmin,
      payload: { path: 'first' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // The root has no address to keep as an alias: its old URLs are the site's now.
    expect(res.json().journal).toMatchObject({
      id: 1,
      path: 'first',
      aliases: [],
      url: 'http://journal.test/first',
    });
    expect(t.services.journals.rootJournal()).toBeNull();
    const identify = await t.app.inject({ method: 'GET', url: '/first/oai?verb=Identify' });
    expect(identify.body).toContain(name);
    const articles = await t.app.inject({ method: 'GET', url: '/first/api/articles/public/list' });
    expect(JSON.stringify(articles.json())).toContain('"title"');
  });
});
