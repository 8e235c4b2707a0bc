import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MODES, type ReviewMode } from '../../common/review.ts';
import { type TestContext, createTestContext, postMultipart } from '../../server/testing/harness.ts';
import {
  type Person,
  bearer,
  caller,
  decide,
  linkToken,
  pdf,
  person,
  submitManuscript,
} from './review-helpers.ts';

/**
 * The anonymity leak test (issue 14): the whole review flow through the API, every response body each party
 * receives collected, then searched for the other party's names, e-mails, affiliations and usernames.
 * Double-anonymous: neither side sees the other. Anonymous: reviewers see the authors, authors never see the
 * reviewers. Open: both see names.
 */

let t: TestContext;
let editor: Person;

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
});
afterAll(() => t?.close());

async function flow(mode: ReviewMode, n: number) {
  const author = await person(
    t,
    'author',
    `Zelda Quillfeather${n}`,
    `Quillfeather Polytechnic${n}`,
    `zquill${n}`,
  );
  const reviewer = await person(
    t,
    'researcher',
    `Yannick Marginalia${n}`,
    `Marginalia Institute${n}`,
    `ymarg${n}`,
  );
  const newcomer = {
    name: `Xenia Footnote${n}`,
    email: `xenia${n}@footnote.example`,
    affiliation: `Footnote College${n}`,
  };
  const coauthor = {
    name: `Ulrich Inkwell${n}`,
    email: `ulrich${n}@inkwell.example`,
    affiliation: `Inkwell Academy${n}`,
  };
  const authorStrings = [
    author.username,
    author.email,
    `Zelda Quillfeather${n}`,
    `Quillfeather Polytechnic${n}`,
    ...Object.values(coauthor),
  ];
  const reviewerStrings = [
    reviewer.username,
    reviewer.email,
    `Yannick Marginalia${n}`,
    `Marginalia Institute${n}`,
    ...Object.values(newcomer),
    `xenia${n}`,
  ];

  const toReviewers: string[] = [];
  const toAuthor: string[] = [];
  const asReviewer = caller(t, toReviewers);
  const asAuthor = caller(t, toAuthor);
  const asEditor = caller(t);

  const id = await submitManuscript(t, author, [
    { name: `Zelda Quillfeather${n}`, email: author.email, affiliation: `Quillfeather Polytechnic${n}` },
    coauthor,
  ]);
  await decide(t, editor.token, id, { status: 'under_review' });
  expect(
    (
      await asEditor('PUT', `/api/editor/submissions/${id}/review/mode`, {
        token: editor.token,
        payload: { mode },
      })
    ).status,
  ).toBe(200);
  const a1 = (
    await asEditor('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: reviewer.id },
    })
  ).json.assignmentId;
  const a2 = (
    await asEditor('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: newcomer,
    })
  ).json.assignmentId;
  expect(a1 && a2).toBeTruthy();
  const link1 = linkToken(t, reviewer.email);
  const link2 = linkToken(t, newcomer.email);

  // Reviewers: the invitation by link and by account, accept, files, drafts, attachment, submit, lists.
  await asReviewer('GET', `/api/reviews/${a1}?token=${link1.token}`);
  await asReviewer('GET', `/api/reviews/${a2}?token=${link2.token}`);
  await asReviewer('GET', '/api/reviews', { token: reviewer.token });
  const accepted = await asReviewer('POST', `/api/reviews/${a1}/accept`, { token: reviewer.token });
  await asReviewer('POST', `/api/reviews/${a2}/accept?token=${link2.token}`);
  for (const f of accepted.json.files)
    await asReviewer('GET', `/api/reviews/${a1}/files/${f.id}`, { token: reviewer.token });
  await asReviewer('PUT', `/api/reviews/${a1}/draft`, {
    token: reviewer.token,
    payload: { commentsForAuthor: 'Draft one.' },
  });
  const att = await postMultipart(
    t.app,
    `/api/reviews/${a1}/attachment`,
    bearer(reviewer.token),
    {},
    {
      file: { name: `Marginalia${n}-notes.pdf`, data: pdf, type: 'application/pdf' },
    },
  );
  toReviewers.push(att.body);
  await asReviewer('POST', `/api/reviews/${a1}/submit`, {
    token: reviewer.token,
    payload: {
      recommendation: 'minor-revisions',
      commentsForAuthor: 'Please clarify the method.',
      publishAgreed: mode === 'open',
    },
  });
  await asReviewer('POST', `/api/reviews/${a2}/submit?token=${link2.token}`, {
    payload: {
      recommendation: 'accept',
      commentsForAuthor: 'Convincing.',
      confidentialComments: 'No concerns.',
    },
  });
  await asReviewer('GET', `/api/reviews/${a1}/attachment`, { token: reviewer.token });
  await asReviewer('GET', '/api/reviewer/profile', { token: reviewer.token });

  // The editor decides, sharing both reviews; the author reads everything they can reach.
  await decide(t, editor.token, id, {
    status: 'revisions_requested',
    revisions: 'minor',
    shareReviews: [a1, a2],
  });
  await asAuthor('GET', `/api/submissions/${id}`, { token: author.token });
  await asAuthor('GET', '/api/submissions/mine', { token: author.token });
  const shared = await asAuthor('GET', `/api/submissions/${id}/reviews`, { token: author.token });
  expect(shared.json.rounds[0].reviews.map((r: { label: string }) => r.label)).toEqual([
    'Reviewer 1',
    'Reviewer 2',
  ]);
  await asAuthor('GET', `/api/submissions/${id}/reviews/${a1}/attachment`, { token: author.token });
  const revised = await postMultipart(
    t.app,
    `/api/submissions/${id}/revision`,
    bearer(author.token),
    { message: 'Revised.', responseToReviewers: 'Thank you, clarified.' },
    { submissionFile: { name: 'v2.pdf', data: pdf, type: 'application/pdf' } },
  );
  toAuthor.push(revised.body);

  // Round 2: the reviewer sees the response; the decision; the author reads again.
  await decide(t, editor.token, id, { status: 'under_review' });
  const b1 = (
    await asEditor('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: reviewer.id },
    })
  ).json.assignmentId;
  const round2 = await asReviewer('GET', `/api/reviews/${b1}`, { token: reviewer.token });
  expect(round2.json.authorResponse).toBe('Thank you, clarified.');
  await asReviewer('POST', `/api/reviews/${b1}/accept`, { token: reviewer.token });
  await asReviewer('POST', `/api/reviews/${b1}/submit`, {
    token: reviewer.token,
    payload: { recommendation: 'accept', commentsForAuthor: 'Done.' },
  });
  await asReviewer('GET', '/api/reviews', { token: reviewer.token });
  await decide(t, editor.token, id, { status: 'accepted', shareReviews: [b1] });
  await asAuthor('GET', `/api/submissions/${id}/reviews`, { token: author.token });
  await asAuthor('GET', `/api/submissions/${id}`, { token: author.token });

  return {
    toReviewers,
    toAuthor,
    authorStrings,
    reviewerStrings,
    id,
    reviewerName: `Yannick Marginalia${n}`,
    authorName: `Zelda Quillfeather${n}`,
  };
}

const found = (bodies: string[], needles: string[]) =>
  needles.filter((s) => bodies.some((b) => b.toLowerCase().includes(s.toLowerCase())));

describe('anonymity of every body in the whole flow', () => {
  for (const [i, mode] of REVIEW_MODES.entries()) {
    it(`${mode}: ${mode === 'open' ? 'both see names' : mode === 'anonymous' ? 'authors never see reviewers' : 'neither side sees the other'}`, async () => {
      const r = await flow(mode, i + 1);
      expect(r.toReviewers.length).toBeGreaterThan(15);
      expect(r.toAuthor.length).toBeGreaterThan(6);
      if (mode === 'double-anonymous') expect(found(r.toReviewers, r.authorStrings)).toEqual([]);
      else expect(found(r.toReviewers, [r.authorName])).toEqual([r.authorName]);
      if (mode === 'open') expect(found(r.toAuthor, [r.reviewerName])).toEqual([r.reviewerName]);
      else expect(found(r.toAuthor, r.reviewerStrings)).toEqual([]);
      // Confidential comments reach nobody but editors.
      expect(found(r.toAuthor, ['No concerns.'])).toEqual([]);
    });
  }

  it('returns agreed open reviews with the published article only', async () => {
    const open = await flow('open', 9);
    const reviews = await t.services.review.publishedReviews(open.id);
    expect(reviews).toEqual([
      expect.objectContaining({
        round: 1,
        reviewer: open.reviewerName,
        comments: 'Please clarify the method.',
      }),
    ]);
    const closed = await flow('double-anonymous', 10);
    expect(await t.services.review.publishedReviews(closed.id)).toEqual([]);
    const none = await caller(t)('GET', '/api/articles/999999/reviews');
    expect(none.status).toBe(404);
  });
});
