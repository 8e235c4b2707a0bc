import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { expect, test } from './fixtures.ts';

/** Manuscript submission (/submission) and My submissions (/my-submissions), issue 4. */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const fixture = (name: string) => path.join(FIXTURES, name);

/** The server's default MAX_MANUSCRIPT_SIZE (the e2e servers do not change it). */
const MAX_MANUSCRIPT_BYTES = 20 * 1024 * 1024;

const AUTHORS = [
  {
    name: 'Priya Raman',
    email: 'priya.raman@example.org',
    affiliation: 'IIT Madras, Chennai, India',
    superscript: '1',
  },
  {
    name: 'Jon Olsen',
    email: 'jon.olsen@example.org',
    affiliation: 'NTNU, Trondheim, Norway',
    superscript: '2',
  },
];

let seq = 0;
/** A title no other test (or run) uses, to find the submission again. */
const uniqueTitle = () => `Energy-aware task offloading for IoT gateways ${Date.now().toString(36)}-${++seq}`;

/** Opens the form and waits for its scripts: the drop zones appear only once JavaScript runs. */
async function openForm(page: Page) {
  await page.goto('/submission');
  await expect(page.getByRole('heading', { level: 1, name: 'Submit a manuscript' })).toBeVisible();
  await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();
}

const authorGroup = (page: Page, n: number) =>
  page.getByRole('group', { name: new RegExp(`^Author ${n}\\b`) });

async function fillArticle(page: Page, title = uniqueTitle()) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Article type').selectOption('Research Article');
  await page.getByLabel('Keywords').fill('IoT, edge computing, task offloading, energy');
  await page
    .getByLabel('Abstract')
    .fill('We schedule task offloading so that battery-powered gateways last longer.');
  return title;
}

async function fillAuthor(page: Page, n: number, author: (typeof AUTHORS)[number]) {
  const group = authorGroup(page, n);
  await group.getByLabel('Full name').fill(author.name);
  await group.getByLabel('Email').fill(author.email);
  await group.getByLabel('Affiliation').fill(author.affiliation);
  await group.getByLabel('Superscript').fill(author.superscript);
}

const mainFile = (page: Page) => page.getByLabel('Main manuscript file');
const zipFile = (page: Page) => page.getByLabel('Additional files');
const submitButton = (page: Page) => page.getByRole('button', { name: 'Submit manuscript' });

/** Counts the form's requests to the submission API. */
function countUploads(page: Page) {
  const seen = { count: 0 };
  page.on('request', (req) => {
    if (req.url().endsWith('/api/submission/submit')) seen.count += 1;
  });
  return seen;
}

/** Holds the upload request until released, so the progress bar can be seen. */
async function holdUploads(page: Page, url = '**/api/submission/submit') {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held: Route[] = [];
  await page.route(url, async (route) => {
    held.push(route);
    await released;
    await route.continue().catch(() => {});
  });
  return { release, held };
}

async function mySubmissions(api: APIRequestContext, token: string) {
  const res = await api.get('/api/submissions/mine', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { id: number; reference: string; title: string; status: string }[];
}

test.describe('signed out and wrong account', () => {
  test('a signed-out visitor is sent to log in, told why, and brought back', async ({
    page,
    createAccount,
  }) => {
    await page.goto('/submission');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsubmission/);
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.mustBeAuthor);

    const author = await createAccount('author', 'pending');
    await page.getByLabel('Username').fill(author.username);
    await page.getByLabel('Password').fill(author.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/submission$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Submit a manuscript' })).toBeVisible();
  });

  test('My submissions sends a signed-out visitor to log in', async ({ page }) => {
    await page.goto('/my-submissions');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmy-submissions/);
  });

  test('a researcher is told that submitting needs an author account', async ({ page, signIn, axe }) => {
    await signIn('researcher');
    await page.goto('/submission');
    await expect(page.getByRole('alert')).toContainText('Submitting a manuscript needs an author account');
    await expect(page.getByRole('link', { name: 'Contact the editorial office' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'register an author account' })).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: 'My submissions' })).toHaveCount(0);
    await axe(page);
  });
});

test.describe('submitting', () => {
  test('an author submits with two authors and both files, with a progress bar', async ({
    page,
    signIn,
    axe,
    screenshots,
    request,
  }) => {
    const me = await signIn('author', 'pending');
    await openForm(page);
    await expect(page.getByRole('banner').getByRole('link', { name: 'My submissions' })).toBeVisible();
    await axe(page);

    const title = await fillArticle(page);
    await page.getByRole('button', { name: 'Add another author' }).click();
    await expect(authorGroup(page, 2).getByLabel('Full name')).toBeFocused();
    await fillAuthor(page, 1, AUTHORS[0]);
    await fillAuthor(page, 2, AUTHORS[1]);
    await mainFile(page).setInputFiles(fixture('manuscript.pdf'));
    await zipFile(page).setInputFiles(fixture('supplementary.zip'));
    await expect(page.getByText('Chosen: manuscript.pdf (43 KB)')).toBeVisible();
    await expect(page.getByText('Chosen: supplementary.zip (187 bytes)')).toBeVisible();
    await screenshots(page, 'submission-filled');

    const hold = await holdUploads(page);
    await submitButton(page).click();
    const progress = page.getByRole('progressbar', { name: 'Uploading your submission' });
    await expect(progress).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel upload' })).toBeVisible();
    hold.release();

    const success = page.getByRole('status').filter({ hasText: MESSAGES.submissionSuccess });
    await expect(success).toBeVisible();
    await expect(success).toBeFocused();
    await expect(success).toContainText(/COL-\d{4}-\d{4}/);
    await expect(progress).toHaveCount(0);
    // The form is cleared: empty fields, one author (the signed-in account again: issue 22), no files.
    await expect(page.getByLabel('Title')).toHaveValue('');
    await expect(page.getByLabel('Abstract')).toHaveValue('');
    await expect(page.getByRole('group', { name: /^Author \d/ })).toHaveCount(1);
    await expect(authorGroup(page, 1).getByLabel('Full name')).toHaveValue(me.fullName);
    await expect(page.getByText(/^Chosen:/)).toHaveCount(0);
    await screenshots(page, 'submission-success');

    const [mine] = await mySubmissions(request, me.token);
    expect(mine).toMatchObject({ title, status: 'submitted' });
    await expect(success).toContainText(mine.reference);

    await success.getByRole('link', { name: 'Follow it in My submissions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('link', { name: 'manuscript.pdf' })).toHaveAttribute(
      'href',
      new RegExp(`^/api/submissions/${mine.id}/files/\\d+$`),
    );
    await expect(page.getByRole('link', { name: 'supplementary.zip' })).toBeVisible();

    await page.getByRole('banner').getByRole('link', { name: 'My submissions' }).click();
    const card = page.getByRole('article').filter({ hasText: mine.reference });
    await expect(card.getByRole('heading', { name: title })).toBeVisible();
    await expect(card).toContainText('Status: Submitted');
    await expect(card).toContainText('Research Article');
    await axe(page);
    await screenshots(page, 'my-submissions');
  });

  test('every message of the form, in the browser before any upload', async ({ page, signIn, axe }) => {
    await signIn('author');
    await openForm(page);
    const uploads = countUploads(page);
    // Author 1 starts as the signed-in account (issue 22); emptied, each of its fields says what it needs.
    for (const field of ['Full name', 'Email', 'Affiliation'])
      await authorGroup(page, 1).getByLabel(field).fill('');

    await submitButton(page).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(`${MESSAGES.submissionFailedPrefix}Title is required.`);
    await expect(alert).toBeFocused();
    await expect(page.getByLabel('Title')).toHaveAccessibleDescription(/Title is required\./);
    await expect(page.getByLabel('Article type')).toHaveAccessibleDescription(/Article type must be one of/);
    await expect(page.getByLabel('Keywords')).toHaveAccessibleDescription(/Keywords is required\./);
    await expect(page.getByLabel('Abstract')).toHaveAccessibleDescription(/Abstract is required\./);
    const first = authorGroup(page, 1);
    await expect(first.getByLabel('Full name')).toHaveAccessibleDescription(/Author name is required\./);
    await expect(first.getByLabel('Email')).toHaveAccessibleDescription(/Author email is required\./);
    await expect(first.getByLabel('Affiliation')).toHaveAccessibleDescription(
      /Author affiliation is required\./,
    );
    await expect(mainFile(page)).toHaveAccessibleDescription(
      new RegExp(escapeRegExp(MESSAGES.mainFileMissing)),
    );
    await expect(page.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
    // Each listed error links to its field.
    await alert.getByRole('link', { name: 'Keywords is required.' }).click();
    await expect(page.getByLabel('Keywords')).toBeFocused();
    await axe(page);

    // Fixing a field clears its message; a wrong email has its own.
    await fillArticle(page);
    await expect(page.getByLabel('Title')).not.toHaveAttribute('aria-invalid', 'true');
    await fillAuthor(page, 1, { ...AUTHORS[0], email: 'priya-at-example' });
    await submitButton(page).click();
    await expect(first.getByLabel('Email')).toHaveAccessibleDescription(
      /Author email must be a valid email address\./,
    );

    // Files refused as soon as they are chosen.
    await mainFile(page).setInputFiles(fixture('png-named.pdf'));
    await expect(mainFile(page)).toHaveAccessibleDescription(
      /must be a Word document \(\.doc, \.docx\) or a PDF \(\.pdf\)\. \(The file's content does not match its name "png-named\.pdf"\.\)/,
    );
    await expect(mainFile(page)).toHaveValue('');
    await mainFile(page).setInputFiles(fixture('empty.pdf'));
    await expect(mainFile(page)).toHaveAccessibleDescription(
      /The main submission file is empty \(0 bytes\)\./,
    );
    await mainFile(page).setInputFiles(fixture('supplementary.zip'));
    await expect(mainFile(page)).toHaveAccessibleDescription(/"supplementary\.zip" is not one of these\./);
    // A file on disk, not a buffer: 20 MB sent through the browser protocol can outlast the action timeout
    // on a busy machine, while a path is read by the browser itself.
    const huge = test.info().outputPath('huge.pdf');
    writeFileSync(huge, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_MANUSCRIPT_BYTES)]));
    await mainFile(page).setInputFiles(huge);
    await expect(mainFile(page)).toHaveAccessibleDescription(
      /The main submission file is too large: the limit is 20 MB\./,
    );
    await zipFile(page).setInputFiles(fixture('not-a-zip.zip'));
    await expect(zipFile(page)).toHaveAccessibleDescription(/The additional file must be a \.zip archive\./);

    // Submitting now names the refused files, not the missing-file message.
    await fillAuthor(page, 1, AUTHORS[0]);
    await submitButton(page).click();
    await expect(alert).toContainText(
      `${MESSAGES.submissionFailedPrefix}The main submission file is too large`,
    );
    await expect(alert.getByRole('link')).toHaveCount(2);
    expect(uploads.count).toBe(0);

    // A good file clears its message.
    await mainFile(page).setInputFiles(fixture('manuscript.docx'));
    await expect(page.getByText('Chosen: manuscript.docx')).toBeVisible();
    await expect(mainFile(page)).not.toHaveAttribute('aria-invalid', 'true');
  });

  test('the server refuses encrypted and truncated PDFs, and the form keeps everything', async ({
    page,
    signIn,
    request,
  }) => {
    const me = await signIn('author');
    await openForm(page);
    const title = await fillArticle(page);
    await fillAuthor(page, 1, AUTHORS[0]);

    for (const [file, message] of [
      [
        'encrypted.pdf',
        'The main submission file is password-protected. Please upload a PDF without a password or encryption.',
      ],
      [
        'truncated.pdf',
        'The main submission file is damaged or incomplete. Please export the PDF again and upload it.',
      ],
    ] as const) {
      await mainFile(page).setInputFiles(fixture(file));
      await expect(page.getByText(`Chosen: ${file}`)).toBeVisible();
      const answer = page.waitForResponse('**/api/submission/submit');
      await submitButton(page).click();
      expect((await answer).status()).toBe(422);
      const alert = page.getByRole('alert');
      await expect(alert).toHaveText(`${MESSAGES.submissionFailedPrefix}${message}`);
      await expect(alert).toBeFocused();
      await expect(mainFile(page)).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
      await expect(page.getByLabel('Title')).toHaveValue(title);
      await expect(authorGroup(page, 1).getByLabel('Email')).toHaveValue(AUTHORS[0].email);
    }
    expect(await mySubmissions(request, me.token)).toEqual([]);
  });

  test('authors: remove only while more than one remains, and reorder', async ({ page, signIn }) => {
    await signIn('author');
    await openForm(page);
    const removeButtons = page.getByRole('button', { name: /^Remove author \d+$/ });
    await expect(removeButtons).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^(↑ )?Move (up|down)/ })).toHaveCount(0);

    await page.getByRole('button', { name: 'Add another author' }).click();
    await page.getByRole('button', { name: 'Add another author' }).click();
    await expect(removeButtons).toHaveCount(3);
    await fillAuthor(page, 1, AUTHORS[0]);
    await fillAuthor(page, 2, AUTHORS[1]);
    await authorGroup(page, 3).getByLabel('Full name').fill('Third Author');

    await page.getByRole('button', { name: 'Move up author 2' }).click();
    await expect(authorGroup(page, 1).getByLabel('Full name')).toHaveValue(AUTHORS[1].name);
    await expect(authorGroup(page, 2).getByLabel('Full name')).toHaveValue(AUTHORS[0].name);
    await expect(authorGroup(page, 1).getByLabel('Email')).toHaveValue(AUTHORS[1].email);
    // Focus follows the moved author.
    await expect(page.getByRole('button', { name: 'Move down author 1' })).toBeFocused();
    await page.getByRole('button', { name: 'Move down author 2' }).click();
    await expect(authorGroup(page, 3).getByLabel('Full name')).toHaveValue(AUTHORS[0].name);

    await page.getByRole('button', { name: 'Remove author 2' }).click();
    await expect(removeButtons).toHaveCount(2);
    await expect(authorGroup(page, 2).getByLabel('Full name')).toHaveValue(AUTHORS[0].name);
    await page.getByRole('button', { name: 'Remove author 1' }).click();
    await expect(removeButtons).toHaveCount(0);
    await expect(authorGroup(page, 1).getByLabel('Full name')).toHaveValue(AUTHORS[0].name);
  });

  test('cancelling during the upload keeps the form, and nothing is submitted', async ({
    page,
    signIn,
    request,
  }) => {
    const me = await signIn('author');
    await openForm(page);
    const title = await fillArticle(page);
    await fillAuthor(page, 1, AUTHORS[0]);
    await mainFile(page).setInputFiles(fixture('manuscript.docx'));
    await zipFile(page).setInputFiles(fixture('supplementary.zip'));

    // The request never reaches the server: it is held here until the browser gives it up.
    const held: Route[] = [];
    await page.route('**/api/submission/submit', (route) => {
      held.push(route);
    });
    await submitButton(page).click();
    await expect(page.getByRole('progressbar', { name: 'Uploading your submission' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel upload' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Upload cancelled.' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(submitButton(page)).toBeFocused();
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(authorGroup(page, 1).getByLabel('Affiliation')).toHaveValue(AUTHORS[0].affiliation);
    await expect(page.getByText('Chosen: manuscript.docx')).toBeVisible();
    await expect(page.getByText('Chosen: supplementary.zip')).toBeVisible();
    for (const route of held) await route.abort().catch(() => {});
    expect(await mySubmissions(request, me.token)).toEqual([]);

    // And it can be sent again.
    await page.unroute('**/api/submission/submit');
    await submitButton(page).click();
    await expect(page.getByRole('status').filter({ hasText: MESSAGES.submissionSuccess })).toBeVisible();
  });

  test('without JavaScript: authors are added by posting back, and the form submits', async ({
    noJsPage: page,
    signIn,
    axe,
    request,
  }) => {
    const me = await signIn('author', 'approved', page);
    await page.goto('/submission');
    await expect(page.getByText('Drag and drop the file here')).toHaveCount(0);
    const title = await fillArticle(page);
    await fillAuthor(page, 1, AUTHORS[0]);
    await page.getByRole('button', { name: 'Add another author' }).click();
    await expect(authorGroup(page, 2)).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(authorGroup(page, 1).getByLabel('Email')).toHaveValue(AUTHORS[0].email);
    await fillAuthor(page, 2, AUTHORS[1]);
    await axe(page);

    // Refused by the server: errors beside the field, everything typed kept, files to choose again.
    await mainFile(page).setInputFiles(fixture('encrypted.pdf'));
    await submitButton(page).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      `${MESSAGES.submissionFailedPrefix}The main submission file is password-protected.`,
    );
    await expect(mainFile(page)).toHaveAccessibleDescription(/password-protected/);
    await expect(mainFile(page)).toHaveAccessibleDescription(/Please choose this file again/);
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(authorGroup(page, 2).getByLabel('Affiliation')).toHaveValue(AUTHORS[1].affiliation);

    await mainFile(page).setInputFiles(fixture('manuscript.doc'));
    await zipFile(page).setInputFiles(fixture('supplementary.zip'));
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/submission\?submitted=\d+$/);
    const success = page.getByRole('status').filter({ hasText: MESSAGES.submissionSuccess });
    await expect(success).toBeVisible();
    const [mine] = await mySubmissions(request, me.token);
    expect(mine.title).toBe(title);
    await expect(success).toContainText(mine.reference);
    await expect(page.getByLabel('Title')).toHaveValue('');
  });
});

test.describe('My submissions', () => {
  test('an author without submissions is invited to submit', async ({ page, signIn, axe }) => {
    await signIn('author', 'pending');
    await page.goto('/my-submissions');
    await expect(page.getByRole('heading', { level: 2, name: 'No submissions yet' })).toBeVisible();
    await page.getByRole('link', { name: 'Submit your first manuscript' }).click();
    await expect(page).toHaveURL(/\/submission$/);
    await page.goBack();
    await axe(page);
  });

  test('revisions requested: the editors message, and a revised manuscript that keeps version 1', async ({
    page,
    signIn,
    adminApi,
    request,
    axe,
    screenshots,
  }) => {
    const me = await signIn('author');
    const title = uniqueTitle();
    const created = await request.post('/api/submission/submit', {
      headers: { authorization: `Bearer ${me.token}` },
      multipart: {
        title,
        articleType: 'Review Article',
        keywords: 'IoT, energy, survey, offloading',
        abstract: 'A review of energy-aware offloading.',
        authors: JSON.stringify([AUTHORS[0]]),
        submissionFile: {
          name: 'manuscript.pdf',
          mimeType: 'application/pdf',
          buffer: readFileSync(fixture('manuscript.pdf')),
        },
      },
    });
    expect(created.status()).toBe(201);
    const { id, reference } = (await created.json()) as { id: number; reference: string };
    const request2 = 'Please compare with round-robin offloading and shorten the abstract.';
    for (const [status, message] of [
      ['under_review', 'Sent to two reviewers.'],
      ['revisions_requested', request2],
    ]) {
      const res = await adminApi.post(`/api/editor/submissions/${id}/decision`, {
        data: { status, message, ...(status === 'revisions_requested' ? { revisions: 'minor' } : {}) },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }

    await page.goto('/my-submissions');
    const card = page.getByRole('article').filter({ hasText: reference });
    await expect(card).toContainText('Status: Revisions requested');
    await expect(card).toContainText(request2);
    await card.getByRole('link', { name: `Upload a revised manuscript for ${reference}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const panel = page.getByRole('region', { name: 'Upload a revised manuscript' });
    await expect(panel).toContainText(request2);
    await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();
    await axe(page);
    await screenshots(page, 'my-submission-revisions');

    await panel.getByRole('button', { name: 'Upload revised manuscript' }).click();
    await expect(panel.getByRole('alert')).toHaveText(`Upload failed: ${MESSAGES.mainFileMissing}`);

    await panel.getByLabel('Revised manuscript').setInputFiles(fixture('manuscript.docx'));
    await panel.getByLabel('Note to the editors').fill('Added the comparison in section 5.');
    const hold = await holdUploads(page, `**/api/submissions/${id}/revision`);
    await panel.getByRole('button', { name: 'Upload revised manuscript' }).click();
    await expect(page.getByRole('progressbar', { name: 'Uploading your revised manuscript' })).toBeVisible();
    hold.release();

    await expect(
      page.getByRole('status').filter({ hasText: 'Your revised manuscript has been received' }),
    ).toBeVisible();
    await expect(page.getByText('Status: Revised')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Upload a revised manuscript' })).toHaveCount(0);
    const files = page.getByRole('region', { name: 'Files' });
    await expect(files.getByRole('heading', { name: /Version 2/ })).toBeVisible();
    await expect(files.getByRole('heading', { name: /Version 1/ })).toBeVisible();
    await expect(files.getByRole('link', { name: 'manuscript.docx' })).toBeVisible();
    await expect(files.getByRole('link', { name: 'manuscript.pdf' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      'Added the comparison in section 5.',
    );
  });
});

/** A string as a literal inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
