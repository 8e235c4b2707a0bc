import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/tables.ts';
import { jobs } from '../../server/jobs/tables.ts';
import { LINK_REMOVED } from '../../server/mail/secrets.ts';
import { mailLog } from '../../server/mail/tables.ts';
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

/** Peer review through the API (issue 14): invitations, answers, reviews, the editor's tools, decisions. */

let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let author: Person;
let rex: Person;
let submissionId = 0;
const AUTHORS = [
  { name: 'Ada Authorname', email: 'ada@authorton.example', affiliation: 'Authorton Institute' },
  { name: 'Bo Coauthor', email: 'bo@elsewhere.example', affiliation: 'Elsewhere College' },
];

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  rex = await person(t, 'researcher', 'Rex Reviewer', 'Reviewville University');
  submissionId = await submitManuscript(t, author, [{ ...AUTHORS[0], email: author.email }, AUTHORS[1]]);
});
afterAll(() => t?.close());

describe('peer review through the API', () => {
  let rexAssignment = 0;
  let newcomer = { id: 0, token: '' };

  it('has no round until the submission goes under review, then opens round 1 on version 1', async () => {
    const before = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    expect(before.status).toBe(409);
    expect(before.json.message).toMatch(/no open review round/);
    await decide(t, editor.token, submissionId, { status: 'under_review' });
    const view = await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: editor.token });
    expect(view.status).toBe(200);
    expect(view.json.rounds).toHaveLength(1);
    expect(view.json.rounds[0]).toMatchObject({
      number: 1,
      version: 1,
      mode: 'double-anonymous',
      decision: null,
    });
    expect(view.json.rounds[0].reviewerFileIds).toHaveLength(1);
  });

  it('refuses an author of the submission as reviewer, saying why', async () => {
    const own = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: author.id },
    });
    expect(own.status).toBe(422);
    expect(own.json.message).toBe(
      'This person submitted the manuscript: an author cannot review their own submission.',
    );
    const co = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { name: 'Bo', email: 'BO@elsewhere.example' },
    });
    expect(co.status).toBe(422);
    expect(co.json.message).toMatch(/an author of the manuscript/);
    const missing = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { name: 'No e-mail' },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.errors.email).toMatch(/Choose a reviewer from the pool/);
  });

  it('invites an account and a person by e-mail, with default due dates and a working link each', async () => {
    const a = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id, message: 'Your expertise fits well.' },
    });
    expect(a.status, a.body).toBe(201);
    expect(a.json.warning).toBeNull();
    rexAssignment = a.json.assignmentId;
    const row = a.json.review.rounds[0].assignments[0];
    expect(row).toMatchObject({
      state: 'invited',
      status: 'invited',
      responseDue: '2026-03-09',
      reviewDue: '2026-04-06',
    });
    const mail = t.mail.at(-1)!;
    expect(mail.to).toBe(rex.email);
    expect(mail.subject).toMatch(/Invitation to review/);
    expect(mail.text).toContain('9 March 2026 (end of the day, UTC time)');
    expect(mail.text).not.toContain('Ada Authorname');

    const b = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { name: 'Nia Newcomer', email: 'nia@newcomer.example', affiliation: 'Authorton  institute' },
    });
    expect(b.status).toBe(201);
    expect(b.json.warning).toMatch(/is also an author's/);
    newcomer = linkToken(t, 'nia@newcomer.example');
    expect(newcomer.id).toBe(b.json.assignmentId);

    const again = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    expect(again.status).toBe(409);
  });

  it('opens the invitation by its link, every time, without files, and opens nothing else', async () => {
    for (let i = 0; i < 3; i++) {
      const view = await api('GET', `/api/reviews/${newcomer.id}?token=${newcomer.token}`);
      expect(view.status, view.body).toBe(200);
      expect(view.json.manuscript).toMatchObject({
        title: 'Adaptive sampling for sensor networks',
        abstract: 'We study adaptive sampling.',
        articleType: 'Research Article',
        keywords: 'sensors, sampling',
        authors: null,
      });
      expect(view.json.files).toBeNull();
      expect(view.json.review).toBeNull();
      expect(view.json).toMatchObject({
        responseDue: '2026-03-09',
        mode: 'double-anonymous',
        status: 'invited',
      });
    }
    const fileId = (
      await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: editor.token })
    ).json.rounds[0].reviewerFileIds[0];
    const early = await api('GET', `/api/reviews/${newcomer.id}/files/${fileId}?token=${newcomer.token}`);
    expect(early.status).toBe(403);
    expect(early.json.message).toMatch(/once you accept/);
    expect((await api('GET', `/api/reviews/${rexAssignment}?token=${newcomer.token}`)).status).toBe(404);
    const forged = `${newcomer.id}.${'A'.repeat(43)}`;
    expect((await api('GET', `/api/reviews/${newcomer.id}?token=${forged}`)).status).toBe(404);
    expect((await api('GET', `/api/reviews/${newcomer.id}`)).status).toBe(401);
    // Another signed-in account does not reach it either.
    expect((await api('GET', `/api/reviews/${newcomer.id}`, { token: author.token })).status).toBe(404);
  });

  it('lets the reviewer accept, then download the files, save drafts and submit once', async () => {
    expect((await api('GET', '/api/reviews', { token: rex.token })).json).toEqual([
      expect.objectContaining({ id: rexAssignment, status: 'invited', responseDue: '2026-03-09' }),
    ]);
    const accepted = await api('POST', `/api/reviews/${rexAssignment}/accept`, { token: rex.token });
    expect(accepted.status).toBe(200);
    expect(accepted.json.state).toBe('accepted');
    expect(accepted.json.files).toHaveLength(1);
    expect(accepted.json.files[0].name).toBe('manuscript-round-1.pdf');
    const file = await api('GET', `/api/reviews/${rexAssignment}/files/${accepted.json.files[0].id}`, {
      token: rex.token,
    });
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toContain('manuscript-round-1.pdf');
    expect(file.body).not.toContain('Authorname-draft');
    expect(t.mail.at(-1)!.subject).toMatch(/Reviewer accepted/);
    expect((await api('POST', `/api/reviews/${rexAssignment}/accept`, { token: rex.token })).status).toBe(
      409,
    );

    const draft = {
      recommendation: 'minor-revisions',
      commentsForAuthor: 'Clear and useful.',
      confidentialComments: 'Solid work.',
    };
    const first = await api('PUT', `/api/reviews/${rexAssignment}/draft`, {
      token: rex.token,
      payload: draft,
    });
    const second = await api('PUT', `/api/reviews/${rexAssignment}/draft`, {
      token: rex.token,
      payload: draft,
    });
    expect(first.status).toBe(200);
    expect(second.json.review).toMatchObject({ ...draft, submittedAt: null });
    expect({ ...first.json.review, draftSavedAt: null }).toEqual({
      ...second.json.review,
      draftSavedAt: null,
    });
    const bad = await api('PUT', `/api/reviews/${rexAssignment}/draft`, {
      token: rex.token,
      payload: { recommendation: 'maybe' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.recommendation).toBe('Choose a recommendation from the list.');

    const attach = await postMultipart(
      t.app,
      `/api/reviews/${rexAssignment}/attachment`,
      bearer(rex.token),
      {},
      {
        file: { name: 'annotated.pdf', data: pdf, type: 'application/pdf' },
      },
    );
    expect(attach.statusCode, attach.body).toBe(200);
    expect(attach.json().review.hasAttachment).toBe(true);

    const submitted = await api('POST', `/api/reviews/${rexAssignment}/submit`, {
      token: rex.token,
      payload: {},
    });
    expect(submitted.status, submitted.body).toBe(200);
    expect(submitted.json.state).toBe('submitted');
    expect(
      (await api('POST', `/api/reviews/${rexAssignment}/submit`, { token: rex.token, payload: {} })).status,
    ).toBe(409);
    const late = await api('PUT', `/api/reviews/${rexAssignment}/draft`, {
      token: rex.token,
      payload: { commentsForAuthor: 'x' },
    });
    expect(late.status).toBe(409);
    expect(late.json.message).toMatch(/submitted and can no longer be changed/);
  });

  it('refuses to submit an incomplete review, naming what is missing', async () => {
    const c = await person(t, 'researcher', 'Cy Careful', 'Carefulness Lab');
    const inv = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: c.id },
    });
    await api('POST', `/api/reviews/${inv.json.assignmentId}/accept`, { token: c.token });
    const res = await api('POST', `/api/reviews/${inv.json.assignmentId}/submit`, {
      token: c.token,
      payload: {},
    });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({
      recommendation: 'Choose a recommendation.',
      commentsForAuthor: 'Write your comments for the author.',
    });
    // The editor cancels this one: the reviewer is told, the link stops, reinstating gives a fresh link.
    const { token: oldLink } = linkToken(t, c.email);
    const cancelled = await api('POST', `/api/editor/review-assignments/${inv.json.assignmentId}/cancel`, {
      token: editor.token,
    });
    expect(cancelled.status).toBe(200);
    expect(t.mail.at(-1)).toMatchObject({ to: c.email, subject: expect.stringMatching(/cancelled/) });
    expect((await api('GET', `/api/reviews/${inv.json.assignmentId}?token=${oldLink}`)).status).toBe(410);
    expect(
      (
        await api('POST', `/api/editor/review-assignments/${inv.json.assignmentId}/cancel`, {
          token: editor.token,
        })
      ).status,
    ).toBe(409);
    const back = await api('POST', `/api/editor/review-assignments/${inv.json.assignmentId}/reinstate`, {
      token: editor.token,
    });
    expect(
      back.json.rounds[0].assignments.find((a: { id: number }) => a.id === inv.json.assignmentId).state,
    ).toBe('accepted');
    const fresh = linkToken(t, c.email);
    expect(fresh.token).not.toBe(oldLink);
    expect((await api('GET', `/api/reviews/${inv.json.assignmentId}?token=${fresh.token}`)).status).toBe(200);
    expect((await api('GET', `/api/reviews/${inv.json.assignmentId}?token=${oldLink}`)).status).toBe(404);
    // Due dates: changed, mailed; "remind now" too.
    const dates = await api('PUT', `/api/editor/review-assignments/${inv.json.assignmentId}/due-dates`, {
      token: editor.token,
      payload: { reviewDue: '2026-04-20' },
    });
    expect(dates.status).toBe(200);
    expect(t.mail.at(-1)!.text).toContain('Review due by: 20 April 2026');
    const early = await api('PUT', `/api/editor/review-assignments/${inv.json.assignmentId}/due-dates`, {
      token: editor.token,
      payload: { reviewDue: '2026-03-01' },
    });
    expect(early.status).toBe(400);
    // A date before today (2 March) is refused as such, not only as earlier than the answer.
    expect(early.json.errors).toEqual({ reviewDue: 'The review cannot be due before today.' });
    const later = await api('PUT', `/api/editor/review-assignments/${inv.json.assignmentId}/due-dates`, {
      token: editor.token,
      payload: { reviewDue: '2026-03-05' },
    });
    expect(later.json.errors).toEqual({
      reviewDue: 'The review cannot be due before the answer to the invitation.',
    });
    const remind = await api('POST', `/api/editor/review-assignments/${inv.json.assignmentId}/remind`, {
      token: editor.token,
    });
    expect(remind.status).toBe(200);
    expect(t.mail.at(-1)).toMatchObject({
      to: c.email,
      subject: expect.stringMatching(/Reminder: review due soon/),
    });
    await api('POST', `/api/editor/review-assignments/${inv.json.assignmentId}/cancel`, {
      token: editor.token,
    });
  });

  it('takes a decline with a reason and suggestion, then the link opens nothing; the editor may invite again', async () => {
    const res = await api('POST', `/api/reviews/${newcomer.id}/decline?token=${newcomer.token}`, {
      payload: {
        reason: 'too-busy',
        comment: 'Swamped this month.',
        suggestion: 'Dr Quinn, quinn@x.example',
      },
    });
    expect(res.status).toBe(200);
    expect((await api('GET', `/api/reviews/${newcomer.id}?token=${newcomer.token}`)).status).toBe(410);
    const view = await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: editor.token });
    expect(view.json.rounds[0].assignments.find((a: { id: number }) => a.id === newcomer.id)).toMatchObject({
      state: 'declined',
      declineReason: 'too-busy',
      declineComment: 'Swamped this month.',
      suggestedReviewer: 'Dr Quinn, quinn@x.example',
    });
    const noReason = await api('POST', `/api/reviews/${newcomer.id}/decline?token=${newcomer.token}`, {
      payload: {},
    });
    expect(noReason.status).toBe(400);
    const again = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { name: 'Nia Newcomer', email: 'nia@newcomer.example' },
    });
    expect(again.status).toBe(201);
    newcomer = linkToken(t, 'nia@newcomer.example');
  });

  it('creates an account for a person invited by e-mail when they accept, with a set-password link', async () => {
    const res = await api('POST', `/api/reviews/${newcomer.id}/accept?token=${newcomer.token}`);
    expect(res.status).toBe(200);
    const mail = t.mail.find((m) => m.to === 'nia@newcomer.example' && /reviewer account/.test(m.subject))!;
    expect(mail.text).toContain('Your username is nia.');
    const token = /reset-password\?token=([\w-]+)/.exec(mail.text)![1];
    const set = await api('POST', '/api/auth/password-reset/confirm', {
      payload: { token, password: 'a-new-password-123' },
    });
    expect(set.status, set.body).toBe(200);
    const signedIn = await t.login('nia', 'a-new-password-123');
    expect((await api('GET', '/api/reviews', { token: signedIn })).json[0]).toMatchObject({
      id: newcomer.id,
      state: 'accepted',
    });
    const me = await api('GET', '/api/auth/me', { token: signedIn });
    expect(me.json).toMatchObject({ role: 'researcher', status: 'approved', fullName: 'Nia Newcomer' });
  });

  it('shows the editor the reviews side by side; read, thank, rate; confidential parts only to editors', async () => {
    const view = await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: editor.token });
    const rexRow = view.json.rounds[0].assignments.find((a: { id: number }) => a.id === rexAssignment);
    expect(rexRow).toMatchObject({
      recommendation: 'minor-revisions',
      confidentialComments: 'Solid work.',
      hasAttachment: true,
    });
    expect(
      (await api('POST', `/api/editor/review-assignments/${rexAssignment}/read`, { token: editor.token }))
        .status,
    ).toBe(200);
    expect(
      (await api('POST', `/api/editor/review-assignments/${rexAssignment}/thank`, { token: editor.token }))
        .status,
    ).toBe(200);
    expect(t.mail.at(-1)).toMatchObject({
      to: rex.email,
      subject: expect.stringMatching(/Thank you for your review/),
    });
    const rated = await api('PUT', `/api/editor/review-assignments/${rexAssignment}/rating`, {
      token: editor.token,
      payload: { rating: 4 },
    });
    expect(
      rated.json.rounds[0].assignments.find((a: { id: number }) => a.id === rexAssignment),
    ).toMatchObject({
      rating: 4,
      readAt: expect.any(String),
      thankedAt: expect.any(String),
    });
    expect(
      (
        await api('PUT', `/api/editor/review-assignments/${rexAssignment}/rating`, {
          token: editor.token,
          payload: { rating: 6 },
        })
      ).status,
    ).toBe(400);
    const att = await api('GET', `/api/editor/review-assignments/${rexAssignment}/attachment`, {
      token: editor.token,
    });
    expect(att.status).toBe(200);
    // Reviewers and authors never reach the editors' view.
    expect(
      (await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: rex.token })).status,
    ).toBe(403);
    expect(
      (await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: author.token })).status,
    ).toBe(403);
    const own = await api('GET', `/api/submissions/${submissionId}/reviews`, { token: author.token });
    expect(own.body).not.toContain('Solid work.');
    expect(own.body).not.toContain('"rating"');
  });

  it('lists the pool with load, turnaround, decline rate and interests, searchable', async () => {
    const profile = await api('PUT', '/api/reviewer/profile', {
      token: rex.token,
      payload: {
        name: 'Rex Reviewer',
        affiliation: 'Reviewville University',
        interests: ['AI and machine learning'],
        orcid: 'https://orcid.org/0000-0002-1825-0097',
        unavailableUntil: '2026-06-01',
      },
    });
    expect(profile.status, profile.body).toBe(200);
    expect(profile.json.orcid).toBe('0000-0002-1825-0097');
    const badOrcid = await api('PUT', '/api/reviewer/profile', {
      token: rex.token,
      payload: { name: 'Rex Reviewer', orcid: '0000-0002-1825-0096' },
    });
    expect(badOrcid.status).toBe(400);
    expect(badOrcid.json.errors.orcid).toMatch(/wrong check digit/);
    const badArea = await api('PUT', '/api/reviewer/profile', {
      token: rex.token,
      payload: { name: 'Rex', interests: ['Alchemy'] },
    });
    expect(badArea.status).toBe(400);
    const pool = await api('GET', '/api/editor/reviewers', { token: editor.token });
    const rexInPool = pool.json.find((p: { email: string }) => p.email === rex.email);
    expect(rexInPool).toMatchObject({
      openAssignments: 0,
      completedReviews: 1,
      medianDaysToComplete: 0,
      declineRate: 0,
      averageRating: 4,
      interests: ['AI and machine learning'],
      unavailableUntil: '2026-06-01',
    });
    const nia = pool.json.find((p: { email: string }) => p.email === 'nia@newcomer.example');
    expect(nia).toMatchObject({ openAssignments: 1, declineRate: 0.5, userId: expect.any(Number) });
    const byInterest = await api('GET', '/api/editor/reviewers?q=machine', { token: editor.token });
    expect(byInterest.json.map((p: { email: string }) => p.email)).toEqual([rex.email]);
    const byName = await api('GET', '/api/editor/reviewers?q=newcomer', { token: editor.token });
    expect(byName.json).toHaveLength(1);
  });

  it('warns when inviting a reviewer who said they are unavailable, and gives an older submission its first round', async () => {
    const id = await submitManuscript(
      t,
      author,
      [{ ...AUTHORS[0], email: author.email }],
      'Older manuscript',
    );
    await decide(t, editor.token, id, { status: 'under_review' });
    // As if it had gone under review before peer review existed: no round yet.
    const { reviewRounds } = await import('../../server/review/tables.ts');
    const { eq } = await import('drizzle-orm');
    await t.services.db.delete(reviewRounds).where(eq(reviewRounds.submissionId, id));
    const res = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json.warning).toBe('The reviewer said they are unavailable until 1 June 2026.');
    expect(res.json.review.rounds).toHaveLength(1);
    await decide(t, editor.token, id, { status: 'rejected' });
  });

  it('filters the desk: needs reviewers, reviews overdue, reviews complete', async () => {
    const ids = async (filter: string, token = editor.token) => {
      const res = await api('GET', `/api/editor/submissions?review=${filter}`, { token });
      expect(res.status, res.body).toBe(200);
      return res.json.submissions.map((s: { id: number }) => s.id);
    };
    expect(await ids('needs-reviewers')).toEqual([]);
    expect(await ids('reviews-complete')).toEqual([]);
    expect(await ids('reviews-overdue')).toEqual([]);
    // A month on (a session of its own: the editor's would have expired), Cy's review is overdue.
    t.clock.set(Date.parse('2026-04-08T00:00:00Z'));
    try {
      const later = await t.login(editor.username, 'password-123');
      expect(await ids('reviews-overdue', later)).toEqual([submissionId]);
    } finally {
      t.clock.set(Date.parse('2026-03-03T09:00:00Z'));
      // Signing in then pruned the sessions that had ended by April: sign in again.
      for (const p of [editor, author, rex]) p.token = await t.login(p.username, 'password-123');
    }
    expect((await api('GET', '/api/editor/submissions?review=soon', { token: editor.token })).status).toBe(
      400,
    );
  });

  it('requests minor revisions sharing a review; the author sees "Reviewer 1" only; the revision starts round 2', async () => {
    // Nia's open assignment is cancelled first so that the round can be decided cleanly.
    await api('POST', `/api/editor/review-assignments/${newcomer.id}/cancel`, { token: editor.token });
    // Revisions are minor or major: a request that does not say which is refused beside the field.
    const unsaid = await api('POST', `/api/editor/submissions/${submissionId}/decision`, {
      token: editor.token,
      payload: { status: 'revisions_requested', message: 'Please revise.' },
    });
    expect(unsaid.status).toBe(400);
    expect(unsaid.json.errors).toEqual({ revisions: 'Choose minor or major revisions.' });
    const both = await api('POST', `/api/editor/submissions/${submissionId}/decision`, {
      token: editor.token,
      payload: { status: 'revisions_requested', message: '' },
    });
    expect(Object.keys(both.json.errors).sort()).toEqual(['message', 'revisions']);
    const notShared = await api('POST', `/api/editor/submissions/${submissionId}/decision`, {
      token: editor.token,
      payload: {
        status: 'revisions_requested',
        message: 'Please revise.',
        revisions: 'minor',
        shareReviews: [newcomer.id],
      },
    });
    expect(notShared.status).toBe(400);
    const past = await api('POST', `/api/editor/submissions/${submissionId}/decision`, {
      token: editor.token,
      payload: {
        status: 'revisions_requested',
        message: 'Please revise.',
        revisions: 'minor',
        authorDue: '2026-01-01',
      },
    });
    expect(past.status).toBe(400);
    expect(past.json.errors.authorDue).toBe('The revision cannot be due before today.');
    await decide(t, editor.token, submissionId, {
      status: 'revisions_requested',
      revisions: 'minor',
      shareReviews: [rexAssignment],
      message: 'Please address the reviewer’s points.',
    });
    const mail = t.mail.filter((m) => m.to === author.email).at(-1)!;
    expect(mail.subject).toMatch(/Minor revisions requested/);
    expect(mail.text).toContain('Reviewer 1 — recommendation: Minor revisions');
    expect(mail.text).toContain('Clear and useful.');
    expect(mail.text).toContain(
      'Please upload your revised manuscript by 2 April 2026 (end of the day, UTC time)',
    );
    expect(mail.text).not.toContain('Rex');
    const seen = await api('GET', `/api/submissions/${submissionId}/reviews`, { token: author.token });
    expect(seen.json.rounds[0]).toMatchObject({
      round: 1,
      decision: 'minor-revisions',
      reviews: [
        {
          label: 'Reviewer 1',
          reviewer: null,
          recommendation: 'minor-revisions',
          comments: 'Clear and useful.',
          hasAttachment: true,
        },
      ],
    });
    expect(seen.body).not.toContain('Rex');
    const att = await api('GET', `/api/submissions/${submissionId}/reviews/${rexAssignment}/attachment`, {
      token: author.token,
    });
    expect(att.status).toBe(200);
    expect(att.headers['content-disposition']).toContain('round-1-reviewer-1.pdf');
    // The round is decided: the reviewer's link closes.
    const { token } = linkToken(t, rex.email, rexAssignment);
    expect((await api('GET', `/api/reviews/${rexAssignment}?token=${token}`)).status).toBe(410);

    const revision = await postMultipart(
      t.app,
      `/api/submissions/${submissionId}/revision`,
      bearer(author.token),
      { message: 'Revised.', responseToReviewers: 'We clarified section 3 as asked.' },
      { submissionFile: { name: 'v2.pdf', data: pdf, type: 'application/pdf' } },
    );
    expect(revision.statusCode, revision.body).toBe(200);
    await decide(t, editor.token, submissionId, { status: 'under_review' });
    const view = await api('GET', `/api/editor/submissions/${submissionId}/review`, { token: editor.token });
    expect(view.json.rounds.map((r: { number: number; version: number }) => [r.number, r.version])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(view.json.rounds[1].authorResponse).toBe('We clarified section 3 as asked.');
    const inv = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    expect(t.mail.at(-1)!.subject).toMatch(/round 2/);
    const r2 = await api('GET', `/api/reviews/${inv.json.assignmentId}`, { token: rex.token });
    expect(r2.json).toMatchObject({ round: 2, authorResponse: 'We clarified section 3 as asked.' });
    await api('POST', `/api/reviews/${inv.json.assignmentId}/accept`, { token: rex.token });
    await api('POST', `/api/reviews/${inv.json.assignmentId}/submit`, {
      token: rex.token,
      payload: { recommendation: 'accept', commentsForAuthor: 'All addressed.' },
    });
    const before = t.mail.length;
    await decide(t, editor.token, submissionId, { status: 'accepted' });
    const told = t.mail.slice(before).filter((m) => m.to === rex.email);
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain('The editors have now made their decision: Accepted.');
  });

  it('tells every reviewer of the manuscript the final decision once, whichever round they reviewed', async () => {
    const other = await submitManuscript(t, author, [{ ...AUTHORS[0], email: author.email }]);
    const early = await person(t, 'researcher', 'Ula Roundone', 'First Round Lab');
    const both = await person(t, 'researcher', 'Vic Bothrounds', 'Two Rounds Lab');
    const decliner = await person(t, 'researcher', 'Wim Declines', 'Busy Lab');
    const review = async (who: Person) => {
      const inv = await api('POST', `/api/editor/submissions/${other}/review/invitations`, {
        token: editor.token,
        payload: { userId: who.id },
      });
      await api('POST', `/api/reviews/${inv.json.assignmentId}/accept`, { token: who.token });
      const done = await api('POST', `/api/reviews/${inv.json.assignmentId}/submit`, {
        token: who.token,
        payload: { recommendation: 'minor-revisions', commentsForAuthor: 'Some points.' },
      });
      expect(done.status).toBe(200);
    };
    await decide(t, editor.token, other, { status: 'under_review' });
    await review(early);
    await review(both);
    const declined = await api('POST', `/api/editor/submissions/${other}/review/invitations`, {
      token: editor.token,
      payload: { userId: decliner.id },
    });
    await api('POST', `/api/reviews/${declined.json.assignmentId}/decline`, {
      token: decliner.token,
      payload: { reason: 'too-busy' },
    });
    await decide(t, editor.token, other, { status: 'revisions_requested', revisions: 'minor' });
    const revision = await postMultipart(
      t.app,
      `/api/submissions/${other}/revision`,
      bearer(author.token),
      { message: 'Revised.', responseToReviewers: 'Done.' },
      { submissionFile: { name: 'v2.pdf', data: pdf, type: 'application/pdf' } },
    );
    expect(revision.statusCode, revision.body).toBe(200);
    await decide(t, editor.token, other, { status: 'under_review' });
    await review(both);
    const before = t.mail.length;
    await decide(t, editor.token, other, { status: 'accepted' });
    await t.runJobs();
    const told = t.mail
      .slice(before)
      .filter((m) => /Editorial decision on a manuscript you reviewed/.test(m.subject))
      .map((m) => m.to)
      .sort();
    expect(told).toEqual([both.email, early.email].sort());
  });

  it('tells no reviewer the final decision when the journal setting is off', async () => {
    const other = await submitManuscript(t, author, [{ ...AUTHORS[0], email: author.email }], 'Told nobody');
    const quiet = await person(t, 'researcher', 'Quentin Quiet', 'Silent Lab');
    await decide(t, editor.token, other, { status: 'under_review' });
    const inv = await api('POST', `/api/editor/submissions/${other}/review/invitations`, {
      token: editor.token,
      payload: { userId: quiet.id },
    });
    await api('POST', `/api/reviews/${inv.json.assignmentId}/accept`, { token: quiet.token });
    const done = await api('POST', `/api/reviews/${inv.json.assignmentId}/submit`, {
      token: quiet.token,
      payload: { recommendation: 'accept', commentsForAuthor: 'Fine.' },
    });
    expect(done.status, done.body).toBe(200);
    const { settings, db } = t.services;
    const journal = await settings.journal();
    const setTell = (tellReviewersDecision: boolean) =>
      db.transaction((tx) =>
        settings.set(tx, 'journal', { ...journal, review: { ...journal.review, tellReviewersDecision } }),
      );
    await setTell(false);
    try {
      const before = t.mail.length;
      await decide(t, editor.token, other, { status: 'accepted' });
      await t.runJobs();
      // The author only: the decision and the charge's invoice (decision 0063).
      expect(t.mail.slice(before).map((m) => m.to)).toEqual([author.email, author.email]);
    } finally {
      await setTell(true);
    }
  });

  it('keeps the link tokens out of the audit log, the stored copies of the e-mails and the queued jobs', async () => {
    const tokens = t.mail.flatMap((m) => [...m.text.matchAll(/token=([\w.-]+)/g)].map((x) => x[1]));
    expect(tokens.length).toBeGreaterThan(3);
    const { db } = t.services;
    const stored = JSON.stringify([
      await db.select().from(auditLog),
      await db.select().from(mailLog),
      await db.select().from(jobs),
    ]);
    // The communication log still shows that a link was there.
    expect(JSON.stringify(await t.services.mail.log(submissionId))).toContain(LINK_REMOVED);
    for (const token of tokens) expect(stored).not.toContain(token);
  });
});
