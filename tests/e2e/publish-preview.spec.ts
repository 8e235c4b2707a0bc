import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, loginThroughApi, test } from './fixtures.ts';

/**
 * Issue 22, items 5, 6 and 9 in the browser (decision 0035): an accepted submission is published from one
 * place, the final PDF and the Word file together, a preview as readers will see it with what needs a person,
 * the fixes, then Publish; nothing is live before. A replaced Word file waits beside the live full text. The
 * submission form takes the signed copyright form and starts with the signed-in author.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const manuscripts = (name: string) => path.join(HERE, '../fixtures/manuscripts', name);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const word = (name = 'final.docx') => ({
  name,
  mimeType: DOCX,
  buffer: readFileSync(path.join(HERE, '../fixtures/fulltext/article.docx')),
});
const pdf = (name = 'final.pdf') => ({
  name,
  mimeType: 'application/pdf',
  buffer: readFileSync(manuscripts('manuscript.pdf')),
});
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

async function newIssue(adminApi: APIRequestContext) {
  const number = 60_000 + Math.floor(Math.random() * 1_000_000);
  const volume = await adminApi.post('/api/editor/volume', {
    data: { title: `PP volume ${number}`, volume_number: number, year: 2026 },
  });
  expect(volume.ok(), await volume.text()).toBe(true);
  const issue = await adminApi.post('/api/editor/issue', {
    data: { title: `PP issue ${number}`, description: 'Preview.', volume_id: (await volume.json()).volume.id },
  });
  expect(issue.ok(), await issue.text()).toBe(true);
  return { number, issueId: (await issue.json()).issue.id as number, label: `Volume ${number}, Issue 1: PP issue ${number}` };
}

/** An accepted submission whose manuscript is a Word file (so the final PDF must be given). */
async function accepted(api: APIRequestContext, adminApi: APIRequestContext, token: string, title: string) {
  const res = await api.post('/api/submission/submit', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'sampling, monitoring, bridges, energy',
      abstract: 'We sample bridges adaptively.',
      authors: JSON.stringify([
        { name: 'Ana Lopes', email: 'ana@example.org', affiliation: 'University of Porto', superscript: '1' },
      ]),
      submissionFile: { name: 'manuscript.docx', mimeType: DOCX, buffer: readFileSync(manuscripts('manuscript.docx')) },
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

/** axe at the desktop width and on a phone (390 px), the page's size put back after. */
async function axeAtBothWidths(page: Page, axe: (page: Page) => Promise<void>) {
  const original = page.viewportSize()!;
  await axe(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page);
  await page.setViewportSize(original);
}

/** The reader's view of an article (a context of its own: signed out). */
async function readerPage(page: Page, articleId: number) {
  const reader = await page.context().browser()!.newContext();
  const view = await reader.newPage();
  const res = await view.goto(`/article/${articleId}`);
  return { view, status: res?.status(), close: () => reader.close() };
}

test('an accepted submission is published from its preview: files together, warnings, fixes, Publish', async ({
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
  const { label } = await newIssue(adminApi);
  const author = await createAccount('author');
  const token = await loginThroughApi(baseURL!, author.username, author.password);
  const title = `Publishing with a preview ${tag()}`;
  const id = await accepted(request, adminApi, token, title);

  await signIn('editor');
  await page.goto(`/editor-dashboard/submissions/${id}`);
  const panel = page.getByRole('region', { name: 'Publish as an article' });
  await expect(panel).toContainText('Nothing is on the reader site until you press Publish');
  // The desk shows the editors that no copyright form came with the submission.
  await expect(page.getByRole('region', { name: 'Files' })).toContainText('None sent with the submission.');
  await axeAtBothWidths(page, axe);
  await screenshots(page, 'publish-desk-panel');

  // Failures: nothing chosen; a Word file alone while the manuscript is not a PDF.
  await panel.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page).toHaveURL(new RegExp(`/editor-dashboard/submissions/${id}/publish$`));
  await expect(page.getByRole('alert')).toHaveText('Choose the final PDF, the Word file, or both.');
  const files = page.getByRole('form', { name: 'The final files' });
  await files.getByLabel('Word file').setInputFiles(word());
  await files.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page.getByRole('alert')).toHaveText('Choose the final PDF: the latest manuscript is not a PDF.');
  await expect(page.getByRole('form', { name: 'The final files' }).getByLabel('Final PDF')).toHaveAccessibleDescription(
    /Choose the final PDF: the latest manuscript is not a PDF\./,
  );
  // A file that is not what its name says is refused at once, before anything is sent.
  const again = page.getByRole('form', { name: 'The final files' });
  await again.getByLabel('Final PDF').setInputFiles(manuscripts('png-named.pdf'));
  await expect(again.getByLabel('Final PDF')).toHaveAccessibleDescription(/The article file must be a PDF \(\.pdf\)\./);
  await axe(page);

  // Both together: the preview.
  await again.getByLabel('Final PDF').setInputFiles(pdf());
  await again.getByLabel('Word file').setInputFiles(word());
  await again.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page.getByRole('status')).toContainText('Files received.');
  // Nothing is live yet: the submission is not an article.
  const articles = await adminApi.get('/api/editor/articles');
  expect(((await articles.json()) as { title: string }[]).some((a) => a.title === title)).toBe(false);
  await expect(page.getByRole('note')).toContainText('The author sent no signed copyright form');
  const preview = page.getByRole('region', { name: '2. The article as readers will see it' });
  await expect(preview).toContainText(title);
  await expect(preview.getByRole('heading', { name: '1.1.1 Scope' })).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Open the PDF to be published' })).toBeVisible();
  const step = page.getByRole('region', { name: '3. Fix and publish' });
  await expect(step.getByRole('list', { name: 'Needs a person' }).getByRole('listitem')).toHaveText([
    /^The Word file's own title page and abstract were left out \(5 lines: “Adaptive sampling for structural health monitoring”, “Ana Lopes, Ravi Menon”/,
    'Figure 2 has no alt text: describe it for readers who cannot see it.',
    /^Reference \[2\] has no DOI/,
    /^Reference \[4\] has no DOI/,
  ]);
  await axeAtBothWidths(page, axe);
  await screenshots(page, 'publish-preview');
  // The form's groups (alt text, the references' DOIs, where it is published) are boxed alike.
  const groups = page.getByRole('form', { name: '3. Fix and publish' }).locator('fieldset');
  await expect(groups.locator(':scope > legend')).toHaveText([
    'Alt text of the figures',
    'DOIs of the references',
    'Where it is published',
  ]);
  const looks = await groups.evaluateAll((sets) =>
    sets.map((f) => {
      const c = getComputedStyle(f);
      return [c.borderTopLeftRadius, c.borderTopStyle, c.borderTopColor, c.backgroundColor, c.marginLeft].join(' ');
    }),
  );
  expect(new Set(looks).size, looks.join(' | ')).toBe(1);

  // Publish refused: no issue, pages or DOI, no alt text, a DOI that is not one. Each said beside its field.
  const form = page.getByRole('form', { name: '3. Fix and publish' });
  await form.getByLabel('DOI of reference [2]').fill('not a doi');
  await form.getByRole('button', { name: 'Publish the article with its full text' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(form.getByLabel('Issue')).toHaveAccessibleDescription(/Choose the issue\./);
  await expect(form.getByLabel('Figure 2')).toHaveAccessibleDescription(
    /Please describe figure 2 for readers who cannot see it\./,
  );
  await expect(form.getByLabel('DOI of reference [2]')).toHaveAccessibleDescription(
    /The DOI of reference 2 must look like 10\.1234\/abc\.2025\.001\./,
  );
  await axeAtBothWidths(page, axe);
  await screenshots(page, 'publish-refused');

  // Fixed and published.
  await form.getByLabel('Figure 2').fill('Two bars: battery life before and after; after is about half.');
  await form.getByLabel('DOI of reference [2]').fill('10.5555/cited.2024.2');
  await form.getByLabel('Issue').selectOption({ label });
  await form.getByLabel('Pages').fill('1-12');
  await form.getByLabel(/^DOI( \*| \(optional\))?$/).fill(`10.5555/pp.${tag()}`);
  await form.getByRole('button', { name: 'Publish the article with its full text' }).click();
  await expect(page.getByRole('status')).toContainText(/Published as article \d+/);
  const articleId = Number(/article (\d+)/.exec((await page.getByRole('status').textContent())!)![1]);
  await expect(page.getByRole('link', { name: 'View the article' })).toBeVisible();
  await axe(page);

  const reader = await readerPage(page, articleId);
  const fullText = reader.view.getByRole('region', { name: 'Full text' });
  await expect(fullText.getByRole('img', { name: /Two bars: battery life/ })).toBeVisible();
  await expect(fullText.getByRole('link', { name: 'https://doi.org/10.5555/cited.2024.2' })).toBeVisible();
  await reader.close();
});

test('a replaced Word file keeps the published full text live until the new one is published', async ({
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
  const { issueId } = await newIssue(adminApi);
  const author = await createAccount('author');
  const token = await loginThroughApi(baseURL!, author.username, author.password);
  const id = await accepted(request, adminApi, token, `Replaced full text ${tag()}`);
  const prepared = await adminApi.post(`/api/editor/submissions/${id}/publication`, {
    multipart: { pdf: pdf(), word: word() },
  });
  expect(prepared.status(), await prepared.text()).toBe(201);
  const published = await adminApi.post(`/api/editor/submissions/${id}/publish`, {
    multipart: { issue_id: String(issueId), pages: '1-9', doi: `10.5555/rp.${tag()}`, 'alt-2': 'The first description.' },
  });
  expect(published.status(), await published.text()).toBe(201);
  const { articleId } = (await published.json()) as { articleId: number };

  await signIn('editor');
  await page.goto(`/editor-dashboard/articles?edit=${articleId}`);
  const replace = page.getByRole('form', { name: 'Full text from the Word file' });
  await replace.getByLabel('Replace the Word file').setInputFiles(word('second.docx'));
  await replace.getByRole('button', { name: 'Convert the Word file' }).click();
  await expect(page.getByRole('status')).toContainText('Readers still see the published full text');

  // Readers keep the published one.
  let reader = await readerPage(page, articleId);
  await expect(reader.view.getByRole('img', { name: 'The first description.' })).toBeVisible();
  await reader.close();

  const pending = page.getByRole('region', { name: 'New full text, not published yet' });
  await expect(pending).toContainText('From second.docx');
  await axeAtBothWidths(page, axe);
  await screenshots(page, 'publish-pending-fulltext');
  await pending.getByRole('button', { name: 'Publish the new full text' }).click();
  await expect(page.getByRole('alert')).toContainText('Please correct the marked fields.');
  await expect(pending.getByLabel('Figure 2')).toHaveAccessibleDescription(
    /Please describe figure 2 for readers who cannot see it\./,
  );
  reader = await readerPage(page, articleId);
  await expect(reader.view.getByRole('img', { name: 'The first description.' })).toBeVisible();
  await reader.close();

  await pending.getByLabel('Figure 2').fill('The second description.');
  await pending.getByRole('button', { name: 'Publish the new full text' }).click();
  await expect(page.getByRole('status')).toHaveText('The new full text is on the article page.');
  await expect(page.getByRole('region', { name: 'New full text, not published yet' })).toHaveCount(0);
  reader = await readerPage(page, articleId);
  await expect(reader.view.getByRole('img', { name: 'The second description.' })).toBeVisible();
  await reader.close();

  // The article upload form names its optional Word file once.
  await expect(
    page.getByRole('form', { name: 'Upload an article' }).getByLabel('Word file (optional)', { exact: true }),
  ).toHaveCount(1);
});

test('the submission form starts with the signed-in author and takes the signed copyright form (PDF)', async ({
  page,
  signIn,
  axe,
  screenshots,
}) => {
  test.setTimeout(120_000);
  const me = await signIn('author');
  await page.goto('/submission');
  const first = page.getByRole('group', { name: /Author 1/ });
  await expect(first.getByLabel('Full name')).toHaveValue(me.fullName);
  await expect(first.getByLabel('Email')).toHaveValue(me.email);
  await expect(first.getByLabel('Affiliation')).toHaveValue('Test Institute of Technology');
  // Editable: someone else may lead the paper.
  await first.getByLabel('Full name').fill('Asha Menon');
  const copyright = page.getByLabel('Signed copyright form (optional)');
  await expect(copyright).toBeVisible();
  // Only a PDF: a Word file is refused at once.
  await copyright.setInputFiles(manuscripts('manuscript.docx'));
  await expect(copyright).toHaveAccessibleDescription(/The copyright form must be a PDF \(\.pdf\)/);
  await axeAtBothWidths(page, axe);
  await screenshots(page, 'submission-copyright');

  // Sent with it.
  const title = `With the copyright form ${tag()}`;
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Article type').selectOption('Research Article');
  await page.getByLabel('Keywords').fill('copyright, forms, submission, journals');
  await page.getByLabel('Abstract').fill('The signed form goes with the manuscript.');
  await page.getByLabel('Main manuscript file').setInputFiles(manuscripts('manuscript.pdf'));
  await copyright.setInputFiles(pdf('signed-form.pdf'));
  await page.getByRole('button', { name: 'Submit manuscript' }).click();
  await expect(page.getByText(/^Submission successful\./)).toBeVisible();
  // The new, empty form starts with the signed-in author again.
  await expect(page.getByRole('group', { name: /Author 1/ }).getByLabel('Full name')).toHaveValue(me.fullName);

  // Its author finds the signed form among the submission's files, and downloads it.
  await page.goto('/my-submissions');
  await page.getByRole('link', { name: title }).click();
  const files = page.getByRole('region', { name: 'Files' });
  const form = files.getByRole('link', { name: 'signed-form.pdf' });
  await expect(form).toHaveAttribute('href', /^\/api\/submissions\/\d+\/copyright-form$/);
  const download = await page.request.get((await form.getAttribute('href'))!);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-type']).toContain('application/pdf');
});
