import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { type Account, expect, loginThroughApi, test } from './fixtures.ts';
import { answersFor } from './review-helpers.ts';

/**
 * Peer review's author view, reviewer pool and open reviews (issue 14): the author sees "Reviewer 1" with
 * the shared comments and uploads a revision with a response to the reviewers; the pool lists, searches and
 * invites; an agreed open review shows under a published article's abstract.
 */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const manuscript = () => ({
  name: 'manuscript.pdf',
  mimeType: 'application/pdf',
  buffer: readFileSync(path.join(FIXTURES, 'manuscript.pdf')),
});
const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function submit(api: APIRequestContext, token: string, title: string) {
  const res = await api.post('/api/submission/submit', {
    headers: bearer(token),
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'peer review, sensors',
      abstract: 'We study how adaptive sampling saves energy in sensor networks.',
      authors: JSON.stringify([
        { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
      ]),
      submissionFile: manuscript(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; reference: string };
}

async function ok(res: Promise<import('@playwright/test').APIResponse>) {
  const r = await res;
  expect(r.ok(), `${r.url()}: ${await r.text()}`).toBe(true);
  return r.json();
}

/** A reviewer account that accepts and submits a review of the submission's current round. */
async function reviewed(
  adminApi: APIRequestContext,
  baseURL: string,
  reviewer: Account,
  submissionId: number,
  review: Record<string, unknown>,
): Promise<number> {
  const invited = await ok(
    adminApi.post(`/api/editor/submissions/${submissionId}/review/invitations`, {
      data: { userId: reviewer.id },
    }),
  );
  const token = await loginThroughApi(baseURL, reviewer.username, reviewer.password);
  const id = invited.assignmentId as number;
  const view = await ok(adminApi.post(`/api/reviews/${id}/accept`, { headers: bearer(token) }));
  // Whatever questions the round's form asks are answered (the journal's form is shared: review-helpers.ts).
  await ok(
    adminApi.post(`/api/reviews/${id}/submit`, {
      headers: bearer(token),
      data: { answers: answersFor(view.questions), ...review },
    }),
  );
  return id;
}

test.describe('the author’s view of peer review', () => {
  test('the author sees "Reviewer 1" with the shared comments and uploads a revision with a response', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await signIn('author');
    const s = await submit(adminApi, author.token, `Sampling in review ${tag}`);
    await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
        data: { status: 'under_review', message: 'Sent to review.' },
      }),
    );
    const reviewer = await createAccount('researcher');
    const comments = `Please compare with periodic sampling ${tag}.`;
    const assignment = await reviewed(adminApi, baseURL!, reviewer, s.id, {
      recommendation: 'minor-revisions',
      commentsForAuthor: comments,
      confidentialComments: `Confidential note ${tag}`,
    });
    const due = dayOffset(21);
    await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
        data: {
          status: 'revisions_requested',
          message: 'Please revise.',
          revisions: 'minor',
          shareReviews: [assignment],
          authorDue: due,
        },
      }),
    );

    await page.goto('/my-submissions');
    const card = page.getByRole('article', { name: `Sampling in review ${tag}` });
    await expect(card.getByText('1 review shared with you')).toBeVisible();
    await expect(card.getByText('end of the day')).toBeVisible();

    await page.goto(`/my-submissions/${s.id}`);
    const review = page.getByRole('region', { name: 'Peer review' });
    await expect(review.getByRole('heading', { name: 'Reviewer 1' })).toBeVisible();
    await expect(review.getByText(comments)).toBeVisible();
    await expect(review.getByText('Minor revisions requested')).toBeVisible();
    await expect(review).toContainText('Recommendation: Minor revisions');
    const body = await page.content();
    expect(body).not.toContain(reviewer.fullName);
    expect(body).not.toContain(reviewer.username);
    expect(body).not.toContain(`Confidential note ${tag}`);
    await expect(page.getByText(/Please upload it by/)).toContainText('(end of the day, UTC time)');
    await axe(page);
    await screenshots(page, 'author-review');

    // The response's limit, as the form posted without scripts meets it.
    const tooLong = await page.request.post(`/my-submissions/${s.id}`, {
      headers: { origin: new URL(baseURL!).origin },
      multipart: { message: '', responseToReviewers: 'x'.repeat(50_001), submissionFile: manuscript() },
    });
    expect(tooLong.status()).toBe(400);
    expect(await tooLong.text()).toContain('The response to the reviewers must be at most 50000 characters.');

    const response = `We added the comparison with periodic sampling (${tag}).`;
    const form = page.getByRole('region', { name: 'Upload a revised manuscript' });
    await form.getByRole('button', { name: 'Revised manuscript', exact: true }).setInputFiles(manuscript());
    await form.getByLabel('Response to the reviewers').fill(response);
    await form.getByRole('button', { name: 'Upload revised manuscript' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Your revised manuscript has been received' }),
    ).toBeVisible();
    const editorView = await ok(adminApi.get(`/api/editor/submissions/${s.id}/review`));
    expect(editorView.rounds[0].authorResponse).toBe(response);
  });
});

test.describe('the reviewer pool', () => {
  test('lists and searches reviewers, and invites one to a submission under review', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    await signIn('editor');
    const reviewer = await createAccount('researcher');
    const token = await loginThroughApi(baseURL!, reviewer.username, reviewer.password);
    const name = `Rhea Pool ${tag}`;
    await ok(
      adminApi.put('/api/reviewer/profile', {
        headers: bearer(token),
        data: { name, affiliation: `Pool University ${tag}`, interests: ['AI and machine learning'] },
      }),
    );
    const author = await createAccount('author');
    const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
    const s = await submit(adminApi, authorToken, `Pool invitation ${tag}`);
    await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
        data: { status: 'under_review', message: 'To review.' },
      }),
    );

    await page.goto('/editor-dashboard');
    await page
      .getByRole('navigation', { name: 'Dashboard sections' })
      .getByRole('link', { name: 'Reviewers' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reviewers' })).toBeVisible();

    // Search by name, then by interest (and the search's limit).
    const search = page.getByRole('search', { name: 'Find reviewers' });
    await search.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await search.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: /Reviewers matching/ });
    await expect(table.getByRole('rowheader', { name: new RegExp(name) })).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('AI and machine learning');
    await page.goto('/editor-dashboard/reviewers?q=machine%20learning');
    await expect(page.getByRole('rowheader', { name: new RegExp(name) })).toBeVisible();
    await page.goto(`/editor-dashboard/reviewers?q=${'z'.repeat(201)}`);
    await expect(page.getByText('The search must be at most 200 characters.')).toBeVisible();
    await page.goto('/editor-dashboard/reviewers?q=no-such-reviewer-anywhere');
    await expect(page.getByText('No reviewer matches this search.')).toBeVisible();

    await page.goto(`/editor-dashboard/reviewers?q=${tag}`);
    await axe(page);
    await screenshots(page, 'reviewer-pool');
    // On a phone each reviewer is a card with its figures labelled: nothing to scroll sideways.
    await page.setViewportSize({ width: 390, height: 900 });
    const box = page.getByRole('region', { name: /Reviewers matching/ });
    await expect.poll(() => box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    await expect(page.getByText('Scroll the table sideways')).toBeHidden();
    await axe(page);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Invite from the pool: the submission must be chosen; the review not due before the answer.
    await page.getByRole('link', { name: `Invite ${name}` }).click();
    const invite = page.getByRole('region', { name: `Invite ${name}` });
    await expect(invite).toBeVisible();
    await invite.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(invite.getByText('Choose the submission to review.')).toBeVisible();
    await invite
      .getByLabel('Submission under review')
      .selectOption({ label: `${s.reference}: Pool invitation ${tag}` });
    await invite.getByLabel('Answer due').fill(dayOffset(10));
    await invite.getByLabel('Review due').fill(dayOffset(5));
    await invite.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(
      page.getByText('The review cannot be due before the answer to the invitation.').first(),
    ).toBeVisible();
    await invite
      .getByLabel('Submission under review')
      .selectOption({ label: `${s.reference}: Pool invitation ${tag}` });
    await invite.getByLabel('Review due').fill(dayOffset(30));
    await invite.getByLabel('Answer due').fill(dayOffset(10));
    await invite.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(page.getByRole('status')).toContainText(`${name} has been invited`);
    await axe(page);
    await screenshots(page, 'reviewer-pool-invited');
    const view = await ok(adminApi.get(`/api/editor/submissions/${s.id}/review`));
    expect(view.rounds[0].assignments[0]).toMatchObject({ reviewer: { name }, reviewDue: dayOffset(30) });
  });
});

test.describe('open review on the article page', () => {
  test('an agreed open review of a published article shows under its abstract, with name and date', async ({
    page,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const tag = uniqueTag();
    const author = await createAccount('author');
    const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
    const s = await submit(adminApi, authorToken, `Openly reviewed ${tag}`);
    await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
        data: { status: 'under_review', message: 'To review.' },
      }),
    );
    await ok(adminApi.put(`/api/editor/submissions/${s.id}/review/mode`, { data: { mode: 'open' } }));
    const reviewer = await createAccount('researcher');
    const comments = `The method is sound ${tag}.\n\nThe second experiment could use more runs.`;
    await reviewed(adminApi, baseURL!, reviewer, s.id, {
      recommendation: 'accept',
      commentsForAuthor: comments,
      publishAgreed: true,
    });
    await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
        data: { status: 'accepted', message: 'Accepted.' },
      }),
    );
    const volume = await ok(
      adminApi.post('/api/editor/volume', {
        data: {
          title: `Volume ${tag}`,
          volume_number: 500 + Math.floor(Math.random() * 100_000),
          year: 2026,
        },
      }),
    );
    const issue = await ok(
      adminApi.post('/api/editor/issue', {
        data: { title: `Issue ${tag}`, description: 'Open review', volume_id: volume.volume.id },
      }),
    );
    const published = await ok(
      adminApi.post(`/api/editor/submissions/${s.id}/publish`, {
        multipart: { issue_id: String(issue.issue.id), pages: '1-9', doi: `10.5555/open.${tag}` },
      }),
    );

    await page.goto(`/article/${published.articleId}`);
    const section = page.getByRole('region', { name: 'Open peer review' });
    await expect(section.getByRole('heading', { name: `Review by ${reviewer.fullName}` })).toBeVisible();
    await expect(section.getByText(`The method is sound ${tag}.`)).toBeVisible();
    await expect(section.getByText('The second experiment could use more runs.')).toBeVisible();
    await expect(section.locator('time')).toHaveText(/\d{1,2} \w+ \d{4}/);
    // Under the abstract: the abstract's heading comes first.
    const order = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(order.indexOf('Open peer review')).toBe(order.indexOf('Abstract') + 1);
    await axe(page);
    await screenshots(page, 'article-open-review');

    // The page is kept for readers (decision 0018); the reviewer's new name shows at once all the same.
    const token = await loginThroughApi(baseURL!, reviewer.username, reviewer.password);
    await ok(
      adminApi.put('/api/reviewer/profile', {
        headers: bearer(token),
        data: { name: `Dr ${reviewer.fullName}`, affiliation: 'Elsewhere', interests: [] },
      }),
    );
    await page.reload();
    await expect(section.getByRole('heading', { name: `Review by Dr ${reviewer.fullName}` })).toBeVisible();
  });
});
