import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { expect, test } from './fixtures.ts';

/** The similarity checker: /plagiarism (issue 5) and an editor's report on a submission. */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const fixture = (name: string) => path.join(FIXTURES, name);

/** A published demo article's PDF, saved to a file: checking it must find the article itself. */
async function demoArticle(adminApi: APIRequestContext): Promise<{ id: number; title: string; file: string; data: Buffer }> {
  const list = await adminApi.get('/api/papers');
  expect(list.ok()).toBe(true);
  // Newest first: the last is a demo article (2025), which no test changes.
  const article = ((await list.json()) as { id: number; title: string }[]).at(-1)!;
  const pdf = await adminApi.get(`/api/articles/${article.id}/download`);
  expect(pdf.ok()).toBe(true);
  const data = await pdf.body();
  // In the test's own output folder (emptied by Playwright), under the name the page should show.
  const file = test.info().outputPath('my-paper.pdf');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  return { id: article.id, title: article.title, file, data };
}

/** The page's scripts have run: the drop zone appears only then. */
async function openChecker(page: Page) {
  await page.goto('/plagiarism');
  await expect(page.getByRole('heading', { level: 1, name: 'Plagiarism check' })).toBeVisible();
  await expect(page.getByText('Drag and drop the file here')).toBeVisible();
}

/** Holds the check request until released, so both stages of the progress can be seen. */
async function holdChecks(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/plagiarism', async (route: Route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

const fileInput = (page: Page) => page.getByLabel(/^Manuscript/);
const checkButton = (page: Page) => page.getByRole('button', { name: 'Check the file' });

test.describe('/plagiarism', () => {
  test('a signed-out visitor is asked to sign in and comes back', async ({ page, createAccount, axe }) => {
    await page.goto('/plagiarism');
    await expect(page.getByRole('heading', { name: 'Sign in to check a manuscript' })).toBeVisible();
    await expect(checkButton(page)).toHaveCount(0);
    await axe(page);
    const me = await createAccount('researcher', 'pending');
    await page.getByRole('link', { name: 'sign in' }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fplagiarism/);
    await page.getByLabel('Username').fill(me.username);
    await page.getByLabel('Password').fill(me.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/plagiarism$/);
    await expect(checkButton(page)).toBeVisible();
  });

  test('checks a file with upload progress, then shows the scores, sources, passages and grammar', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    const article = await demoArticle(adminApi);
    await signIn('researcher', 'pending');
    await openChecker(page);
    await axe(page);

    // No file: the spec's message, and nothing is sent.
    await checkButton(page).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.plagiarismNoFile);

    // A file refused before any upload.
    await fileInput(page).setInputFiles(fixture('png-named.pdf'));
    await expect(page.getByText("The file's content does not match its name")).toBeVisible();

    const release = await holdChecks(page);
    await fileInput(page).setInputFiles(article.file);
    await expect(page.getByText('Chosen: my-paper.pdf')).toBeVisible();
    await checkButton(page).click();
    await expect(page.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    await expect(page.getByRole('progressbar', { name: /Uploading|Checking the manuscript/ })).toBeVisible();
    release();
    const result = page.getByRole('region', { name: 'Result for my-paper.pdf' });
    await expect(result).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0);

    // Both percentages with two decimals; the article is the source, linked; passages are marked.
    await expect(result.getByTestId('plagiarism-percentage')).toHaveText(/^\d{1,3}\.\d{2} %$/);
    const score = Number((await result.getByTestId('plagiarism-percentage').textContent())!.replace(' %', ''));
    expect(score).toBeGreaterThan(80);
    await expect(result.getByText('Grammar quality')).toBeVisible();
    await expect(result.locator('.sim-score__value').nth(1)).toHaveText(/^\d{1,3}\.\d{2} %$/);
    const sources = result.getByRole('table', { name: 'Matched sources, largest share first' });
    await expect(sources.getByRole('link', { name: article.title })).toHaveAttribute('href', `/article/${article.id}`);
    await expect(result.locator('mark.sim-mark').first()).toContainText('Matched passage 1, source S1');
    await expect(result.getByRole('list', { name: 'Matched passages and their sources' }).getByRole('listitem').first()).toContainText(
      'Source',
    );
    await expect(result.getByRole('heading', { name: 'Grammar' })).toBeVisible();
    await axe(page);
    await screenshots(page, 'plagiarism-result');
  });

  test('says plainly, above the score, when the check ran against a corpus still being indexed', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    const article = await demoArticle(adminApi);
    await signIn('researcher', 'approved');
    await openChecker(page);
    // The server's own answer, as it reads right after a first start or a reindex (issue 22): the browser
    // receives it with the corpus the server reported then.
    await page.route('**/api/plagiarism', async (route: Route) => {
      // The same check, sent by the test in the page's session (a routed multipart upload arrives empty).
      const origin = new URL(page.url()).origin;
      const answer = await page.request.post('/api/plagiarism', {
        headers: { origin },
        multipart: { file: { name: 'my-paper.pdf', mimeType: 'application/pdf', buffer: article.data } },
      });
      expect(answer.status()).toBe(200);
      const report = await answer.json();
      report.corpus = {
        indexed: 1,
        expected: 6,
        complete: false,
        newestIndexedAt: '2026-05-04T09:00:12.000Z',
        unreadable: 0,
        message:
          "The journal's corpus was still being indexed: this check compared the text with 1 of 6 documents. A copy of a document not indexed yet is not found, so a low score does not mean the text is original: check again in a few minutes.",
      };
      await route.fulfill({ response: answer, json: report });
    });
    await fileInput(page).setInputFiles(article.file);
    await checkButton(page).click();
    const result = page.getByRole('region', { name: 'Result for my-paper.pdf' });
    await expect(result).toBeVisible({ timeout: 60_000 });
    const notice = result.getByTestId('corpus-incomplete');
    await expect(notice).toContainText('Incomplete comparison.');
    await expect(notice).toContainText('a low score does not mean the text is original');
    await expect(notice).toContainText('Compared with 1 of 6 documents; the newest indexed 2026-05-04 09:00 UTC.');
    await axe(page);
    await screenshots(page, 'plagiarism-corpus-incomplete');
  });

  test('a file dropped on the drop zone is chosen, and checked as a Word file', async ({ page, signIn }) => {
    await signIn('researcher', 'approved');
    await openChecker(page);
    const docx = readFileSync(fixture('manuscript.docx')).toString('base64');
    const transfer = await page.evaluateHandle((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(
        new File([bytes], 'dropped.docx', {
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        }),
      );
      return dt;
    }, docx);
    const zone = page.getByText(/Drag and drop the file here|Drop the file to choose it/);
    await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
    await expect(page.getByText('Drop the file to choose it')).toBeVisible();
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await expect(page.getByText('Chosen: dropped.docx')).toBeVisible();
    await checkButton(page).click();
    const result = page.getByRole('region', { name: 'Result for dropped.docx' });
    await expect(result).toBeVisible({ timeout: 60_000 });
    await expect(result.getByTestId('plagiarism-percentage')).toHaveText(/^\d{1,3}\.\d{2} %$/);
  });

  test('a file without text: the failure message with the reason', async ({ page, signIn, axe, screenshots }) => {
    await signIn('author', 'approved');
    await openChecker(page);
    await fileInput(page).setInputFiles(fixture('scanned.pdf'));
    await checkButton(page).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.plagiarismFailure, { timeout: 60_000 });
    await expect(page.getByText(/No text could be read from this file: it seems to be a scanned image/).first()).toBeVisible();
    await axe(page);
    await screenshots(page, 'plagiarism-failure');
  });

  test('without JavaScript: the form posts and the page shows the result', async ({ noJsPage: page, signIn, adminApi, axe }) => {
    const article = await demoArticle(adminApi);
    await signIn('researcher', 'approved', page);
    await page.goto('/plagiarism');
    await expect(page.getByText('Drag and drop the file here')).toHaveCount(0);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.plagiarismNoFile);
    await fileInput(page).setInputFiles(article.file);
    // The click waits for the form post's answer, which comes after the whole check.
    await page.getByRole('button', { name: 'Check the file' }).click({ timeout: 60_000 });
    const result = page.getByRole('region', { name: 'Result for my-paper.pdf' });
    await expect(result).toBeVisible({ timeout: 60_000 });
    await expect(result.getByTestId('plagiarism-percentage')).toHaveText(/^\d{1,3}\.\d{2} %$/);
    await expect(result.getByRole('link', { name: article.title }).first()).toBeVisible();
    await axe(page);
  });
});

test.describe("the editor's similarity report", () => {
  test('a submission is checked on arrival; the editor sees the report and re-runs it with filters', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    request,
    axe,
    screenshots,
  }) => {
    const article = await demoArticle(adminApi);
    const author = await createAccount('author', 'approved');
    const login = await request.post('/api/auth/login', { data: { username: author.username, password: author.password } });
    const token = (await login.json()).token as string;
    const submitted = await request.post('/api/submission/submit', {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        title: `A familiar paper ${Date.now().toString(36)}`,
        articleType: 'Research Article',
        keywords: 'offloading',
        abstract: 'An abstract.',
        authors: JSON.stringify([{ name: 'A. Author', email: 'a@example.org', affiliation: 'Uni', superscript: '1' }]),
        submissionFile: { name: 'familiar.pdf', mimeType: 'application/pdf', buffer: article.data },
      },
    });
    expect(submitted.status()).toBe(201);
    const { id, reference } = (await submitted.json()) as { id: number; reference: string };

    await signIn('editor');
    await page.goto(`/editor-dashboard/submissions/${id}/similarity`);
    await expect(page.getByRole('heading', { level: 1, name: 'Similarity report' })).toBeVisible();
    await expect(page.getByText(reference)).toBeVisible();
    await expect(page.getByTestId('plagiarism-percentage')).toHaveText(/^\d{1,3}\.\d{2} %$/, { timeout: 60_000 });
    await expect(page.getByText('the report kept for this version')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Matched sources, largest share first' }).getByRole('link', { name: article.title })).toBeVisible();
    await expect(page.locator('mark.sim-mark').first()).toBeVisible();
    await axe(page);
    await screenshots(page, 'similarity-editor');

    // Filters re-run the report (a GET form: the address keeps them).
    await page.getByLabel('Smallest match (words)').fill('30');
    await page.getByLabel('Leave out quotations').check();
    await page.getByRole('button', { name: 'Update the report' }).click();
    await expect(page).toHaveURL(/minMatchWords=30/);
    await expect(page.getByText('checked just now with these filters')).toBeVisible();
    await expect(page.getByText(/Passages of at least 30 matching words; quotations excluded/)).toBeVisible();

    // Checked again with the default filters: the new report is kept.
    await page.goto(`/editor-dashboard/submissions/${id}/similarity`);
    await page.getByRole('button', { name: 'Check again now' }).click();
    await expect(page).toHaveURL(/refresh=1/);
    await expect(page.getByText('the report kept for this version')).toBeVisible();

    // The submission's desk page shows the kept score and its largest sources, and links to the report.
    await page.goto(`/editor-dashboard/submissions/${id}`);
    const summary = page.getByRole('region', { name: 'Similarity' });
    await expect(summary).toContainText(/Version 1: \d{1,3}\.\d{2} ?% similar/);
    await expect(summary.getByRole('link', { name: article.title })).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Full report' })).toHaveAttribute(
      'href',
      `/editor-dashboard/submissions/${id}/similarity`,
    );

    // Not for readers.
    const res = await request.get(`/api/editor/submissions/${id}/similarity`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(403);
  });
});
