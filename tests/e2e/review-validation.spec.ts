import type { APIRequestContext, Page } from '@playwright/test';
import { expect, loginThroughApi, test } from './fixtures.ts';
import {
  answersFor,
  bearer,
  dayOffset,
  hydrated,
  inviteByApi,
  longDay,
  ok,
  underReview as sentToReview,
  uniqueTag,
} from './review-helpers.ts';

/**
 * Peer review's forms refuse bad input with a message beside the field (issue 14), with JavaScript and, as the
 * other forms do, without: what review-desk.spec.ts and reviewer.spec.ts do not already show. Only refusals
 * touch the journal's own review form and settings (nothing of theirs is saved here).
 */

/** A co-author other than the submitter, with an institution of their own. */
const coAuthor = (tag: string) => ({
  name: `Wen Achterberg ${tag}`,
  email: `achterberg-${tag}@example.org`,
  affiliation: `Delta Polytechnic ${tag}`,
});

/** A manuscript sent to review (the API: the submission form and the move have their own specs). */
const underReview = (adminApi: APIRequestContext, authorToken: string, tag: string) =>
  sentToReview(adminApi, authorToken, { title: `Checked forms ${tag}`, authors: [coAuthor(tag)] });

const inviteForm = (page: Page) => page.getByRole('form', { name: /Invite a reviewer to round/ });
const sendInvite = (page: Page) =>
  inviteForm(page).getByRole('button', { name: 'Send the invitation' }).click();

test.describe('the invitation form', () => {
  test('without JavaScript: each refusal beside its field, an author refused saying why, a colleague warned', async ({
    noJsPage: page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const s = await underReview(
      adminApi,
      await loginThroughApi(baseURL!, author.username, author.password),
      tag,
    );
    await signIn('editor', 'approved', page);
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    const form = inviteForm(page);
    const name = form.getByLabel('Name', { exact: true });
    const email = form.getByLabel('E-mail address');

    await sendInvite(page);
    await expect(page.getByRole('alert')).toContainText(
      "Choose a reviewer from the pool, or give the reviewer's name and e-mail address.",
    );
    await name.fill(`Jonas Vell ${tag}`);
    await sendInvite(page);
    await expect(email).toHaveAccessibleDescription(
      /Enter the reviewer's e-mail address, such as name@example.org./,
    );
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveValue(`Jonas Vell ${tag}`);
    await name.fill('');
    await email.fill(`vell-${tag}@example.org`);
    await sendInvite(page);
    await expect(name).toHaveAccessibleDescription(/Enter the reviewer's name./);
    await expect(email).toHaveValue(`vell-${tag}@example.org`);
    await name.fill(`Jonas Vell ${tag}`);
    await email.fill('vell at example dot org');
    await sendInvite(page);
    await expect(email).toHaveAccessibleDescription(
      /Enter the reviewer's e-mail address, such as name@example.org./,
    );
    await email.fill(`vell-${tag}@example.org`);
    await form.getByLabel('Response due').fill(dayOffset(9));
    await form.getByLabel('Review due').fill(dayOffset(4));
    await sendInvite(page);
    await expect(form.getByLabel('Review due')).toHaveAccessibleDescription(
      /The review cannot be due before the answer to the invitation./,
    );
    await expect(form.getByLabel('Review due')).toHaveValue(dayOffset(4));
    await axe(page);
    await screenshots(page, 'validation-invite-nojs');

    // A co-author (not the submitter) typed by e-mail: refused, saying why; nothing is sent.
    const co = coAuthor(tag);
    await name.fill(co.name);
    await email.fill(co.email);
    await form.getByLabel('Review due').fill(dayOffset(30));
    await sendInvite(page);
    await expect(page.getByRole('alert')).toContainText(
      'This person is an author of the manuscript: an author cannot review their own submission.',
    );
    await expect(
      page.getByRole('region', { name: 'Peer review' }).getByRole('listitem').filter({ hasText: co.email }),
    ).toHaveCount(0);

    // Someone of an author's institution: invited, with a warning said at once and kept beside them.
    await name.fill(`Jonas Vell ${tag}`);
    await email.fill(`vell-${tag}@example.org`);
    await form.getByLabel('Affiliation').fill(co.affiliation);
    await sendInvite(page);
    await expect(page.getByRole('status')).toContainText(
      `The invitation has been sent to Jonas Vell ${tag}.`,
    );
    await expect(page.getByRole('status')).toContainText(
      `Warning: The reviewer's institution (${co.affiliation}) is also an author's: check that there is no conflict of interest.`,
    );
    await expect(
      page
        .getByRole('region', { name: 'Peer review' })
        .getByRole('listitem')
        .filter({ hasText: `vell-${tag}` }),
    ).toContainText('Warning:');
  });
});

test.describe('due dates', () => {
  test('a date before today is refused beside its field, with and without JavaScript; a malformed one too', async ({
    page,
    noJsPage,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    outbox,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const s = await underReview(
      adminApi,
      await loginThroughApi(baseURL!, author.username, author.password),
      tag,
    );
    const who = { name: `Mira Tolle ${tag}`, email: `tolle-${tag}@example.org` };
    const assignment = await inviteByApi(adminApi, s.id, who);
    await signIn('editor');
    await signIn('editor', 'approved', noJsPage);

    for (const p of [page, noJsPage]) {
      await p.goto(`/editor-dashboard/submissions/${s.id}`);
      const item = p
        .getByRole('region', { name: 'Peer review' })
        .getByRole('listitem')
        .filter({ hasText: who.email });
      const dates = p.getByRole('form', { name: `Due dates of ${who.name}` });
      await item.getByText('Change the due dates').click();
      await dates.getByLabel('Response due').fill(dayOffset(-1));
      await dates.getByLabel('Review due').fill(dayOffset(-2));
      await dates.getByRole('button', { name: /Save the due dates/ }).click();
      await expect(p.getByRole('alert')).toContainText('The response cannot be due before today.');
      await expect(dates.getByLabel('Response due')).toHaveAccessibleDescription(
        /The response cannot be due before today./,
      );
      await expect(dates.getByLabel('Review due')).toHaveAccessibleDescription(
        /The review cannot be due before today./,
      );
      // What was typed stays, to be corrected.
      await expect(dates.getByLabel('Review due')).toHaveValue(dayOffset(-2));
      await axe(p);
    }
    await screenshots(page, 'validation-due-dates');

    // A day the calendar does not have, posted as a form without the date picker's help.
    const refused = await page.request.post(`/editor-dashboard/submissions/${s.id}`, {
      headers: { origin: new URL(baseURL!).origin },
      form: { intent: 'dates', assignment: String(assignment), reviewDue: '2026-02-30' },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain('Review due: use a date such as 2026-01-31.');

    // Corrected: saved, and the reviewer is told.
    await page.reload();
    const dates = page.getByRole('form', { name: `Due dates of ${who.name}` });
    await page
      .getByRole('region', { name: 'Peer review' })
      .getByRole('listitem')
      .filter({ hasText: who.email })
      .getByText('Change the due dates')
      .click();
    await dates.getByLabel('Review due').fill(dayOffset(40));
    await dates.getByRole('button', { name: /Save the due dates/ }).click();
    await expect(page.getByRole('status')).toContainText(
      `The new due dates have been e-mailed to ${who.name}.`,
    );
    const told = await outbox.waitFor({ to: who.email, subject: `[${s.reference}] New due dates` }, 30_000);
    expect(told.text).toContain(`Review due by: ${longDay(dayOffset(40))}`);
  });
});

test.describe('the reviewer’s forms without JavaScript', () => {
  test('declining asks for a reason and keeps to the comment’s limit', async ({
    noJsPage: page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const me = await signIn('researcher', 'approved', page);
    const author = await createAccount('author');
    const s = await underReview(
      adminApi,
      await loginThroughApi(baseURL!, author.username, author.password),
      tag,
    );
    const assignment = await inviteByApi(adminApi, s.id, { userId: me.id });

    await page.goto(`/reviews/${assignment}`);
    await page.getByText('Decline the invitation').click();
    const comment = page.getByRole('textbox', { name: /Anything to add/ });
    await comment.fill('Too far from my field.');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Choose a reason for declining.');
    await expect(page.getByRole('group', { name: /Why are you declining/ })).toContainText(
      'Choose a reason for declining.',
    );
    await expect(comment).toHaveValue('Too far from my field.');
    await axe(page);
    await screenshots(page, 'validation-decline-nojs');

    await page.getByRole('radio', { name: 'The manuscript is outside my expertise' }).check();
    await comment.fill('x'.repeat(2001));
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect(comment).toHaveAccessibleDescription(/The comment must be at most 2000 characters./);
    await expect(page.getByRole('radio', { name: 'The manuscript is outside my expertise' })).toBeChecked();
    // Nothing was recorded: still an invitation to answer.
    await expect(page.getByRole('button', { name: 'Accept the invitation' })).toBeVisible();
  });

  test('the review: what is missing and what is too long, beside each field, the text kept', async ({
    noJsPage: page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
  }) => {
    const tag = uniqueTag();
    const me = await signIn('researcher', 'approved', page);
    const author = await createAccount('author');
    const s = await underReview(
      adminApi,
      await loginThroughApi(baseURL!, author.username, author.password),
      tag,
    );
    const assignment = await inviteByApi(adminApi, s.id, { userId: me.id });
    await page.goto(`/reviews/${assignment}`);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    const form = page.getByRole('region', { name: 'Your review' });
    const comments = form.getByRole('textbox', { name: 'Comments for the author' });
    const confidential = form.getByRole('textbox', { name: /Confidential comments/ });

    await form.getByRole('button', { name: 'Submit the review' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(form.getByRole('group', { name: /Your recommendation/ })).toContainText(
      'Choose a recommendation.',
    );
    await expect(comments).toHaveAccessibleDescription(/Write your comments for the author./);

    await form.getByRole('radio', { name: 'Major revisions' }).check();
    await comments.fill('c'.repeat(50_001));
    await confidential.fill(`Keep this ${tag}`);
    await form.getByRole('button', { name: 'Save draft' }).click();
    await expect(comments).toHaveAccessibleDescription(
      /The comments for the author must be at most 50000 characters./,
    );
    await expect(confidential).toHaveValue(`Keep this ${tag}`);
    await expect(form.getByRole('radio', { name: 'Major revisions' })).toBeChecked();
    await axe(page);
    // Nothing of the refused post was saved.
    await page.goto(`/reviews/${assignment}`);
    await expect(confidential).toHaveValue('');
  });
});

test.describe('the review form, with JavaScript', () => {
  test('over-long comments: the draft saved as typed says so, and submitting is refused beside the field', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const me = await signIn('researcher');
    const author = await createAccount('author');
    const s = await underReview(
      adminApi,
      await loginThroughApi(baseURL!, author.username, author.password),
      tag,
    );
    const assignment = await inviteByApi(adminApi, s.id, { userId: me.id });
    await page.goto(`/reviews/${assignment}`);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    const form = page.getByRole('region', { name: 'Your review' });
    const comments = form.getByRole('textbox', { name: 'Comments for the author' });
    await hydrated(page);
    await form.getByRole('radio', { name: 'Accept', exact: true }).check();
    await comments.fill('c'.repeat(50_001));
    await expect(form.getByText(/The draft was not saved: /)).toBeVisible({ timeout: 15_000 });
    await form.getByRole('button', { name: 'Submit the review' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(comments).toHaveAccessibleDescription(
      /The comments for the author must be at most 50000 characters./,
    );
    await expect(comments).toHaveValue('c'.repeat(50_001));
    await axe(page);
    await screenshots(page, 'validation-review-too-long');
  });
});

test.describe('the decision form without JavaScript', () => {
  test('no decision is refused beside its fields; revisions with no due date take the journal’s default', async ({
    noJsPage: page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const s = await underReview(
      adminApi,
      await loginThroughApi(baseURL!, author.username, author.password),
      tag,
    );
    await signIn('editor', 'approved', page);
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    const decision = page.getByRole('form', { name: 'Decision' });
    await decision.getByRole('button', { name: 'Record the decision' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(decision.getByRole('group', { name: /New status/ })).toContainText('Choose the new status.');
    await expect(decision.getByLabel('Message to the author')).toHaveAccessibleDescription(
      /A message to the author is required./,
    );
    await axe(page);

    await decision.getByRole('radio', { name: 'Revisions requested' }).check();
    await decision.getByLabel('Message to the author').fill('Please revise.');
    // Revisions are minor or major: the editor says which.
    await decision.getByRole('button', { name: 'Record the decision' }).click();
    await expect(decision.getByLabel('Minor or major revisions')).toHaveAccessibleDescription(
      /Choose minor or major revisions./,
    );
    await expect(decision.getByRole('radio', { name: 'Revisions requested' })).toBeChecked();
    await expect(decision.getByLabel('Message to the author')).toHaveValue('Please revise.');
    await decision.getByLabel('Minor or major revisions').selectOption('minor');
    await decision.getByLabel('The revised manuscript is due').fill(dayOffset(-1));
    await decision.getByRole('button', { name: 'Record the decision' }).click();
    await expect(decision.getByLabel('The revised manuscript is due')).toHaveAccessibleDescription(
      /The revision cannot be due before today./,
    );
    await expect(decision.getByLabel('Message to the author')).toHaveValue('Please revise.');
    await decision.getByLabel('The revised manuscript is due').fill('');
    await decision.getByRole('button', { name: 'Record the decision' }).click();
    await expect(page.getByRole('status')).toContainText('Decision recorded: Minor revisions requested.');
    await expect(page.getByRole('region', { name: 'Peer review' })).toContainText(
      `revision due ${longDay(dayOffset(30))}`,
    );
  });
});

test.describe('the review-form editor and the settings group without JavaScript', () => {
  test('refusals beside their fields, nothing saved', async ({
    noJsPage: page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('admin', 'approved', page);
    await page.goto('/editor-dashboard/review-form');
    const newRow = page.getByRole('group', { name: 'New question' });
    await page.getByLabel('Name of the form').fill('');
    await newRow.getByLabel('Question', { exact: true }).fill('q'.repeat(501));
    await newRow.getByLabel('Answered by').selectOption('choice');
    await newRow.getByLabel(/Choices/).fill('Only one');
    await page.getByRole('button', { name: 'Save the review form' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel('Name of the form')).toHaveAccessibleDescription(
      /The form name is required./,
    );
    const row = page.getByRole('group', { name: /^Question \d+$/ }).last();
    await expect(row.getByLabel('Question', { exact: true })).toHaveAccessibleDescription(
      /The question must be at most 500 characters./,
    );
    await expect(row.getByLabel(/Choices/)).toHaveAccessibleDescription(
      /A question with a list of choices needs at least two options./,
    );
    await axe(page);
    await screenshots(page, 'validation-review-form-nojs');

    await page.goto('/editor-dashboard/settings');
    const group = page.getByRole('group', { name: 'Peer review' });
    await group.getByLabel('Reminders of an unanswered invitation').fill('-2, soon');
    await group.getByLabel('Reminders of a review not submitted').fill('-3, 3, 3');
    await group.getByLabel("Reminders of an author's revision not uploaded").fill('1, 2, 3, 4, 5, 6');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await expect(page.getByRole('alert')).toContainText('3 settings need correcting: see below.');
    await expect(group.getByLabel('Reminders of an unanswered invitation')).toHaveAccessibleDescription(
      /Invitation reminders: each offset is a whole number of days./,
    );
    await expect(group.getByLabel('Reminders of a review not submitted')).toHaveAccessibleDescription(
      /Review reminders: each offset once./,
    );
    await expect(
      group.getByLabel("Reminders of an author's revision not uploaded"),
    ).toHaveAccessibleDescription(/Revision reminders: at most five reminders./);
    await expect(group.getByLabel('Reminders of an unanswered invitation')).toHaveValue('-2, soon');
    await axe(page);
    await page.goto('/editor-dashboard/settings');
    await expect(group.getByLabel('Reminders of an unanswered invitation')).toHaveValue('-2, 1');
  });
});

test.describe('the revision with a response to the reviewers', () => {
  test('without the revised file it is asked for, the response kept: with and without JavaScript', async ({
    page,
    noJsPage,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await signIn('author');
    const token = author.token;
    const s = await underReview(adminApi, token, tag);
    // A review shared with the decision: the form asks for a response only to reviews the author reads.
    const reviewer = await createAccount('researcher');
    const reviewerToken = await loginThroughApi(baseURL!, reviewer.username, reviewer.password);
    const assignment = await inviteByApi(adminApi, s.id, { userId: reviewer.id });
    const view = await ok(adminApi.post(`/api/reviews/${assignment}/accept`, { headers: bearer(reviewerToken) }));
    await ok(
      adminApi.post(`/api/reviews/${assignment}/submit`, {
        headers: bearer(reviewerToken),
        data: { answers: answersFor(view.questions), recommendation: 'minor-revisions', commentsForAuthor: 'Fix it.' },
      }),
    );
    await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
        data: { status: 'revisions_requested', revisions: 'minor', message: 'Please revise.' },
      }),
    );
    // The same author in the browser without scripts.
    const cookies = await page.context().cookies();
    await noJsPage.context().addCookies(cookies);
    const response = `We answered each point. ${tag}`;

    // With JavaScript: the form checks before uploading, and says what is missing beside the field.
    await page.goto(`/my-submissions/${s.id}`);
    await hydrated(page);
    const form = page.getByRole('region', { name: 'Upload a revised manuscript' });
    await form.getByLabel('Response to the reviewers').fill(response);
    await form.getByRole('button', { name: 'Upload revised manuscript' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'Please upload at least the main submission file (Word/PDF).',
    );
    await expect(
      form.getByRole('button', { name: 'Revised manuscript', exact: true }),
    ).toHaveAccessibleDescription(/Please upload at least the main submission file/);
    await expect(form.getByLabel('Response to the reviewers')).toHaveValue(response);
    await axe(page);

    // Without JavaScript the browser itself refuses to post the form without the required file.
    await noJsPage.goto(`/my-submissions/${s.id}`);
    const plain = noJsPage.getByRole('region', { name: 'Upload a revised manuscript' });
    await plain.getByLabel('Response to the reviewers').fill(response);
    await plain.getByRole('button', { name: 'Upload revised manuscript' }).click();
    const picker = plain.locator('input[type="file"][name="submissionFile"]');
    expect(await picker.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await expect(plain.getByLabel('Response to the reviewers')).toHaveValue(response);
    await expect(noJsPage.getByRole('status')).toHaveCount(0);
    await axe(noJsPage);
    await screenshots(page, 'validation-revision');
  });
});
