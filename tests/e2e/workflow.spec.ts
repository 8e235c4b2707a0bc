import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { ADMIN, expect, test } from './fixtures.ts';

/**
 * The whole road of a manuscript, in the browser (issue 4): an author registers, is approved, submits with
 * two authors and both files; the editors take it through review, revisions and acceptance on the desk and
 * publish it into an issue, where readers find it.
 */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const fixture = (name: string) => path.join(FIXTURES, name);

const AUTHORS = [
  {
    name: 'Priya Raman',
    email: 'priya.raman@example.org',
    affiliation: 'IIT Madras, Chennai',
    superscript: '1',
  },
  { name: 'Jon Olsen', email: 'jon.olsen@example.org', affiliation: 'NTNU, Trondheim', superscript: '2' },
];

/** A signed-out page of its own (its own cookies), on the test's server. */
async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('banner')).toContainText(`Welcome, ${username}`);
}

/** Records a decision on the desk's submission page, as an editor does. */
/** A move on the desk page; revisions are requested as minor or major (`revisions`). */
async function decide(page: Page, status: string, message: string, revisions?: 'minor' | 'major') {
  const form = page.getByRole('form', { name: 'Decision' });
  await form.getByRole('radio', { name: status }).check();
  await form.getByLabel('Message to the author').fill(message);
  if (revisions) await form.getByLabel('Minor or major revisions').selectOption(revisions);
  await form.getByRole('button', { name: 'Record the decision' }).click();
  if (status === 'Accepted') {
    // Accepted with no review in any round: the editor confirms it (issue 22).
    await form.getByRole('button', { name: 'Accept without peer review' }).click();
  }
  const recorded = revisions ? `${revisions === 'minor' ? 'Minor' : 'Major'} revisions requested` : status;
  await expect(page.getByRole('status')).toContainText(`Decision recorded: ${recorded}.`);
  await expect(page.getByText(`Status: ${status}`)).toBeVisible();
}

test('a manuscript from registration to publication', async ({
  page,
  browser,
  baseURL,
  adminApi,
  signIn,
  outbox,
  axe,
}) => {
  test.setTimeout(120_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const title = `Federated anomaly detection for smart grids ${tag}`;
  const username = `wf_${tag}`;
  const password = `pw-${tag}-long`;
  const email = `${username}@example.org`;

  // The issue it will be published in.
  const number = 30_000 + Math.floor(Math.random() * 1_000_000);
  const volume = await adminApi.post('/api/editor/volume', {
    data: { title: `Workflow volume ${number}`, volume_number: number, year: 2026 },
  });
  expect(volume.ok(), await volume.text()).toBe(true);
  const issue = await adminApi.post('/api/editor/issue', {
    data: {
      title: `Workflow issue ${number}`,
      description: 'The issue of the workflow test.',
      volume_id: (await volume.json()).volume.id,
    },
  });
  expect(issue.ok(), await issue.text()).toBe(true);

  // 1. The author registers.
  await page.goto('/regist');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Full name').fill('Priya Raman');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contact number').fill('+91 44 2345 6789');
  await page.getByLabel('Institution').fill('IIT Madras');
  // The radio's label covers it (see shell.spec.ts): a forced check lands on the label all the same.
  await page.getByRole('radio', { name: 'Author' }).check({ force: true });
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(MESSAGES.registrationNotice);

  // 2. The admin approves the account on the dashboard's Pending users page; the author is told by e-mail.
  const admin = await newPage(browser, baseURL!);
  await logIn(admin, ADMIN.username, ADMIN.password);
  await admin.goto('/editor-dashboard/pending-users');
  const row = admin.getByRole('row', { name: new RegExp(username) });
  await expect(row).toContainText(email);
  await row.getByRole('button', { name: `Approve ${username}` }).click();
  await expect(admin.getByRole('status')).toContainText(`${username} was approved`);
  await outbox.waitFor({ to: email });

  // 3. The author signs in and submits with two authors and both files, watching the progress bar.
  await logIn(page, username, password);
  await page.goto('/submission');
  await expect(page.getByRole('heading', { level: 1, name: 'Submit a manuscript' })).toBeVisible();
  await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Article type').selectOption('Research Article');
  await page.getByLabel('Keywords').fill('smart grid, anomaly detection, federated learning, privacy');
  await page
    .getByLabel('Abstract')
    .fill('We detect anomalies in smart-grid telemetry without moving the raw data off the substations.');
  await page.getByRole('button', { name: 'Add another author' }).click();
  for (const [i, author] of AUTHORS.entries()) {
    const group = page.getByRole('group', { name: new RegExp(`^Author ${i + 1}\\b`) });
    await group.getByLabel('Full name').fill(author.name);
    await group.getByLabel('Email').fill(author.email);
    await group.getByLabel('Affiliation').fill(author.affiliation);
    await group.getByLabel('Superscript').fill(author.superscript);
  }
  await page.getByLabel('Main manuscript file').setInputFiles(fixture('manuscript.docx'));
  await page.getByLabel('Additional files').setInputFiles(fixture('supplementary.zip'));
  await expect(page.getByText('Chosen: manuscript.docx')).toBeVisible();
  await expect(page.getByText('Chosen: supplementary.zip')).toBeVisible();

  // The upload is held until the progress bar has been seen.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/submission/submit', async (route) => {
    await released;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Submit manuscript' }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploading your submission' })).toBeVisible();
  release();
  const success = page.getByRole('status').filter({ hasText: MESSAGES.submissionSuccess });
  await expect(success).toBeVisible();
  const reference = /COL-\d{4}-\d{4,}/.exec((await success.textContent()) ?? '')?.[0];
  expect(reference, 'the reference in the success message').toBeTruthy();
  await page.unroute('**/api/submission/submit');

  // 4. The acknowledgements were written: to the author, and to the editorial office.
  const ack = await outbox.waitFor({ to: email, subject: `[${reference}] Your submission` });
  expect(ack.text).toContain(`Reference: ${reference}`);
  expect(ack.text).toContain(title);
  expect(ack.text).toContain('Jon Olsen');
  const office = await outbox.waitFor({ subject: `[${reference}] New submission: ${title}` });
  expect(office.replyTo).toBe(email);

  // 5. An editor finds it on the desk by its title, and asks for revisions (after review).
  const editor = await newPage(browser, baseURL!);
  await signIn('editor', 'approved', editor);
  await editor.goto('/editor-dashboard/submissions');
  const search = editor.getByRole('search', { name: 'Filter and search' });
  await search.getByLabel('Title, reference or author').fill(title);
  await search.getByRole('button', { name: 'Apply filters' }).click();
  const deskRow = editor.getByRole('row', { name: new RegExp(title) });
  await expect(deskRow).toContainText(reference!);
  await expect(deskRow).toContainText('Priya Raman and 1 more');
  await deskRow.getByRole('link', { name: title }).click();
  await expect(editor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(
    editor.getByRole('region', { name: 'Files' }).getByRole('link', { name: 'supplementary.zip' }),
  ).toBeVisible();
  await decide(editor, 'Under review', 'Sent to two reviewers.');
  const request = `Please compare with a centralised baseline (${tag}).`;
  await decide(editor, 'Revisions requested', request, 'major');
  await outbox.waitFor({ to: email, subject: `[${reference}] Major revisions requested` });

  // 6. The author reads the request on My submissions and uploads a revision.
  await page.getByRole('banner').getByRole('link', { name: 'My submissions' }).click();
  const card = page.getByRole('article').filter({ hasText: reference! });
  await expect(card).toContainText('Status: Revisions requested');
  await expect(card).toContainText(request);
  await card.getByRole('link', { name: `Upload a revised manuscript for ${reference}` }).click();
  const panel = page.getByRole('region', { name: 'Upload a revised manuscript' });
  await expect(panel).toContainText(request);
  await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();
  await panel.getByLabel('Revised manuscript').setInputFiles(fixture('manuscript.pdf'));
  await panel.getByLabel('Note to the editors').fill('Added the centralised baseline in section 6.');
  await panel.getByRole('button', { name: 'Upload revised manuscript' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Your revised manuscript has been received' }),
  ).toBeVisible();
  await expect(page.getByText('Status: Revised')).toBeVisible();

  // 7. The editor sees the revision, accepts, and publishes it into the issue with the final PDF.
  await editor.reload();
  await expect(editor.getByText('Status: Revised')).toBeVisible();
  await expect(editor.getByRole('region', { name: 'History' })).toContainText(
    'Added the centralised baseline in section 6.',
  );
  await expect(
    editor.getByRole('region', { name: 'Files' }).getByRole('heading', { name: /Version 2/ }),
  ).toBeVisible();
  await decide(editor, 'Accepted', 'Accepted: congratulations.');
  // The final PDF first, then the preview, then Publish (issue 22).
  const files = editor.getByRole('form', { name: 'The final files' });
  await files.getByLabel('Final PDF (optional)').setInputFiles(fixture('manuscript.pdf'));
  await files.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(editor.getByRole('status')).toContainText('Files received.');
  const publish = editor.getByRole('form', { name: '3. Fix and publish' });
  await publish
    .getByLabel('Issue')
    .selectOption({ label: `Volume ${number}, Issue 1: Workflow issue ${number}` });
  await publish.getByLabel('Pages').fill('1-14');
  await publish.getByLabel('DOI').fill(`10.5555/cjei.wf.${number}`);
  await publish.getByRole('button', { name: 'Publish the article' }).click();
  await expect(editor.getByRole('status')).toContainText(/Published as article \d+/);
  await axe(editor);

  // 8. Readers find it in the issue, and its page names both authors.
  const reader = await newPage(browser, baseURL!);
  await reader.goto(`/volumes?volume=${number}&issue=1`);
  await expect(reader.getByRole('main')).toContainText(title);
  await reader.getByRole('main').getByRole('link', { name: title }).click();
  await expect(reader).toHaveURL(/\/article\/\d+$/);
  await expect(reader.getByRole('heading', { level: 1, name: title })).toBeVisible();
  for (const author of AUTHORS) await expect(reader.getByRole('main')).toContainText(author.name);
  await axe(reader);

  // On My submissions, the author sees it published (not just accepted: the list says so once it is out).
  await page.goto('/my-submissions');
  await expect(page.getByRole('article').filter({ hasText: reference! })).toContainText('Status: Published');
  // ...and, on its own page, a link to the published article (the e-mail says so too).
  await page.getByRole('article').filter({ hasText: reference! }).getByRole('link', { name: title }).click();
  const published = page.getByRole('region', { name: 'Published' });
  await published.getByRole('link', { name: 'read the article' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await axe(page);

  for (const p of [admin, editor, reader]) await p.context().close();
});
