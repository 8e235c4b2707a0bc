import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import { articles } from '../catalog/tables.ts';
import { jobs } from '../jobs/tables.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import { submissionFiles } from '../submissions/tables.ts';
import { type TestContext, createTestContext, fixture, silentLog } from '../testing/harness.ts';
import { UNPUBLISHED_LABEL } from './report.ts';
import { BusyError, ExtractionError, SimilarityService } from './service.ts';
import { similarityChecks, similarityDocuments } from './tables.ts';
import { textPdf } from './testing.ts';
import { wordsOf } from './text.ts';

// Original prose for the corpus and the checked files.
const UNPUBLISHED_PARA =
  'Our survey of river ferries along the lower delta recorded the departure times, passenger counts and engine hours of forty-two boats over two monsoon seasons, and it shows that timetables drift by almost an hour whenever the water level rises above the second marker.';
const ORIGINAL = [
  'Composting in dense neighbourhoods depends less on the chemistry of the heap than on the patience of the people who turn it every week.',
  'Residents of three housing blocks kept a diary of what they threw away, and the diaries turned out to be more useful than any sensor we had installed.',
  'The blocks differed in the size of their courtyards, in the age of their tenants and in how often the municipal truck came by.',
  'None of these differences explained the amount of waste as well as a simple count of the neighbours each household talked to.',
];
const SUBMISSION_REST = [
  'Boat operators keep paper logs, and we photographed every page of them at the end of each week.',
  'Where a log was missing we asked the ticket sellers on the jetty, who remembered the late boats better than the early ones.',
];
const PUBLISHED_PASSAGE =
  'Local execution consumes energy proportional to the cycles required; offloading consumes energy proportional to the transmission time, which depends on the input size and the achievable data rate.';

let t: TestContext;
let admin: SessionUser;
let author: SessionUser;
let sim: SimilarityService;
let articleId: number;
let submissionFileId: number;
let submissionId: number;

const upload = (data: Buffer, filename = 'paper.pdf'): CheckedUpload => ({
  field: 'file',
  filename,
  data,
  kind: 'pdf',
  mediaType: 'application/pdf',
});

beforeAll(async () => {
  // Background work on (the harness turns it off for other areas' tests); grammar is tested on its own.
  t = await createTestContext({ SIMILARITY_BACKGROUND: 'true', SIMILARITY_GRAMMAR: 'false' });
  sim = t.services.similarity;
  const asSession = async (id: number): Promise<SessionUser> => {
    return t.services.accounts.sessionUser(id);
  };
  const [adminRow] = await t.services.db.select().from(users).where(eq(users.username, 'admin'));
  admin = await asSession(adminRow.id);
  author = await asSession((await t.createUser({ role: 'author', status: 'approved' })).id);

  const volume = await t.services.catalog.createVolume(admin, { title: 'Volume 1', volume_number: 1, year: 2025 });
  const issue = await t.services.catalog.createIssue(admin, { title: 'Issue 1', description: 'First', volume_id: volume.id });
  articleId = await t.services.catalog.publishNew(admin, {
    issueId: issue.id,
    title: 'Energy-aware task offloading for battery-powered IoT gateways',
    abstract: 'Offloading.',
    keywords: 'IoT',
    firstPage: 1,
    lastPage: 7,
    doi: '10.5555/sim.1',
    authors: [{ name: 'Priya Raman', email: 'p@example.org', affiliation: 'CIE', superscript: '1' }],
    pdf: upload(fixture('manuscript.pdf')),
  });
  const submitted = await t.services.submissions.submit(
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
    upload(await textPdf([UNPUBLISHED_PARA, ...SUBMISSION_REST], { title: 'Ferry timetables in a monsoon delta' })),
  );
  submissionId = submitted.id;
  const [sf] = await t.services.db.select().from(submissionFiles).where(eq(submissionFiles.submissionId, submitted.id));
  submissionFileId = sf.id;

  // publishNew and submit called the hook after commit; it indexes (and checks) in the background.
  await t.runJobs();
});

afterAll(async () => {
  await sim?.close();
  await t?.close();
});

async function checkedFile(): Promise<Buffer> {
  return textPdf([ORIGINAL[0], PUBLISHED_PASSAGE, ORIGINAL[1], UNPUBLISHED_PARA, ORIGINAL[2], ORIGINAL[3]], {
    title: 'Waste diaries',
  });
}

describe('the corpus in the database', () => {
  it('indexes the article and the submission version through the hook', async () => {
    const docs = await t.services.db.select().from(similarityDocuments);
    expect(docs.map((d) => [d.sourceKind, d.sourceId, d.published, d.groupKey]).sort()).toEqual(
      [
        ['article', articleId, true, `article:${articleId}`],
        ['submission_version', submissionFileId, false, `submission:${submissionId}`],
      ].sort(),
    );
    const stats = await sim.store.stats();
    expect(stats.documents).toBe(2);
    expect(stats.fingerprints).toBeGreaterThan(250);
    expect(stats.words).toBeGreaterThan(300);
    const article = docs.find((d) => d.sourceKind === 'article')!;
    expect(article.wordCount).toBe(wordsOf(article.text).length);
    expect(article.text).toContain("gateway's remaining charge");
  });

  it('skips an unchanged file, and re-indexes everything on demand', async () => {
    expect(await sim.indexArticle(articleId)).toMatchObject({ status: 'unchanged' });
    const counts = await sim.reindexAll();
    expect(counts).toMatchObject({ unchanged: 2, failed: 0, removed: 0 });
    expect((await sim.store.stats()).documents).toBe(2);
  });

  it('reads every file again when forced (after an upgrade of the engine)', async () => {
    const counts = await sim.reindexAll(undefined, { force: true });
    expect(counts).toMatchObject({ replaced: 2, unchanged: 0, failed: 0 });
    expect((await sim.store.stats()).documents).toBe(2);
  });

  it('hides an unpublished article from readers at once, before the background re-index', async () => {
    // A manuscript's arrival check in the queue first: the article's background refresh waits behind it.
    await t.services.events.emit(t.services.db, 'manuscript.arrived', { submissionId });
    await t.services.catalog.setArticleStatus(admin, articleId, 'unpublished');
    expect((await sim.store.find('article', articleId))?.published).toBe(false);
    const report = await sim.check(upload(await checkedFile()), { viewer: 'reader', grammar: false });
    expect(report.sources.every((src) => !src.published)).toBe(true);
    expect(JSON.stringify(report)).not.toContain('Energy-aware task offloading');
    await t.services.catalog.setArticleStatus(admin, articleId, 'published');
    expect((await sim.store.find('article', articleId))?.published).toBe(true);
    await t.runJobs();
  });

  it('catches up at start-up with manuscript versions a previous run did not index or check', async () => {
    await sim.store.remove('submission_version', submissionFileId);
    await t.services.db.delete(similarityChecks).where(eq(similarityChecks.submissionFileId, submissionFileId));
    expect(await sim.startupCatchUp()).toBe(1);
    await t.runJobs();
    expect(await sim.store.find('submission_version', submissionFileId)).toMatchObject({
      groupKey: `submission:${submissionId}`,
    });
    const [stored] = await t.services.db
      .select()
      .from(similarityChecks)
      .where(eq(similarityChecks.submissionFileId, submissionFileId));
    expect(stored).toBeDefined();
    // Nothing left to do: a second start queues nothing.
    expect(await sim.startupCatchUp()).toBe(0);
  });

  it('follows the published flag and removes a deleted source', async () => {
    await t.services.db.update(articles).set({ status: 'unpublished' }).where(eq(articles.id, articleId));
    await sim.indexArticle(articleId);
    expect((await sim.store.find('article', articleId))?.published).toBe(false);
    await t.services.db.update(articles).set({ status: 'published' }).where(eq(articles.id, articleId));
    await sim.indexArticle(articleId);
    expect((await sim.store.find('article', articleId))?.published).toBe(true);
    expect(await sim.indexSubmissionVersion(999_999)).toMatchObject({ status: 'skipped' });
  });
});

/** The check's text was read by a worker: another process, or another thread of this one. */
const ranElsewhere = (report: { timings: Record<string, number> }) =>
  report.timings.workerPid !== process.pid || report.timings.workerThread > 0;

describe('checks', () => {
  it('finds the published and the unpublished passages; shares add up to the total', async () => {
    const before = await sim.store.stats();
    const report = await sim.check(upload(await checkedFile()), { viewer: 'editor', grammar: false });
    expect(report.sources).toHaveLength(2);
    const published = report.sources.find((s) => s.published)!;
    const unpublished = report.sources.find((s) => !s.published)!;
    expect(published).toMatchObject({ kind: 'article', articleId, title: 'Energy-aware task offloading for battery-powered IoT gateways' });
    expect(unpublished).toMatchObject({ kind: 'submission_version', sourceId: submissionFileId });
    expect(unpublished.title).toContain('Ferry timetables');
    expect(published.matchedWords).toBe(wordsOf(PUBLISHED_PASSAGE).length);
    expect(unpublished.matchedWords).toBe(wordsOf(UNPUBLISHED_PARA).length);
    const matched = published.matchedWords + unpublished.matchedWords;
    expect(report.words.matched).toBe(matched);
    expect(report.plagiarismPercentage).toBeCloseTo((matched / report.words.counted) * 100, 2);
    expect(Math.round((published.sharePercentage + unpublished.sharePercentage) * 100)).toBe(
      Math.round(report.plagiarismPercentage * 100),
    );
    // Passages point into the manuscript text and the source text.
    const p = report.passages.find((x) => x.source === published.ref)!;
    expect(report.text.slice(p.manuscript.start, p.manuscript.end)).toBe(p.manuscript.text);
    expect(p.manuscript.text.replace(/\s+/g, ' ')).toBe(PUBLISHED_PASSAGE.replace(/\.$/, ''));
    expect(p.sourceText?.text.replace(/\s+/g, ' ')).toBe(PUBLISHED_PASSAGE.replace(/\.$/, ''));
    // The checked file was not added to the corpus.
    expect(await sim.store.stats()).toEqual(before);
    // It ran in a worker (a process of its own), not on the thread that asked.
    expect(ranElsewhere(report)).toBe(true);
  });

  it("shows a reader nothing of an unpublished source but its share", async () => {
    const report = await sim.check(upload(await checkedFile()), { viewer: 'reader', grammar: false });
    const published = report.sources.find((s) => s.published)!;
    const unpublished = report.sources.find((s) => !s.published)!;
    expect(published.title).toContain('Energy-aware');
    expect(unpublished).toEqual({
      ref: unpublished.ref,
      kind: 'unpublished',
      documentId: null,
      sourceId: null,
      articleId: null,
      title: null,
      label: UNPUBLISHED_LABEL,
      published: false,
      matchedWords: wordsOf(UNPUBLISHED_PARA).length,
      sharePercentage: unpublished.sharePercentage,
      passageCount: 1,
    });
    const hidden = report.passages.filter((p) => p.source === unpublished.ref);
    expect(hidden).toHaveLength(1);
    expect(hidden[0].sourceText).toBeNull();
    const json = JSON.stringify(report);
    expect(json).not.toContain('Ferry timetables');
    expect(json).not.toContain('Secret Author');
    expect(json).not.toContain('Hidden University');
    expect(json).not.toContain(`submission:${submissionId}`);
  });

  it('leaves out the versions of the checked submission itself', async () => {
    const report = await sim.checkSubmissionFile(submissionFileId, { viewer: 'editor', grammar: false });
    expect(report.sources).toEqual([]);
    expect(report.plagiarismPercentage).toBe(0);
    const byDoc = await sim.check(upload(await checkedFile()), {
      viewer: 'editor',
      grammar: false,
      excludeDocument: { kind: 'submission_version', id: submissionFileId },
    });
    expect(byDoc.sources.map((s) => s.kind)).toEqual(['article']);
  });

  it('finds a short verbatim run (a candidate with few shared fingerprints is read as a window)', async () => {
    // 10 words of the article's section 3, inside original text.
    const run = 'the expected energy of both choices and the probability of';
    const file = await textPdf([ORIGINAL[0], `${ORIGINAL[1]} In short ${run} failure matter most.`, ORIGINAL[2]]);
    const report = await sim.check(upload(file), { viewer: 'editor', grammar: false });
    expect(report.sources.map((s) => s.kind)).toEqual(['article']);
    expect(report.passages).toHaveLength(1);
    expect(report.passages[0].manuscript.text.replace(/\s+/g, ' ')).toBe(run);
    expect(report.passages[0].sourceText?.text.replace(/\s+/g, ' ')).toBe(run);
  });

  it('ignores matches shorter than minMatchWords', async () => {
    const report = await sim.check(upload(await checkedFile()), { viewer: 'editor', grammar: false, minMatchWords: 40 });
    expect(report.sources.map((s) => s.kind)).toEqual(['submission_version']);
    expect(report.settings.minMatchWords).toBe(40);
  });

  it('excludes quoted text and the bibliography when asked', async () => {
    const quoted = await textPdf([...ORIGINAL, `As the authors wrote, "${PUBLISHED_PASSAGE}"`, ...ORIGINAL]);
    const withQuotes = await sim.check(upload(quoted), { viewer: 'editor', grammar: false });
    const withoutQuotes = await sim.check(upload(quoted), { viewer: 'editor', grammar: false, excludeQuotes: true });
    expect(withQuotes.words.matched).toBeGreaterThan(20);
    expect(withoutQuotes.words.matched).toBe(0);
    expect(withoutQuotes.words.quoted).toBe(wordsOf(PUBLISHED_PASSAGE).length);

    const cited = await textPdf([...ORIGINAL, ...ORIGINAL, 'References', `[1] ${PUBLISHED_PASSAGE}`]);
    const bibOut = await sim.check(upload(cited), { viewer: 'editor', grammar: false });
    const bibIn = await sim.check(upload(cited), { viewer: 'editor', grammar: false, excludeBibliography: false });
    expect(bibOut.words.matched).toBe(0);
    expect(bibOut.words.bibliography).toBeGreaterThan(20);
    expect(bibIn.words.matched).toBeGreaterThan(20);
    expect(bibIn.words.counted).toBeGreaterThan(bibOut.words.counted);
  });

  it('refuses unreadable files with clear messages, never a 0 % score', async () => {
    const scanned = await sim.check({ data: fixture('scanned.pdf') }, { viewer: 'reader' }).catch((e) => e);
    expect(scanned).toBeInstanceOf(ExtractionError);
    expect(scanned.message).toMatch(/No text could be read from this file: it seems to be a scanned image/);
    for (const [name, code] of [
      ['encrypted.pdf', 'encrypted'],
      ['truncated.pdf', 'corrupt'],
      ['png-named.pdf', 'unsupported'],
    ] as const) {
      await expect(sim.check({ data: fixture(name) }, { viewer: 'reader' })).rejects.toMatchObject({ reason: code });
    }
  });

  it('keeps the event loop free during a check', async () => {
    const big = await textPdf(Array.from({ length: 90 }, (_, i) => `${ORIGINAL.join(' ')} Paragraph ${i}.`));
    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const report = await sim.check(upload(big), { viewer: 'editor', grammar: false });
    clearInterval(timer);
    expect(report.words.total).toBeGreaterThan(8000);
    expect(ranElsewhere(report)).toBe(true);
    // Parsing this PDF in the main thread would stall the timer for the whole extraction.
    expect(longest).toBeLessThan(Math.max(250, report.timings.extractMs / 2));
  });

  it('refuses a check with "busy, try again" when the queue is full', async () => {
    const small = new SimilarityService(t.services.db, {
      files: t.services.files,
      log: silentLog,
      options: { maxConcurrentChecks: 1, maxQueuedChecks: 1 },
    });
    try {
      const file = await checkedFile();
      const runs = [1, 2, 3].map(() => small.check({ data: file }, { viewer: 'reader', grammar: false }));
      const results = await Promise.allSettled(runs);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      const err = (results[2] as PromiseRejectedResult).reason;
      expect(err).toBeInstanceOf(BusyError);
      expect(err).toMatchObject({
        code: 'unavailable',
        detail: { retryAfterSeconds: 30 },
        message: expect.stringMatching(/busy.*try again/i),
      });
    } finally {
      await small.close();
    }
  });
});

describe('the hooks and the arrival check', () => {
  const fields = (title: string) => ({
    title,
    articleType: 'Research Article' as const,
    keywords: 'waste',
    abstract: 'Diaries.',
    conflictOfInterest: 'None.',
    fundingStatement: '',
    dataAvailabilityStatement: '',
    authors: [{ name: 'Other Author', email: 'o@example.org', affiliation: 'Elsewhere', superscript: '', orcid: null }],
  });

  it('checks a new submission on arrival against the published article and the earlier manuscript', async () => {
    const { id } = await t.services.submissions.submit(author, fields('Waste diaries'), upload(await checkedFile()));
    // The summary exists at once (pending), then holds the stored score.
    expect((await sim.summaryForSubmission(id))?.status).toMatch(/pending|checked/);
    await t.runJobs();
    const [version] = await sim.manuscriptVersions(id);
    expect(await sim.store.find('submission_version', version.submissionFileId)).toMatchObject({ published: false });
    const summary = (await sim.summaryForSubmission(id))!;
    expect(summary).toMatchObject({ status: 'checked', version: 1, submissionFileId: version.submissionFileId, error: null });
    expect(summary.plagiarismPercentage).toBeGreaterThan(30);
    expect(summary.grammarQualityPercentage).toBeNull(); // grammar is off in this file
    expect(summary.sources.map((s) => s.articleId)).toContain(articleId);
    expect(summary.sources.some((s) => s.label.includes('Ferry timetables'))).toBe(true); // editors' view

    // The editor's report is the stored one with the default filters; other filters run it again.
    const stored = await sim.reportForSubmission(id);
    expect(stored).toMatchObject({ stored: true, version: 1, versions: [{ version: 1 }] });
    expect(stored.report.plagiarismPercentage).toBe(summary.plagiarismPercentage);
    const strict = await sim.reportForSubmission(id, { minMatchWords: 40 });
    expect(strict.stored).toBe(false);
    expect(strict.report.sources.map((s) => s.kind)).toEqual(['submission_version']);
    expect((await sim.summaryForSubmission(id))!.plagiarismPercentage).toBe(summary.plagiarismPercentage);
    await expect(sim.reportForSubmission(id, { fileId: submissionFileId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(sim.reportForSubmission(999_999)).rejects.toMatchObject({ code: 'not_found' });
    expect(await sim.summaryForSubmission(999_999)).toBeNull();
  });

  it('indexes and checks a revision; the earlier version of the same work is never a source', async () => {
    const own = [
      'Bicycle couriers in the old town chose their routes by the smell of the bakeries rather than by any map we gave them.',
      'We followed eleven riders for a month and wrote down every turn, every stop and every argument with a delivery van.',
      'The shortest route was taken on fewer than a third of the trips, and the riders explained each detour with a story.',
    ];
    const { id } = await t.services.submissions.submit(author, fields('Courier routes'), upload(await textPdf(own)));
    await t.services.submissions.decide(admin, id, { status: 'under_review', message: 'Reviewing.' });
    await t.services.submissions.decide(admin, id, { status: 'revisions_requested', message: 'Please revise.' });
    await t.services.submissions.revise(author, id, 'Revised.', upload(await textPdf([...own, PUBLISHED_PASSAGE])));
    await t.runJobs();
    const versions = await sim.manuscriptVersions(id);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    for (const v of versions) expect(await sim.store.find('submission_version', v.submissionFileId)).not.toBeNull();
    const summary = (await sim.summaryForSubmission(id))!;
    expect(summary).toMatchObject({ status: 'checked', version: 2 });
    // Version 1 (the same three paragraphs) is not a source; the published passage is.
    const report = await sim.reportForSubmission(id);
    expect(report.report.sources.map((s) => s.kind)).toEqual(['article']);
    const first = await sim.reportForSubmission(id, { fileId: versions[0].submissionFileId });
    expect(first).toMatchObject({ stored: true, version: 1 });
  });

  it('keeps the arrival work as a job in the database until a queue runs it (nothing lost at a stop)', async () => {
    const { id } = await t.services.submissions.submit(author, fields('Tide tables'), upload(await checkedFile()));
    const waiting = (await t.services.jobs.list('queued')).find(
      (j) => j.name === 'similarity.index' && (j.payload as { submissionId?: number }).submissionId === id,
    );
    expect(waiting?.payload).toEqual({ type: 'submission', submissionId: id });
    expect((await sim.summaryForSubmission(id))?.status).toBe('pending');
    // The next start: a new queue on the same database runs it.
    const { JobQueue } = await import('../jobs/queue.ts');
    const next = new JobQueue(t.services.db, { clock: t.clock, log: silentLog });
    const again = new SimilarityService(t.services.db, {
      files: t.services.files,
      log: silentLog,
      jobs: next,
      options: { background: true, grammar: false },
    });
    try {
      await next.runDue();
      expect((await sim.summaryForSubmission(id))?.status).toBe('checked');
      const [job] = await t.services.db.select().from(jobs).where(eq(jobs.id, waiting!.id));
      expect(job).toMatchObject({ status: 'done', attempts: 1 });
    } finally {
      await again.close();
    }
  });

  it('stores a clear reason, not a score, for a manuscript without text', async () => {
    const { id } = await t.services.submissions.submit(author, fields('A scan'), upload(fixture('scanned.pdf'), 'scan.pdf'));
    await t.runJobs();
    const summary = (await sim.summaryForSubmission(id))!;
    expect(summary).toMatchObject({ status: 'failed', plagiarismPercentage: null });
    expect(summary.error).toMatch(/scanned image/);
    await expect(sim.reportForSubmission(id)).rejects.toBeInstanceOf(ExtractionError);
  });

  it('follows an article unpublished and republished by the catalog', async () => {
    await t.services.catalog.setArticleStatus(admin, articleId, 'unpublished');
    await t.runJobs();
    expect((await sim.store.find('article', articleId))?.published).toBe(false);
    const reader = await sim.check(upload(await checkedFile()), { viewer: 'reader', grammar: false });
    expect(reader.sources.every((s) => s.title === null)).toBe(true);
    await t.services.catalog.setArticleStatus(admin, articleId, 'published');
    await t.runJobs();
    expect((await sim.store.find('article', articleId))?.published).toBe(true);
  });

  it('fills an empty corpus at start-up, in the background', async () => {
    await t.services.db.delete(similarityDocuments);
    expect(await sim.startupReindex()).toBe(true);
    await t.runJobs();
    expect((await sim.store.stats()).documents).toBeGreaterThanOrEqual(5);
    expect(await sim.startupReindex()).toBe(false); // not empty any more
  });
});
