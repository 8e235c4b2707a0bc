import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { person, submitManuscript } from '../../tests/api/review-helpers.ts';
import type { SessionUser } from '../accounts/service.ts';
import { createTestContext, type TestContext } from '../testing/harness.ts';
import { recurringKey } from '../jobs/queue.ts';
import { REMINDER_PASS } from './reminders.ts';
import { reviewReminders } from './tables.ts';

/**
 * Reminders with a moved clock (issue 14): each default fires once at its time, none after the assignment
 * or round closes, a missed one goes out once after downtime, and two passes at once send each once.
 */

let t: TestContext;
let editor: SessionUser;
let reviewer: SessionUser;
let author: SessionUser;
let authorToken = '';
const T0 = Date.parse('2026-03-02T09:00:00Z');
const at = (iso: string) => new Date(iso);

const asUser = async (
  p: { id: number; username: string; email: string },
  fullName: string,
): Promise<SessionUser> => ({
  id: p.id,
  username: p.username,
  email: p.email,
  fullName,
  role: 'researcher',
  status: 'approved',
});

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(T0);
  const e = await person(t, 'editor', 'Eve Editor', 'Office');
  editor = { ...(await asUser(e, 'Eve Editor')), role: 'editor' };
  const r = await person(t, 'researcher', 'Rita Reminded', 'Remindville');
  reviewer = await asUser(r, 'Rita Reminded');
  const a = await person(t, 'author', 'Al Author', 'Authorton');
  author = { ...(await asUser(a, 'Al Author')), role: 'author' };
  authorToken = a.token;
});
afterAll(() => t?.close());

/** A fresh submission under review with Rita invited at `T0` (response due 03-09, review due 04-06). */
async function invited(opts: { responseDue?: string; reviewDue?: string } = {}) {
  t.clock.set(T0);
  const id = await submitManuscript(
    t,
    { id: author.id, username: author.username, email: author.email, token: authorToken },
    [{ name: 'Al Author', email: author.email, affiliation: 'Authorton' }],
  );
  await t.services.submissions.decide(editor, id, { status: 'under_review', message: 'Reviewing.' });
  const { assignmentId } = await t.services.review.invite(editor, id, { userId: reviewer.id, ...opts });
  return { submissionId: id, assignmentId };
}

/** The reminders mailed to `to` since `since`: run the queue first (each mail is queued with its claim). */
const remindersTo = (to: string, since: number) =>
  t.mail.slice(since).filter((m) => m.to === to && /Reminder/.test(m.subject));

async function setZone(
  timeZone: string,
  reminders?: { response: number[]; review: number[]; revision: number[] },
) {
  const journal = await t.services.settings.journal();
  await t.services.db.transaction((tx) =>
    t.services.settings.set(tx, 'journal', {
      ...journal,
      review: { ...journal.review, timeZone, ...(reminders ? { reminders } : {}) },
    }),
  );
}

describe('reminderPass', () => {
  beforeEach(async () => {
    await setZone('UTC', { response: [-2, 1], review: [-3, 1, 7], revision: [-7, 1] });
    // Earlier tests' assignments are closed by deciding their rounds, so each test counts only its own.
    await t.services.db.execute(
      (await import('drizzle-orm')).sql`update review_rounds set decided_at = now() where decided_at is null`,
    );
  });

  it('sends each default invitation and review reminder once, at its time', async () => {
    const { assignmentId } = await invited();
    const review = t.services.review;
    const start = t.mail.length;
    expect((await review.reminderPass(at('2026-03-07T23:59:59Z'))).sent).toBe(0);
    // Two days before the end of 9 March: the start of 8 March.
    expect((await review.reminderPass(at('2026-03-08T00:00:00Z'))).sent).toBe(1);
    expect((await review.reminderPass(at('2026-03-08T00:00:00Z'))).sent).toBe(0);
    expect((await review.reminderPass(at('2026-03-10T23:00:00Z'))).sent).toBe(0);
    expect((await review.reminderPass(at('2026-03-11T00:00:00Z'))).sent).toBe(1);
    expect((await review.reminderPass(at('2026-03-12T00:00:00Z'))).sent).toBe(0);
    await t.runJobs();
    const sent = remindersTo(reviewer.email, start);
    expect(sent.map((m) => m.subject)).toEqual([
      expect.stringMatching(/Reminder: invitation to review due soon/),
      expect.stringMatching(/Reminder: invitation to review overdue/),
    ]);
    expect(sent[1].text).toContain('which was due by 9 March 2026 (end of the day, UTC time)');
    expect(sent[1].text).toMatch(/\/reviews\/\d+\?token=/);

    t.clock.set(at('2026-03-12T10:00:00Z'));
    await review.accept({ user: reviewer }, assignmentId);
    const before = t.mail.length;
    // Review due 6 April: 3 days before (start of 4 April), then 1 and 7 days after its end.
    for (const [when, n] of [
      ['2026-04-03T23:59:59Z', 0],
      ['2026-04-04T00:00:00Z', 1],
      ['2026-04-07T12:00:00Z', 0],
      ['2026-04-08T00:00:00Z', 1],
      ['2026-04-08T00:00:01Z', 0],
      ['2026-04-14T00:00:00Z', 1],
      ['2026-05-30T00:00:00Z', 0],
    ] as const) {
      expect((await review.reminderPass(at(when))).sent, when).toBe(n);
    }
    await t.runJobs();
    expect(remindersTo(reviewer.email, before).map((m) => m.subject)).toEqual([
      expect.stringMatching(/review due soon/),
      expect.stringMatching(/review overdue/),
      expect.stringMatching(/review overdue/),
    ]);
  });

  it('fires in the journal time zone (Asia/Kolkata: local midnight is 18:30 UTC)', async () => {
    await setZone('Asia/Kolkata');
    await invited();
    expect((await t.services.review.reminderPass(at('2026-03-07T18:29:59Z'))).sent).toBe(0);
    expect((await t.services.review.reminderPass(at('2026-03-07T18:30:00Z'))).sent).toBe(1);
  });

  it('never reminds about cancelled, declined or submitted assignments, or decided rounds', async () => {
    const review = t.services.review;
    const cancelled = await invited();
    await review.cancel(editor, cancelled.assignmentId);
    expect((await review.reminderPass(at('2026-03-20T00:00:00Z'))).sent).toBe(0);

    const declined = await invited();
    await review.decline({ user: reviewer }, declined.assignmentId, {
      reason: 'too-busy',
      comment: '',
      suggestion: '',
    });
    expect((await review.reminderPass(at('2026-03-20T00:00:00Z'))).sent).toBe(0);

    const submitted = await invited();
    await review.accept({ user: reviewer }, submitted.assignmentId);
    await review.submit({ user: reviewer }, submitted.assignmentId, {
      recommendation: 'accept',
      commentsForAuthor: 'Good.',
    });
    expect((await review.reminderPass(at('2026-05-20T00:00:00Z'))).sent).toBe(0);

    const decided = await invited();
    await t.services.submissions.decide(editor, decided.submissionId, { status: 'rejected', message: 'No.' });
    expect((await review.reminderPass(at('2026-03-20T00:00:00Z'))).sent).toBe(0);
  });

  it('after downtime sends the missed reminder once, late, and only the latest of those missed', async () => {
    const { assignmentId } = await invited();
    const start = t.mail.length;
    // Down from 1 March to the 12th: both invitation reminders (-2 and +1) fell due meanwhile.
    expect((await t.services.review.reminderPass(at('2026-03-12T08:00:00Z'))).sent).toBe(1);
    expect((await t.services.review.reminderPass(at('2026-03-12T08:01:00Z'))).sent).toBe(0);
    await t.runJobs();
    expect(remindersTo(reviewer.email, start).map((m) => m.subject)).toEqual([
      expect.stringMatching(/overdue/),
    ]);
    const claims = await t.services.db
      .select()
      .from(reviewReminders)
      .where(eq(reviewReminders.subjectId, assignmentId));
    expect(claims.map((c) => [c.kind, c.offsetDays, c.mailed]).sort()).toEqual([
      ['response', -2, false],
      ['response', 1, true],
    ]);
  });

  it('runs on the job queue: a reminder missed while the server was stopped goes out once, at the start', async () => {
    await invited();
    const start = t.mail.length;
    // The server was stopped from the invitation to 8 March, past the "2 days before" reminder; on
    // starting, the queue puts the pass's row in place (what start() does) and runs what is due.
    t.clock.set(Date.parse('2026-03-08T12:00:00Z'));
    await t.services.jobs.ensureRecurring();
    await t.runJobs();
    expect(remindersTo(reviewer.email, start).map((m) => m.subject)).toEqual([
      expect.stringMatching(/Reminder/),
    ]);
    // A minute later the pass runs again, and finds nothing new to send.
    t.clock.set(Date.parse('2026-03-08T12:01:00Z'));
    await t.runJobs();
    expect(remindersTo(reviewer.email, start)).toHaveLength(1);
    const [pass] = await t.services.jobs.byKeys([recurringKey(REMINDER_PASS, 1)]);
    expect(pass).toMatchObject({ status: 'queued', runAt: new Date('2026-03-08T12:02:00Z') });
  });

  it('never sends a reminder that fell due before the invitation was sent', async () => {
    // Answer due tomorrow: "2 days before" was already past when inviting.
    await invited({ responseDue: '2026-03-03', reviewDue: '2026-03-20' });
    expect((await t.services.review.reminderPass(at('2026-03-03T12:00:00Z'))).sent).toBe(0);
    expect((await t.services.review.reminderPass(at('2026-03-05T00:00:00Z'))).sent).toBe(1);
  });

  it('sends each reminder once when two passes run at the same time', async () => {
    await invited();
    const start = t.mail.length;
    const results = await Promise.all([
      t.services.review.reminderPass(at('2026-03-08T06:00:00Z')),
      t.services.review.reminderPass(at('2026-03-08T06:00:00Z')),
      t.services.review.reminderPass(at('2026-03-08T06:00:01Z')),
    ]);
    expect(results.map((r) => r.sent).reduce((x, y) => x + y)).toBe(1);
    await t.runJobs();
    expect(remindersTo(reviewer.email, start)).toHaveLength(1);
  });

  it('reminds the author of a revision due, and stops once it arrives', async () => {
    const { submissionId, assignmentId } = await invited();
    await t.services.review.accept({ user: reviewer }, assignmentId);
    await t.services.review.submit({ user: reviewer }, assignmentId, {
      recommendation: 'major-revisions',
      commentsForAuthor: 'Redo.',
    });
    t.clock.set(at('2026-03-10T09:00:00Z'));
    await t.services.submissions.decide(editor, submissionId, {
      status: 'revisions_requested',
      revisions: 'major',
      message: 'Please revise.',
      authorDue: '2026-04-09',
    });
    const start = t.mail.length;
    expect((await t.services.review.reminderPass(at('2026-04-02T23:00:00Z'))).sent).toBe(0);
    expect((await t.services.review.reminderPass(at('2026-04-03T00:00:00Z'))).sent).toBe(1);
    await t.runJobs();
    const mail = remindersTo(author.email, start);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toMatch(/revised manuscript due soon/);
    expect(mail[0].text).toContain('9 April 2026 (end of the day, UTC time)');
    // The revision arrives: no "1 day after" reminder.
    const { fixture } = await import('../testing/harness.ts');
    t.clock.set(at('2026-04-05T09:00:00Z'));
    await t.services.submissions.revise(
      author,
      submissionId,
      'Revised.',
      {
        field: 'submissionFile',
        filename: 'v2.pdf',
        data: fixture('manuscript.pdf'),
        kind: 'pdf',
        mediaType: 'application/pdf',
      },
      undefined,
      'Done as asked.',
    );
    expect((await t.services.review.reminderPass(at('2026-04-20T00:00:00Z'))).sent).toBe(0);
  });

  it('sends nothing when the lists are empty (reminders off)', async () => {
    await setZone('UTC', { response: [], review: [], revision: [] });
    await invited();
    expect((await t.services.review.reminderPass(at('2026-04-30T00:00:00Z'))).sent).toBe(0);
  });
});
