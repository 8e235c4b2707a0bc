import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MODES } from '../../common/review.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { type Person, anonymityFlow, caller, expectAnonymity, person } from './review-helpers.ts';

/**
 * The anonymity leak test (issue 14): the whole review flow through the API, every response body each party
 * receives collected, then searched for the other party's names, e-mails, affiliations and usernames.
 * Double-anonymous: neither side sees the other. Anonymous: reviewers see the authors, authors never see the
 * reviewers. Open: both see names. The same over the rendered pages: tests/smoke/review-anonymity-pages.test.ts.
 */

let t: TestContext;
let editor: Person;

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
});
afterAll(() => t?.close());

describe('anonymity of every body in the whole flow', () => {
  for (const [i, mode] of REVIEW_MODES.entries()) {
    it(`${mode}: ${mode === 'open' ? 'both see names' : mode === 'anonymous' ? 'authors never see reviewers' : 'neither side sees the other'}`, async () => {
      const r = await anonymityFlow(t, editor, mode, i + 1);
      expect(r.toReviewers.length).toBeGreaterThan(15);
      expect(r.toAuthor.length).toBeGreaterThan(6);
      expectAnonymity(mode, r);
    });
  }

  it('returns agreed open reviews with the published article only', async () => {
    const open = await anonymityFlow(t, editor, 'open', 9);
    const reviews = await t.services.review.publishedReviews(open.id);
    expect(reviews).toEqual([
      expect.objectContaining({
        round: 1,
        reviewer: open.reviewerName,
        comments: 'Please clarify the method.',
      }),
    ]);
    const closed = await anonymityFlow(t, editor, 'double-anonymous', 10);
    expect(await t.services.review.publishedReviews(closed.id)).toEqual([]);
    const none = await caller(t)('GET', '/api/articles/999999/reviews');
    expect(none.status).toBe(404);
  });
});
