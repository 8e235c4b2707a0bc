import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../server/accounts/service.ts';
import { users } from '../../server/accounts/tables.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

/**
 * Issue 22: "A similarity check against a corpus still being built says 0 %, silently". Right after a first
 * start (or a reindex, an import, a restore) the published articles are not indexed yet: a check then must say
 * what it was compared against and that the corpus was incomplete, and a manuscript's stored report made
 * meanwhile is made again once indexing is done (decision 0037).
 */
let t: TestContext;
let reader: string;
let editor: string;
let author: SessionUser;
let admin: SessionUser;

const asSession = async (id: number): Promise<SessionUser> => {
  return t.services.accounts.sessionUser(id);
};

beforeAll(async () => {
  t = await createTestContext({ SIMILARITY_BACKGROUND: 'true', MAX_MANUSCRIPT_SIZE: '2MB' });
  const r = await t.createUser({ role: 'researcher', status: 'approved' });
  reader = await t.login(r.username, r.password);
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = await t.login(e.username, e.password);
  author = await asSession((await t.createUser({ role: 'author', status: 'approved' })).id);
  const [adminRow] = await t.services.db.select().from(users).where(eq(users.username, 'admin'));
  admin = await asSession(adminRow.id);
  // Whatever the sign-ins queued has run: from here on, jobs run only when a test says so.
  await t.runJobs();
}, 60_000);
afterAll(() => t?.close());

async function readerCheck() {
  const body = await multipart({}, { file: { name: 'copy.pdf', data: fixture('manuscript.pdf') } });
  // Without running the jobs after it: the answer is what a check says while indexing is still to come.
  const res = await t.injectOnly({
    method: 'POST',
    url: '/api/plagiarism',
    headers: { authorization: `Bearer ${reader}`, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('a check against a corpus still being indexed', () => {
  it('says it was incomplete (what it held, what it should), and the stored report is made again once complete', async () => {
    // A manuscript arrives (its check queued first), then an article is published whose PDF is the same paper:
    // the manuscript's arrival check runs while the article is not indexed yet.
    const submitted = await t.services.submissions.submit(
      author,
      {
        title: 'A copy of a published paper',
        articleType: 'Research Article',
        keywords: 'IoT',
        abstract: 'Copied.',
        conflictOfInterest: 'None.',
        fundingStatement: '',
        dataAvailabilityStatement: '',
        authors: [{ name: 'Copy Author', email: 'copy@example.org', affiliation: 'U', superscript: '', orcid: null }],
      },
      { field: 'submissionFile', filename: 'copy.pdf', data: fixture('manuscript.pdf'), kind: 'pdf', mediaType: 'application/pdf' },
    );
    const volume = await t.services.catalog.createVolume(admin, { title: 'Volume 1', volume_number: 1, year: 2025 });
    const issue = await t.services.catalog.createIssue(admin, { title: 'Issue 1', description: 'First', volume_id: volume.id });
    await t.services.catalog.publishNew(admin, {
      issueId: issue.id,
      title: 'Energy-aware task offloading for battery-powered IoT gateways',
      abstract: 'Offloading.',
      keywords: 'IoT',
      firstPage: 1,
      lastPage: 7,
      doi: '10.5555/corpus.1',
      authors: [{ name: 'Priya Raman', email: 'p@example.org', affiliation: 'CIE', superscript: '1' }],
      pdf: { field: 'pdf', filename: 'a.pdf', data: fixture('manuscript.pdf'), kind: 'pdf', mediaType: 'application/pdf' },
    });

    // A reader's check now: nothing indexed yet. It may not find the copy, and it says why.
    const early = await readerCheck();
    expect(early.corpus).toMatchObject({ indexed: 0, expected: 2, complete: false, newestIndexedAt: null });
    expect(early.corpus.message).toMatch(/still being indexed: this check compared the text with 0 of 2 documents/);

    // The jobs run in order: the manuscript's arrival check first (the article still unindexed), then the
    // article's indexing, after which the stored report is made again against the whole corpus.
    await t.runJobs();
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/editor/submissions/${submitted.id}/similarity`,
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    const report = stored.json().report;
    expect(report.corpus).toMatchObject({ indexed: 2, expected: 2, complete: true, message: null });
    expect(report.corpus.newestIndexedAt).toEqual(expect.any(String));
    expect(report.plagiarismPercentage).toBeGreaterThan(80);
    expect(report.sources[0].label).toBe('Energy-aware task offloading for battery-powered IoT gateways');

    // And a reader's check now finds the published paper, against a complete corpus.
    const late = await readerCheck();
    expect(late.corpus).toMatchObject({ complete: true, indexed: 2, expected: 2 });
    expect(late.plagiarismPercentage).toBeGreaterThan(80);
  });

  it('counts a file with no text apart, so that the corpus can still be complete', async () => {
    await t.services.submissions.submit(
      author,
      {
        title: 'A scanned manuscript',
        articleType: 'Research Article',
        keywords: 'scans',
        abstract: 'Scanned.',
        conflictOfInterest: 'None.',
        fundingStatement: '',
        dataAvailabilityStatement: '',
        authors: [{ name: 'Scan Author', email: 'scan@example.org', affiliation: 'U', superscript: '', orcid: null }],
      },
      { field: 'submissionFile', filename: 'scan.pdf', data: fixture('scanned.pdf'), kind: 'pdf', mediaType: 'application/pdf' },
    );
    expect((await t.services.similarity.coverage()).complete).toBe(false);
    await t.runJobs();
    expect(await t.services.similarity.coverage()).toMatchObject({ complete: true, indexed: 2, expected: 2, unreadable: 1 });
  });
});
