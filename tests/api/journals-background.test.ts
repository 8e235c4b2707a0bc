import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../server/accounts/service.ts';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { asSite, withJournal } from '../../server/db/scope.ts';
import { recurringKey } from '../../server/jobs/queue.ts';
import { mailLog } from '../../server/mail/tables.ts';
import { REMINDER_PASS } from '../../server/review/reminders.ts';
import { reviewAssignments } from '../../server/review/tables.ts';
import { OTHER_JOURNAL_LABEL } from '../../server/similarity/report.ts';
import { similarityChecks, similarityDocuments } from '../../server/similarity/tables.ts';
import { makeJournal } from '../../server/testing/factories.ts';
import { createTestContext, fixture, type TestContext } from '../../server/testing/harness.ts';

/**
 * A site's background work across its journals (issue 24, decision 0058): jobs queued by a change in journal
 * B run in B's scope and write B's rows; each journal's recurring passes run in its own settings and time zone;
 * the similarity corpus is the site's, and a report in B names a manuscript first sent to A only as "another
 * journal of this site", a published article of A with A's name.
 */
let t: TestContext;
let author: SessionUser;
let editor: SessionUser;
let reviewer: SessionUser;
let admin: SessionUser;
const B = 2;
const T0 = Date.parse('2026-03-02T09:00:00Z');

const asSession = async (id: number): Promise<SessionUser> => {
  // Its role and standing in the journal at hand (decision 0054).
  const [u] = await t.services.db
    .select({ user: users, role: journalMemberships.role, status: journalMemberships.status })
    .from(users)
    .leftJoin(journalMemberships, eq(journalMemberships.userId, users.id))
    .where(eq(users.id, id));
  return {
    id: u.user.id,
    username: u.user.username,
    fullName: u.user.fullName,
    email: u.user.email,
    role: u.role,
    status: u.status,
  };
};

const submit = (title: string) =>
  t.services.submissions.submit(
    author,
    {
      title,
      articleType: 'Research Article',
      keywords: 'IoT',
      abstract: 'Sent to two journals.',
      conflictOfInterest: 'None.',
      fundingStatement: '',
      dataAvailabilityStatement: '',
      authors: [{ name: 'Twice Sent', email: author.email, affiliation: 'U', superscript: '', orcid: null }],
    },
    {
      field: 'submissionFile',
      filename: 'paper.pdf',
      data: fixture('manuscript.pdf'),
      kind: 'pdf',
      mediaType: 'application/pdf',
    },
  );

beforeAll(async () => {
  t = await createTestContext({ SIMILARITY_BACKGROUND: 'true', MAX_MANUSCRIPT_SIZE: '2MB' });
  t.clock.set(T0);
  author = await asSession((await t.createUser({ role: 'author', status: 'approved' })).id);
  editor = await asSession((await t.createUser({ role: 'editor', status: 'approved' })).id);
  reviewer = await asSession((await t.createUser({ role: 'researcher', status: 'approved' })).id);
  const [adminRow] = await t.services.db.select().from(users).where(eq(users.username, 'admin'));
  admin = await asSession(adminRow.id);
  // Far ahead of the Line Islands' midnight: B's day ends 14 hours before A's (UTC).
  // A second journal at /b, its settings journal 1's with its own name and time zone; no member yet.
  const first = await t.services.settings.journal();
  const timeZone = 'Pacific/Kiritimati';
  await makeJournal(
    t,
    { id: B, path: 'b', title: 'Journal B' },
    { ...first, name: 'Journal B', review: { ...first.review, timeZone } },
    { admin: null },
  );
  await t.runJobs();
}, 60_000);
afterAll(() => t?.close());

describe('the similarity corpus across journals', () => {
  let inA = 0;
  let inB = 0;

  it("finds in journal B a manuscript first sent to journal A, naming neither it nor A to B's editors", async () => {
    inA = (await submit('First sent to A')).id;
    await t.runJobs();
    inB = (await withJournal(B, () => submit('Then sent to B'))).id;
    await t.runJobs();

    // Each document is its source's journal's; B's stored report is B's row, written by a job in B's scope.
    const docs = await t.services.db
      .select({ journalId: similarityDocuments.journalId, kind: similarityDocuments.sourceKind })
      .from(similarityDocuments);
    expect(docs.map((d) => d.journalId).sort()).toEqual([1, B]);
    const checks = await asSite(() =>
      t.services.db
        .select({ journalId: similarityChecks.journalId, submissionId: similarityChecks.submissionId })
        .from(similarityChecks),
    );
    expect(checks).toEqual(
      expect.arrayContaining([
        { journalId: 1, submissionId: inA },
        { journalId: B, submissionId: inB },
      ]),
    );

    const { report } = await withJournal(B, () => t.services.similarity.reportForSubmission(inB));
    expect(report.plagiarismPercentage).toBeGreaterThan(80);
    expect(report.sources[0]).toMatchObject({
      kind: 'unpublished',
      label: OTHER_JOURNAL_LABEL,
      title: null,
      documentId: null,
      sourceId: null,
      articleId: null,
    });
    expect(report.sources[0].journal).toBeUndefined();
    expect(report.passages.every((p) => p.sourceText === null)).toBe(true);
    expect(JSON.stringify(report)).not.toContain('First sent to A');

    // A's own report of its manuscript did not find B's copy (it came later), and A sees its own as before.
    const own = await t.services.similarity.reportForSubmission(inA);
    expect(own.report.plagiarismPercentage).toBeLessThan(5);
  });

  it("names a published article of journal A, with A's name and address, in B's report", async () => {
    const volume = await t.services.catalog.createVolume(admin, {
      title: 'Volume 1',
      volume_number: 1,
      year: 2025,
    });
    const issue = await t.services.catalog.createIssue(admin, {
      title: 'Issue 1',
      description: 'First',
      volume_id: volume.id,
    });
    await t.services.catalog.publishNew(admin, {
      issueId: issue.id,
      title: 'Published in journal A',
      abstract: 'Offloading.',
      keywords: 'IoT',
      firstPage: 1,
      lastPage: 7,
      doi: '10.5555/journals.1',
      authors: [{ name: 'Priya Raman', email: 'p@example.org', affiliation: 'CIE', superscript: '1' }],
      pdf: {
        field: 'pdf',
        filename: 'a.pdf',
        data: fixture('manuscript.pdf'),
        kind: 'pdf',
        mediaType: 'application/pdf',
      },
    });
    await t.runJobs();
    const { submissionFileId } = await withJournal(B, () => t.services.similarity.reportForSubmission(inB));
    const report = await withJournal(B, () => t.services.similarity.checkSubmissionFile(submissionFileId));
    const article = report.sources.find((s) => s.kind === 'article');
    expect(article).toMatchObject({
      label: 'Published in journal A',
      published: true,
      journal: { title: (await t.services.settings.journal()).name, url: t.services.journals.baseUrl(1) },
    });
  });
});

describe("a journal's jobs", () => {
  it("run in B's scope when a change in B queues them, and write B's rows", async () => {
    const { id } = await withJournal(B, () => submit('Mail of journal B'));
    const queued = await t.services.db.execute(
      sql`select name, journal_id from jobs where status = 'queued' and name = 'mail.send'`,
    );
    const rows = (queued as unknown as { rows: { name: string; journal_id: number }[] }).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.journal_id === B)).toBe(true);
    await t.runJobs();
    const logged = await asSite(() =>
      t.services.db
        .select({ journalId: mailLog.journalId, status: mailLog.status })
        .from(mailLog)
        .where(eq(mailLog.submissionId, id)),
    );
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((m) => m.journalId === B && m.status === 'sent')).toBe(true);
    // Journal A sees none of it.
    expect(await t.services.db.select().from(mailLog).where(eq(mailLog.submissionId, id))).toEqual([]);
  });

  it("send each journal's reminders by its own time zone, once, from a pass per journal", async () => {
    const invite = async () => {
      const { id } = await submit('Under review');
      await t.services.submissions.decide(editor, id, { status: 'under_review', message: 'Reviewing.' });
      const { assignmentId } = await t.services.review.invite(editor, id, { userId: reviewer.id });
      const [a] = await t.services.db
        .select({ due: reviewAssignments.responseDue })
        .from(reviewAssignments)
        .where(eq(reviewAssignments.id, assignmentId));
      return a.due;
    };
    t.clock.set(T0);
    const dueA = await invite();
    const dueB = await withJournal(B, invite);
    expect(dueB).toEqual(dueA);
    await t.runJobs();
    const before = t.mail.length;
    const reminders = () =>
      t.mail.slice(before).filter((m) => m.to === reviewer.email && /Reminder/.test(m.subject));

    // The first reminder is due two days before the answer's due day ends: 00:00 of (due - 1) in each zone.
    // At 12:00 UTC the day before, it is past midnight in Kiritimati (UTC+14), not yet in A (UTC).
    const due = Date.parse(`${String(dueA).slice(0, 10)}T00:00:00Z`);
    t.clock.set(due - 36 * 3600_000);
    await t.services.jobs.ensureRecurring();
    await t.runJobs();
    // B's, in B's time zone, with B's address.
    expect(reminders().map((m) => m.text)).toEqual([
      expect.stringMatching(/Pacific\/Kiritimati time[\s\S]*http:\/\/journal\.test\/b\/reviews\//),
    ]);
    expect(reminders()).toHaveLength(1);
    const passes = await t.services.jobs.byKeys([
      recurringKey(REMINDER_PASS, 1),
      recurringKey(REMINDER_PASS, B),
    ]);
    expect(passes.map((p) => p.journalId).sort()).toEqual([1, B]);

    // A's comes at its own midnight, once; B's is not sent again.
    t.clock.set(due - 24 * 3600_000 + 60_000);
    await t.runJobs();
    t.clock.set(due - 24 * 3600_000 + 120_000);
    await t.runJobs();
    expect(reminders()).toHaveLength(2);
    const logged = await asSite(() =>
      t.services.db
        .select({ journalId: mailLog.journalId })
        .from(mailLog)
        .where(and(eq(mailLog.recipients, reviewer.email), sql`${mailLog.subject} like '%Reminder%'`)),
    );
    expect(logged.map((m) => m.journalId).sort()).toEqual([1, B]);
  });
});

describe('the reviewer pool across the site', () => {
  it("shows B's editors who reviews for A (name, interests, load), never A's submissions, e-mail addresses or ratings", async () => {
    const only = await withJournal(3, () => t.services.review.sitePool());
    const found = only.find((r) => r.userId === reviewer.id);
    // Invited in both journals (the reminders above): one person, with the load of both.
    expect(found).toMatchObject({
      journals: 2,
      inThisJournal: false,
      openAssignments: 2,
      completedReviews: 0,
    });
    const text = JSON.stringify(only);
    expect(text).not.toContain(reviewer.email);
    expect(text).not.toMatch(/Under review|Then sent to B|First sent to A/);
    expect(Object.keys(found!)).not.toContain('averageRating');
    // A search matches names, not e-mail addresses.
    expect(await withJournal(B, () => t.services.review.sitePool(reviewer.email))).toEqual([]);
    const here = await withJournal(B, () => t.services.review.sitePool(found!.name));
    expect(here.map((r) => [r.userId, r.inThisJournal])).toEqual([[reviewer.id, true]]);
  });

  it('leaves out a reviewer who said other journals may not find them, except where they review already', async () => {
    const [account] = await t.services.db.select().from(users).where(eq(users.id, reviewer.id));
    const token = await t.login(account.username, 'password-123');
    const headers = { authorization: `Bearer ${token}` };
    const before = await t.app.inject({ method: 'GET', url: '/api/reviewer/profile', headers });
    expect(before.json()).toMatchObject({ listedAcrossSite: true });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/reviewer/profile',
      headers,
      payload: { ...(before.json() as object), listedAcrossSite: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ listedAcrossSite: false });
    try {
      // Journal 3 has them not: they are gone from its search of the site's pool.
      const elsewhere = await withJournal(3, () => t.services.review.sitePool());
      expect(elsewhere.map((r) => r.userId)).not.toContain(reviewer.id);
      // B, where they review, still sees them; and A's own pool is as it was.
      const inB = await withJournal(B, () => t.services.review.sitePool());
      expect(inB.find((r) => r.userId === reviewer.id)).toMatchObject({ inThisJournal: true });
      // Leaving the field out keeps the choice.
      const { listedAcrossSite: _, ...without } = saved.json();
      await t.app.inject({ method: 'PUT', url: '/api/reviewer/profile', headers, payload: without });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/reviewer/profile', headers })).json(),
      ).toMatchObject({
        listedAcrossSite: false,
      });
      // Nor can another journal's editor invite them by their account: as if no such account were there.
      const E = await makeJournal(t, { id: 5, path: 'e', title: 'Journal E' }, undefined, { admin: null });
      const underReview = async () => {
        const { id } = await submit('Under review in E');
        await t.services.submissions.decide(editor, id, { status: 'under_review', message: 'Reviewing.' });
        return id;
      };
      const inE = await withJournal(E, underReview);
      await expect(
        withJournal(E, () => t.services.review.invite(editor, inE, { userId: reviewer.id })),
      ).rejects.toMatchObject({ code: 'not_found', message: 'No such account.' });
      const wrong = await t.app.inject({
        method: 'PUT',
        url: '/api/reviewer/profile',
        headers,
        payload: { ...without, listedAcrossSite: 'no' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors).toEqual({
        listedAcrossSite:
          "Say whether other journals' editors may find you in the site's reviewer pool (true or false).",
      });
    } finally {
      await t.services.db.update(users).set({ listedInSitePool: true }).where(eq(users.id, reviewer.id));
    }
    // Listed again, the same invitation is taken.
    const again = await withJournal(5, async () => {
      const { id } = await submit('Under review in E, again');
      await t.services.submissions.decide(editor, id, { status: 'under_review', message: 'Reviewing.' });
      return t.services.review.invite(editor, id, { userId: reviewer.id });
    });
    expect(again.assignmentId).toBeGreaterThan(0);
  });
});

describe('usage counts', () => {
  it("land on each journal's article rows from one batch written outside any request", async () => {
    const publish = async (doi: string) => {
      const volume = await t.services.catalog.createVolume(admin, {
        title: 'V',
        volume_number: 7,
        year: 2026,
      });
      const issue = await t.services.catalog.createIssue(admin, {
        title: 'I',
        description: 'I',
        volume_id: volume.id,
      });
      const article = await t.services.catalog.publishNew(admin, {
        issueId: issue.id,
        title: `Counted ${doi}`,
        abstract: 'Counted.',
        keywords: 'usage',
        firstPage: 1,
        lastPage: 2,
        doi,
        authors: [{ name: 'Una User', email: 'u@example.org', affiliation: 'U', superscript: '1' }],
        pdf: {
          field: 'pdf',
          filename: 'u.pdf',
          data: fixture('manuscript.pdf'),
          kind: 'pdf',
          mediaType: 'application/pdf',
        },
      });
      return article;
    };
    const a = await publish('10.5555/usage.a');
    const b = await withJournal(B, () => publish('10.5555/usage.b'));
    // Views of both journals' articles, held together and written by the timer's batch (no request's scope).
    withJournal(B, () =>
      t.services.metrics.track('view', b, {
        ip: '192.0.2.7',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      }),
    );
    t.services.metrics.track('view', a, {
      ip: '192.0.2.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    });
    await t.services.metrics.settled();
    expect((await t.services.metrics.articleMetrics(a)).totals.views).toBe(1);
    expect((await t.services.metrics.articleMetrics(b)).totals.views).toBe(1);
  });
});
