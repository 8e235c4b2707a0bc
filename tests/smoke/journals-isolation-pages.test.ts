import type { RouteConfigEntry } from '@react-router/dev/routes';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import routes from '../../app/routes.ts';
import { hashPassword } from '../../server/accounts/passwords.ts';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import {
  createIssue,
  createVolume,
  inviteReviewer,
  moveSubmission,
  publishArticle,
  submitManuscript,
} from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture } from '../../server/testing/harness.ts';

/**
 * The pages' half of tests/api/journals-isolation.test.ts (issue 24), on the production build (`npm run build`
 * first): journal A's editor and admin, signed in at A (`/`), find nothing of journal B's (`/jb`) on any page
 * of the app: every page without a parameter names none of B's markers, and every page with one answers B's
 * real id exactly as an id that exists nowhere, at A's address and at B's. The pages come from app/routes.ts, so
 * a page added later is visited without being listed here.
 */
let t: TestContext;

const MARK = {
  title: 'Zqx-isolation-marker in sensor networks',
  authorName: 'Quillon Zqxauthor',
  authorEmail: 'zqx-author-b@example.org',
  reviewerEmail: 'zqx-reviewer-b@example.org',
  reviewText: 'Zqx-review-text: the sampling bound needs a second proof.',
  manuscriptName: 'Zqx-manuscript-file.pdf',
  contactText: 'Zqx-contact-message for journal B only',
} as const;
const MARKERS: string[] = [...Object.values(MARK), 'zqx-editor-b@example.org'];
const B_PUBLISHED = 'Published Zqxpublished article of B';

type IdKind = 'submission' | 'assignment' | 'file' | 'article';
/** What each page parameter names, by the page's path up to it; a parameter not here fails the test. */
const PARAMS: Record<string, IdKind | { literal: string }> = {
  'article/:id': 'article',
  'articles/:id': 'article',
  'download/:id': 'article',
  'my-submissions/:id': 'submission',
  'reviews/:id': 'assignment',
  'reviews/:id/files/:fileId': 'file',
  'editor-dashboard/submissions/:id': 'submission',
  'templates/:file': { literal: 'manuscript-template.docx' },
  'editor-dashboard/content/:slug': { literal: 'about' },
  // The site admin's import runs are the site's (every journal's, decision 0069): no record of B's to hide
  // from A's pages; a run that exists nowhere is answered alike at both addresses.
  'admin/imports/:id': { literal: '987654' },
};
const bIds = {} as Record<IdKind, number>;

const cookie = { editor: '', admin: '', bEditor: '' };

/** Every page's path in app/routes.ts (the catch-all left out). */
function pagePaths(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((e) => {
    const path = e.path === undefined ? parent : [parent, e.path].filter(Boolean).join('/');
    return [...(e.path !== undefined || e.index ? [path] : []), ...pagePaths(e.children ?? [], path)];
  });
}
const PAGES = [...new Set(pagePaths(routes))].filter((p) => p !== '*');

function fill(path: string, id: (kind: IdKind) => number): string {
  return path.replace(/:(\w+)/g, (_, _name, offset: number) => {
    const end = path.indexOf('/', offset);
    const prefix = end === -1 ? path : path.slice(0, end);
    const kind = PARAMS[prefix];
    if (!kind) throw new Error(`${path}: which record does ${prefix} name? Add it to PARAMS.`);
    return typeof kind === 'string' ? String(id(kind)) : kind.literal;
  });
}

const page = (url: string, session: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: `colophon_session=${session}` } });

/**
 * A page as it tells its reader: status, where it sends them, its text without what differs per request (the
 * scripts' nonce) and the id asked for, which every page may echo in its own address.
 */
function told(res: LightMyRequestResponse, ids: string[]) {
  // Only where an address holds it (`/7/`, `/7?`, `/7"`), or the page's data repeats the one asked for
  // (`"id",7,` in the streamed loader data): a bare number elsewhere is the page's own.
  const plain = (s: string) =>
    ids.reduce(
      (out, id) =>
        out
          .replace(new RegExp(`/${id}(?=[/?"#&\\\\]|$)`, 'g'), '/{id}')
          .replaceAll(`\\"id\\",${id},`, '\\"id\\",{id},'),
      s,
    );
  return {
    status: res.statusCode,
    location: plain(String(res.headers.location ?? '')),
    body: plain(res.body.replace(/nonce="[^"]*"/g, 'nonce=""')),
  };
}
const shown = (res: LightMyRequestResponse) => MARKERS.filter((m) => res.body.includes(m));

async function account(username: string, email: string, fullName: string) {
  const [row] = await t.services.db
    .insert(users)
    .values({
      username,
      passwordHash: await hashPassword('password-123'),
      email,
      fullName,
      contactNumber: '+91 44 1234 5678',
      institution: 'Zqx Institute',
    })
    .returning({ id: users.id });
  return { id: row.id, username, password: 'password-123' };
}

async function loginAt(prefix: string, username: string, password: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${prefix}/api/auth/login`,
    payload: { username, password },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

beforeAll(async () => {
  t = await createTestContext({}, { pages: true });
  const aEditor = await t.createUser({ role: 'editor', status: 'approved' });
  const aAdmin = await t.createUser({ role: 'admin', status: 'approved' });
  cookie.editor = await t.login(aEditor.username, aEditor.password);
  cookie.admin = await t.login(aAdmin.username, aAdmin.password);
  const aVolume = await createVolume(t, cookie.editor, { number: 1, year: 2026 });
  const aIssue = await createIssue(t, cookie.editor, { volumeId: aVolume.id });
  await publishArticle(t, cookie.editor, {
    issueId: aIssue.id,
    title: 'Plain article of A',
    doi: '10.5555/a.1',
  });

  // Journal B, its editor, author and reviewer members of B only.
  const bEditor = await account('zqx-editor-b', 'zqx-editor-b@example.org', 'Bea Zqxeditor');
  const B = (
    await t.services.journalAdmin.create({ title: 'Journal B', path: 'jb', editor: bEditor.username })
  ).id;
  const bAuthor = await account('zqx-author-b', MARK.authorEmail, MARK.authorName);
  const bReviewer = await account('zqx-reviewer-b', MARK.reviewerEmail, 'Rhea Reviewerb');
  await withJournal(B, () =>
    t.services.db.insert(journalMemberships).values([
      { userId: bAuthor.id, role: 'author', status: 'approved' },
      { userId: bReviewer.id, role: 'researcher', status: 'approved' },
    ]),
  );
  cookie.bEditor = await loginAt('/jb', bEditor.username, bEditor.password);
  const authorToken = await loginAt('/jb', bAuthor.username, bAuthor.password);
  const reviewerToken = await loginAt('/jb', bReviewer.username, bReviewer.password);
  const tb: TestContext = {
    ...t,
    app: {
      inject: (opts: { url: string }) => t.app.inject({ ...opts, url: `/jb${opts.url}` } as never),
    } as unknown as TestContext['app'],
  };
  const sub = await submitManuscript(
    tb,
    authorToken,
    {
      title: MARK.title,
      authors: [
        { name: MARK.authorName, email: MARK.authorEmail, affiliation: 'Zqx Institute', superscript: '1' },
      ],
    },
    {
      submissionFile: { name: MARK.manuscriptName, data: fixture('manuscript.pdf'), type: 'application/pdf' },
    },
  );
  bIds.submission = sub.id;
  await moveSubmission(tb, cookie.bEditor, sub.id, 'under_review');
  const { assignmentId } = await inviteReviewer(tb, cookie.bEditor, sub.id, {
    name: 'Rhea Reviewerb',
    email: MARK.reviewerEmail,
  });
  bIds.assignment = assignmentId;
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const accepted = await t.app.inject({
    method: 'POST',
    url: `/jb/api/reviews/${assignmentId}/accept`,
    headers: as(reviewerToken),
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const submitted = await t.app.inject({
    method: 'POST',
    url: `/jb/api/reviews/${assignmentId}/submit`,
    headers: as(reviewerToken),
    payload: { recommendation: 'major-revisions', commentsForAuthor: MARK.reviewText },
  });
  expect(submitted.statusCode, submitted.body).toBe(200);
  const detail = await t.app.inject({
    method: 'GET',
    url: `/jb/api/submissions/${sub.id}`,
    headers: as(cookie.bEditor),
  });
  bIds.file = detail.json().files[0].id;
  const contact = await t.app.inject({
    method: 'POST',
    url: '/jb/contact',
    payload: { name: MARK.authorName, email: MARK.authorEmail, message: MARK.contactText },
  });
  expect(contact.statusCode, contact.body).toBe(200);
  const bVolume = await createVolume(tb, cookie.bEditor, { number: 7, year: 2026 });
  const bIssue = await createIssue(tb, cookie.bEditor, { volumeId: bVolume.id });
  bIds.article = (
    await publishArticle(tb, cookie.bEditor, { issueId: bIssue.id, title: B_PUBLISHED, doi: '10.5555/b.1' })
  ).id;
}, 120_000);
afterAll(() => t?.close());

describe("A's editor's and admin's pages", () => {
  it('knows which record each page parameter names', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['editor-dashboard/submissions/:id', 'search', 'reviews/:id']),
    );
    for (const p of PAGES) expect(() => fill(p, () => 1), p).not.toThrow();
  });

  it("name nothing of B's on any page without a parameter", async () => {
    const urls = PAGES.filter((p) => !p.includes(':')).flatMap((p) => [`/${p}`, `/${p}?q=Zqx`]);
    urls.push('/search?q=isolation+marker', '/search?q=Zqxpublished');
    const problems: string[] = [];
    let rendered = 0;
    for (const [who, session] of Object.entries({ editor: cookie.editor, admin: cookie.admin })) {
      for (const url of urls) {
        const res = await page(url, session);
        if (res.statusCode === 200) rendered++;
        for (const m of shown(res)) problems.push(`${who}: ${url} shows “${m}”`);
        if (res.body.includes(B_PUBLISHED)) problems.push(`${who}: ${url} shows B's published article`);
      }
    }
    expect(rendered).toBeGreaterThan(urls.length);
    expect(problems).toEqual([]);
    // The desk does show A's own (the pages were rendered for A's editor).
    expect((await page('/editor-dashboard/articles', cookie.editor)).body).toContain('Plain article of A');
  });

  it("answer B's ids as ids that exist nowhere, at A's address and at B's", async () => {
    const problems: string[] = [];
    let compared = 0;
    for (const path of PAGES.filter((p) => p.includes(':'))) {
      for (const [who, session] of Object.entries({ editor: cookie.editor, admin: cookie.admin })) {
        for (const prefix of ['', '/jb']) {
          const realUrl = `${prefix}/${fill(path, (k) => bIds[k])}`;
          const noneUrl = `${prefix}/${fill(path, () => 987654)}`;
          const real = await page(realUrl, session);
          // B's published article is public at B's address: its pages there are the one exception.
          const publicAtB = prefix === '/jb' && PARAMS[path.split('/').slice(0, 2).join('/')] === 'article';
          if (publicAtB) continue;
          const none = await page(noneUrl, session);
          compared++;
          const used: string[] = [];
          fill(path, (k) => {
            used.push(String(bIds[k]));
            return bIds[k];
          });
          const a = told(real, used);
          const b = told(none, ['987654']);
          if (JSON.stringify(a) !== JSON.stringify(b))
            problems.push(
              `${who}: ${realUrl} ${a.status} ${a.location} ≠ ${noneUrl} ${b.status} ${b.location}${
                a.status === b.status ? ' (same status, other body)' : ''
              }`,
            );
          for (const m of shown(real)) problems.push(`${who}: ${realUrl} shows “${m}”`);
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it("are B's to see for B's editor (the markers and ids are real)", async () => {
    const desk = await page('/jb/editor-dashboard/submissions', cookie.bEditor);
    expect(desk.body).toContain(MARK.title);
    const detail = await page(`/jb/editor-dashboard/submissions/${bIds.submission}`, cookie.bEditor);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain(MARK.manuscriptName);
    expect((await page('/jb/editor-dashboard/messages', cookie.bEditor)).body).toContain(MARK.contactText);
    // And A's editor gets for it the page an id nobody has gets: 404.
    expect((await page(`/editor-dashboard/submissions/${bIds.submission}`, cookie.editor)).statusCode).toBe(
      404,
    );
  });
});
