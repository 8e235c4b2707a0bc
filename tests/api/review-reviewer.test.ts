import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, postMultipart, type TestContext } from '../../server/testing/harness.ts';
import {
  bearer,
  caller,
  decide,
  linkToken,
  type Person,
  pdf,
  person,
  submitManuscript,
} from './review-helpers.ts';

/**
 * Peer review through the API, the reviewer's own side (write-review.ts, profiles.ts): a draft's attached file,
 * a decided round refusing every change, and the reviewer's profile. The flow itself is review.test.ts.
 */

let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let author: Person;
const AUTHORS = [
  { name: 'Ada Authorname', email: 'ada@authorton.example', affiliation: 'Authorton Institute' },
];

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
});
afterAll(() => t?.close());

describe("a draft's attachment and a decided round", () => {
  /** A fresh manuscript under review with `who` invited (by account) and, unless `invited`, accepted. */
  async function assignment(who: Person, title: string, state: 'invited' | 'accepted' = 'accepted') {
    const id = await submitManuscript(t, author, [{ ...AUTHORS[0], email: author.email }], title);
    await decide(t, editor.token, id, { status: 'under_review' });
    const inv = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: who.id },
    });
    expect(inv.status, inv.body).toBe(201);
    const a = inv.json.assignmentId as number;
    if (state === 'accepted') {
      expect((await api('POST', `/api/reviews/${a}/accept`, { token: who.token })).status).toBe(200);
    }
    return { submission: id, assignment: a };
  }
  const attach = (a: number, query = '', token?: string) =>
    postMultipart(
      t.app,
      `/api/reviews/${a}/attachment${query}`,
      token ? bearer(token) : {},
      {},
      { file: { name: 'annotated.pdf', data: pdf, type: 'application/pdf' } },
    );

  it('removes the attached file of a draft, by the link or signed in; not after submitting', async () => {
    const zoe = await person(t, 'researcher', 'Zoe Attaches', 'Annotation Lab');
    const { submission, assignment: a } = await assignment(zoe, 'Attachments come and go');
    const { token } = linkToken(t, zoe.email, a);

    expect((await attach(a, '', zoe.token)).json().review.hasAttachment).toBe(true);
    const removed = await api('DELETE', `/api/reviews/${a}/attachment`, { token: zoe.token });
    expect(removed.status, removed.body).toBe(200);
    expect(removed.json.review.hasAttachment).toBe(false);
    expect((await api('GET', `/api/reviews/${a}/attachment`, { token: zoe.token })).status).toBe(404);
    const again = await api('DELETE', `/api/reviews/${a}/attachment`, { token: zoe.token });
    expect(again.status).toBe(404);
    expect(again.json.message).toBe('This review has no attached file.');

    // By the link too; the editors never see a removed file.
    expect((await attach(a, `?token=${token}`)).statusCode).toBe(200);
    const byLink = await api('DELETE', `/api/reviews/${a}/attachment?token=${token}`);
    expect(byLink.json.review.hasAttachment).toBe(false);
    const done = await api('POST', `/api/reviews/${a}/submit`, {
      token: zoe.token,
      payload: { recommendation: 'accept', commentsForAuthor: 'Good.' },
    });
    expect(done.status, done.body).toBe(200);
    const view = await api('GET', `/api/editor/submissions/${submission}/review`, { token: editor.token });
    expect(view.json.rounds[0].assignments.find((x: { id: number }) => x.id === a).hasAttachment).toBe(false);

    // Submitted: read-only, the file as it was.
    expect((await attach(a, '', zoe.token)).statusCode).toBe(409);
    const late = await api('DELETE', `/api/reviews/${a}/attachment`, { token: zoe.token });
    expect(late.status).toBe(409);
    expect(late.json.message).toBe('This review has been submitted and can no longer be changed.');
  });

  it('refuses a signed-in reviewer every change once the round is decided, as the link does', async () => {
    const yan = await person(t, 'researcher', 'Yan Late', 'Slow Lab');
    const working = await assignment(yan, 'Decided while reviewing');
    const { token } = linkToken(t, yan.email, working.assignment);
    expect((await attach(working.assignment, '', yan.token)).statusCode).toBe(200);
    await decide(t, editor.token, working.submission, { status: 'rejected' });

    const refused =
      'The editors have already decided on this manuscript: the review can no longer be changed or submitted.';
    const a = working.assignment;
    const draft = await api('PUT', `/api/reviews/${a}/draft`, {
      token: yan.token,
      payload: { commentsForAuthor: 'Too late?' },
    });
    expect(draft.status).toBe(409);
    expect(draft.json.message).toBe(refused);
    const submit = await api('POST', `/api/reviews/${a}/submit`, {
      token: yan.token,
      payload: { recommendation: 'reject', commentsForAuthor: 'Too late.' },
    });
    expect(submit.status).toBe(409);
    expect(submit.json.message).toBe(refused);
    const file = await attach(a, '', yan.token);
    expect(file.statusCode).toBe(409);
    expect(file.json().message).toBe(refused);
    const removal = await api('DELETE', `/api/reviews/${a}/attachment`, { token: yan.token });
    expect(removal.status).toBe(409);
    expect(removal.json.message).toBe(refused);
    // Still readable signed in, unchanged; the link opens nothing any more.
    const view = await api('GET', `/api/reviews/${a}`, { token: yan.token });
    expect(view.status).toBe(200);
    expect(view.json).toMatchObject({ state: 'accepted', roundDecided: true });
    expect(view.json.review).toMatchObject({ commentsForAuthor: '', hasAttachment: true });
    expect((await api('PUT', `/api/reviews/${a}/draft?token=${token}`, { payload: {} })).status).toBe(410);

    // An invitation still unanswered when the round was decided can no longer be answered either.
    const waiting = await assignment(yan, 'Decided before the answer', 'invited');
    await decide(t, editor.token, waiting.submission, { status: 'rejected' });
    const accept = await api('POST', `/api/reviews/${waiting.assignment}/accept`, { token: yan.token });
    expect(accept.status).toBe(409);
    expect(accept.json.message).toBe(
      'The editors have already decided on this manuscript: the invitation can no longer be answered.',
    );
    const decline = await api('POST', `/api/reviews/${waiting.assignment}/decline`, {
      token: yan.token,
      payload: { reason: 'too-busy' },
    });
    expect(decline.status).toBe(409);
    expect((await api('GET', `/api/reviews/${waiting.assignment}`, { token: yan.token })).json.state).toBe(
      'invited',
    );
  });
});

describe('the reviewer profile', () => {
  it('starts from the account, takes the journal’s areas, and an unavailable day from today on, shown while it lasts', async () => {
    const pam = await person(t, 'researcher', 'Pam Profile', 'Profile Polytechnic');
    const start = t.clock.now();
    t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
    const fresh = await api('GET', '/api/reviewer/profile', { token: pam.token });
    expect(fresh.json).toEqual({
      name: 'Pam Profile',
      email: pam.email,
      affiliation: 'Profile Polytechnic',
      interests: [],
      orcid: null,
      unavailableUntil: null,
      listedAcrossSite: true,
    });
    const save = (payload: Record<string, unknown>) =>
      api('PUT', '/api/reviewer/profile', { token: pam.token, payload: { name: 'Pam Profile', ...payload } });
    const past = 'Unavailable until: choose today or a later day, or leave it empty if you are available.';
    const yesterday = await save({ unavailableUntil: '2026-03-01' });
    expect(yesterday.status).toBe(400);
    expect(yesterday.json.errors).toEqual({ unavailableUntil: past });
    const area = await save({ interests: ['Alchemy'] });
    expect(area.json.errors).toEqual({ interests: "Choose areas of interest from the journal's list." });
    const empty = await save({ interests: [''] });
    expect(empty.json.errors).toEqual({ 'interests.0': "Choose areas of interest from the journal's list." });

    expect((await save({ unavailableUntil: '2026-03-02' })).status).toBe(200); // today is fine
    expect((await save({ unavailableUntil: '2026-03-10' })).json.unavailableUntil).toBe('2026-03-10');
    const pool = await api('GET', `/api/editor/reviewers?q=${encodeURIComponent(pam.email)}`, {
      token: editor.token,
    });
    expect(pool.json[0].unavailableUntil).toBe('2026-03-10');
    // Days later the sessions have ended: the service itself, at the clock's time.
    const { review } = t.services;
    const shown = async () => (await review.pool(pam.email))[0].unavailableUntil;
    const user = { id: pam.id, email: pam.email } as Parameters<typeof review.saveProfile>[0];
    const input = { name: 'Pam Profile', affiliation: 'Elsewhere', interests: [] };
    try {
      // The last day still counts; the day after, the pool no longer says it, and saving the profile again
      // with the passed day unchanged is not refused (another past day is).
      t.clock.set(Date.parse('2026-03-10T23:30:00Z'));
      expect(await shown()).toBe('2026-03-10');
      t.clock.set(Date.parse('2026-03-11T00:30:00Z'));
      expect(await shown()).toBeNull();
      await review.saveProfile(user, { ...input, unavailableUntil: '2026-03-10' });
      await expect(
        review.saveProfile(user, { ...input, unavailableUntil: '2026-03-09' }),
      ).rejects.toMatchObject({
        code: 'invalid', // a 400 at the API edge (server/http/errors.ts STATUS_OF)
        errors: { unavailableUntil: past },
      });
      expect(
        (await review.saveProfile(user, { ...input, unavailableUntil: null })).unavailableUntil,
      ).toBeNull();
    } finally {
      t.clock.set(start);
    }
  });
});
