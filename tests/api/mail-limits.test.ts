import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalMemberships } from '../../server/accounts/tables.ts';
import { DAY, HOUR } from '../../server/clock.ts';
import { withJournal } from '../../server/db/scope.ts';
import { jobs } from '../../server/jobs/tables.ts';
import { mailLog } from '../../server/mail/tables.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';
import { type Person, caller, decide, person, submitManuscript } from './review-helpers.ts';

/**
 * Issue 22: "No limit on e-mail an editor can make the server send". 100 "remind now" sent 101 e-mails to one
 * reviewer within a minute; cancel/reinstate cycles likewise. A reminder for one assignment goes at most once
 * a day (429 with Retry-After), and no person gets more than MAIL_LIMIT_RECIPIENT e-mails a day from the
 * journal: a manual one over it is refused, an automatic one held until the limit opens again, never lost
 * (decision 0038).
 */

const T0 = Date.parse('2026-03-02T09:00:00Z');
let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let submissionId = 0;

beforeAll(async () => {
  t = await createTestContext({ MAIL_LIMIT_RECIPIENT: '6/1d' });
  t.clock.set(T0);
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  const author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  submissionId = await submitManuscript(t, author, [
    { name: 'Ada Authorname', email: author.email, affiliation: 'Authorton Institute' },
  ]);
  await decide(t, editor.token, submissionId, { status: 'under_review' });
});
afterAll(() => t?.close());

async function invite(name: string, email: string): Promise<number> {
  const res = await api('POST', `/api/editor/submissions/${submissionId}/review/invitations`, {
    token: editor.token,
    payload: { name, email },
  });
  expect(res.status, res.body).toBe(201);
  return res.json.assignmentId as number;
}

const mailsTo = (email: string) => t.mail.filter((m) => m.to === email);

describe('"remind now"', () => {
  it('sends one reminder a day for an assignment: the other 99 presses answer 429 with Retry-After', async () => {
    const email = 'rita.reviewer@example.org';
    const id = await invite('Rita Reviewer', email);
    const before = mailsTo(email).length;
    const answers: { status: number; retryAfter: unknown; message: string }[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await api('POST', `/api/editor/review-assignments/${id}/remind`, { token: editor.token });
      answers.push({ status: res.status, retryAfter: res.headers['retry-after'], message: res.json.message });
    }
    expect(answers[0].status).toBe(200);
    expect(answers.slice(1).every((a) => a.status === 429)).toBe(true);
    expect(answers[1].retryAfter).toBe(String(DAY / 1000));
    expect(answers[1].message).toMatch(/already reminded of this assignment at 2026-03-02 09:00 UTC/);
    expect(answers[1].message).toMatch(/next from 2026-03-03 09:00 UTC/);
    expect(mailsTo(email).length).toBe(before + 1);

    // A day later, one more (signed in again: a session lasts 8 hours).
    t.clock.advance(DAY);
    editor.token = await t.login(editor.username, 'password-123');
    const next = await api('POST', `/api/editor/review-assignments/${id}/remind`, { token: editor.token });
    expect(next.status).toBe(200);
    expect(mailsTo(email).length).toBe(before + 2);
  });
});

describe('the daily limit of e-mails per person', () => {
  it('holds what cancel/reinstate cycles would send past it, sends it the next day, and refuses a manual reminder', async () => {
    const email = 'carl.cycled@example.org';
    editor.token = await t.login(editor.username, 'password-123');
    const id = await invite('Carl Cycled', email);
    const start = t.clock.now();
    // The invitation was one; ten cycles ask for twenty more.
    for (let i = 0; i < 10; i++) {
      const cancel = await api('POST', `/api/editor/review-assignments/${id}/cancel`, { token: editor.token });
      expect(cancel.status).toBe(200);
      const back = await api('POST', `/api/editor/review-assignments/${id}/reinstate`, { token: editor.token });
      expect(back.status).toBe(200);
    }
    expect(mailsTo(email)).toHaveLength(6);
    // The rest are kept, queued, each saying why and until when; nothing failed or lost.
    const logged = await t.services.db.select().from(mailLog).where(eq(mailLog.recipients, email));
    expect(logged).toHaveLength(21);
    const held = logged.filter((m) => m.status === 'queued');
    expect(held).toHaveLength(15);
    expect(held[0].lastError).toMatch(
      /^Held: carl\.cycled@example\.org has had 6 e-mails from the journal in a day, the limit; it is sent after /,
    );
    const heldJobs = await t.services.db.select().from(jobs).where(eq(jobs.status, 'queued'));
    expect(heldJobs.filter((j) => j.name === 'mail.send').every((j) => j.attempts === 0)).toBe(true);

    // A manual reminder to him now is refused at once, with the wait.
    const remind = await api('POST', `/api/editor/review-assignments/${id}/remind`, { token: editor.token });
    expect(remind.status).toBe(429);
    expect(remind.json.message).toMatch(/carl\.cycled@example\.org has already had 6 e-mails from the journal in a day/);
    expect(Number(remind.headers['retry-after'])).toBe(DAY / 1000);
    expect(mailsTo(email)).toHaveLength(6);

    // The next day six more go, the next day six more, then the last three.
    t.clock.set(start + DAY);
    await t.runJobs();
    expect(mailsTo(email)).toHaveLength(12);
    t.clock.set(start + 2 * DAY + HOUR);
    await t.runJobs();
    expect(mailsTo(email)).toHaveLength(18);
    t.clock.set(start + 3 * DAY + 2 * HOUR);
    await t.runJobs();
    expect(mailsTo(email)).toHaveLength(21);
    const after = await t.services.db.select().from(mailLog).where(eq(mailLog.recipients, email));
    expect(after.map((m) => m.status)).toEqual(Array(21).fill('sent'));
  });

  it("does not limit the journal's own editorial address", async () => {
    const before = t.mail.filter((m) => m.to === t.services.config.EDITORIAL_EMAIL).length;
    const author = await person(t, 'author', 'Many Submissions', 'Prolific Institute');
    for (let i = 0; i < 8; i++) {
      await submitManuscript(t, author, [{ name: 'Many', email: author.email, affiliation: 'P' }], `Paper ${i}`);
    }
    expect(t.mail.filter((m) => m.to === t.services.config.EDITORIAL_EMAIL).length - before).toBe(8);
  });

  it("nor another journal's office: its editors, while it has no address of its own (decision 0060)", async () => {
    const officer = await person(t, 'researcher', 'Otto Office', 'Journal B');
    const B = (
      await t.services.journalAdmin.create({ title: 'Journal B', path: 'jb', editor: officer.username })
    ).id;
    const author = await person(t, 'author', 'Many In B', 'Prolific Institute');
    await withJournal(B, () =>
      t.services.db
        .insert(journalMemberships)
        .values({ userId: author.id, role: 'author', status: 'approved' }),
    );
    const token = (
      await api('POST', '/jb/api/auth/login', {
        payload: { username: author.username, password: 'password-123' },
      })
    ).json.token as string;
    const toOffice = () => t.mail.filter((m) => Array.isArray(m.to) && m.to.includes(officer.email)).length;
    const before = toOffice();
    for (let i = 0; i < 8; i++) {
      const body = await multipart(
        {
          title: `B paper ${i}`,
          articleType: 'Research Article',
          keywords: 'a, b',
          abstract: 'A.',
          authors: JSON.stringify([
            { name: 'Many', email: author.email, affiliation: 'P', superscript: '1' },
          ]),
        },
        { submissionFile: { name: 'm.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' } },
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/jb/api/submission/submit',
        headers: { authorization: `Bearer ${token}`, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // Over the limit of 6 a day, all 8 notices went at once (none held).
    expect(toOffice() - before).toBe(8);
  });
});
