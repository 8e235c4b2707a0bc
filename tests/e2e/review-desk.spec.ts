import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { type Account, expect, loginThroughApi, test } from './fixtures.ts';
import { type Question, answersFor, bearer, dayOffset, longDay, uniqueTag } from './review-helpers.ts';

/**
 * Peer review on the editor's desk page (issue 14): the "Peer review" panel (invite, cancel, reinstate, remind,
 * due dates, reviews side by side, read, thank, rate), the decision's review fields, the communication log,
 * and the desk list's review filters. The reviewer's side is driven through the API (its pages are another
 * helper's).
 */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const tokenOf = (baseURL: string, account: Account) =>
  loginThroughApi(baseURL, account.username, account.password);

async function submit(api: APIRequestContext, token: string, title: string) {
  const res = await api.post('/api/submission/submit', {
    headers: bearer(token),
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'peer review, scheduling',
      abstract: 'We schedule reviews so that nobody waits.',
      conflictOfInterest: 'None.',
      fundingStatement: 'None.',
      dataAvailabilityStatement: 'None.',
      authors: JSON.stringify([
        { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
      ]),
      submissionFile: {
        name: 'manuscript.pdf',
        mimeType: 'application/pdf',
        buffer: readFileSync(path.join(FIXTURES, 'manuscript.pdf')),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; reference: string };
}

/** The link of an invitation e-mail: assignment id and token. */
function linkOf(text: string) {
  const m = /\/reviews\/(\d+)\?token=([A-Za-z0-9._-]+)/.exec(text);
  expect(m, `a review link in:\n${text}`).not.toBeNull();
  return { id: Number(m![1]), token: m![2] };
}

const panel = (page: Page) => page.getByRole('region', { name: 'Peer review' });
const inviteForm = (page: Page) => page.getByRole('form', { name: /Invite a reviewer to round/ });
const status = (page: Page) => page.getByRole('status');
const alert = (page: Page) => page.getByRole('alert');

async function sendInvite(page: Page) {
  await inviteForm(page).getByRole('button', { name: 'Send the invitation' }).click();
}

test('the editor runs a review round from the desk page: invite, decline, review, read, thank, rate, decide', async ({
  page,
  signIn,
  createAccount,
  request,
  baseURL,
  outbox,
  axe,
  screenshots,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag();
  const author = await createAccount('author');
  const authorToken = await tokenOf(baseURL!, author);
  const s = await submit(request, authorToken, `Fair review queues ${tag}`);
  const reviewer = await createAccount('researcher');
  const reviewerToken = await tokenOf(baseURL!, reviewer);
  const guest = { name: `Ada Guest ${tag}`, email: `ada-${tag}@example.org` };
  const third = { name: `Carl Third ${tag}`, email: `carl-${tag}@example.org` };
  await signIn('editor');

  // Before review: no round, and the desk says how to open one.
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  await expect(panel(page)).toContainText('No review round yet');
  await page.getByRole('radio', { name: 'Under review' }).check();
  await page.getByLabel('Message to the author').fill('Your manuscript goes to peer review.');
  await page.getByRole('button', { name: 'Record the decision' }).click();
  await expect(status(page)).toContainText('Decision recorded: Under review');
  await expect(panel(page).getByRole('heading', { name: 'Round 1 (current)' })).toBeVisible();
  await expect(panel(page)).toContainText('Double-anonymous');

  // Validation of the invitation form, message by message.
  await sendInvite(page);
  await expect(alert(page)).toContainText(
    "Choose a reviewer from the pool, or give the reviewer's name and e-mail address.",
  );
  await inviteForm(page).getByLabel('Name', { exact: true }).fill(guest.name);
  await sendInvite(page);
  await expect(inviteForm(page).getByLabel('E-mail address')).toHaveAccessibleDescription(
    /Enter the reviewer's e-mail address, such as name@example.org./,
  );
  await expect(inviteForm(page).getByLabel('Name', { exact: true })).toHaveValue(guest.name);
  await inviteForm(page).getByLabel('Name', { exact: true }).fill('');
  await inviteForm(page).getByLabel('E-mail address').fill(guest.email);
  await sendInvite(page);
  await expect(inviteForm(page).getByLabel('Name', { exact: true })).toHaveAccessibleDescription(
    /Enter the reviewer's name./,
  );
  await inviteForm(page).getByLabel('Name', { exact: true }).fill(guest.name);
  await inviteForm(page).getByLabel('E-mail address').fill('not-an-address');
  await sendInvite(page);
  await expect(inviteForm(page).getByLabel('E-mail address')).toHaveAccessibleDescription(
    /Enter the reviewer's e-mail address, such as name@example.org./,
  );
  await inviteForm(page).getByLabel('E-mail address').fill(guest.email);
  await inviteForm(page).getByLabel('Response due').fill(dayOffset(10));
  await inviteForm(page).getByLabel('Review due').fill(dayOffset(5));
  await sendInvite(page);
  await expect(inviteForm(page).getByLabel('Review due')).toHaveAccessibleDescription(
    /The review cannot be due before the answer to the invitation./,
  );
  // An author cannot review their own submission: refused, saying why.
  await inviteForm(page).getByLabel('Name', { exact: true }).fill(author.fullName);
  await inviteForm(page).getByLabel('E-mail address').fill(author.email);
  await inviteForm(page).getByLabel('Review due').fill(dayOffset(30));
  await sendInvite(page);
  await expect(alert(page)).toContainText('an author cannot review their own submission');
  await expect(inviteForm(page)).toContainText(
    'This person submitted the manuscript: an author cannot review their own submission.',
  );

  // Invite an account found by search (same institution as the author: a warning, shown clearly).
  await page
    .getByRole('search', { name: 'Find a reviewer' })
    .getByLabel('Find a reviewer')
    .fill(reviewer.email);
  await page.getByRole('search', { name: 'Find a reviewer' }).getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/find=/);
  await inviteForm(page)
    .getByRole('radio', { name: new RegExp(reviewer.email) })
    .check();
  await sendInvite(page);
  await expect(status(page)).toContainText(`The invitation has been sent to ${reviewer.fullName}.`);
  await expect(status(page)).toContainText(
    "Warning: The reviewer's institution (Test Institute of Technology)",
  );
  const reviewerItem = panel(page).getByRole('listitem').filter({ hasText: reviewer.email });
  await expect(reviewerItem).toContainText('Invited, waiting for an answer');
  await expect(reviewerItem).toContainText('Warning:');

  // The same reviewer twice: refused. (Now in the pool, with their open assignment.)
  await page.goto(`/editor-dashboard/submissions/${s.id}?find=${encodeURIComponent(reviewer.email)}`);
  await expect(
    inviteForm(page).getByRole('radio', { name: new RegExp(reviewer.email) }),
  ).toHaveAccessibleDescription(/1 open, 0 completed/);
  await inviteForm(page)
    .getByRole('radio', { name: new RegExp(reviewer.email) })
    .check();
  await sendInvite(page);
  await expect(alert(page)).toContainText('This reviewer already has an assignment in this round');

  // Invite by name and e-mail, and a third one to cancel, reinstate and give new dates.
  for (const who of [guest, third]) {
    await page.goto(`/editor-dashboard/submissions/${s.id}`);
    await inviteForm(page).getByLabel('Name', { exact: true }).fill(who.name);
    await inviteForm(page).getByLabel('E-mail address').fill(who.email);
    await sendInvite(page);
    await expect(status(page)).toContainText(`The invitation has been sent to ${who.name}.`);
  }

  // Both invitation e-mails are in the outbox, with working links.
  const toReviewer = await outbox.waitFor({
    to: reviewer.email,
    subject: `[${s.reference}] Invitation to review`,
  });
  const toGuest = await outbox.waitFor({ to: guest.email, subject: `[${s.reference}] Invitation to review` });
  const guestLink = linkOf(toGuest.text);
  const reviewerLink = linkOf(toReviewer.text);

  // Remind now, cancel, reinstate, new due dates.
  await page.getByRole('button', { name: `Remind now: ${guest.name}` }).click();
  await expect(status(page)).toContainText(`A reminder has been sent to ${guest.name}.`);
  await outbox.waitFor({ to: guest.email, subject: `[${s.reference}] Reminder: invitation to review` });
  await page.getByRole('button', { name: `Cancel: ${third.name}` }).click();
  await expect(status(page)).toContainText(`The assignment of ${third.name} has been cancelled`);
  const thirdItem = panel(page).getByRole('listitem').filter({ hasText: third.email });
  await expect(thirdItem).toContainText('Cancelled');
  await page.getByRole('button', { name: `Reinstate: ${third.name}` }).click();
  await expect(status(page)).toContainText(`The assignment of ${third.name} has been reinstated`);
  await expect(thirdItem).toContainText('Invited, waiting for an answer');
  await outbox.waitFor({ to: third.email, subject: `[${s.reference}] Review assignment reinstated` });
  const datesForm = page.getByRole('form', { name: `Due dates of ${third.name}` });
  await thirdItem.getByText('Change the due dates').click();
  await datesForm.getByLabel('Response due').fill(dayOffset(12));
  await datesForm.getByLabel('Review due').fill(dayOffset(8));
  await datesForm.getByRole('button', { name: /Save the due dates/ }).click();
  await expect(datesForm.getByLabel('Review due')).toHaveAccessibleDescription(
    /The review cannot be due before the answer to the invitation./,
  );
  await datesForm.getByLabel('Review due').fill(dayOffset(50));
  await datesForm.getByRole('button', { name: /Save the due dates/ }).click();
  await expect(status(page)).toContainText(`The new due dates have been e-mailed to ${third.name}.`);
  await expect(thirdItem).toContainText(`Review due${longDay(dayOffset(50))}`);
  await outbox.waitFor({ to: third.email, subject: `[${s.reference}] New due dates for your review` });
  // Nothing changed is not a change.
  await thirdItem.getByText('Change the due dates').click();
  await datesForm.getByRole('button', { name: /Save the due dates/ }).click();
  await expect(datesForm.getByLabel('Review due')).toHaveAccessibleDescription(
    /Give a new response or review due date./,
  );

  // The reviewer side, through the API: the guest declines with a reason and a suggestion; the account reviews.
  const declined = await request.post(`/api/reviews/${guestLink.id}/decline?token=${guestLink.token}`, {
    data: {
      reason: 'too-busy',
      comment: 'Teaching all term.',
      suggestion: 'Grace Hopper, grace@example.org',
    },
  });
  expect(declined.status(), await declined.text()).toBe(200);
  const accepted = await request.post(`/api/reviews/${reviewerLink.id}/accept`, {
    headers: bearer(reviewerToken),
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const view = (await accepted.json()) as { questions: Question[] };
  const attached = await request.post(`/api/reviews/${reviewerLink.id}/attachment`, {
    headers: bearer(reviewerToken),
    multipart: {
      file: {
        name: 'annotated.pdf',
        mimeType: 'application/pdf',
        buffer: readFileSync(path.join(FIXTURES, 'manuscript.pdf')),
      },
    },
  });
  expect(attached.status(), await attached.text()).toBe(200);
  const submitted = await request.post(`/api/reviews/${reviewerLink.id}/submit`, {
    headers: bearer(reviewerToken),
    data: {
      recommendation: 'minor-revisions',
      commentsForAuthor: `Clarify the queue model in section 2. ${tag}`,
      confidentialComments: `Solid work; the novelty is modest. ${tag}`,
      answers: answersFor(view.questions),
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);

  // The editor sees the decline's reason and suggestion, and the review.
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  const guestItem = panel(page).getByRole('listitem').filter({ hasText: guest.email });
  await expect(guestItem).toContainText('Declined');
  await expect(guestItem).toContainText('I do not have the time at the moment');
  await expect(guestItem).toContainText('Teaching all term.');
  await expect(guestItem).toContainText('Suggested reviewer: Grace Hopper, grace@example.org');
  // Invite again after the decline: a new assignment and a fresh link; the decline stays in the history.
  await guestItem.getByRole('button', { name: `Invite again: ${guest.name}` }).click();
  await expect(status(page)).toContainText(`${guest.name} has been invited again, with a new link.`);
  const guestItems = panel(page).getByRole('listitem').filter({ hasText: guest.email });
  await expect(guestItems).toHaveCount(2);
  await expect(guestItems.nth(1)).toContainText('Invited, waiting for an answer');
  await expect
    .poll(
      () =>
        outbox.all().filter((m) => m.to.includes(guest.email) && m.subject.includes('Invitation to review'))
          .length,
    )
    .toBe(2);
  const card = page.getByRole('article', { name: `Review by ${reviewer.fullName}` });
  await expect(card).toContainText('Recommendation: Minor revisions');
  await expect(card).toContainText(`Clarify the queue model in section 2. ${tag}`);
  await expect(card).toContainText(`Solid work; the novelty is modest. ${tag}`);
  await expect(card).toContainText('not read yet');
  const download = card.getByRole('link', { name: 'Download the reviewer’s attached file' });
  const file = await page.request.get((await download.getAttribute('href'))!);
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await axe(page);
  await screenshots(page, 'review-desk-reviews');

  await card.getByRole('button', { name: /Mark as read/ }).click();
  await expect(status(page)).toContainText('is marked as read');
  await expect(card).not.toContainText('not read yet');
  await card.getByRole('button', { name: /Thank the reviewer/ }).click();
  await expect(status(page)).toContainText(`A thank-you e-mail has been sent to ${reviewer.fullName}.`);
  await expect(card).toContainText('Thanked');
  await outbox.waitFor({ to: reviewer.email, subject: `[${s.reference}] Thank you for your review` });
  await card.getByRole('button', { name: 'Save the rating' }).click();
  await expect(card.getByLabel('Your rating (private, 1-5)')).toHaveAccessibleDescription(
    /Rate from 1 to 5./,
  );
  await card.getByLabel('Your rating (private, 1-5)').selectOption('4');
  await card.getByRole('button', { name: 'Save the rating' }).click();
  await expect(status(page)).toContainText('(4 of 5) is saved');
  await expect(card.getByLabel('Your rating (private, 1-5)')).toHaveValue('4');

  // The decision: every validation message of its review fields, then minor revisions sharing the review.
  const decision = page.getByRole('form', { name: 'Decision' });
  await decision.getByRole('button', { name: 'Record the decision' }).click();
  await expect(decision).toContainText('Choose the new status.');
  await expect(decision).toContainText('A message to the author is required.');
  await decision.getByRole('radio', { name: 'Revisions requested' }).check();
  await decision.getByLabel('Message to the author').fill('Please revise as the reviewer asks.');
  await decision.getByLabel('Minor or major revisions').selectOption('minor');
  await decision.getByLabel('The revised manuscript is due').fill(dayOffset(-3));
  await decision.getByRole('button', { name: 'Record the decision' }).click();
  await expect(decision.getByLabel('The revised manuscript is due')).toHaveAccessibleDescription(
    /The revision cannot be due before today./,
  );
  await expect(decision.getByLabel('The revised manuscript is due')).toHaveValue(dayOffset(-3));
  await expect(decision.getByLabel('Message to the author')).toHaveValue(
    'Please revise as the reviewer asks.',
  );
  await expect(decision.getByLabel('Minor or major revisions')).toHaveValue('minor');
  await decision.getByLabel('The revised manuscript is due').fill(dayOffset(30));
  await decision.getByRole('checkbox', { name: new RegExp(`The review by ${reviewer.fullName}`) }).check();
  await decision.getByRole('button', { name: 'Record the decision' }).click();
  await expect(status(page)).toContainText(
    'Decision recorded: Minor revisions requested. Your message and the chosen review were e-mailed',
  );
  await expect(panel(page)).toContainText('Minor revisions requested');
  await expect(card).toContainText('shared with the author');

  const toAuthor = await outbox.waitFor({
    to: author.email,
    subject: `[${s.reference}] Minor revisions requested`,
  });
  expect(toAuthor.text).toContain('Reviewer 1');
  expect(toAuthor.text).toContain(`Clarify the queue model in section 2. ${tag}`);
  expect(toAuthor.text).not.toContain(reviewer.fullName);
  expect(toAuthor.text).not.toContain(`Solid work; the novelty is modest. ${tag}`);

  // The communication log: every e-mail, tokens never in clear.
  const log = page.getByRole('region', { name: 'Communication log' });
  await expect(log).toContainText(`[${s.reference}] Invitation to review`);
  await expect(log).toContainText(reviewer.email);
  await expect(log).toContainText(guest.email);
  await expect(log).toContainText(`[${s.reference}] Minor revisions requested`);
  await expect(log).toContainText(`[${s.reference}] Thank you for your review`);
  const invitation = log
    .getByRole('listitem')
    .filter({ hasText: /Invitation to review for/ })
    .filter({ hasText: `To ${guest.email}` })
    .last();
  await invitation.getByText(/Invitation to review for/).click();
  await expect(invitation).toContainText('[link removed]');
  const logText = (await log.textContent()) ?? '';
  expect(logText).not.toContain(guestLink.token);
  expect(logText).not.toContain(reviewerLink.token);
  expect(logText).not.toContain('token=');
  await axe(page);
  await screenshots(page, 'review-desk-decided');

  // The author revises with a response; sending it back to review opens round 2, round 1 stays readable.
  const revised = await request.post(`/api/submissions/${s.id}/revision`, {
    headers: bearer(authorToken),
    multipart: {
      message: 'Revised as asked.',
      responseToReviewers: `We clarified the queue model. ${tag}`,
      submissionFile: {
        name: 'manuscript.pdf',
        mimeType: 'application/pdf',
        buffer: readFileSync(path.join(FIXTURES, 'manuscript.pdf')),
      },
    },
  });
  expect(revised.ok(), await revised.text()).toBe(true);
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  await decision.getByRole('radio', { name: 'Under review' }).check();
  await decision.getByLabel('Message to the author').fill('The revision goes back to the reviewers.');
  await decision.getByRole('button', { name: 'Record the decision' }).click();
  await expect(status(page)).toContainText('Decision recorded: Under review');
  await expect(panel(page).getByRole('heading', { name: 'Round 2 (current)' })).toBeVisible();
  await expect(panel(page)).toContainText(`We clarified the queue model. ${tag}`);
  await expect(panel(page)).toContainText('No reviewer has been invited in this round yet.');
  const round1 = panel(page)
    .getByRole('group')
    .filter({ hasText: 'Round 1 (manuscript version 1, Minor revisions requested)' });
  await round1.getByText('Round 1 (manuscript version 1').click();
  await expect(round1.getByRole('article', { name: `Review by ${reviewer.fullName}` })).toContainText(
    `Clarify the queue model in section 2. ${tag}`,
  );
  await expect(round1.getByRole('button', { name: /Remind now|Cancel/ })).toHaveCount(0);
  await axe(page);
  await screenshots(page, 'review-desk-round2');
});

test('the desk list filters by needs reviewers, reviews overdue and reviews complete; overdue is shown', async ({
  page,
  signIn,
  createAccount,
  request,
  baseURL,
  axe,
  screenshots,
}) => {
  const tag = uniqueTag();
  const author = await createAccount('author');
  const authorToken = await tokenOf(baseURL!, author);
  const editor = await signIn('editor');
  const editorApi = bearer(editor.token);
  const reviewer = await createAccount('researcher');
  const reviewerToken = await tokenOf(baseURL!, reviewer);
  const made: Record<string, { id: number; reference: string }> = {};
  for (const kind of ['needs', 'overdue', 'complete'] as const) {
    const s = await submit(request, authorToken, `Filter ${kind} ${tag}`);
    made[kind] = s;
    const moved = await request.post(`/api/editor/submissions/${s.id}/decision`, {
      headers: editorApi,
      data: { status: 'under_review', message: 'To review.' },
    });
    expect(moved.ok(), await moved.text()).toBe(true);
  }
  // Overdue: an invitation whose answer was due yesterday.
  const late = await request.post(`/api/editor/submissions/${made.overdue.id}/review/invitations`, {
    headers: editorApi,
    data: {
      name: `Late ${tag}`,
      email: `late-${tag}@example.org`,
      responseDue: dayOffset(-1),
      reviewDue: dayOffset(20),
    },
  });
  expect(late.status(), await late.text()).toBe(201);
  // Complete: one review in, none outstanding.
  const inv = await request.post(`/api/editor/submissions/${made.complete.id}/review/invitations`, {
    headers: editorApi,
    data: { userId: reviewer.id },
  });
  expect(inv.status(), await inv.text()).toBe(201);
  const { assignmentId } = (await inv.json()) as { assignmentId: number };
  const acc = await request.post(`/api/reviews/${assignmentId}/accept`, { headers: bearer(reviewerToken) });
  const q = ((await acc.json()) as { questions: Question[] }).questions;
  const sub = await request.post(`/api/reviews/${assignmentId}/submit`, {
    headers: bearer(reviewerToken),
    data: { recommendation: 'accept', commentsForAuthor: 'Fine.', answers: answersFor(q) },
  });
  expect(sub.status(), await sub.text()).toBe(200);

  const filterTo = async (label: string) => {
    await page.goto(`/editor-dashboard/submissions?q=${tag}`);
    await page.getByLabel('Peer review').selectOption({ label });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    return page.getByRole('table', { name: /submissions, newest first/i });
  };
  let table = await filterTo('Needs reviewers');
  await expect(table).toContainText(`Filter needs ${tag}`);
  await expect(table).toContainText(`Filter overdue ${tag}`);
  table = await filterTo('Reviews overdue');
  await expect(table).toContainText(`Filter overdue ${tag}`);
  await expect(table).not.toContainText(`Filter needs ${tag}`);
  table = await filterTo('Reviews complete');
  await expect(table).toContainText(`Filter complete ${tag}`);
  await expect(table).not.toContainText(`Filter overdue ${tag}`);
  await expect(table).not.toContainText(`Filter needs ${tag}`);
  await expect(page.getByLabel('Peer review')).toHaveValue('reviews-complete');
  await axe(page);
  await screenshots(page, 'review-desk-list');

  // A wrong filter in the address is named next to its field.
  await page.goto(`/editor-dashboard/submissions?review=sometime`);
  await expect(page.getByLabel('Peer review')).toHaveAccessibleDescription(
    /Choose a review filter from the list./,
  );

  // The overdue invitation says so on the desk page.
  await page.goto(`/editor-dashboard/submissions/${made.overdue.id}`);
  await expect(
    panel(page)
      .getByRole('listitem')
      .filter({ hasText: `late-${tag}@example.org` }),
  ).toContainText('Response overdue');
  await screenshots(page, 'review-desk-overdue');
});

test('the review mode of a round can be changed before the first invitation', async ({
  page,
  signIn,
  createAccount,
  request,
  baseURL,
}) => {
  const author = await createAccount('author');
  const s = await submit(request, await tokenOf(baseURL!, author), `Mode change ${uniqueTag()}`);
  const editor = await signIn('editor');
  const moved = await request.post(`/api/editor/submissions/${s.id}/decision`, {
    headers: bearer(editor.token),
    data: { status: 'under_review', message: 'To review.' },
  });
  expect(moved.ok(), await moved.text()).toBe(true);
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  await page.getByLabel('Review mode of this round').selectOption('open');
  await page.getByRole('button', { name: 'Change the mode' }).click();
  await expect(status(page)).toContainText('The review mode of this round has been changed.');
  await expect(panel(page)).toContainText('Open');
  // A posted mode that is not one of the list is refused with the schema's message.
  const res = await page.request.post(`/editor-dashboard/submissions/${s.id}`, {
    headers: { origin: new URL(baseURL!).origin },
    form: { intent: 'mode', mode: 'secret' },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toContain('Choose a review mode.');
  // The decision's review fields, posted wrong on purpose: each refusal names its field.
  for (const [fields, message] of [
    [{}, 'Choose minor or major revisions.'],
    [{ revisions: 'medium' }, 'Choose minor or major revisions.'],
    [{ revisions: 'minor', shareReviews: '99999999' }, 'Choose submitted reviews of this round.'],
    [{ revisions: 'major', authorDue: 'soon' }, 'Revision due: use a date such as 2026-01-31.'],
  ] as const) {
    const refused = await page.request.post(`/editor-dashboard/submissions/${s.id}`, {
      headers: { origin: new URL(baseURL!).origin },
      form: { intent: 'decide', status: 'revisions_requested', message: 'Please revise.', ...fields },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain(message);
  }
  // An assignment of another submission is not this page's to act on.
  const foreign = await page.request.post(`/editor-dashboard/submissions/${s.id}`, {
    headers: { origin: new URL(baseURL!).origin },
    form: { intent: 'remind', assignment: '99999999' },
  });
  expect(foreign.status()).toBe(404);

  // A submission rejected without review has no round, and the panel says so.
  const other = await submit(request, await tokenOf(baseURL!, author), `Rejected at once ${uniqueTag()}`);
  const rejected = await request.post(`/api/editor/submissions/${other.id}/decision`, {
    headers: bearer(editor.token),
    data: { status: 'rejected', message: 'Out of scope.' },
  });
  expect(rejected.ok(), await rejected.text()).toBe(true);
  await page.goto(`/editor-dashboard/submissions/${other.id}`);
  await expect(panel(page)).toContainText('This submission was not sent to peer review.');
  await expect(page.getByRole('region', { name: 'Communication log' })).toContainText(
    `[${other.reference}] Rejected`,
  );
});

test('without JavaScript: search the pool, see who is unavailable, invite, and be told what is wrong', async ({
  noJsPage: page,
  signIn,
  createAccount,
  request,
  baseURL,
  axe,
}) => {
  const tag = uniqueTag();
  const author = await createAccount('author');
  const s = await submit(request, await tokenOf(baseURL!, author), `No script review ${tag}`);
  const editor = await signIn('editor', 'approved', page);
  const moved = await request.post(`/api/editor/submissions/${s.id}/decision`, {
    headers: bearer(editor.token),
    data: { status: 'under_review', message: 'To review.' },
  });
  expect(moved.ok(), await moved.text()).toBe(true);
  // A reviewer away until a day in ten days' time (their own profile).
  const away = await createAccount('researcher');
  const profile = await request.put('/api/reviewer/profile', {
    headers: bearer(await tokenOf(baseURL!, away)),
    data: {
      name: `Away Reviewer ${tag}`,
      affiliation: 'Elsewhere University',
      unavailableUntil: dayOffset(10),
    },
  });
  expect(profile.ok(), await profile.text()).toBe(true);

  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  await inviteForm(page).getByRole('button', { name: 'Send the invitation' }).click();
  await expect(alert(page)).toContainText(
    "Choose a reviewer from the pool, or give the reviewer's name and e-mail address.",
  );
  await page
    .getByRole('search', { name: 'Find a reviewer' })
    .getByLabel('Find a reviewer')
    .fill(`Away Reviewer ${tag}`);
  await page.getByRole('search', { name: 'Find a reviewer' }).getByRole('button', { name: 'Search' }).click();
  const pick = inviteForm(page).getByRole('radio', { name: new RegExp(`Away Reviewer ${tag}`) });
  await expect(pick).toHaveAccessibleDescription(new RegExp(`Unavailable until ${longDay(dayOffset(10))}`));
  await axe(page);
  await pick.check();
  await inviteForm(page).getByRole('button', { name: 'Send the invitation' }).click();
  await expect(status(page)).toContainText(`The invitation has been sent to Away Reviewer ${tag}.`);
  await expect(status(page)).toContainText(
    `Warning: The reviewer said they are unavailable until ${longDay(dayOffset(10))}.`,
  );
  await expect(panel(page).getByRole('listitem').filter({ hasText: away.email })).toContainText(
    'unavailable until',
  );
});
