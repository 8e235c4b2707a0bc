import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { demoArticles } from '../../content/demo-articles.ts';
import { expect, hydrated, loginThroughApi, test } from './fixtures.ts';

/**
 * Issue 16 in the browser: an accepted submission published with its Word file (the preview, its warnings,
 * the missing alt text), then the article page's full text at 1280 and 390 px, and its JATS XML.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const word = () => ({
  name: 'final.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  buffer: readFileSync(path.join(HERE, '../fixtures/fulltext/article.docx')),
});
const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** The offline JATS check beside the project (`../shared/schemas/validate jats FILE`), as CI has it. */
function validJats(xml: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-e2e-jats-'));
  try {
    const file = path.join(dir, 'article.xml');
    writeFileSync(file, xml);
    const r = spawnSync(path.resolve(HERE, '../../../shared/schemas/validate'), ['jats', file], {
      encoding: 'utf8',
    });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A new volume (a number no other test takes) with its first issue. */
async function newIssue(adminApi: APIRequestContext, base: number) {
  const number = base + Math.floor(Math.random() * 1_000_000);
  const volume = await adminApi.post('/api/editor/volume', {
    data: { title: `FT volume ${number}`, volume_number: number, year: 2026 },
  });
  expect(volume.ok(), await volume.text()).toBe(true);
  const issue = await adminApi.post('/api/editor/issue', {
    data: {
      title: `FT issue ${number}`,
      description: 'Full text.',
      volume_id: (await volume.json()).volume.id,
    },
  });
  expect(issue.ok(), await issue.text()).toBe(true);
  return { number, issueId: (await issue.json()).issue.id as number };
}

async function acceptedSubmission(
  api: APIRequestContext,
  adminApi: APIRequestContext,
  token: string,
  title: string,
) {
  const res = await api.post('/api/submission/submit', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'sampling, monitoring, bridges, energy',
      abstract: 'We sample bridges adaptively.',
      authors: JSON.stringify([
        { name: 'Ana Lopes', email: 'ana@example.org', affiliation: 'University of Porto', superscript: '1' },
        { name: 'Ravi Menon', email: 'ravi@example.org', affiliation: 'IIT Madras', superscript: '2' },
      ]),
      submissionFile: {
        name: 'manuscript.pdf',
        mimeType: 'application/pdf',
        buffer: readFileSync(path.join(HERE, '../fixtures/manuscripts/manuscript.pdf')),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  for (const status of ['under_review', 'accepted']) {
    const moved = await adminApi.post(`/api/editor/submissions/${id}/decision`, {
      data: { status, message: 'Moved on.', confirm: ['accept-without-review'] },
    });
    expect(moved.ok(), await moved.text()).toBe(true);
  }
  return id;
}

test('an accepted submission is published with its Word file, and readers get its full text and JATS', async ({
  page,
  signIn,
  createAccount,
  adminApi,
  request,
  baseURL,
  axe,
  screenshots,
}) => {
  test.setTimeout(180_000);
  const tag = uniqueTag();
  const { number } = await newIssue(adminApi, 40_000);
  const author = await createAccount('author');
  const token = await loginThroughApi(baseURL!, author.username, author.password);
  const title = `Adaptive sampling for structural health monitoring ${tag}`;
  const id = await acceptedSubmission(request, adminApi, token, title);

  // The editor gives the Word file (with the final PDF, in one step): the preview lists what needs a person.
  await signIn('editor');
  await page.goto(`/editor-dashboard/submissions/${id}`);
  const files = page.getByRole('form', { name: 'The final files' });
  await files.getByLabel('Word file').setInputFiles(word());
  await files.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page.getByRole('status')).toContainText('Files received.');
  const problems = page.getByRole('list', { name: 'Needs a person' });
  await expect(problems.getByRole('listitem')).toHaveText([
    /^The Word file's own title page and abstract were left out \(5 lines: “Adaptive sampling for structural health monitoring”, “Ana Lopes, Ravi Menon”/,
    'Figure 2 has no alt text: describe it for readers who cannot see it.',
    /^Reference \[2\] has no DOI/,
    /^Reference \[4\] has no DOI/,
  ]);
  // The preview shows the article as readers will see it.
  await expect(
    page
      .getByRole('region', { name: '2. The article as readers will see it' })
      .getByRole('heading', { name: '1.1.1 Scope' }),
  ).toBeVisible();
  await axe(page);
  await screenshots(page, 'fulltext-desk-preview');

  // Publishing without the missing alt text is refused beside its field.
  const publish = page.getByRole('form', { name: '3. Fix and publish' });
  await publish.getByLabel('Issue').selectOption({ label: `Volume ${number}, Issue 1: FT issue ${number}` });
  await publish.getByLabel('Pages').fill('1-12');
  await publish.getByLabel(/^DOI( \*| \(optional\))?$/).fill(`10.5555/ft.${number}`);
  await expect(publish.getByLabel('Figure 1')).toHaveValue(
    'Bar chart of strain on four spans; span four is highest.',
  );
  await publish.getByRole('button', { name: 'Publish the article with its full text' }).click();
  await expect(publish.getByLabel('Figure 2')).toHaveAccessibleDescription(
    /Please describe figure 2 for readers who cannot see it\./,
  );

  // With it, the article is published.
  await publish.getByLabel('Figure 2').fill('Two bars: battery life before and after; after is about half.');
  await publish.getByRole('button', { name: 'Publish the article with its full text' }).click();
  await expect(page.getByText(/^Published as article (\d+)\./)).toBeVisible();
  const articleId = Number(
    /article (\d+)/.exec((await page.getByText(/^Published as article \d+\./).textContent())!)![1],
  );

  // Readers: the full text under the abstract, with its contents list.
  const reader = await page.context().browser()!.newContext();
  const view = await reader.newPage();
  await view.setViewportSize({ width: 1280, height: 900 });
  await view.goto(`/article/${articleId}`);
  const fullText = view.getByRole('region', { name: 'Full text' });
  const side = fullText.getByRole('navigation', { name: 'Contents' }).first();
  await expect(side).toBeVisible();
  await expect(side.getByRole('link')).toHaveText([
    '1. Introduction',
    '1.1 Contributions',
    '1.1.1 Scope',
    '2. Method',
    '3. Results',
    'Notes',
    'References',
  ]);
  // Hydrated, the server's full text stays (it is not in the route data).
  await hydrated(view);
  await expect(fullText.getByRole('heading', { name: '2. Method' })).toBeVisible();
  await expect(fullText.locator('math')).toHaveCount(3);
  await expect(fullText.getByRole('img', { name: /Bar chart of strain/ })).toHaveAttribute('loading', 'lazy');
  // Notes and references both ways.
  await fullText.getByRole('link', { name: 'Note 1', exact: true }).click();
  await expect(view).toHaveURL(/#fn-1$/);
  await fullText.getByRole('link', { name: 'Back to the text of note 1' }).click();
  await expect(view).toHaveURL(/#fn-1-call$/);
  await fullText.getByRole('link', { name: '[2, 3]', exact: true }).click();
  await expect(view).toHaveURL(/#ref-2$/);
  // Scholar is pointed at it.
  await expect(view.locator('meta[name="citation_fulltext_html_url"]')).toHaveAttribute(
    'content',
    /\/article\/\d+#full-text$/,
  );
  await axe(view);
  await screenshots(view, 'fulltext-article');

  // Phones: the contents list opens and closes.
  await view.setViewportSize({ width: 390, height: 844 });
  await expect(side).toBeHidden();
  const phoneToc = fullText.locator('details.fulltext-toc--phone');
  await expect(phoneToc).toBeVisible();
  await phoneToc.getByText('Contents').click();
  await expect(phoneToc.getByRole('link', { name: '3. Results' })).toBeVisible();
  // The table scrolls in its own box, never the page.
  expect(await view.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axe(view);

  // The JATS link downloads valid XML.
  await view.setViewportSize({ width: 1280, height: 900 });
  const [download] = await Promise.all([
    view.waitForEvent('download'),
    fullText.getByRole('link', { name: 'JATS XML' }).click(),
  ]);
  const xml = readFileSync((await download.path())!, 'utf8');
  expect(xml).toContain(`<article-title>${title}</article-title>`);
  expect(xml).toContain('<alt-text>Two bars: battery life before and after; after is about half.</alt-text>');
  const valid = validJats(xml);
  expect(valid.ok, valid.output).toBe(true);
  await reader.close();
});

test('a demo article shows its full text after a navigation in the browser too', async ({ page }) => {
  await page.goto('/volumes?volume=1&issue=1');
  await hydrated(page);
  const [first, second] = demoArticles;
  await page.getByRole('link', { name: first.title }).click();
  const fullText = page.getByRole('region', { name: 'Full text' });
  // A navigation in the browser: the HTML came as route data this time.
  await expect(fullText.getByRole('heading', { name: `1. ${first.sections[0].heading}` })).toBeVisible();
  await page.goto('/volumes?volume=1&issue=1');
  await hydrated(page);
  await page.getByRole('link', { name: second.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: second.title })).toBeVisible();
  await expect(fullText.getByRole('heading', { name: `1. ${second.sections[0].heading}` })).toBeVisible();
});

test('an article on the dashboard gets its full text from a Word file, shown once published with every figure described', async ({
  page,
  signIn,
  adminApi,
  request,
}) => {
  test.setTimeout(120_000);
  const { number, issueId } = await newIssue(adminApi, 2_000_000);
  const created = await adminApi.post('/api/articles/admin/upload', {
    multipart: {
      title: `Adaptive sampling on the dashboard ${number}`,
      abstract: 'We sample bridges adaptively.',
      keywords: 'sampling, bridges',
      pages: '1-9',
      doi: `10.5555/ftdash.${number}`,
      issue_id: String(issueId),
      authors: JSON.stringify([
        { name: 'Ana Lopes', email: 'ana@example.org', affiliation: 'University of Porto', superscript: '1' },
      ]),
      pdf: {
        name: 'article.pdf',
        mimeType: 'application/pdf',
        buffer: readFileSync(path.join(HERE, '../fixtures/manuscripts/manuscript.pdf')),
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const articleId = ((await created.json()) as { article: { id: number } }).article.id;

  await signIn('editor');
  await page.goto(`/editor-dashboard/articles?edit=${articleId}`);
  const convert = page.getByRole('form', { name: 'Full text from the Word file' });
  await convert.getByLabel('Word file').setInputFiles(word());
  await convert.getByRole('button', { name: 'Convert the Word file' }).click();
  await expect(page.getByRole('status')).toContainText(/^Word file converted: \d+ words\./);
  // Not on the article page yet, nor its figures: it waits for its preview (decision 0035).
  expect((await request.get(`/article/${articleId}/figures/figure-1.png`)).status()).toBe(404);
  const pending = page.getByRole('region', { name: 'New full text, not published yet' });
  await pending.getByLabel('Figure 2').fill('Two bars: battery life before and after.');
  await pending.getByRole('button', { name: 'Publish the new full text' }).click();
  await expect(page.getByText('The new full text is on the article page.')).toBeVisible();
  await expect(page.getByText(/^Shown on the article page and in its JATS XML/)).toBeVisible();

  const reader = await request.get(`/article/${articleId}`);
  expect(await reader.text()).toContain('<h2 id="full-text-title">Full text</h2>');
  expect((await request.get(`/article/${articleId}/figures/figure-2.png`)).status()).toBe(200);
});
