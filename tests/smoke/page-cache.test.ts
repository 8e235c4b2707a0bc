import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { type TestContext, createTestContext, multipart } from '../../server/testing/harness.ts';

/**
 * The cache of pages and public JSON (issue 13, decision 0018) through the production build: what it keeps,
 * what it never shares, and that a change shows on the very next request of every page that shows it.
 */
let t: TestContext;
let admin: Record<string, string>;
let article: {
  id: number;
  title: string;
  abstract: string;
  keywords: string;
  pages: string;
  doi: string;
  issue_id: number;
  volume_number: number;
  issue_number: number;
  authors: { name: string; email?: string; affiliation: string; superscript: string }[];
};
const HOST = 'journal.test';

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

const text = (res: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
  const encoding = res.headers['content-encoding'];
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(res.rawPayload)
      : encoding === 'gzip'
        ? gunzipSync(res.rawPayload)
        : res.rawPayload;
  return bytes.toString('utf8');
};

beforeAll(async () => {
  t = await createTestContext({}, { pages: true, demo: true });
  admin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const tree = (await get('/api/articles/public/articles')).json();
  const first = tree.flatMap((v: { issues: { articles: unknown[] }[] }) =>
    v.issues.flatMap((i) => i.articles),
  )[0];
  article = first;
}, 120_000);
afterAll(() => t?.close());

async function editTitle(title: string) {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/editor/articles/${article.id}`,
    headers: admin,
    payload: {
      title,
      abstract: article.abstract,
      keywords: article.keywords,
      pages: article.pages,
      doi: article.doi,
      issue_id: article.issue_id,
      authors: JSON.stringify(
        article.authors.map((a) => ({
          name: a.name,
          email: a.email ?? 'author@example.org',
          affiliation: a.affiliation,
          superscript: a.superscript,
        })),
      ),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('an anonymous page', () => {
  it('is rendered once, then served from the cache with a strong ETag and public caching', async () => {
    const url = `/article/${article.id}`;
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.statusCode).toBe(200);
    const hits = t.services.cache.stats.hits;
    const second = await get(url, { 'accept-encoding': 'br' });
    expect(t.services.cache.stats.hits).toBe(hits + 1);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(String(second.headers.etag)).toMatch(/^"[0-9a-f]{32}-br"$/);
    expect(second.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(second.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(text(second)).toBe(text(first));
    expect(text(second)).toContain(article.title);
    // Each answer, rendered or kept, names its own request (decision 0030).
    const named = await get(url, { 'accept-encoding': 'br', 'x-request-id': 'lb-page-1' });
    expect(named.headers['x-request-id']).toBe('lb-page-1');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('answers 304 to a matching If-None-Match, in any encoding, and 200 to another', async () => {
    const url = `/article/${article.id}`;
    const plain = await get(url);
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    for (const sent of [etag, etag.replace(/"$/, '-gzip"'), `W/${etag}`, `"x", ${etag}`, '*']) {
      const res = await get(url, { 'if-none-match': sent, 'accept-encoding': 'gzip' });
      expect(res.statusCode, sent).toBe(304);
      expect(res.rawPayload.length).toBe(0);
    }
    expect((await get(url, { 'if-none-match': '"0000"' })).statusCode).toBe(200);
  });

  it('decodes to the same bytes compressed with brotli, with gzip, or not at all', async () => {
    for (const url of [`/article/${article.id}`, '/home', '/volumes', '/api/articles/public/articles']) {
      const br = await get(url, { 'accept-encoding': 'br' });
      const gz = await get(url, { 'accept-encoding': 'gzip' });
      const none = await get(url, { 'accept-encoding': 'identity' });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(none.headers['content-encoding'], url).toBeUndefined();
      expect(text(br)).toBe(none.body);
      expect(text(gz)).toBe(none.body);
      expect(Number(none.headers['content-length'])).toBe(none.rawPayload.length);
    }
  });

  it('allows its inline scripts by their hashes (a nonce would be shared by every reader)', async () => {
    const res = await get('/home');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(csp).not.toMatch(/nonce|unsafe/);
  });

  it('answers HEAD from the kept page, without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/volumes', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers.etag).toBeDefined();
  });
});

describe('a change', () => {
  it('shows on the next request of every page and answer that shows it', async () => {
    const issuePage = `/volumes?volume=${article.volume_number}&issue=${article.issue_number}`;
    const search = `/search?q=${encodeURIComponent('Zanzibarite')}`;
    const urls = [
      `/article/${article.id}`,
      issuePage,
      '/home',
      '/feed.rss',
      '/feed.atom',
      '/sitemap.xml',
      '/api/articles/public/articles',
      `/api/articles/public/article/${article.id}`,
      '/api/articles/public/list',
      '/api/search?q=Zanzibarite',
      search,
    ];
    // Every one of them served once (and kept where it can be) before the change.
    for (const url of urls) expect((await get(url)).statusCode, url).toBe(200);
    // Search pages repeat the query: they show the change when they find the article.
    const shows = (url: string, body: string) =>
      url.includes('search')
        ? /"total":[1-9]|article found/.test(body)
        : body.includes('Zanzibarite bridges');
    for (const url of urls) expect(shows(url, (await get(url)).body), url).toBe(false);

    await editTitle('A study of Zanzibarite bridges');
    for (const url of urls.filter((u) => !u.includes('sitemap'))) {
      expect(shows(url, (await get(url)).body), url).toBe(true);
    }
    // The sitemap lists the article by address; its last modification moved.
    expect((await get('/sitemap.xml')).statusCode).toBe(200);
    await editTitle(article.title);
    for (const url of urls) expect(shows(url, (await get(url)).body), url).toBe(false);
  });

  it('of one article leaves the other articles kept', async () => {
    const tree = (await get('/api/articles/public/articles')).json();
    const other = tree
      .flatMap((v: { issues: { articles: { id: number }[] }[] }) => v.issues.flatMap((i) => i.articles))
      .find((a: { id: number }) => a.id !== article.id);
    await get(`/article/${other.id}`);
    await editTitle('Another title for a moment');
    const hits = t.services.cache.stats.hits;
    await get(`/article/${other.id}`);
    expect(t.services.cache.stats.hits).toBe(hits + 1);
    await editTitle(article.title);
  });

  it('of its full text (a new Word file, published with its alt text) shows at once on the article page, sent once', async () => {
    const url = `/article/${article.id}`;
    const before = text(await get(url));
    // The demo article's full text is in the page once: not again in the route data.
    expect(before).toContain('<h2 id="full-text-title">Full text</h2>');
    expect(before.split('fulltext-body').length).toBe(2);
    const hits = t.services.cache.stats.hits;
    await get(url);
    expect(t.services.cache.stats.hits).toBe(hits + 1);

    const manuscript = await readFile(new URL('../fixtures/fulltext/article.docx', import.meta.url));
    const body = await multipart({}, { word: { name: 'final.docx', data: manuscript } });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${article.id}/fulltext`,
      headers: { host: HOST, ...admin, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    // The new one waits for its preview (decision 0035): readers keep the published full text.
    expect(text(await get(url))).toBe(before);
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${article.id}/fulltext/pending/publish`,
      headers: { host: HOST, ...admin },
      payload: { 'alt-2': 'Two bars.' },
    });
    expect(published.statusCode, published.body).toBe(200);
    const after = text(await get(url));
    expect(after).toContain('1.1.1 Scope');
    expect(after).toContain('alt="Two bars."');
  });

  it("of a journal page or the journal's settings shows at once", async () => {
    const before = await get('/about');
    expect(before.statusCode).toBe(200);
    const source = await t.services.content.pageSource('about');
    await t.services.content.editPage(
      { id: 1, username: 'admin', role: 'admin' } as never,
      'about',
      `${source}\n\nQuokkaphrase.`,
    );
    expect((await get('/about')).body).toContain('Quokkaphrase');
    const settings = await t.app.inject({
      method: 'GET',
      url: '/api/admin/journal-settings',
      headers: admin,
    });
    const { version, settings: current } = settings.json();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/journal-settings',
      headers: admin,
      payload: { ...current, name: 'Journal of Quokka Engineering', version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const url of ['/home', `/article/${article.id}`, '/about']) {
      expect((await get(url)).body, url).toContain('Journal of Quokka Engineering');
    }
  });

  it('of the time alone: a call for papers closes when its deadline passes', async () => {
    const calls = await t.services.content.specialIssues(t.clock.date());
    const open = calls.find((c) => c.status === 'Open');
    if (!open) return expect(calls.length).toBeGreaterThan(0);
    expect((await get('/open-special-issues')).body).toContain(open.title);
    const [y, m, d] = open.deadline.split('-').map(Number);
    t.clock.set(new Date(Date.UTC(y, m - 1, d + 1, 0, 0, 1)));
    expect((await get('/open-special-issues')).body).not.toContain(open.title);
  });
});

describe('a signed-in reader', () => {
  it('never receives a page kept for anonymous readers or for someone else', async () => {
    const url = `/article/${article.id}`;
    const anonymous = await get(url);
    expect(anonymous.body).not.toContain('admin');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: HOST },
      payload: { username: 'admin', password: 'admin-pass-123' },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const mine = await get(url, { cookie });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.body).toContain('Logout');
    expect(mine.body).not.toBe(anonymous.body);
    const again = await get(url, { cookie });
    expect(again.body).toBe(mine.body);
    // Signed out (the session ended), the same cookie gets the anonymous page again.
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
    });
    const after = await get(url, { cookie });
    expect(after.body).not.toContain('Logout');
  });
});
