import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, loginThroughApi, test } from './fixtures.ts';

/** The reviewer's pages (issue 14): /reviews, /reviews/{id} by the invitation link or signed in, the header. */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const file = (name: string, mimeType: string) => ({
  name,
  mimeType,
  buffer: readFileSync(path.join(FIXTURES, name)),
});
const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

// The review form is the journal's (rounds take the newest): the tests of this file that touch it run one after
// the other.
test.describe.configure({ mode: 'serial' });

const AUTHOR = {
  name: 'Ottilie Quennell',
  email: 'ottilie.quennell@example.org',
  affiliation: 'Univ. of Xanadu',
};

/** An author's manuscript, sent to review by the admin (an editor): returns its id and title. */
async function manuscriptInReview(
  api: APIRequestContext,
  baseURL: string,
  createAccount: () => Promise<{ username: string; password: string }>,
) {
  const author = await createAccount();
  const token = await loginThroughApi(baseURL, author.username, author.password);
  const title = `Reviewer page study ${uniqueTag()}`;
  const res = await api.post('/api/submission/submit', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'peer review, scheduling',
      abstract: 'We measure how reviewers read manuscripts on their pages.',
      conflictOfInterest: 'None.',
      fundingStatement: 'None.',
      dataAvailabilityStatement: 'None.',
      authors: JSON.stringify([{ ...AUTHOR, superscript: '1' }]),
      submissionFile: file('manuscript.pdf', 'application/pdf'),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  return { id, title };
}

async function sendToReview(api: APIRequestContext, id: number) {
  const res = await api.post(`/api/editor/submissions/${id}/decision`, {
    data: { status: 'under_review', message: 'Sent to peer review.' },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function invite(api: APIRequestContext, id: number, who: Record<string, unknown>) {
  const res = await api.post(`/api/editor/submissions/${id}/review/invitations`, { data: who });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { assignmentId: number }).assignmentId;
}

const QUESTIONS = [
  { id: 'novelty', type: 'short-text', label: 'What is new in one line?', required: false },
  { id: 'methods', type: 'long-text', label: 'Are the methods sound?', required: false },
  { id: 'ethics', type: 'yes-no', label: 'Are the ethics statements adequate?', required: true },
  {
    id: 'english',
    type: 'choice',
    label: 'How is the English?',
    required: true,
    options: ['Good', 'Needs editing'],
  },
  { id: 'overall', type: 'scale', label: 'Overall quality', required: true },
];

/**
 * The journal's review form empty again, as the other specs' rounds expect to find it most of the time
 * (they answer whatever their round asks all the same: review-helpers.ts). Nothing happens when it is empty.
 */
async function emptyReviewForm(api: APIRequestContext) {
  const forms = (await (await api.get('/api/editor/review-forms')).json()) as {
    id: number;
    questions: unknown[];
  }[];
  if (!forms[0]?.questions.length) return;
  const reset = await api.put(`/api/editor/review-forms/${forms[0].id}`, {
    data: { name: 'Standard review form', questions: [] },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
}

/**
 * Rounds take the newest review form when they open: this test's form is used by its own round only, and the
 * form is emptied again at once (the round keeps its questions: a used form is versioned, decision 0023).
 */
async function withForm<T>(api: APIRequestContext, open: () => Promise<T>): Promise<T> {
  const made = await api.post('/api/editor/review-forms', {
    data: { name: `Form ${uniqueTag()}`, questions: QUESTIONS },
  });
  expect(made.status(), await made.text()).toBe(201);
  try {
    return await open();
  } finally {
    await emptyReviewForm(api);
  }
}

const field = (page: Page, name: string | RegExp) => page.getByRole('textbox', { name });

test.describe('the reviewer invited by e-mail', () => {
  test('opens the link, sees no files, accepts, downloads, keeps a draft across a reload, submits once', async ({
    page,
    adminApi,
    baseURL,
    createAccount,
    outbox,
    axe,
    screenshots,
  }) => {
    const { id, title } = await manuscriptInReview(adminApi, baseURL!, () => createAccount('author'));
    const email = `rev-${uniqueTag()}@example.org`;
    await withForm(adminApi, () => sendToReview(adminApi, id));
    const assignment = await invite(adminApi, id, {
      name: 'Rosalind Vexley',
      email,
      affiliation: 'Elsewhere Institute',
    });

    const mail = await outbox.waitFor({ to: email, subject: 'Invitation to review' });
    const link = /https?:\/\/\S+\/reviews\/\d+\?token=[A-Za-z0-9._-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    // The link opens the assignment, and its token leaves the address at once.
    await page.goto(link!);
    await expect(page).toHaveURL(new RegExp(`/reviews/${assignment}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Will you review this manuscript?' })).toBeVisible();
    await expect(page.getByText('We measure how reviewers read manuscripts')).toBeVisible();
    await expect(
      page.getByText('Double-anonymous (reviewers and authors do not see each other)'),
    ).toBeVisible();
    await expect(page.getByText('peer review, scheduling')).toBeVisible();
    await expect(page.getByText('Answer by')).toBeVisible();
    // No files before accepting, and no author (double-anonymous).
    await expect(page.getByRole('heading', { name: 'Files' })).toHaveCount(0);
    const before = await page.content();
    for (const secret of [AUTHOR.name, AUTHOR.email, AUTHOR.affiliation])
      expect(before).not.toContain(secret);
    expect((await page.request.get(`/reviews/${assignment}/files/1`)).status()).toBe(403);
    await axe(page);
    await screenshots(page, 'review-invitation');

    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Thank you for accepting' })).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'manuscript-round-1.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('manuscript-round-1.pdf');
    // A PDF reader's range request: the part asked for, as the API's downloads answer (decision 0027).
    const href = await page.getByRole('link', { name: 'manuscript-round-1.pdf' }).getAttribute('href');
    const part = await page.request.get(href as string, { headers: { range: 'bytes=0-7' } });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toMatch(/^bytes 0-7\/\d+$/);
    expect((await part.body()).toString('latin1')).toMatch(/^%PDF-1\.\d/);
    // The person invited by e-mail got an account, with a link to choose a password.
    await outbox.waitFor({ to: email, subject: 'Your reviewer account' });

    // Every message of an incomplete review, each beside its field.
    await page.getByRole('button', { name: 'Submit the review' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Answer "Are the ethics statements adequate?".');
    const form = page.getByRole('region', { name: 'Your review' });
    for (const message of [
      'Choose a recommendation.',
      'Write your comments for the author.',
      'Answer "Are the ethics statements adequate?".',
      'Answer "How is the English?".',
      'Answer "Overall quality".',
    ]) {
      await expect(form.getByText(`Error: ${message}`, { exact: true })).toBeVisible();
    }
    await axe(page);

    // A wrong attachment is refused as it is chosen.
    await page
      .getByLabel('Attach a file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(
      form.getByText('The attached file must be a Word document (.doc, .docx) or a PDF (.pdf).'),
    ).toBeVisible();
    await page.getByLabel('Attach a file').setInputFiles([]);

    // Typing saves a draft on the server; a reload (or another browser) finds it.
    await page.getByRole('radio', { name: 'Minor revisions' }).check();
    await field(page, 'Comments for the author').fill('The offloading model needs a baseline.');
    await field(page, /Confidential comments/).fill('Possibly overlapping with an earlier paper.');
    await page
      .getByRole('group', { name: /ethics statements/ })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await expect(form.getByText(/Draft saved at \d\d:\d\d/)).toBeVisible({ timeout: 10_000 });
    await page.reload();
    await expect(field(page, 'Comments for the author')).toHaveValue(
      'The offloading model needs a baseline.',
    );
    await expect(field(page, /Confidential comments/)).toHaveValue(
      'Possibly overlapping with an earlier paper.',
    );
    await expect(page.getByRole('radio', { name: 'Minor revisions' })).toBeChecked();
    await expect(
      page.getByRole('group', { name: /ethics statements/ }).getByRole('radio', { name: 'Yes' }),
    ).toBeChecked();

    await page
      .getByRole('group', { name: /How is the English/ })
      .getByRole('radio', { name: 'Needs editing' })
      .check();
    await page.getByRole('group', { name: 'Overall quality' }).getByRole('radio', { name: '4' }).check();
    await field(page, 'What is new in one line?').fill('Battery-aware offloading.');
    await page.getByLabel('Attach a file').setInputFiles(file('manuscript.pdf', 'application/pdf'));
    await screenshots(page, 'review-form');
    await page.getByRole('button', { name: 'Submit the review' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'your review has been submitted' }),
    ).toBeVisible();

    // Read-only from now on, still by the link.
    await page.goto(link!);
    await expect(page).toHaveURL(new RegExp(`/reviews/${assignment}$`));
    await expect(page.getByText('It can no longer be changed.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit the review' })).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);
    await expect(page.getByText('The offloading model needs a baseline.')).toBeVisible();
    await expect(page.getByText('Needs editing')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download the attached file' })).toBeVisible();
    // A second submission is refused.
    const again = await page.request.post(`/reviews/${assignment}`, {
      headers: { origin: new URL(baseURL!).origin },
      form: { intent: 'submit', commentsForAuthor: 'Changed', recommendation: 'accept' },
    });
    expect(again.status()).toBe(409);
    await axe(page);
    await screenshots(page, 'review-submitted');
  });

  test('a bad or foreign link opens nothing', async ({ page, adminApi, baseURL, createAccount }) => {
    const { id } = await manuscriptInReview(adminApi, baseURL!, () => createAccount('author'));
    await sendToReview(adminApi, id);
    const assignment = await invite(adminApi, id, {
      name: 'Nobody Else',
      email: `x-${uniqueTag()}@example.org`,
    });
    await page.goto(`/reviews/${assignment}?token=${assignment}.${'A'.repeat(43)}`);
    await expect(
      page.getByText('This review assignment was not found, or this link does not open it.'),
    ).toBeVisible();
    await page.goto(`/reviews/${assignment}?token=nonsense`);
    await expect(page.getByText('This review link is not valid.', { exact: false })).toBeVisible();
    const res = await page.goto(`/reviews/${assignment}`);
    expect(res?.status()).toBe(401);
    await expect(page.getByText('Open the link from your invitation e-mail again')).toBeVisible();
  });
});

test.describe('the reviewer with an account', () => {
  test('sees the count in the header, the three groups, and declines with a reason', async ({
    page,
    signIn,
    adminApi,
    baseURL,
    createAccount,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const { id, title } = await manuscriptInReview(adminApi, baseURL!, () => createAccount('author'));
    await sendToReview(adminApi, id);
    const assignment = await invite(adminApi, id, { userId: me.id });

    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Reviews 1 open' })).toBeVisible();
    await nav.getByRole('link', { name: 'Reviews 1 open' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
    const waiting = page.getByRole('region', { name: /Waiting for your answer/ });
    await expect(waiting.getByRole('link', { name: title, exact: true })).toBeVisible();
    await expect(waiting.getByText('Invited, waiting for an answer')).toBeVisible();
    await expect(
      page.getByRole('region', { name: /In progress/ }).getByText('No review in progress.'),
    ).toBeVisible();
    await axe(page);
    await screenshots(page, 'reviews-list');

    await waiting.getByRole('link', { name: /Answer the invitation/ }).click();
    await expect(page).toHaveURL(new RegExp(`/reviews/${assignment}$`));
    await page.getByText('Decline the invitation').click();
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Choose a reason for declining.');
    await expect(page.getByRole('group', { name: /Why are you declining/ })).toContainText(
      'Choose a reason for declining.',
    );
    await axe(page);
    await screenshots(page, 'review-decline');
    await page.getByRole('radio', { name: 'The manuscript is outside my expertise' }).check();
    await field(page, /Anything to add/).fill('I work on databases, not networks.');
    await field(page, /Suggest another reviewer/).fill('Dr. Imre Castellan, Tallinn');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect(page.getByRole('status')).toContainText('Thank you for letting us know.');
    await expect(page.getByText('You declined this invitation.')).toBeVisible();

    // The editor sees the reason and the suggestion.
    const seen = (await (await adminApi.get(`/api/editor/submissions/${id}/review`)).json()) as {
      rounds: {
        assignments: {
          id: number;
          declineReason: string;
          suggestedReviewer: string;
          declineComment: string;
        }[];
      }[];
    };
    const a = seen.rounds[0].assignments.find((x) => x.id === assignment)!;
    expect(a).toMatchObject({
      declineReason: 'outside-expertise',
      declineComment: 'I work on databases, not networks.',
      suggestedReviewer: 'Dr. Imre Castellan, Tallinn',
    });

    await page.goto('/reviews');
    await expect(page.getByRole('region', { name: /Done/ }).getByText('Declined')).toBeVisible();
    // Still a reviewer (decision 0039): the header keeps the link to the reviews, with no count left open.
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reviews', exact: true }),
    ).toBeVisible();
  });

  test('an account with no assignments has no Reviews link and an empty page', async ({ page, signIn }) => {
    await signIn('researcher');
    await page.goto('/reviews');
    await expect(page.getByRole('heading', { name: 'No review invitations' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Reviews/ }),
    ).toHaveCount(0);
  });

  test('signed out, /reviews asks to sign in', async ({ page }) => {
    await page.goto('/reviews');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Freviews/);
  });
});

test.describe("peer review's Journal settings", () => {
  test('the defaults are shown, and each wrong value is refused beside its field (nothing saved)', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('admin');
    await page.goto('/editor-dashboard/settings');
    const group = page.getByRole('group', { name: 'Peer review' });
    await expect(group.getByLabel('Days to answer an invitation')).toHaveValue('7');
    await expect(group.getByLabel('Days to review')).toHaveValue('28');
    await expect(group.getByLabel('Days for a revision')).toHaveValue('30');
    await expect(group.getByRole('radio', { name: /^Double-anonymous/ })).toBeChecked();
    await expect(group.getByLabel('Reminders of an unanswered invitation')).toHaveValue('-2, 1');
    await expect(group.getByLabel('Reminders of a review not submitted')).toHaveValue('-3, 1, 7');
    await expect(group.getByLabel("Reminders of an author's revision not uploaded")).toHaveValue('-7, 1');
    await expect(group.getByLabel('Time zone of the due dates')).toHaveValue('UTC');
    await expect(group.getByLabel('Tell the reviewers the final decision')).toBeChecked();

    await group.getByLabel('Days to answer an invitation').fill('soon');
    await group.getByLabel('Days to review').fill('0');
    await group.getByLabel('Days for a revision').fill('400');
    await group.getByLabel('Reminders of an unanswered invitation').fill('-2, tomorrow');
    await group.getByLabel('Reminders of a review not submitted').fill('-3, 1, 1');
    await group.getByLabel("Reminders of an author's revision not uploaded").fill('1, 2, 3, 4, 5, 6');
    await group.getByLabel('Time zone of the due dates').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await expect(page.getByRole('alert')).toContainText('7 settings need correcting: see below.');
    for (const message of [
      'Days to respond must be a number.',
      'Days to review must be at least 1.',
      'Days for a revision must be at most 365.',
      'Invitation reminders: each offset is a whole number of days.',
      'Review reminders: each offset once.',
      'Revision reminders: at most five reminders.',
      'Use a time zone name such as UTC, Europe/Berlin or Asia/Kolkata.',
    ]) {
      await expect(group.getByText(message)).toBeVisible();
    }
    await expect(group.getByLabel('Time zone of the due dates')).toHaveAttribute('aria-invalid', 'true');
    await expect(group.getByLabel('Time zone of the due dates')).toHaveValue('Mars/Olympus');
    await axe(page);
    await screenshots(page, 'settings-review-refused');
    await page.reload();
    await expect(group.getByLabel('Days to answer an invitation')).toHaveValue('7');
  });
});

test.describe('the review-form editor', () => {
  // Whatever happens in the test, the journal's form does not stay full for the rest of the run.
  test.afterEach(({ adminApi }) => emptyReviewForm(adminApi));

  test('an editor adds questions of each kind, is refused with reasons, reorders, removes; a used form keeps its questions', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/review-form');
    await expect(page.getByRole('heading', { level: 1, name: 'Review form' })).toBeVisible();
    const newRow = () => page.getByRole('group', { name: 'New question' });
    const save = () => page.getByRole('button', { name: 'Save the review form' }).click();

    // Refusals: a list question with one choice, a position that is not a number, an empty form name.
    await page.getByLabel('Name of the form').fill('');
    await newRow().getByLabel('Question', { exact: true }).fill('Which field is it closest to?');
    await newRow().getByLabel('Answered by').selectOption('choice');
    await newRow()
      .getByLabel(/Choices/)
      .fill('Networks');
    await save();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByText('Error: The form name is required.')).toBeVisible();
    await expect(
      page.getByText('Error: A question with a list of choices needs at least two options.'),
    ).toBeVisible();
    await page.getByLabel('Name of the form').fill(`Form ${uniqueTag()}`);
    const first = page.getByRole('group', { name: 'Question 1' });
    await first.getByLabel(/Choices/).fill('Networks\nDatabases');
    await first.getByLabel('Position').fill('first');
    await save();
    await expect(page.getByText('Error: Give the position as a whole number, such as 2.')).toBeVisible();
    await axe(page);
    await page.getByRole('group', { name: 'Question 1' }).getByLabel('Position').fill('1');
    await save();
    await expect(page.getByRole('status')).toContainText('new review rounds use it');
    await expect(
      page.getByRole('group', { name: 'Question 1' }).getByLabel('Question', { exact: true }),
    ).toHaveValue('Which field is it closest to?');

    // Every other kind, one required.
    const kinds = [
      ['Is the title accurate?', 'yes-no'],
      ['Rate the clarity', 'scale'],
      ['One-line summary', 'short-text'],
      ['Other remarks', 'long-text'],
    ] as const;
    for (const [label, kind] of kinds) {
      await newRow().getByLabel('Question', { exact: true }).fill(label);
      await newRow().getByLabel('Answered by').selectOption(kind);
      if (kind === 'yes-no') await newRow().getByLabel('An answer is required').check();
      await save();
      await expect(
        page
          .getByRole('group', { name: /^Question \d$/ })
          .getByLabel('Question', { exact: true })
          .last(),
      ).toHaveValue(label);
    }
    await screenshots(page, 'review-form-editor');
    let forms = (await (await adminApi.get('/api/editor/review-forms')).json()) as {
      id: number;
      questions: { label: string; type: string; required: boolean }[];
    }[];
    expect(forms[0].questions.map((q) => [q.label, q.type, q.required])).toEqual([
      ['Which field is it closest to?', 'choice', false],
      ['Is the title accurate?', 'yes-no', true],
      ['Rate the clarity', 'scale', false],
      ['One-line summary', 'short-text', false],
      ['Other remarks', 'long-text', false],
    ]);
    const usedId = forms[0].id;

    // Reorder: the last becomes the first.
    await page.getByRole('group', { name: 'Question 5' }).getByLabel('Position').fill('0');
    await save();
    await expect(
      page.getByRole('group', { name: 'Question 1' }).getByLabel('Question', { exact: true }),
    ).toHaveValue('Other remarks');

    // Remove them all (the form is shared by the server's other tests): saved empty again.
    for (let n = 1; n <= 5; n++) {
      await page
        .getByRole('group', { name: `Question ${n}` })
        .getByLabel('Remove this question')
        .check();
    }
    await save();
    await expect(page.getByRole('group', { name: /^Question \d$/ })).toHaveCount(0);
    forms = (await (await adminApi.get('/api/editor/review-forms')).json()) as typeof forms;
    expect(forms[0].questions).toEqual([]);
    expect(forms[0].id === usedId || forms[0].id > usedId).toBe(true);
  });
});

test.describe('the reviewer without JavaScript', () => {
  test('accepts, saves a draft, is refused, and submits with plain form posts', async ({
    noJsPage: page,
    signIn,
    adminApi,
    baseURL,
    createAccount,
    axe,
  }) => {
    const me = await signIn('researcher', 'approved', page);
    const { id } = await manuscriptInReview(adminApi, baseURL!, () => createAccount('author'));
    await sendToReview(adminApi, id);
    const assignment = await invite(adminApi, id, { userId: me.id });

    await page.goto(`/reviews/${assignment}`);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await expect(page.getByRole('status')).toContainText('Thank you for accepting');
    await expect(page.getByRole('link', { name: 'manuscript-round-1.pdf' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Comments for the author' }).fill('Clear and careful.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('status')).toContainText('Draft saved.');
    await page.goto(`/reviews/${assignment}`);
    await expect(page.getByRole('textbox', { name: 'Comments for the author' })).toHaveValue(
      'Clear and careful.',
    );

    await page.getByRole('button', { name: 'Submit the review' }).click();
    await expect(page.getByRole('alert')).toContainText('Choose a recommendation.');
    await expect(page.getByRole('textbox', { name: 'Comments for the author' })).toHaveValue(
      'Clear and careful.',
    );
    await axe(page);
    await page.getByRole('radio', { name: 'Accept' }).check();
    await page.getByRole('button', { name: 'Submit the review' }).click();
    await expect(page.getByRole('status')).toContainText('your review has been submitted');
    await expect(page.getByText('It can no longer be changed.')).toBeVisible();
  });
});

test.describe('a later round', () => {
  test("shows the reviewer the authors' response to the previous round's reviewers", async ({
    page,
    signIn,
    adminApi,
    baseURL,
    createAccount,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const author = await createAccount('author');
    const token = await loginThroughApi(baseURL!, author.username, author.password);
    const { id } = await manuscriptInReview(adminApi, baseURL!, async () => author);
    await sendToReview(adminApi, id);
    const asked = await adminApi.post(`/api/editor/submissions/${id}/decision`, {
      data: { status: 'revisions_requested', revisions: 'minor', message: 'Please add a baseline.' },
    });
    expect(asked.ok(), await asked.text()).toBe(true);
    const revised = await adminApi.post(`/api/submissions/${id}/revision`, {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        message: 'Revised.',
        responseToReviewers: 'We added the round-robin baseline in section 4.',
        submissionFile: file('manuscript.pdf', 'application/pdf'),
      },
    });
    expect(revised.ok(), await revised.text()).toBe(true);
    await sendToReview(adminApi, id);
    const assignment = await invite(adminApi, id, { userId: me.id });

    await page.goto(`/reviews/${assignment}`);
    await expect(page.getByText(/review round 2/)).toBeVisible();
    const response = page.getByRole('region', { name: "The authors' response to the reviewers" });
    await expect(response).toContainText('We added the round-robin baseline in section 4.');
    await axe(page);
    await screenshots(page, 'review-round-2');
  });
});
