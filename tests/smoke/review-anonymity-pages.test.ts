import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MODES } from '../../common/review.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { type Person, anonymityFlow, expectAnonymity, found, person } from '../api/review-helpers.ts';

/**
 * The anonymity leak test (issue 14) over the rendered pages as well as the API: the reviewer's `/reviews`,
 * `/reviews/{id}` (by the e-mail's link and signed in, both rounds), `/reviews/profile`, and the author's
 * `/my-submissions` and `/my-submissions/{id}`, server-rendered by the production build with the route data
 * they carry, searched like the API bodies for each mode (tests/api/review-anonymity.test.ts).
 */

let t: TestContext;
let editor: Person;

beforeAll(async () => {
  t = await createTestContext({}, { pages: true });
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
});
afterAll(() => t?.close());

describe('anonymity of every page and answer each side receives', () => {
  for (const [i, mode] of REVIEW_MODES.entries()) {
    it(mode, async () => {
      const r = await anonymityFlow(t, editor, mode, i + 1, true);
      const pages = (bodies: string[]) => bodies.filter((b) => b.startsWith('<!DOCTYPE html>'));
      // The pages were there to search: the reviewer's (nine, both rounds) and the author's (three).
      expect(pages(r.toReviewers).length).toBeGreaterThanOrEqual(9);
      expect(pages(r.toAuthor).length).toBeGreaterThanOrEqual(3);
      // The reviewer's page shows the manuscript it is about; the author's shows the reviews as "Reviewer N".
      expect(found(pages(r.toReviewers), ['Please clarify the method.']).length).toBe(1);
      expect(found(pages(r.toAuthor), ['Reviewer 1']).length).toBe(1);
      // Where the mode allows it, the pages themselves name the other side: so where it does not, the search
      // below would find a name a page let slip.
      if (mode !== 'double-anonymous')
        expect(found(pages(r.toReviewers), [r.authorName])).toEqual([r.authorName]);
      if (mode === 'open') expect(found(pages(r.toAuthor), [r.reviewerName])).toEqual([r.reviewerName]);
      expectAnonymity(mode, r);
    });
  }
});
