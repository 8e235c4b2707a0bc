import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import type { SimilarityReportData } from '../../common/similarity.ts';
import type { SessionUser } from '../../server/accounts/service.ts';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { BusyError } from '../../server/similarity/pool.ts';
import { UNPUBLISHED_LABEL } from '../../server/similarity/report.ts';
import { similarityDocuments } from '../../server/similarity/tables.ts';
import { textPdf } from '../../server/similarity/testing.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

/**
 * POST /api/plagiarism and the editor's report, through the HTTP API: every refusal with its message,
 * the limits, the privacy rule, and a real grammar measure (harper.js) on the journal's fixture paper.
 */
const SECRET_PARA =
  'Our survey of river ferries along the lower delta recorded the departure times, passenger counts and engine hours of forty-two boats over two monsoon seasons, and it shows that timetables drift by almost an hour whenever the water level rises above the second marker.';
const OWN = [
  'Composting in dense neighbourhoods depends less on the chemistry of the heap than on the patience of the people who turn it every week.',
  'Residents of three housing blocks kept a diary of what they threw away, and the diaries turned out to be more useful than any sensor we had installed.',
  'The blocks differed in the size of their courtyards, in the age of their tenants and in how often the municipal truck came by.',
];
// From the published fixture paper (manuscript.pdf), section 3.
const PUBLISHED_PASSAGE =
  'Local execution consumes energy proportional to the cycles required; offloading consumes energy proportional to the transmission time, which depends on the input size and the achievable data rate.';

let t: TestContext;
let researcher: string;
let reader: string;
let prober: string;
let editor: string;
let suspended: string;
let limited: string;
let articleId: number;
let submissionId: number;

const asSession = async (id: number): Promise<SessionUser> => {
  return t.services.accounts.sessionUser(id);
};

async function check(token: string | null, files: Record<string, { name: string; data: Buffer }>, fields: Record<string, string> = {}) {
  const body = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/plagiarism',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...body.headers },
    payload: body.payload,
  });
}

beforeAll(async () => {
  t = await createTestContext({
    SIMILARITY_BACKGROUND: 'true',
    SIMILARITY_GRAMMAR: 'true',
    MAX_MANUSCRIPT_SIZE: '2MB',
    RATE_LIMIT_PLAGIARISM: '12/1h',
  });
  const login = async (role: 'researcher' | 'author' | 'editor', status: 'pending' | 'approved' | 'suspended' = 'approved') => {
    const u = await t.createUser({ role, status });
    return { token: status === 'suspended' ? '' : await t.login(u.username, u.password), id: u.id };
  };
  researcher = (await login('researcher', 'pending')).token; // pending accounts may check too
  editor = (await login('editor')).token;
  reader = (await login('researcher')).token;
  prober = (await login('author', 'pending')).token;
  limited = (await login('author')).token;
  const s = await t.createUser({ role: 'researcher', status: 'approved' });
  suspended = await t.login(s.username, s.password);
  await t.services.db
    .update(journalMemberships)
    .set({ status: 'suspended' })
    .where(eq(journalMemberships.userId, s.id));

  const [adminRow] = await t.services.db.select().from(users).where(eq(users.username, 'admin'));
  const admin = await asSession(adminRow.id);
  const author = await asSession((await t.createUser({ role: 'author', status: 'approved' })).id);
  const volume = await t.services.catalog.createVolume(admin, { title: 'Volume 1', volume_number: 1, year: 2025 });
  const issue = await t.services.catalog.createIssue(admin, { title: 'Issue 1', description: 'First', volume_id: volume.id });
  articleId = await t.services.catalog.publishNew(admin, {
    issueId: issue.id,
    title: 'Energy-aware task offloading for battery-powered IoT gateways',
    abstract: 'Offloading.',
    keywords: 'IoT',
    firstPage: 1,
    lastPage: 7,
    doi: '10.5555/plag.1',
    authors: [{ name: 'Priya Raman', email: 'p@example.org', affiliation: 'CIE', superscript: '1' }],
    pdf: { field: 'pdf', filename: 'a.pdf', data: fixture('manuscript.pdf'), kind: 'pdf', mediaType: 'application/pdf' },
  });
  const pdf = await textPdf([SECRET_PARA, 'Boat operators keep paper logs, and we photographed every page of them at the end of each week.']);
  submissionId = (
    await t.services.submissions.submit(
      author,
      {
        title: 'Ferry timetables in a monsoon delta',
        articleType: 'Research Article',
        keywords: 'transport',
        abstract: 'Ferries.',
        conflictOfInterest: 'None.',
        fundingStatement: '',
        dataAvailabilityStatement: '',
        authors: [{ name: 'Secret Author', email: 's@example.org', affiliation: 'Hidden University', superscript: '', orcid: null }],
      },
      { field: 'submissionFile', filename: 'ferry.pdf', data: pdf, kind: 'pdf', mediaType: 'application/pdf' },
    )
  ).id;
  await t.runJobs();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/plagiarism: refusals', () => {
  it('needs a signed-in account in good standing', async () => {
    const file = { file: { name: 'paper.pdf', data: fixture('manuscript.pdf') } };
    expect((await check(null, file)).statusCode).toBe(401);
    const res = await check(suspended, file);
    expect(res.statusCode).toBe(403);
  });

  it(`answers "${MESSAGES.plagiarismNoFile}" without a file`, async () => {
    const res = await check(researcher, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MESSAGES.plagiarismNoFile, errors: { file: MESSAGES.plagiarismNoFile } });
    const other = await check(researcher, { submissionFile: { name: 'paper.pdf', data: fixture('manuscript.pdf') } });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe('Unexpected file field "submissionFile".');
  });

  it('refuses a request that is not multipart', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/plagiarism',
      headers: { authorization: `Bearer ${researcher}` },
      payload: { file: 'x' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('gives every broken or disguised fixture a clear message, never a 500', async () => {
    const cases: [string, number, RegExp][] = [
      ['empty.pdf', 400, /^The file is empty \(0 bytes\)/],
      ['png-named.pdf', 415, /^The file must be a Word document \(\.doc, \.docx\) or a PDF \(\.pdf\)\.$/],
      ['encrypted.pdf', 422, /password-protected/],
      ['truncated.pdf', 422, /damaged or incomplete/],
      ['scanned.pdf', 422, /No text could be read from this file: it seems to be a scanned image/],
      ['supplementary.zip', 415, /Word document/],
      ['not-a-zip.zip', 415, /Word document/],
      ['manuscript.html', 415, /Word document/],
    ];
    for (const [name, status, message] of cases) {
      const res = await check(prober, { file: { name, data: fixture(name) } });
      expect([name, res.statusCode]).toEqual([name, status]);
      expect(res.json().message).toMatch(message);
      expect(res.json().errors?.file).toBe(res.json().message);
    }
    // A Word file under a PDF's name: its content decides, and the name must agree.
    const renamed = await check(prober, { file: { name: 'paper.pdf', data: fixture('manuscript.docx') } });
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json().message).toMatch(/does not match its name "paper\.pdf"/);
  });

  it('refuses a file over MAX_MANUSCRIPT_SIZE with 413', async () => {
    const big = Buffer.concat([fixture('manuscript.pdf'), Buffer.alloc(2 * 1024 * 1024)]);
    const res = await check(researcher, { file: { name: 'big.pdf', data: big } });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is too large: the limit is 2 MB.');
  });

  it('validates the filters', async () => {
    const res = await check(researcher, { file: { name: 'paper.pdf', data: fixture('manuscript.pdf') } }, { minMatchWords: '1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ minMatchWords: 'At least 3 words.' });
  });

  it('answers 503 with Retry-After when the checker is full (its queue is tested in the service)', async () => {
    const sim = t.services.similarity;
    const original = sim.check;
    sim.check = async () => {
      throw new BusyError();
    };
    try {
      const res = await check(researcher, { file: { name: 'paper.pdf', data: fixture('manuscript.pdf') } });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('The checker is busy with other files right now. Please try again in a minute.');
      expect(res.headers['retry-after']).toBe('30');
    } finally {
      sim.check = original;
    }
  });

  it('limits checks per account (RATE_LIMIT_PLAGIARISM) with 429 and Retry-After', async () => {
    for (let i = 0; i < 12; i++) expect((await check(limited, {})).statusCode).toBe(400);
    const res = await check(limited, {});
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(MESSAGES.tooManyRequests);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await check(researcher, {})).statusCode).toBe(400);
  });
});

describe('POST /api/plagiarism: results', () => {
  it('reads the same paper as .doc, .docx, PDF and two-column PDF, and finds it published', async () => {
    const filesBefore = (await t.services.db.select().from(storedFiles)).length;
    const docsBefore = (await t.services.db.select().from(similarityDocuments)).length;
    const results: Record<string, SimilarityReportData> = {};
    for (const name of ['manuscript.doc', 'manuscript.docx', 'manuscript.pdf', 'twocolumn.pdf']) {
      const res = await check(reader, { file: { name, data: fixture(name) } });
      expect([name, res.statusCode]).toEqual([name, 200]);
      results[name] = res.json();
    }
    for (const [name, r] of Object.entries(results)) {
      expect(r.plagiarismPercentage, name).toBeGreaterThan(80);
      expect(r.sources[0], name).toMatchObject({ kind: 'article', articleId, published: true });
      expect(r.sources[0].title).toBe('Energy-aware task offloading for battery-powered IoT gateways');
      // Two decimals.
      expect(Math.round(r.plagiarismPercentage * 100) / 100).toBe(r.plagiarismPercentage);
      expect(r.grammarQualityPercentage, name).not.toBeNull();
      expect(r.grammarQualityPercentage!).toBeGreaterThan(50);
      expect(Math.round(r.grammarQualityPercentage! * 100) / 100).toBe(r.grammarQualityPercentage);
      expect(r.grammar.available).toBe(true);
      expect(r.passages.length).toBeGreaterThan(0);
      expect(r.viewer).toBe('reader');
    }
    // The uploads were neither stored nor added to the corpus.
    expect((await t.services.db.select().from(storedFiles)).length).toBe(filesBefore);
    expect((await t.services.db.select().from(similarityDocuments)).length).toBe(docsBefore);
  }, 180_000);

  it('shows a reader nothing of an unpublished manuscript but its share; an editor everything', async () => {
    const data = await textPdf([OWN[0], PUBLISHED_PASSAGE, OWN[1], SECRET_PARA, OWN[2]]);
    const asReader = await check(reader, { file: { name: 'mine.pdf', data } });
    expect(asReader.statusCode).toBe(200);
    const r: SimilarityReportData = asReader.json();
    expect(r.sources).toHaveLength(2);
    const hidden = r.sources.find((s) => !s.published)!;
    expect(hidden).toMatchObject({ kind: 'unpublished', label: UNPUBLISHED_LABEL, title: null, sourceId: null, documentId: null });
    expect(r.passages.filter((p) => p.source === hidden.ref).every((p) => p.sourceText === null)).toBe(true);
    expect(asReader.body).not.toContain('Ferry timetables');
    expect(asReader.body).not.toContain('Secret Author');
    expect(asReader.body).not.toContain('Hidden University');
    expect(asReader.body).not.toContain('Boat operators'); // the rest of the unpublished manuscript
    const published = r.sources.find((s) => s.published)!;
    expect(r.passages.find((p) => p.source === published.ref)!.sourceText?.text.replace(/\s+/g, ' ')).toContain('Local execution consumes');
    // The shares add up to the total.
    expect(Math.round(r.sources.reduce((n, s) => n + s.sharePercentage, 0) * 100)).toBe(Math.round(r.plagiarismPercentage * 100));

    const asEditor = await check(editor, { file: { name: 'mine.pdf', data } });
    const e: SimilarityReportData = asEditor.json();
    expect(e.viewer).toBe('editor');
    const visible = e.sources.find((s) => !s.published)!;
    expect(visible.kind).toBe('submission_version');
    expect(visible.title).toContain('Ferry timetables');
    expect(e.passages.find((p) => p.source === visible.ref)!.sourceText?.text).toContain('river ferries');
  }, 120_000);

  it('applies the filters sent with the file', async () => {
    const data = await textPdf([OWN[0], `As they wrote, "${PUBLISHED_PASSAGE}"`, OWN[1]]);
    const plain: SimilarityReportData = (await check(editor, { file: { name: 'q.pdf', data } })).json();
    const noQuotes: SimilarityReportData = (
      await check(editor, { file: { name: 'q.pdf', data } }, { excludeQuotes: 'true', minMatchWords: '10' })
    ).json();
    expect(plain.words.matched).toBeGreaterThan(20);
    expect(noQuotes.words.matched).toBe(0);
    expect(noQuotes.settings).toEqual({ excludeQuotes: true, excludeBibliography: true, minMatchWords: 10 });
  }, 120_000);
});

describe('GET /api/editor/submissions/:id/similarity', () => {
  it('answers the report stored on arrival, and runs it again with other filters', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/editor/submissions/${submissionId}/similarity`,
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ submissionId, version: 1, stored: true, report: { viewer: 'editor' } });
    const rerun = await t.app.inject({
      method: 'GET',
      url: `/api/editor/submissions/${submissionId}/similarity?minMatchWords=20&excludeQuotes=true`,
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(rerun.statusCode).toBe(200);
    expect(rerun.json()).toMatchObject({ stored: false, report: { settings: { minMatchWords: 20, excludeQuotes: true } } });
    const refreshed = await t.app.inject({
      method: 'GET',
      url: `/api/editor/submissions/${submissionId}/similarity?refresh=true`,
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(refreshed.json()).toMatchObject({ stored: true });
    expect(Date.parse(refreshed.json().checkedAt)).toBeGreaterThan(Date.parse(res.json().checkedAt));
  }, 120_000);

  it('refuses bad filters, unknown submissions and files, and readers', async () => {
    const get = (url: string, token = editor) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect((await get(`/api/editor/submissions/${submissionId}/similarity?minMatchWords=999`)).json()).toMatchObject({
      message: 'At most 200 words.',
    });
    expect((await get(`/api/editor/submissions/${submissionId}/similarity?excludeQuotes=maybe`)).statusCode).toBe(400);
    expect((await get('/api/editor/submissions/999999/similarity')).statusCode).toBe(404);
    expect((await get(`/api/editor/submissions/${submissionId}/similarity?fileId=999999`)).statusCode).toBe(404);
    expect((await get(`/api/editor/submissions/${submissionId}/similarity`, researcher)).statusCode).toBe(403);
  });
});
