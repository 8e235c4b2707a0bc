import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { XMLValidator } from 'fast-xml-parser';
import { expect, test } from './fixtures.ts';

/**
 * Issue 6 on the reader site and the dashboard: citation styles and BibTeX/RIS files on the article page,
 * usage counts (robots and double clicks left out), feed links in <head>, and the dashboard's Crossref
 * and DOAJ downloads.
 */

const PDF = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/manuscripts/manuscript.pdf',
);

/** Browsers that are not robots: Playwright's headless Chromium says "HeadlessChrome", which isbot rightly flags. */
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A new volume and issue with one published article (a PDF and a DOI); its ids and numbers. */
async function publishedArticle(adminApi: APIRequestContext, title: string) {
  const volumeNumber = 2000 + Math.floor(Math.random() * 1_000_000_000);
  const volume = await adminApi.post('/api/editor/volume', {
    data: { title: `Volume ${volumeNumber}`, volume_number: volumeNumber, year: 2026 },
  });
  expect(volume.status()).toBe(201);
  const issue = await adminApi.post('/api/editor/issue', {
    data: {
      title: 'Issue 1',
      description: 'Citations and counts.',
      volume_id: (await volume.json()).volume.id,
    },
  });
  expect(issue.status()).toBe(201);
  const issueId = (await issue.json()).issue.id as number;
  const created = await adminApi.post('/api/articles/admin/upload', {
    multipart: {
      title,
      abstract: 'How often is a journal article read, and how should it be cited?',
      keywords: 'citation, usage, COUNTER',
      pages: '21-34',
      doi: `10.5555/e2e.${unique()}`,
      issue_id: String(issueId),
      authors: JSON.stringify([
        {
          name: 'José Müller-Łukasz',
          email: 'jm@example.org',
          affiliation: 'Universität Wien',
          superscript: '1',
        },
        {
          name: 'Zoë O’Brien',
          email: 'zo@example.org',
          affiliation: 'Trinity College Dublin',
          superscript: '2',
        },
      ]),
      pdf: { name: 'article.pdf', mimeType: 'application/pdf', buffer: await readFile(PDF) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const article = (await created.json()).article as { id: number; doi: string };
  return { id: article.id, doi: article.doi, issueId, volumeNumber };
}

type Metrics = { totals: { views: number; downloads: number }; months: { month: string }[] };
const metricsOf = async (request: APIRequestContext, id: number) =>
  (await (await request.get(`/api/articles/${id}/metrics`)).json()) as Metrics;

/** A page in a fresh browser context with a reader's user agent (one visitor). */
async function visitor(browser: Browser, baseURL: string, userAgent: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, userAgent });
  return context.newPage();
}

test.describe('citations on the article page', () => {
  test('shows the reference styles one at a time and downloads BibTeX and RIS', async ({
    page,
    adminApi,
    axe,
    screenshots,
  }) => {
    const title = `Counting reads of open articles ${unique()}`;
    const a = await publishedArticle(adminApi, title);
    const styleRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`/api/articles/${a.id}/citation/`)) styleRequests.push(new URL(r.url()).pathname);
    });
    await page.goto(`/article/${a.id}`);

    const cite = page.getByRole('region', { name: 'Cite this article' });
    await cite.getByText(/More citation styles/).click();
    const picker = cite.getByRole('list', { name: 'Citation style' });
    const shown = cite.locator('.citation__style');
    // APA comes with the page; the others are fetched when picked, and only then.
    await expect(picker.getByRole('link', { name: 'APA' })).toHaveAttribute('aria-current', 'true');
    await expect(shown).toContainText(`Müller-Łukasz, J., & O’Brien, Z. (2026). ${title}.`);
    expect(styleRequests).toEqual([]);
    for (const label of ['MLA', 'Chicago', 'Harvard', 'IEEE', 'Vancouver', 'APA']) {
      await picker.getByRole('link', { name: label }).click();
      await expect(picker.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'true');
      await expect(shown.locator('.citation__style-name')).toHaveText(new RegExp(`^${label} `));
      await expect(cite.getByRole('button', { name: `Copy the ${label} citation` })).toBeVisible();
      // Each style links the DOI (some write it as a URL, some as "doi:…").
      await expect(shown.locator(`a[href$="${a.doi}"]`)).toBeVisible();
      if (label === 'IEEE') await expect(shown).toContainText(`J. Müller-Łukasz and Z. O’Brien, “${title},”`);
    }
    // The page stayed; APA was not fetched again.
    await expect(page).toHaveURL(new RegExp(`/article/${a.id}$`));
    expect(styleRequests.sort()).toEqual(
      ['chicago', 'harvard', 'ieee', 'mla', 'vancouver'].map((s) => `/api/articles/${a.id}/citation/${s}`),
    );

    const [bib] = await Promise.all([
      page.waitForEvent('download'),
      cite.getByRole('link', { name: 'BibTeX' }).click(),
    ]);
    expect(bib.suggestedFilename()).toMatch(new RegExp(`-v${a.volumeNumber}i1-${a.id}\\.bib$`));
    const bibtex = await readFile((await bib.path())!, 'utf8');
    expect(bibtex).toMatch(/^@article\{/);
    expect(bibtex).toContain(`doi = {${a.doi}}`);
    expect(bibtex).toContain('pages = {21--34}');
    expect(bibtex).toContain('M{\\" u}ller-\\L{}ukasz, Jos{\\\' e}');

    const [ris] = await Promise.all([
      page.waitForEvent('download'),
      cite.getByRole('link', { name: 'RIS' }).click(),
    ]);
    expect(ris.suggestedFilename()).toMatch(/\.ris$/);
    const risText = await readFile((await ris.path())!, 'utf8');
    expect(risText).toMatch(/^TY {2}- JOUR$/m);
    expect(risText).toContain(`TI  - ${title}\n`);
    expect(risText).toContain('AU  - Müller-Łukasz, José');
    expect(risText).toContain(`DO  - ${a.doi}`);

    await axe(page);
    await screenshots(page, 'article-citations');
  });

  test('without scripts, the server’s HTML has the APA style, and the picker loads the page with another', async ({
    noJsPage,
    axe,
  }) => {
    await noJsPage.goto('/article/1');
    const cite = noJsPage.getByRole('region', { name: 'Cite this article' });
    await cite.getByText(/More citation styles/).click();
    await expect(cite.locator('.citation__style-name')).toHaveText(/^APA /);
    await cite.getByRole('list', { name: 'Citation style' }).getByRole('link', { name: 'Vancouver' }).click();
    await expect(noJsPage).toHaveURL(/\/article\/1\?style=vancouver#citation-styles$/);
    // The styles are open at once, with Vancouver in them.
    await expect(cite.locator('.citation__style-name')).toBeVisible();
    await expect(cite.locator('.citation__style-name')).toHaveText(/^Vancouver /);
    await expect(cite.locator('.citation__style-text')).toContainText('Ramasamy K, Venkatesan P, Okafor D.');
    await expect(cite.getByRole('button', { name: /Copy the/ })).toHaveCount(0);
    await expect(cite.getByRole('link', { name: 'BibTeX' })).toHaveAttribute(
      'href',
      '/api/articles/1/citation?format=bibtex',
    );
    await axe(noJsPage);
  });
});

test.describe('usage counts', () => {
  test('a view counts once per visitor within 30 s, and the page shows it', async ({
    browser,
    baseURL,
    adminApi,
    request,
  }) => {
    const a = await publishedArticle(adminApi, `Viewed ${unique()}`);
    const reader = await visitor(browser, baseURL!, FIREFOX);
    // The page counts its view with a beacon once it has loaded (written within seconds, not at once).
    await reader.goto(`/article/${a.id}`);
    await expect.poll(async () => (await metricsOf(request, a.id)).totals.views).toBe(1);
    // The same reader again at once: a double click.
    await reader.reload();
    // A robot: not counted at all.
    const robot = await visitor(
      browser,
      baseURL!,
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    );
    await robot.goto(`/article/${a.id}`);
    // Another reader: counted. Had the reload or the robot counted, this would read more than 2.
    const other = await visitor(browser, baseURL!, SAFARI);
    await other.goto(`/article/${a.id}`);
    await expect.poll(async () => (await metricsOf(request, a.id)).totals.views).toBe(2);
    await reader.reload();
    await reader.waitForLoadState('networkidle');
    const m = await metricsOf(request, a.id);
    expect(m.totals).toEqual({ views: 2, downloads: 0 });
    expect(m.months).toEqual([{ month: new Date().toISOString().slice(0, 7), views: 2, downloads: 0 }]);
    // The page fetches the counts once it has loaded (they are not in its HTML, which may be cached).
    await other.reload();
    await expect(other.locator('.article-facts')).toContainText(/Usage\s*2 views, 0 downloads/);
    // ...and by month, as the API counts them.
    await other.getByText('By month', { exact: true }).click();
    const month = other.getByRole('table', { name: 'Views and downloads by month, newest first' });
    await expect(month.getByRole('row').nth(1)).toHaveText(
      new RegExp(`^${new Date().toISOString().slice(0, 7)}\\s*2\\s*0$`),
    );
    for (const p of [reader, robot, other]) await p.context().close();
  });

  test('another site cannot count views, and a reader without scripts is not shown counts', async ({
    browser,
    baseURL,
    adminApi,
    request,
    noJsPage,
  }) => {
    const a = await publishedArticle(adminApi, `Not counted ${unique()}`);
    // A page elsewhere sends the beacon from a reader's browser: answered, not counted.
    const elsewhere = await (await browser.newContext({ userAgent: SAFARI })).newPage();
    await elsewhere.setContent('<p>Another site</p>');
    const status = await elsewhere.evaluate(
      async (url) => (await fetch(url, { method: 'POST', mode: 'no-cors', keepalive: true })).type,
      `${baseURL}/api/articles/${a.id}/views`,
    );
    expect(status).toBe('opaque');
    // Without scripts: no beacon, no figures (the row is left out rather than left loading).
    await noJsPage.goto(`/article/${a.id}`);
    await expect(noJsPage.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(noJsPage.locator('.article-facts').getByText('Usage', { exact: true })).toBeHidden();
    // A reader's view afterwards is the first and only one.
    const reader = await visitor(browser, baseURL!, FIREFOX);
    await reader.goto(`/article/${a.id}`);
    await expect.poll(async () => (await metricsOf(request, a.id)).totals.views).toBe(1);
    await expect(reader.locator('.article-facts')).toContainText(/Usage\s*\d+ views?, 0 downloads/);
    for (const p of [elsewhere, reader]) await p.context().close();
  });

  test('a download counts once per visitor within 30 s', async ({
    browser,
    baseURL,
    adminApi,
    request,
    signIn,
  }) => {
    const a = await publishedArticle(adminApi, `Downloaded ${unique()}`);
    const reader = await visitor(browser, baseURL!, FIREFOX);
    await signIn('researcher', 'approved', reader);
    await reader.goto(`/article/${a.id}`);
    for (let i = 0; i < 2; i++) {
      const [download] = await Promise.all([
        reader.waitForEvent('download'),
        reader.getByRole('link', { name: 'Download PDF' }).click(),
      ]);
      expect((await readFile((await download.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    // /download/{id} delivers the file once, through the same endpoint: counted for a second reader.
    const other = await visitor(browser, baseURL!, SAFARI);
    await signIn('author', 'approved', other);
    const downloading = other.waitForEvent('download');
    await other.goto(`/download/${a.id}`);
    await downloading;
    await expect.poll(async () => (await metricsOf(request, a.id)).totals.downloads).toBe(2);
    expect((await metricsOf(request, a.id)).totals.views).toBe(1);
    for (const p of [reader, other]) await p.context().close();
  });

  test('the dashboard lists views and downloads', async ({ page, signIn, adminApi, axe }) => {
    const title = `Listed ${unique()}`;
    const a = await publishedArticle(adminApi, title);
    await signIn('editor');
    await page.goto('/editor-dashboard/articles');
    const row = page.getByRole('row', { name: new RegExp(title) });
    await expect(row).toBeVisible();
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Views', 'Downloads']));
    await expect(row.getByRole('link', { name: `Crossref XML of “${title}”` })).toHaveAttribute(
      'href',
      `/api/editor/export/crossref/article/${a.id}`,
    );
    await axe(page);
  });
});

test.describe('feeds in <head>', () => {
  test('every page names the latest-articles feeds, issue pages their own too, and they resolve', async ({
    page,
    request,
  }) => {
    await page.goto('/about');
    const feeds = page.locator('head link[rel="alternate"]');
    await expect(feeds).toHaveCount(2);
    const latest = await feeds.evaluateAll((els) =>
      els.map((e) => ({
        type: e.getAttribute('type'),
        href: e.getAttribute('href'),
        title: e.getAttribute('title'),
      })),
    );
    expect(latest.map((l) => l.type)).toEqual(['application/rss+xml', 'application/atom+xml']);

    await page.goto('/volumes?volume=1&issue=1');
    const all = await page
      .locator('head link[rel="alternate"]')
      .evaluateAll((els) =>
        els.map((e) => ({ type: e.getAttribute('type'), href: e.getAttribute('href')! })),
      );
    expect(all).toHaveLength(4);
    expect(all.map((l) => new URL(l.href).pathname)).toEqual(
      expect.arrayContaining([
        '/feed.rss',
        '/feed.atom',
        '/volumes/1/issues/1/feed.rss',
        '/volumes/1/issues/1/feed.atom',
      ]),
    );
    for (const link of all) {
      const res = await request.get(new URL(link.href).pathname);
      expect(res.status(), link.href).toBe(200);
      expect(res.headers()['content-type']).toContain(link.type!);
      expect(XMLValidator.validate(await res.text())).toBe(true);
    }
  });
});

test.describe('dashboard exports', () => {
  test('Crossref and DOAJ XML per issue download with the session cookie', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    const title = `Exported ${unique()}`;
    const a = await publishedArticle(adminApi, title);
    await signIn('editor');
    await page.goto('/editor-dashboard/volumes');
    const where = `of issue 1, volume ${a.volumeNumber}`;
    for (const [label, root] of [
      ['Crossref XML', 'doi_batch'],
      ['DOAJ XML', 'records'],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: `${label} ${where}` }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`-v${a.volumeNumber}i1\\.xml$`));
      const xml = await readFile((await download.path())!, 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(xml).toContain(`<${root}`);
      expect(xml).toContain(a.doi);
    }
    await axe(page);
    await screenshots(page, 'dashboard-volumes-exports');

    await page.goto('/editor-dashboard/articles');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Crossref XML of “${title}”` }).click(),
    ]);
    const xml = await readFile((await download.path())!, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<doi_batch');
    expect(xml).toContain(a.doi);
    await screenshots(page, 'dashboard-articles-usage');
  });
});
