import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { type Account, expect, loginThroughApi, SESSION_COOKIE, test } from './fixtures.ts';
import { answersFor, bearer, ok, underReview, uniqueTag } from './review-helpers.ts';

/**
 * Issue 22 on the desk page: the reviews go to the author with a decision unless the editor unticks them
 * (withholding them all, or accepting with no review at all, is confirmed first), a withheld review can be
 * shared afterwards, and the author's page asks for a response only to reviews the author can read.
 */

/** A reviewer invited, accepted and submitted through the API; returns the assignment's id. */
async function reviewed(api: APIRequestContext, baseURL: string, reviewer: Account, id: number, comments: string) {
  const token = await loginThroughApi(baseURL, reviewer.username, reviewer.password);
  // A name of their own, for the desk's cards and checkboxes (every test account is "Test Researcher").
  reviewer.fullName = `Reviewer ${reviewer.username}`;
  await ok(api.patch('/api/account', { headers: bearer(token), data: { fullName: reviewer.fullName } }));
  const invited = await ok(
    api.post(`/api/editor/submissions/${id}/review/invitations`, { data: { userId: reviewer.id } }),
  );
  const a = invited.assignmentId as number;
  const view = await ok(api.post(`/api/reviews/${a}/accept`, { headers: bearer(token) }));
  await ok(
    api.post(`/api/reviews/${a}/submit`, {
      headers: bearer(token),
      data: { answers: answersFor(view.questions), recommendation: 'major-revisions', commentsForAuthor: comments },
    }),
  );
  return a;
}

/** The author's own page, in a context of its own signed in by the session cookie. */
async function authorPage(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const { hostname } = new URL(baseURL);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: hostname, path: '/', httpOnly: true }]);
  return context.newPage();
}

const decisionForm = (page: Page) => page.getByRole('form', { name: 'Decision' });

test('a revision decision shares the reviews unless unticked; the author is asked to answer them', async ({
  page,
  browser,
  signIn,
  createAccount,
  adminApi,
  baseURL,
  outbox,
  axe,
  screenshots,
}) => {
  test.setTimeout(90_000);
  const tag = uniqueTag();
  const author = await createAccount('author');
  const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
  const s = await underReview(adminApi, authorToken, { title: `Shared by default ${tag}` });
  const reviewer = await createAccount('researcher');
  await reviewed(adminApi, baseURL!, reviewer, s.id, `Method unclear in section 2 ${tag}.`);

  await signIn('editor');
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  const form = decisionForm(page);
  // Ticked before the editor does anything, and said so.
  await expect(form.getByRole('checkbox', { name: new RegExp(`The review by ${reviewer.fullName}`) })).toBeChecked();
  await expect(form.getByRole('group', { name: 'Reviews shared with the author' })).toContainText(
    'Every submitted review goes to the author with your decision',
  );
  await axe(page);
  await screenshots(page, 'review-sharing-default');
  await form.getByRole('radio', { name: 'Revisions requested' }).check();
  await form.getByLabel('Message to the author').fill('Please answer the reviewer point by point.');
  await form.getByLabel('Minor or major revisions').selectOption('major');
  await form.getByRole('button', { name: 'Record the decision' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Decision recorded: Major revisions requested. Your message and the chosen review were e-mailed',
  );
  const mail = await outbox.waitFor({ to: author.email, subject: `[${s.reference}] Major revisions requested` });
  expect(mail.text).toContain(`Method unclear in section 2 ${tag}.`);

  const mine = await authorPage(browser, baseURL!, authorToken);
  await mine.goto(`/my-submissions/${s.id}`);
  const review = mine.getByRole('region', { name: 'Peer review' });
  await expect(review.getByRole('heading', { name: 'Reviewer 1' })).toBeVisible();
  await expect(review).toContainText(`Method unclear in section 2 ${tag}.`);
  await expect(mine.getByRole('textbox', { name: 'Response to the reviewers' })).toBeVisible();
  await mine.context().close();
});

test('withholding every review is confirmed; a withheld review is shared later; the author page follows', async ({
  page,
  browser,
  signIn,
  createAccount,
  adminApi,
  baseURL,
  outbox,
  axe,
  screenshots,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const author = await createAccount('author');
  const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
  const s = await underReview(adminApi, authorToken, { title: `Withheld then shared ${tag}` });
  const first = await createAccount('researcher');
  const second = await createAccount('researcher');
  await reviewed(adminApi, baseURL!, first, s.id, `First reviewer's points ${tag}.`);
  await reviewed(adminApi, baseURL!, second, s.id, `Second reviewer's points ${tag}.`);

  await signIn('editor');
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  const form = decisionForm(page);
  const box = (who: Account) => form.getByRole('checkbox', { name: new RegExp(`The review by ${who.fullName}`) });
  await form.getByRole('radio', { name: 'Revisions requested' }).check();
  await form.getByLabel('Message to the author').fill('Please revise.');
  await form.getByLabel('Minor or major revisions').selectOption('minor');
  await box(first).uncheck();
  await box(second).uncheck();
  await form.getByRole('button', { name: 'Record the decision' }).click();

  // The confirm step: the form as it was, the reason, and a button that says what it does.
  const confirm = form.getByRole('alert');
  await expect(confirm).toContainText('None of the submitted reviews would be shared with the author');
  await expect(box(first)).not.toBeChecked();
  await expect(form.getByLabel('Message to the author')).toHaveValue('Please revise.');
  await expect(page.getByText('Status: Under review')).toBeVisible();
  await axe(page);
  await screenshots(page, 'review-sharing-confirm');
  await confirm.getByRole('button', { name: 'Withhold all the reviews and record the decision' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Decision recorded: Minor revisions requested. Your message was e-mailed',
  );
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('All 2 submitted reviews were withheld from the author (confirmed).');
  const mail = await outbox.waitFor({ to: author.email, subject: `[${s.reference}] Minor revisions requested` });
  expect(mail.text).not.toContain(`points ${tag}`);
  expect(mail.text).not.toContain('response to the reviewers');

  // The author is not asked to answer reviews they cannot read.
  const mine = await authorPage(browser, baseURL!, authorToken);
  await mine.goto(`/my-submissions/${s.id}`);
  await expect(mine.getByRole('region', { name: 'Peer review' })).toContainText(
    'The editors have not shared this round’s reviews with you.',
  );
  await expect(mine.getByRole('textbox', { name: 'Response to the reviewers' })).toHaveCount(0);
  await expect(mine.locator('body')).not.toContainText('point by point');
  await expect(mine.locator('body')).not.toContainText("answered the reviewers' comments");

  // Shared afterwards, from the review's card.
  const card = page.getByRole('article', { name: `Review by ${second.fullName}` });
  await expect(card).toContainText('withheld from the author');
  await card.getByRole('button', { name: /Share with the author/ }).click();
  await expect(page.getByRole('status')).toContainText(
    `The review of ${second.fullName} is now shared with the author`,
  );
  await expect(card).toContainText('shared with the author');
  await expect(card.getByRole('button', { name: /Share with the author/ })).toHaveCount(0);
  await expect(
    page.getByRole('article', { name: `Review by ${first.fullName}` }).getByRole('button', { name: /Share with the author/ }),
  ).toHaveCount(1);
  await axe(page);
  await screenshots(page, 'review-sharing-later');
  const later = await outbox.waitFor({ to: author.email, subject: `[${s.reference}] Reviews shared with you` });
  expect(later.text).toContain(`Reviewer 1 — recommendation: Major revisions\n\nSecond reviewer's points ${tag}.`);
  expect(later.text).not.toContain(second.fullName);

  await mine.reload();
  const review = mine.getByRole('region', { name: 'Peer review' });
  await expect(review.getByRole('heading', { name: 'Reviewer 1' })).toBeVisible();
  await expect(review).toContainText(`Second reviewer's points ${tag}.`);
  await expect(review).not.toContainText(`First reviewer's points ${tag}.`);
  await expect(mine.getByRole('textbox', { name: 'Response to the reviewers' })).toBeVisible();
  await axe(mine);
  await screenshots(mine, 'review-sharing-author');
  await mine.context().close();
});

test('accepting a manuscript nobody reviewed is confirmed, and the history says so', async ({
  page,
  signIn,
  createAccount,
  adminApi,
  baseURL,
  axe,
}) => {
  const tag = uniqueTag();
  const author = await createAccount('author');
  const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
  const s = await underReview(adminApi, authorToken, { title: `Accepted unreviewed ${tag}` });
  await signIn('editor');
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  const form = decisionForm(page);
  await expect(form.getByRole('radio', { name: 'Accepted' })).toHaveAccessibleDescription(
    /No reviewer has submitted a review in any round: you will be asked to confirm./,
  );
  await form.getByRole('radio', { name: 'Accepted' }).check();
  await form.getByLabel('Message to the author').fill('Accepted.');
  await form.getByRole('button', { name: 'Record the decision' }).click();
  await expect(form.getByRole('alert')).toContainText('the journal accepts no manuscript without review');
  await expect(page.getByText('Status: Under review')).toBeVisible();
  await axe(page);
  await form.getByRole('button', { name: 'Accept without peer review' }).click();
  await expect(page.getByRole('status')).toContainText('Decision recorded: Accepted.');
  await expect(page.getByRole('region', { name: 'History' })).toContainText(
    'Accepted without peer review: no reviewer submitted a review in any round (confirmed).',
  );
});
