import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE as SITE_TAG } from '../../server/cache/dependencies.ts';
import { withJournal } from '../../server/db/scope.ts';
import { journalAliases, journals } from '../../server/journals/tables.ts';
import { barChartPng } from '../../server/seed/png.ts';
import { JOURNAL_KEY } from '../../server/settings/service.ts';
import {
  bearer,
  createIssueInNewVolume,
  makeJournal,
  publishArticle,
} from '../../server/testing/factories.ts';
import { createTestContext, multipart, type TestContext } from '../../server/testing/harness.ts';

/**
 * Every page and link of a journal at its path and on its own domain, and the site's home (decision 0056),
 * through the page bridge of the production build (`npm run build` first).
 */
let t: TestContext;
let admin: string;

const SITE = 'journal.test';
const get = (url: string, host = SITE, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...headers } });

/** Root-relative addresses of a page's links, forms and scripts' context (`href="/…"`, `action="/…"`). */
const linksOf = (html: string) => [...html.matchAll(/(?:href|action)="(\/[^"/][^"]*|\/)"/g)].map((m) => m[1]);

beforeAll(async () => {
  t = await createTestContext({}, { pages: true });
  admin = await t.login('admin', 'admin-pass-123');
}, 120_000);
afterAll(() => t?.close());

describe('one journal: every URL as today', () => {
  const pages = [
    '/',
    '/home',
    '/about',
    '/overview',
    '/indexing',
    '/editorial-board',
    '/instructions',
    '/apc',
    '/ethics',
    '/copyright',
    '/open-special-issues',
    '/closed-special-issues',
    '/special-issues',
    '/volumes',
    '/subscription',
    '/contact',
    '/search?q=test',
    '/plagiarism',
    '/login',
    '/regist',
    '/forgot-password',
  ];
  it('answers the spec’s pages at the root, with root links and no basename', async () => {
    for (const url of pages) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toMatch(/"basename":"\/[^"]/);
      const links = linksOf(res.body);
      expect(links, url).toContain('/volumes');
      expect(links, url).toContain('/login');
    }
    for (const url of ['/api/openapi.json', '/oai?verb=Identify', '/sitemap.xml', '/robots.txt', '/feed.rss'])
      expect((await get(url)).statusCode, url).toBe(200);
    const submission = await get('/submission');
    expect(submission.statusCode).toBe(302);
    expect(submission.headers.location).toMatch(/^\/login\?redirectTo=%2Fsubmission/);
    expect((await get('/no-such-page')).statusCode).toBe(404);
  });
});

/** A journal's own description, which the site's home shows on its card. */
const describedAs = (title: string) => ({
  description: `${title} publishes research about ${title.toLowerCase()}.`,
});

describe('several journals: by path, by domain, and the site’s home', () => {
  let alpha: number;
  let gamma: number;
  let articleId: number;

  beforeAll(async () => {
    // Journal 1 moves to a path: nothing is at the site's root, which becomes the site's home.
    await t.services.db.update(journals).set({ path: 'first' }).where(eq(journals.id, 1));
    alpha = await makeJournal(t, { title: 'Alpha Studies', path: 'alpha' }, describedAs('Alpha Studies'));
    await makeJournal(t, { title: 'Beta Letters', path: 'beta' }, describedAs('Beta Letters'));
    gamma = await makeJournal(
      t,
      { title: 'Gamma Review', domain: 'journal-c.test' },
      describedAs('Gamma Review'),
    );
    await makeJournal(
      t,
      { title: 'Old Archive', path: 'archive', status: 'archived' },
      describedAs('Old Archive'),
    );
    await t.services.db.insert(journalAliases).values([
      { journalId: alpha, kind: 'path', value: 'old-alpha' },
      { journalId: gamma, kind: 'domain', value: 'old-c.test' },
    ]);
    await t.services.journals.load();
    // An article in the journal on its own domain, made through its API.
    const as = { ...bearer(admin), host: 'journal-c.test' };
    const issueId = await createIssueInNewVolume(t, as, { number: 1, year: 2026 });
    articleId = (await publishArticle(t, as, { issueId, title: 'Gamma’s first article', doi: '10.5555/g.1' }))
      .id;
  }, 120_000);

  it('serves a path journal’s pages under its path, with every link, form and the basename under it', async () => {
    for (const url of [
      '/alpha',
      '/alpha/',
      '/alpha/volumes',
      '/alpha/about',
      '/alpha/login',
      '/alpha/contact',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('Alpha Studies');
      expect(res.body, url).toContain('"basename":"/alpha"');
      const links = linksOf(res.body).filter((l) => !/^\/(assets|favicon)/.test(l));
      expect(links.length, url).toBeGreaterThan(5);
      for (const link of links) expect(link, url).toMatch(/^\/alpha(\/|$)/);
    }
    // The header's name leads to the journal's home.
    expect((await get('/alpha/volumes')).body).toMatch(/<a class="brand" href="\/alpha"/);
    // Another journal's pages are its own (kept pages included: asked twice).
    for (let i = 0; i < 2; i++) {
      const beta = await get('/beta/');
      expect(beta.body).toContain('Beta Letters');
      expect(beta.body).not.toContain('Alpha Studies');
    }
    // React Router's data requests, as a navigation in the browser makes them.
    const data = await get('/alpha/volumes.data');
    expect(data.statusCode).toBe(200);
  });

  it('keeps redirects and the form post’s answer under the journal’s path', async () => {
    const submission = await get('/alpha/submission');
    expect(submission.statusCode).toBe(302);
    // The page to come back to is the journal's own address, without the prefix (React Router adds it).
    expect(submission.headers.location).toBe('/alpha/login?redirectTo=%2Fsubmission&reason=author');
    const login = await t.app.inject({
      method: 'POST',
      url: '/alpha/login',
      headers: { host: SITE, origin: `http://${SITE}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        username: 'admin',
        password: 'admin-pass-123',
        redirectTo: '/submission',
      }).toString(),
    });
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe('/alpha/submission');
    // A navigation's data request: React Router's own redirect, which the browser puts under the basename.
    const data = await get('/alpha/submission.data');
    expect(data.body).toContain('/login?redirectTo=%2Fsubmission');
    expect(data.body).not.toContain('/alpha/login');
  });

  it('answers the API under the journal’s path, with that journal’s data', async () => {
    const alphaList = await get('/alpha/api/articles/public/list');
    expect(alphaList.statusCode).toBe(200);
    expect(alphaList.body).not.toContain('Gamma’s first article');
    const gammaList = await get('/api/articles/public/list', 'journal-c.test');
    expect(gammaList.statusCode).toBe(200);
    expect(gammaList.body).toContain('Gamma’s first article');
  });

  it('serves a journal on its own domain at the host’s root, with absolute addresses on its domain', async () => {
    const home = await get('/', 'journal-c.test');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Gamma Review');
    expect(home.body).toContain('http://journal-c.test/');
    expect(home.body).not.toMatch(/"basename":"\/[^"]/);
    const links = linksOf(home.body);
    expect(links).toContain('/volumes');
    const article = await get(`/article/${articleId}`, 'journal-c.test');
    expect(article.statusCode).toBe(200);
    expect(article.body).toContain('Gamma’s first article');
    expect(article.body).toContain(`http://journal-c.test/article/${articleId}`);
    // Not another journal's article, at the same number.
    expect((await get(`/alpha/article/${articleId}`)).statusCode).toBe(404);
  });

  it('answers an old path or domain with a 301 to the same page at the journal’s address now', async () => {
    const path = await get('/old-alpha/volumes?x=1');
    expect(path.statusCode).toBe(301);
    expect(path.headers.location).toBe('http://journal.test/alpha/volumes?x=1');
    const domain = await get(`/article/${articleId}`, 'old-c.test');
    expect(domain.statusCode).toBe(301);
    expect(domain.headers.location).toBe(`http://journal-c.test/article/${articleId}`);
  });

  it('makes the site’s root its home, listing its journals (archived ones left out)', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get('/');
      expect(res.statusCode).toBe(200);
      for (const [title, href] of [
        ['Alpha Studies', 'http://journal.test/alpha/'],
        ['Beta Letters', 'http://journal.test/beta/'],
        ['Gamma Review', 'http://journal-c.test/'],
      ])
        expect(res.body).toMatch(new RegExp(`href="${href}"[^>]*>${title}</a>`));
      expect(res.body).toContain('Alpha Studies publishes research about alpha studies.');
      expect(res.body).not.toContain('Old Archive');
      // No journal's sections in the site's header.
      expect(linksOf(res.body)).not.toContain('/volumes');
    }
    // A journal's settings changed: the kept site home shows the change.
    await withJournal(alpha, async () => {
      const settings = await t.services.settings.journal();
      await t.services.db.transaction(async (tx) => {
        await t.services.settings.set(tx, JOURNAL_KEY, { ...settings, name: 'Alpha Quarterly' });
        await t.services.changes.publish(tx, [SITE_TAG]);
      });
    });
    expect((await get('/')).body).toContain('Alpha Quarterly');
  });

  it('shows a journal’s logo on its card on the site’s home, at the journal’s address', async () => {
    const body = await multipart(
      {},
      { logo: { name: 'logo.png', data: barChartPng([1, 2], { width: 128, height: 128 }) } },
    );
    const set = await t.app.inject({
      method: 'PUT',
      url: '/alpha/api/admin/journal-logo',
      headers: { host: SITE, ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(set.statusCode, set.body).toBe(200);
    const home = await get('/');
    expect(home.body).toMatch(
      /<img class="card__logo" src="http:\/\/journal\.test\/alpha\/api\/journal\/logo\?v=[0-9a-f]{16}"/,
    );
    // The journal's own pages show it in their header, under its path.
    expect((await get('/alpha/')).body).toMatch(
      /<img class="logo logo--journal" src="\/alpha\/api\/journal\/logo\?v=/,
    );
    const logo = await get(new URL(set.json().logo.href).pathname + new URL(set.json().logo.href).search);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
  });

  it('searches every journal from the site’s host, each result at its journal’s address', async () => {
    const idle = await get('/search');
    expect(idle.statusCode).toBe(200);
    expect(idle.body).toContain('Search every journal');
    const found = await get('/search?q=Gamma%E2%80%99s');
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain(`href="http://journal-c.test/article/${articleId}"`);
    expect(found.body).toMatch(/href="http:\/\/journal-c\.test\/"[^>]*>Gamma Review<\/a>/);
    // One journal only: another journal's filter finds nothing of Gamma's.
    const onlyAlpha = await get(`/search?q=Gamma%E2%80%99s&journal=${alpha}`);
    expect(onlyAlpha.statusCode).toBe(200);
    expect(onlyAlpha.body).toContain('Nothing found for');
    expect(onlyAlpha.body).not.toContain(`/article/${articleId}"`);
    // A wrong filter: the form again, with the message, and 400.
    const wrong = await get('/search?q=signals&journal=first');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Journal must be the id of one of the site’s journals');
    // A journal's own search stays its own.
    const inAlpha = await get('/alpha/search?q=Gamma%E2%80%99s');
    expect(inAlpha.statusCode).toBe(200);
    expect(inAlpha.body).not.toContain(`/article/${articleId}"`);
  });

  it('answers any other page of the site’s host with a 404 page', async () => {
    for (const url of ['/volumes', '/article/1', '/editor-dashboard', '/submission', '/nothing-here']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('Page not found');
    }
    // The account's pages are the site's, and so is the home's second address.
    expect((await get('/login')).statusCode).toBe(200);
    expect((await get('/home')).body).toContain('Gamma Review');
  });
});
