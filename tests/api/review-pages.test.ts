import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REVIEWS } from '../../server/cache/dependencies.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { type Person, caller, decide, linkToken, person, submitManuscript } from './review-helpers.ts';

/**
 * What the reviewer's pages read beside the API (issue 14): `mine` says when a round is decided (the page's
 * "Done" group), `reviewing` is the header's link and count, and every change of who reviews what drops the kept
 * pages of signed-in readers (decision 0018), whose header shows that count.
 */

let t: TestContext;
let editor: Person;
let author: Person;
let rex: Person;
let submissionId = 0;

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  rex = await person(t, 'researcher', 'Rex Reviewer', 'Reviewville University');
  submissionId = await submitManuscript(t, author, [
    { name: 'Ada Authorname', email: author.email, affiliation: 'Authorton Institute' },
  ]);
  await decide(t, editor.token, submissionId, { status: 'under_review' });
});
afterAll(() => t?.close());

describe("the reviewer pages' reads", () => {
  it('counts open assignments, marks decided rounds, and drops kept pages at each change', async () => {
    const api = caller(t);
    const { review, cache } = t.services;
    const dropped = vi.spyOn(cache, 'invalidate');
    const me = { id: rex.id } as Parameters<typeof review.mine>[0];
    expect(await review.reviewing(rex.id)).toEqual({ reviewer: false, open: 0 });

    const invited = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    expect(invited.status).toBe(201);
    expect(dropped).toHaveBeenLastCalledWith([`j1:${REVIEWS}`]);
    expect(await review.reviewing(rex.id)).toEqual({ reviewer: true, open: 1 });
    expect((await review.mine(me))[0]).toMatchObject({ state: 'invited', roundDecided: false });

    dropped.mockClear();
    const { token } = linkToken(t, rex.email);
    expect(
      (await api('POST', `/api/reviews/${invited.json.assignmentId}/accept?token=${token}`)).status,
    ).toBe(200);
    expect(dropped).toHaveBeenCalledWith([`j1:${REVIEWS}`]);
    expect(await review.reviewing(rex.id)).toEqual({ reviewer: true, open: 1 });

    dropped.mockClear();
    await decide(t, editor.token, submissionId, { status: 'rejected' });
    expect(dropped).toHaveBeenCalledWith([`j1:${REVIEWS}`]);
    expect(await review.reviewing(rex.id)).toEqual({ reviewer: true, open: 0 });
    expect((await review.mine(me))[0]).toMatchObject({ state: 'accepted', roundDecided: true });
  });
});

describe('the decision and the header’s count', () => {
  it('drops the kept pages only once the decision has committed (no render can keep the old count)', async () => {
    const id = await submitManuscript(
      t,
      author,
      [{ name: 'Ada Authorname', email: author.email, affiliation: 'Authorton Institute' }],
      'Committed first',
    );
    const { cache } = t.services;
    const events: string[] = [];
    // Every statement reaches the database through a node-postgres client (PGlite's too): the COMMIT is seen there.
    const query = pg.Client.prototype.query;
    const committed = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (text?.trim().toLowerCase() === 'commit') events.push('commit');
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    const dropped = vi.spyOn(cache, 'invalidate').mockImplementation((tags) => {
      events.push(`drop ${[...tags].join(',')}`);
    });
    try {
      for (const status of ['under_review', 'rejected']) {
        events.length = 0;
        await decide(t, editor.token, id, { status });
        const drop = events.indexOf(`drop j1:${REVIEWS}`);
        expect(drop, events.join(' → ')).toBeGreaterThan(0);
        // The decision's own transaction is the first to commit; the drop follows it.
        expect(events.indexOf('commit'), events.join(' → ')).toBeLessThan(drop);
      }
    } finally {
      committed.mockRestore();
      dropped.mockRestore();
    }
  });
});
