import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/accounts/tables.ts';
import { articleAuthors, articles } from '../../server/catalog/tables.ts';
import { settings } from '../../server/settings/tables.ts';
import { feedLinks } from '../../server/discovery/links.ts';
import { PUBLIC_PAGES } from '../../server/discovery/sitemap.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import {
  SETUP_TIMEOUT,
  TRICKY_TITLE,
  createVolume,
  parseXml,
  publishArticle,
  text,
} from './discovery-helpers.ts';

/** What crawlers and feed readers fetch: robots.txt, the sitemap, RSS and Atom, journal-wide and per issue. */

const BASE = 'http://journal.test';
let t: TestContext;
let token = '';
let issueIds: number[] = [];
let trickyId = 0;
let withdrawnId = 0;

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const seconds = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** The published articles, newest first, as the feeds order them. */
async function newestPublished(limit: number) {
  return t.services.db
    .select()
    .from(articles)
    .where(eq(articles.status, 'published'))
    .orderBy(desc(articles.publicationDate), desc(articles.id))
    .limit(limit);
}

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  token = await t.login('admin', 'admin-pass-123');
  issueIds = await createVolume(t, token, { number: 2, year: 2026, issues: 2 });
  trickyId = await publishArticle(t, token, {
    issueId: issueIds[0],
    title: TRICKY_TITLE,
    doi: '10.5555/feed.tricky',
  });
  withdrawnId = await publishArticle(t, token, {
    issueId: issueIds[0],
    title: 'Withdrawn later',
    doi: '10.5555/feed.gone',
  });
  await t.services.db.update(articles).set({ status: 'unpublished' }).where(eq(articles.id, withdrawnId));
  // Enough articles for the journal-wide feeds to be cut at 20: copies of the tricky one, dated a day apart.
  const [model] = await t.services.db.select().from(articles).where(eq(articles.id, trickyId));
  const fillers = await t.services.db
    .insert(articles)
    .values(
      Array.from({ length: 18 }, (_, k) => ({
        issueId: issueIds[0],
        title: `Feed filler ${k + 1}`,
        abstract: `Filler abstract ${k + 1}.`,
        keywords: 'filler',
        firstPage: k + 1,
        lastPage: k + 1,
        doi: `10.5555/feed.filler.${k + 1}`,
        pdfFileId: model.pdfFileId,
        status: 'published' as const,
        publicationDate: `2026-01-${String(k + 1).padStart(2, '0')}`,
      })),
    )
    .returning({ id: articles.id });
  await t.services.db
    .insert(articleAuthors)
    .values(
      fillers.map((f) => ({
        articleId: f.id,
        position: 1,
        name: 'Filler Author',
        email: 'f@example.org',
        affiliation: 'Nowhere',
      })),
    );
}, SETUP_TIMEOUT);

afterAll(() => t?.close());

describe('robots.txt', () => {
  it('lets crawlers in, keeps them out of the API and private pages, allows the PDFs, names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(lines).toContain('Allow: /api/articles/*/download');
    for (const path of [
      '/api/',
      '/editor-dashboard',
      '/my-submissions',
      '/submission',
      '/login',
      '/regist',
      '/account',
      '/forgot-password',
      '/reset-password',
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).not.toContain('Disallow: /');
  });
});

describe('sitemap.xml', () => {
  it('lists every public page, every issue with articles and every published article with its last change', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toContain('/volumes?volume=1&amp;issue=1</loc>');
    const urls: { loc: string; lastmod?: string }[] = parseXml(res.body).urlset.url;
    const locs = urls.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    for (const page of PUBLIC_PAGES) expect(locs).toContain(BASE + page);
    expect(locs).toContain(`${BASE}/volumes?volume=1&issue=1`);
    expect(locs).toContain(`${BASE}/volumes?volume=2&issue=1`);
    expect(locs, 'an issue without articles is left out').not.toContain(`${BASE}/volumes?volume=2&issue=2`);

    const published = await t.services.db.select().from(articles).where(eq(articles.status, 'published'));
    expect(published.length).toBe(5 + 1 + 18);
    const articleUrls = urls.filter((u) => u.loc.startsWith(`${BASE}/article/`));
    expect(articleUrls).toHaveLength(published.length);
    for (const a of published) {
      const entry = urls.find((u) => u.loc === `${BASE}/article/${a.id}`);
      expect(entry, `article ${a.id}`).toBeDefined();
      expect(entry!.lastmod).toBe(seconds(a.updatedAt));
    }
    expect(locs).not.toContain(`${BASE}/article/${withdrawnId}`);
  });

  it("dates every public page by the content it shows, and moves a page's date when its text is edited", async () => {
    const lastmods = async () => {
      const urls: { loc: string; lastmod?: string }[] = parseXml((await get('/sitemap.xml')).body).urlset.url;
      return new Map(urls.map((u) => [u.loc.slice(BASE.length), u.lastmod]));
    };
    const before = await lastmods();
    for (const page of PUBLIC_PAGES) expect(before.get(page), page).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // Stored more than a second ago, so that the edit below lands on a later second.
    await t.services.db.update(settings).set({ updatedAt: new Date('2025-06-01T00:00:00Z') });
    const aged = await lastmods();
    const admin = (await t.services.db.select().from(users).where(eq(users.username, 'admin')))[0];
    await t.services.content.editPage(
      { id: admin.id, username: admin.username },
      'apc',
      '# Article processing charge\n\nNo charge in 2026.',
    );
    const after = await lastmods();
    expect(Date.parse(after.get('/apc')!)).toBeGreaterThan(Date.parse(aged.get('/apc')!));
    expect(after.get('/ethics')).toBe(aged.get('/ethics'));
  });
});

describe('feeds', () => {
  it('RSS 2.0 carries the 20 newest articles with absolute links', async () => {
    const res = await get('/feed.rss');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const rss = parseXml(res.body).rss;
    expect(rss['@_version']).toBe('2.0');
    const channel = rss.channel;
    expect(channel.link).toEqual([`${BASE}/`]);
    expect(channel['atom:link']['@_href']).toBe(`${BASE}/feed.rss`);
    const expected = await newestPublished(20);
    expect(channel.item).toHaveLength(20);
    expect(channel.item.map((i: any) => i.link[0])).toEqual(expected.map((a) => `${BASE}/article/${a.id}`));
    expect(channel.item.map((i: any) => text(i.title))).toEqual(expected.map((a) => a.title));
    expect(channel.item[0].pubDate).toBe(new Date(`${expected[0].publicationDate}T00:00:00Z`).toUTCString());
    expect(text(channel.item[0].guid)).toBe(`${BASE}/article/${expected[0].id}`);
  });

  it('Atom carries the same articles', async () => {
    const res = await get('/feed.atom');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = parseXml(res.body).feed;
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe(`${BASE}/feed.atom`);
    expect(feed.link.find((l: any) => l['@_rel'] === 'self')['@_href']).toBe(`${BASE}/feed.atom`);
    const expected = await newestPublished(20);
    expect(feed.entry.map((e: any) => e.id)).toEqual(expected.map((a) => `${BASE}/article/${a.id}`));
    const newestChange = Math.max(...expected.map((a) => a.updatedAt.getTime()));
    expect(new Date(feed.updated).getTime()).toBe(newestChange);
    const first = feed.entry[0];
    expect(first.link.find((l: any) => l['@_rel'] === 'related')['@_href']).toBe(
      `${BASE}/api/articles/${expected[0].id}/download`,
    );
    // Published today through the API: the newest.
    expect(expected[0].id).toBe(trickyId);
    expect(first.author.map((a: any) => a.name)).toEqual(['Meera Iyer', 'Ludwig van Beethoven', 'Sukarno']);
    expect(feed.entry[1].author.map((a: any) => a.name)).toEqual(['Filler Author']);
  });

  it('per-issue feeds list that issue, titles escaped', async () => {
    const atom = await get('/volumes/2/issues/1/feed.atom');
    expect(atom.statusCode).toBe(200);
    expect(atom.body).toContain('Tom &amp; Jerry &lt;b&gt;');
    const feed = parseXml(atom.body).feed;
    expect(feed.id).toBe(`${BASE}/volumes/2/issues/1/feed.atom`);
    expect(feed.link.find((l: any) => l['@_rel'] === 'alternate')['@_href']).toBe(
      `${BASE}/volumes?volume=2&issue=1`,
    );
    const inIssue = await t.services.db
      .select()
      .from(articles)
      .where(and(eq(articles.issueId, issueIds[0]), eq(articles.status, 'published')));
    expect(feed.entry).toHaveLength(inIssue.length);
    expect(feed.entry.map((e: any) => text(e.title))).toContain(TRICKY_TITLE);
    expect(feed.entry.map((e: any) => e.id)).not.toContain(`${BASE}/article/${withdrawnId}`);

    const rss = await get('/volumes/1/issues/1/feed.rss');
    expect(rss.statusCode).toBe(200);
    expect(rss.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const channel = parseXml(rss.body).rss.channel;
    expect(channel.item).toHaveLength(5);
    expect(channel['atom:link']['@_href']).toBe(`${BASE}/volumes/1/issues/1/feed.rss`);

    const empty = parseXml((await get('/volumes/2/issues/2/feed.atom')).body).feed;
    expect(empty.entry).toBeUndefined();

    for (const url of [
      '/volumes/9/issues/1/feed.atom',
      '/volumes/1/issues/9/feed.rss',
      '/volumes/x/issues/1/feed.rss',
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('answers conditional requests with 304 and changes when an article does', async () => {
    const first = await get('/feed.atom');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(lastModified).toMatch(/GMT$/);
    const again = await get('/feed.atom', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/feed.atom', { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await get('/feed.atom', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    const sitemap = await get('/sitemap.xml');
    expect((await get('/sitemap.xml', { 'if-none-match': sitemap.headers.etag as string })).statusCode).toBe(
      304,
    );

    const [newest] = await newestPublished(1);
    await t.services.db
      .update(articles)
      .set({ title: 'A corrected title', updatedAt: new Date(Date.now() + 5000) })
      .where(eq(articles.id, newest.id));
    const changed = await get('/feed.atom', { 'if-none-match': etag, 'if-modified-since': lastModified });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('A corrected title');
  });

  it('answers HEAD, as crawlers sometimes ask', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/feed.rss' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
  });

  it('names its feeds for the pages to link', () => {
    expect(feedLinks(BASE).map((l) => [l.type, l.href])).toEqual([
      ['application/rss+xml', `${BASE}/feed.rss`],
      ['application/atom+xml', `${BASE}/feed.atom`],
    ]);
    const issue = feedLinks(`${BASE}/`, { journalName: 'CJEI', issue: { volume: 1, issue: 2 } });
    expect(issue.map((l) => l.href).slice(2)).toEqual([
      `${BASE}/volumes/1/issues/2/feed.rss`,
      `${BASE}/volumes/1/issues/2/feed.atom`,
    ]);
    expect(issue[0].title).toBe('CJEI: latest articles (RSS)');
  });
});
