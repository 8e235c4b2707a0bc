import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { type Account, expect, loginThroughApi, test } from './fixtures.ts';

/** The submissions desk of the editorial dashboard (issue 4): the list, one submission, decisions, publishing. */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const file = (name: string, mimeType: string) => ({
  name,
  mimeType,
  buffer: readFileSync(path.join(FIXTURES, name)),
});

/** Unique in this run and on this server: every title and name below carries one. */
const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

interface Submitted {
  id: number;
  reference: string;
  title: string;
}

/** Submits a manuscript as `token`'s author through the API, as the submission form does. */
async function submit(
  api: APIRequestContext,
  token: string,
  opts: {
    title: string;
    type?: string;
    authors?: { name: string; email: string; affiliation: string; superscript: string }[];
    zip?: boolean;
  },
): Promise<Submitted> {
  const res = await api.post('/api/submission/submit', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      title: opts.title,
      articleType: opts.type ?? 'Research Article',
      keywords: 'edge computing, scheduling, energy, IoT',
      abstract: 'We schedule task offloading so that battery-powered gateways last longer.',
      conflictOfInterest: 'The authors declare no conflict of interest.',
      fundingStatement: 'Funded by the Test Research Council, grant 42.',
      dataAvailabilityStatement: 'The traces are in the supplementary archive.',
      authors: JSON.stringify(
        opts.authors ?? [
          { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
        ],
      ),
      submissionFile: file('manuscript.pdf', 'application/pdf'),
      ...(opts.zip ? { additionalZip: file('supplementary.zip', 'application/zip') } : {}),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { id: number; reference: string };
  return { ...body, title: opts.title };
}

async function decide(api: APIRequestContext, id: number, status: string, message: string) {
  // Revisions are requested as minor or major (decision 0023).
  const revisions = status === 'revisions_requested' ? { revisions: 'minor' } : {};
  const res = await api.post(`/api/editor/submissions/${id}/decision`, {
    // Accepted with no review asks for a confirmation (issue 22): these tests are about the desk.
    data: { status, message, ...revisions, ...(status === 'accepted' ? { confirm: ['accept-without-review'] } : {}) },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function revise(api: APIRequestContext, token: string, id: number) {
  const res = await api.post(`/api/submissions/${id}/revision`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      message: 'Added the comparison with round-robin offloading.',
      submissionFile: file(
        'manuscript.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ),
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

const tokenOf = (baseURL: string, account: Account) =>
  loginThroughApi(baseURL, account.username, account.password);

const desk = (page: Page) => page.getByRole('search', { name: 'Filter and search' });
const deskTable = (page: Page) => page.getByRole('table', { name: /submissions, newest first/i });
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.describe('submissions desk: who may enter', () => {
  for (const [role, status] of [
    ['researcher', 'approved'],
    ['author', 'approved'],
    ['editor', 'pending'],
  ] as const) {
    test(`a ${status} ${role} sees Unauthorized Access on the desk and on a submission`, async ({
      page,
      signIn,
      createAccount,
      request,
      baseURL,
      axe,
    }) => {
      const author = await createAccount('author');
      const token = await tokenOf(baseURL!, author);
      const s = await submit(request, token, { title: `Guarded manuscript ${uniqueTag()}` });
      await signIn(role, status);
      for (const url of ['/editor-dashboard/submissions', `/editor-dashboard/submissions/${s.id}`]) {
        const response = await page.goto(url);
        expect(response?.status()).toBe(403);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(MESSAGES.unauthorizedAccess);
        await expect(page.getByRole('main')).not.toContainText(s.title);
      }
      await axe(page);
    });
  }

  test('a signed-out visitor is sent to log in and back', async ({ page }) => {
    await page.goto('/editor-dashboard/submissions/1');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Feditor-dashboard%2Fsubmissions%2F1/);
  });

  test('an unknown submission is not found', async ({ page, signIn }) => {
    await signIn('editor');
    expect((await page.goto('/editor-dashboard/submissions/2147483000'))?.status()).toBe(404);
    expect((await page.goto('/editor-dashboard/submissions/abc'))?.status()).toBe(404);
  });
});

test.describe('submissions desk: the list', () => {
  test('filters by status, type and date, searches title and author, and keeps the filters in the address', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    request,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    const research = await submit(request, token, { title: `Desk research ${tag}` });
    const review = await submit(request, token, {
      title: `Desk review ${tag}`,
      type: 'Review Article',
      authors: [
        { name: `Amara Okafor ${tag}`, email: 'amara@example.org', affiliation: 'Lagos', superscript: '1' },
        { name: 'Lena Fischer', email: 'lena@example.org', affiliation: 'TU Munich', superscript: '2' },
      ],
    });
    const reviewing = await submit(request, token, { title: `Desk under review ${tag}` });
    await decide(adminApi, reviewing.id, 'under_review', 'Sent to two reviewers.');

    await signIn('editor');
    await page.goto('/editor-dashboard');
    await page
      .getByRole('navigation', { name: 'Dashboard sections' })
      .getByRole('link', { name: 'Submissions' })
      .click();
    await expect(page).toHaveURL(/\/editor-dashboard\/submissions$/);
    await expect(page).toHaveTitle(/Submissions/);
    await expect(page.getByRole('heading', { level: 1, name: 'Submissions' })).toBeVisible();
    const rows = deskTable(page).getByRole('row');
    await expect(rows.first()).toBeVisible();
    await axe(page);

    // Search by title: our three, each with its reference, first author, type and status.
    await desk(page).getByLabel('Title, reference or author').fill(tag);
    await desk(page).getByRole('button', { name: 'Apply filters' }).click();
    // Only what was asked is in the address.
    await expect(page).toHaveURL(new RegExp(`/editor-dashboard/submissions\\?q=${tag}$`));
    await expect(rows).toHaveCount(4);
    const reviewRow = deskTable(page).getByRole('row', { name: new RegExp(review.title) });
    await expect(reviewRow).toContainText(review.reference);
    await expect(reviewRow).toContainText(`Amara Okafor ${tag} and 1 more`);
    await expect(reviewRow).toContainText('Review Article');
    await expect(reviewRow).toContainText('Submitted');
    await expect(deskTable(page).getByRole('row', { name: new RegExp(reviewing.title) })).toContainText(
      'Under review',
    );
    await expect(deskTable(page)).toContainText('(3)');
    // Newest first.
    await expect(rows.nth(1)).toContainText(reviewing.title);
    await expect(rows.nth(3)).toContainText(research.title);
    await screenshots(page, 'desk-list');

    // Status: only the one under review; the choice stays in the form and the address.
    await desk(page).getByLabel('Status').selectOption('Under review');
    await desk(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/status=under_review/);
    await expect(rows).toHaveCount(2);
    await expect(deskTable(page)).toContainText(reviewing.title);
    await expect(desk(page).getByLabel('Status')).toHaveValue('under_review');
    await expect(desk(page).getByLabel('Title, reference or author')).toHaveValue(tag);

    // Type.
    await desk(page).getByLabel('Status').selectOption('');
    await desk(page).getByLabel('Article type').selectOption('Review Article');
    await desk(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect(rows).toHaveCount(2);
    await expect(deskTable(page)).toContainText(review.title);

    // An author's name (the second author's too), and the reference.
    await page.goto(`/editor-dashboard/submissions?q=${encodeURIComponent(`okafor ${tag}`)}`);
    await expect(rows).toHaveCount(2);
    await expect(deskTable(page)).toContainText(review.title);
    await page.goto(`/editor-dashboard/submissions?q=${research.reference}`);
    await expect(deskTable(page)).toContainText(research.title);

    // Dates of arrival: today includes them, tomorrow onwards finds none.
    await page.goto(`/editor-dashboard/submissions?q=${tag}&from=${today()}&to=${today()}`);
    await expect(rows).toHaveCount(4);
    await expect(desk(page).getByLabel('Submitted from')).toHaveValue(today());
    await page.goto(`/editor-dashboard/submissions?q=${tag}&from=${dayOffset(1)}`);
    await expect(page.getByText('No submissions match these filters.')).toBeVisible();
    await axe(page);

    // Wrong values are shown next to their field; the other filters still apply.
    await page.goto(`/editor-dashboard/submissions?q=${tag}&from=2026-13-45&status=nonsense`);
    await expect(desk(page).getByLabel('Submitted from')).toHaveAccessibleDescription(
      /Use a date such as 2026-01-31\./,
    );
    await expect(desk(page).getByLabel('Status')).toHaveAccessibleDescription(
      /Choose a status from the list\./,
    );
    await expect(rows).toHaveCount(4);
    await page.goto(`/editor-dashboard/submissions?q=${tag}&from=${today()}&to=${dayOffset(-1)}`);
    await expect(desk(page).getByLabel('Submitted to')).toHaveAccessibleDescription(
      /must not be before the “from” date/,
    );
    await axe(page);

    // Clearing the filters, and each row leads to its page.
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/editor-dashboard\/submissions$/);
    await page.goto(`/editor-dashboard/submissions?q=${tag}`);
    await deskTable(page).getByRole('link', { name: review.title }).click();
    await expect(page).toHaveURL(new RegExp(`/editor-dashboard/submissions/${review.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: review.title })).toBeVisible();
  });

  test('pages through the list, keeping the filters', async ({
    page,
    signIn,
    createAccount,
    request,
    baseURL,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    for (let i = 1; i <= 26; i++) await submit(request, token, { title: `Paged ${tag} number ${i}` });
    await signIn('editor');
    await page.goto(`/editor-dashboard/submissions?q=${tag}`);
    await expect(deskTable(page)).toContainText('(26), page 1');
    await expect(deskTable(page).getByRole('row')).toHaveCount(26);
    const pages = page.getByRole('navigation', { name: 'Submission pages' });
    await expect(pages).toContainText('Page 1 of 2');
    await pages.getByRole('link', { name: 'Next →' }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag}.*page=2|page=2.*q=${tag}`));
    await expect(deskTable(page).getByRole('row')).toHaveCount(2);
    await expect(deskTable(page)).toContainText(`Paged ${tag} number 1`);
  });

  test('the filters work without JavaScript', async ({
    noJsPage: page,
    signIn,
    createAccount,
    request,
    baseURL,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    const s = await submit(request, token, {
      title: `No script ${tag}`,
      type: 'Novel Data Collection Article',
    });
    await signIn('editor', 'approved', page);
    await page.goto('/editor-dashboard/submissions');
    await desk(page).getByLabel('Title, reference or author').fill(tag);
    await desk(page).getByLabel('Article type').selectOption('Novel Data Collection Article');
    await desk(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(new RegExp(`\\?q=${tag}&type=Novel\\+Data\\+Collection\\+Article$`));
    await expect(deskTable(page).getByRole('row')).toHaveCount(2);
    await expect(deskTable(page)).toContainText(s.reference);
  });
});

test.describe('submissions desk: one submission', () => {
  test('shows metadata, authors, files and history, and takes each decision with its message', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    request,
    baseURL,
    outbox,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    const s = await submit(request, token, {
      title: `Decisions ${tag}`,
      zip: true,
      authors: [
        { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
        { name: 'Jon Olsen', email: 'jon@example.org', affiliation: 'NTNU', superscript: '2' },
      ],
    });
    const editor = await signIn('editor');
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    await expect(page).toHaveTitle(new RegExp(s.reference));
    await expect(page.getByRole('heading', { level: 1, name: s.title })).toBeVisible();
    await expect(page.getByText(s.reference, { exact: true })).toBeVisible();
    await expect(page.getByText('Status: Submitted')).toBeVisible();

    const manuscript = page.getByRole('region', { name: 'Manuscript' });
    await expect(manuscript).toContainText('Research Article');
    await expect(manuscript).toContainText('edge computing, scheduling, energy, IoT');
    await expect(manuscript).toContainText('battery-powered gateways');
    await expect(manuscript).toContainText('The authors declare no conflict of interest.');
    await expect(manuscript).toContainText('Funded by the Test Research Council, grant 42.');
    await expect(manuscript).toContainText('The traces are in the supplementary archive.');
    const authors = page.getByRole('region', { name: 'Authors' });
    await expect(authors.getByRole('listitem')).toHaveCount(2);
    await expect(authors).toContainText('Priya Raman');
    await expect(authors).toContainText('Jon Olsen');
    await expect(authors).toContainText('NTNU');

    // Files: each downloads, for an editor.
    const files = page.getByRole('region', { name: 'Files' });
    for (const [name, type] of [
      ['manuscript.pdf', 'application/pdf'],
      ['supplementary.zip', 'application/zip'],
    ]) {
      const link = files.getByRole('link', { name });
      await expect(link).toHaveAttribute('href', new RegExp(`^/api/submissions/${s.id}/files/\\d+$`));
      const res = await page.request.get((await link.getAttribute('href'))!);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe(type);
      expect(res.headers()['content-disposition']).toContain(s.reference);
    }
    // The arrival check's summary (pending, done or failed) always leads to the full report.
    await expect(
      page.getByRole('region', { name: 'Similarity' }).getByRole('link', { name: /report/ }),
    ).toHaveAttribute('href', `/editor-dashboard/submissions/${s.id}/similarity`);
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      `${author.username} submitted the manuscript.`,
    );

    // Only the moves the workflow allows from "submitted".
    const form = page.getByRole('form', { name: 'Decision' });
    const moves = form.getByRole('radio');
    await expect(moves).toHaveCount(2);
    await expect(form.getByRole('radio', { name: 'Under review' })).toBeVisible();
    await expect(form.getByRole('radio', { name: 'Rejected' })).toBeVisible();
    await axe(page);
    await screenshots(page, 'desk-submission');

    // Nothing chosen, nothing written: both messages, beside their fields.
    const record = form.getByRole('button', { name: 'Record the decision' });
    await record.click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(form.getByRole('group', { name: 'New status', exact: true })).toHaveAccessibleDescription(
      /Choose the new status\./,
    );
    await expect(form.getByLabel('Message to the author')).toHaveAccessibleDescription(
      /A message to the author is required\./,
    );
    await expect(form.getByLabel('Message to the author')).toHaveAttribute('aria-invalid', 'true');
    await axe(page);

    // A status without a message: the choice is kept.
    await form.getByRole('radio', { name: 'Under review' }).check();
    await record.click();
    await expect(form.getByLabel('Message to the author')).toHaveAccessibleDescription(
      /A message to the author is required\./,
    );
    await expect(form.getByRole('radio', { name: 'Under review' })).toBeChecked();
    await expect(
      form.getByRole('group', { name: 'New status', exact: true }),
    ).not.toHaveAccessibleDescription(/Choose the new status/);

    // Only blanks count as no message; a message without a status keeps what was typed.
    await form.getByLabel('Message to the author').fill('   ');
    await record.click();
    await expect(form.getByLabel('Message to the author')).toHaveAccessibleDescription(
      /A message to the author is required\./,
    );
    await page.reload();
    await form.getByLabel('Message to the author').fill('Sent to two reviewers.');
    await record.click();
    await expect(form.getByRole('group', { name: 'New status', exact: true })).toHaveAccessibleDescription(
      /Choose the new status\./,
    );
    await expect(form.getByLabel('Message to the author')).toHaveValue('Sent to two reviewers.');

    // Another editor moved it meanwhile: the refusal says why, the message is kept, the page catches up.
    await decide(adminApi, s.id, 'under_review', 'Taken over by the admin.');
    await form.getByLabel('Message to the author').fill('Out of scope, sorry.');
    await form.getByRole('radio', { name: 'Under review' }).check();
    await record.click();
    await expect(page.getByRole('alert')).toHaveText(
      'A submission that is under review cannot be moved to under review.',
    );
    await expect(form.getByLabel('Message to the author')).toHaveValue('Out of scope, sorry.');
    await expect(page.getByText('Status: Under review')).toBeVisible();
    await expect(form.getByRole('radio')).toHaveCount(3);

    // Request revisions: recorded, e-mailed, and shown to the author.
    const request2 = `Please add an energy breakdown per task (${tag}).`;
    await form.getByRole('radio', { name: 'Revisions requested' }).check();
    await form.getByLabel('Message to the author').fill(request2);
    await form.getByLabel('Minor or major revisions').selectOption('major');
    await record.click();
    await expect(page.getByRole('status')).toHaveText(
      'Decision recorded: Major revisions requested. Your message was e-mailed to the author and is shown on their My submissions page.',
    );
    await expect(page.getByText('Status: Revisions requested')).toBeVisible();
    await expect(form.getByRole('radio')).toHaveCount(1);
    await expect(form.getByLabel('Message to the author')).toHaveValue('');
    const history = page.getByRole('region', { name: 'History' });
    await expect(history).toContainText(
      `${editor.username} moved it from under review to revisions requested.`,
    );
    await expect(history).toContainText(request2);
    const mail = await outbox.waitFor({
      to: author.email,
      subject: `[${s.reference}] Major revisions requested`,
    });
    expect(mail.text).toContain(request2);
    expect(mail.text).toContain('/my-submissions');
    const mine = (await (
      await request.get('/api/submissions/mine', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { id: number; lastMessage: { message: string } | null }[];
    expect(mine.find((m) => m.id === s.id)?.lastMessage?.message).toBe(request2);

    // The author revises; the editor sees version 2, the note, and accepts.
    await revise(request, token, s.id);
    await page.reload();
    await expect(page.getByText('Status: Revised')).toBeVisible();
    await expect(history).toContainText(`${author.username} uploaded a revised manuscript.`);
    await expect(history).toContainText('Added the comparison with round-robin offloading.');
    await expect(files.getByRole('heading', { name: /Version 2/ })).toBeVisible();
    await expect(files.getByRole('link', { name: 'manuscript.docx' })).toBeVisible();
    await expect(files.getByRole('link', { name: 'manuscript.pdf' })).toBeVisible();
    await expect(form.getByRole('radio')).toHaveCount(4);
    await form.getByRole('radio', { name: 'Accepted' }).check();
    await form.getByLabel('Message to the author').fill('Accepted: congratulations.');
    await record.click();
    // Nobody reviewed it: the editor confirms accepting it without review (issue 22).
    await expect(form.getByRole('alert')).toContainText('No reviewer has submitted a review');
    await form.getByRole('button', { name: 'Accept without peer review' }).click();
    await expect(page.getByRole('status')).toContainText('Decision recorded: Accepted.');
    await expect(page.getByRole('form', { name: 'Decision' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Publish as an article' })).toBeVisible();
    await outbox.waitFor({ to: author.email, subject: `[${s.reference}] Accepted` });
    await axe(page);
  });

  test('decisions work without JavaScript, refusals included', async ({
    noJsPage: page,
    signIn,
    createAccount,
    request,
    baseURL,
    axe,
  }) => {
    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    const s = await submit(request, token, { title: `No-script decision ${uniqueTag()}` });
    await signIn('editor', 'approved', page);
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    const form = page.getByRole('form', { name: 'Decision' });
    await form.getByRole('radio', { name: 'Under review' }).check();
    await form.getByRole('button', { name: 'Record the decision' }).click();
    await expect(page.getByRole('alert')).toHaveText('A message to the author is required.');
    await expect(form.getByRole('radio', { name: 'Under review' })).toBeChecked();
    await axe(page);
    await form.getByLabel('Message to the author').fill('Sent to reviewers.');
    await form.getByRole('button', { name: 'Record the decision' }).click();
    await expect(page.getByRole('status')).toContainText('Decision recorded: Under review.');
    await expect(page.getByText('Status: Under review')).toBeVisible();
    await expect(form.getByRole('radio')).toHaveCount(3);
  });

  test('a rejected submission takes no further decision', async ({
    page,
    signIn,
    createAccount,
    request,
    baseURL,
  }) => {
    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    const s = await submit(request, token, { title: `Rejected ${uniqueTag()}` });
    await signIn('editor');
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    const form = page.getByRole('form', { name: 'Decision' });
    await form.getByRole('radio', { name: 'Rejected' }).check();
    await form.getByLabel('Message to the author').fill('Outside the journal’s scope.');
    await form.getByRole('button', { name: 'Record the decision' }).click();
    await expect(page.getByRole('status')).toContainText('Decision recorded: Rejected.');
    await expect(page.getByRole('form', { name: 'Decision' })).toHaveCount(0);
    await expect(
      page.getByText('This submission was rejected; no further decision can be made.'),
    ).toBeVisible();
    await expect(page.getByRole('form', { name: 'Publish as an article' })).toHaveCount(0);
  });

  test('publishes an accepted submission into an issue, with every refusal beside its field', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    request,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const number = 20_000 + Math.floor(Math.random() * 1_000_000);
    const volume = await (
      await adminApi.post('/api/editor/volume', {
        data: { title: `Desk volume ${number}`, volume_number: number, year: 2026 },
      })
    ).json();
    const issueRes = await adminApi.post('/api/editor/issue', {
      data: { title: `Desk issue ${number}`, description: 'For the desk test.', volume_id: volume.volume.id },
    });
    expect(issueRes.ok(), await issueRes.text()).toBe(true);
    const issueLabel = `Volume ${number}, Issue 1: Desk issue ${number}`;

    const author = await createAccount('author');
    const token = await tokenOf(baseURL!, author);
    const s = await submit(request, token, {
      title: `Published from the desk ${tag}`,
      authors: [
        { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
        { name: 'Jon Olsen', email: 'jon@example.org', affiliation: 'NTNU', superscript: '2' },
      ],
    });
    await decide(adminApi, s.id, 'under_review', 'Reviewing.');
    await decide(adminApi, s.id, 'revisions_requested', 'Please revise.');
    await revise(request, token, s.id);
    await decide(adminApi, s.id, 'accepted', 'Accepted.');

    await signIn('editor');
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    // Publishing starts with the final files (issue 22): the PDF and the Word file together, then a preview.
    const files = () => page.getByRole('form', { name: /^(The final files|Replace a file)$/ });
    // The same styled file field as the submission form.
    await expect(files().getByText('Drag and drop the file here, or choose it:').first()).toBeVisible();
    // The latest manuscript is the .docx revision: a final PDF is required.
    await expect(files().getByLabel('Final PDF')).toHaveAccessibleDescription(
      /The latest manuscript \(manuscript\.docx\) is not a PDF\./,
    );
    await axe(page);
    await screenshots(page, 'desk-publish');

    // The styled file field checks a chosen file at once, before anything is sent.
    await files().getByLabel('Final PDF').setInputFiles(path.join(FIXTURES, 'png-named.pdf'));
    await expect(files().getByLabel('Final PDF')).toHaveAccessibleDescription(
      /The article file must be a PDF \(\.pdf\)\. \(The file's content does not match its name "png-named\.pdf"\.\)/,
    );
    await expect(files().getByLabel('Final PDF')).toHaveValue('');

    await files().getByLabel('Final PDF').setInputFiles(path.join(FIXTURES, 'encrypted.pdf'));
    await files().getByRole('button', { name: /Upload and preview/ }).click();
    await expect(files().getByLabel('Final PDF')).toHaveAccessibleDescription(/password-protected/);

    await files().getByLabel('Final PDF').setInputFiles(path.join(FIXTURES, 'manuscript.pdf'));
    await files().getByRole('button', { name: /Upload and preview/ }).click();
    await expect(page.getByRole('status')).toContainText('Files received.');
    // Nothing is on the reader site before Publish.
    await expect(page.getByRole('region', { name: 'Published' })).toHaveCount(0);

    const form = page.getByRole('form', { name: '3. Fix and publish' });
    const publish = form.getByRole('button', { name: 'Publish the article' });
    await publish.click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(form.getByLabel('Issue')).toHaveAccessibleDescription(/Choose the issue\./);
    await expect(form.getByLabel('Pages')).toHaveAccessibleDescription(/Pages are required\./);
    // No DOI typed is no refusal: the journal's DOI pattern gives one (decision 0064).
    await axe(page);

    await form.getByLabel('Issue').selectOption({ label: issueLabel });
    await form.getByLabel('Pages').fill('9-1');
    await form.getByLabel('DOI').fill('not a doi');
    await publish.click();
    await expect(form.getByLabel('Pages')).toHaveAccessibleDescription(
      /The first page must be at least 1 and not after the last page\./,
    );
    await expect(form.getByLabel('DOI')).toHaveAccessibleDescription(
      /DOI must look like 10\.1234\/abc\.2025\.001\./,
    );
    await expect(form.getByLabel('Issue')).toHaveValue(/\d+/);
    await expect(form.getByLabel('DOI')).toHaveValue('not a doi');

    const doi = `10.5555/desk.${number}`;
    await form.getByLabel('Pages').fill('1-9');
    await form.getByLabel('DOI').fill(doi);
    await publish.click();
    await expect(page.getByRole('status')).toContainText(
      /Published as article \d+\. It is on the reader site now\./,
    );
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    const published = page.getByRole('region', { name: 'Published' });
    await expect(published).toContainText(`volume ${number}, issue 1, pages 1-9, DOI ${doi}`);
    await expect(page.getByRole('region', { name: 'Publish as an article' })).toHaveCount(0);
    await axe(page);
    await screenshots(page, 'desk-published');
    // The desk's list says so too, as the submission's page does.
    await page.goto(`/editor-dashboard/submissions?${new URLSearchParams({ q: s.title })}`);
    const row = page.getByRole('row').filter({ hasText: s.title });
    await expect(row.locator('.status-badge')).toHaveText('Published');

    // A second accepted submission cannot take the same DOI.
    const other = await submit(request, token, { title: `Same DOI ${tag}` });
    await decide(adminApi, other.id, 'under_review', 'Reviewing.');
    await decide(adminApi, other.id, 'accepted', 'Accepted.');
    await page.goto(`/editor-dashboard/submissions/${other.id}`);
    await expect(files().getByLabel('Final PDF (optional)')).toHaveAccessibleDescription(
      /the latest manuscript \(manuscript\.pdf, version 1\) is published as it is/,
    );
    await page.getByRole('link', { name: 'Open the preview and publish' }).click();
    const otherForm = page.getByRole('form', { name: '3. Fix and publish' });
    await otherForm.getByLabel('Issue').selectOption({ label: issueLabel });
    await otherForm.getByLabel('Pages').fill('10-19');
    await otherForm.getByLabel('DOI').fill(doi);
    await otherForm.getByRole('button', { name: 'Publish the article' }).click();
    await expect(otherForm.getByLabel('DOI')).toHaveAccessibleDescription(
      new RegExp(`An article with DOI ${doi.replace(/\./g, '\\.')} already exists\\.`),
    );

    // The first one is on the reader site, with both authors.
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    await page.getByRole('link', { name: 'View the article' }).click();
    await expect(page.getByRole('heading', { level: 1, name: s.title })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Priya Raman');
    await expect(page.getByRole('main')).toContainText('Jon Olsen');
  });
});
