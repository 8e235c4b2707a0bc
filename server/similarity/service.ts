/**
 * The similarity and grammar checker: the corpus (index of published articles and submitted manuscripts)
 * and checks of uploaded files against it. See docs in the files beside this one:
 *   text.ts (normalisation), extract.ts (PDF/Word), fingerprint.ts (winnowing), align.ts (passages),
 *   score.ts (crediting), grammar.ts (the grammar measure), report.ts (report and privacy rule),
 *   store.ts + tables.ts (the database), pool.ts (worker threads).
 *
 * Threads: extraction, fingerprinting and alignment run in the check workers; harper.js in the grammar
 * worker; only database queries and small bookkeeping run on the server's event loop.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { articles } from '../catalog/tables.ts';
import type { Db } from '../db/client.ts';
import type { DetectedKind } from '../files/content-type.ts';
import type { FileService } from '../files/service.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { Logger } from '../services.ts';
import { submissionFiles, submissions } from '../submissions/tables.ts';
import { type AlignParams, DEFAULT_ALIGN } from './align.ts';
import type { PrepareOptions, PreparedText, SourcePassages } from './engine.ts';
import { EXTRACTION_MESSAGES, ExtractionError, type ExtractionErrorCode } from './extract.ts';
import { DEFAULT_WINNOW, type WinnowParams } from './fingerprint.ts';
import {
  CORE_RULES,
  type GrammarResult,
  type RawIssue,
  bodySentences,
  grammarBody,
  grammarChunks,
  scoreGrammar,
  spellingWords,
} from './grammar.ts';
import { BusyError, WorkerPool, type WorkerErrorShape } from './pool.ts';
import { GRAMMAR_MEASURE, type GrammarReport, type MatchedSource, type SimilarityReport, type Viewer, buildReport } from './report.ts';
import { creditWords } from './score.ts';
import { type CandidateQuery, SimilarityStore } from './store.ts';
import type { SourceKind } from './tables.ts';
import { tokenize } from './text.ts';

export { BusyError } from './pool.ts';
export { ExtractionError } from './extract.ts';
export type { SimilarityReport } from './report.ts';

export interface SimilarityOptions {
  winnow: WinnowParams;
  align: AlignParams;
  /** Most candidate documents aligned per check (those sharing the most fingerprints). */
  maxCandidates: number;
  candidateQuery: CandidateQuery;
  /** Check worker threads (extraction, fingerprinting, alignment). */
  workers: number;
  /** Grammar worker threads (each holds about 0.5 GB while loaded). */
  grammarWorkers: number;
  /** Checks running at once, and waiting; beyond that a check is refused with BusyError. */
  maxConcurrentChecks: number;
  maxQueuedChecks: number;
  /** Seconds a worker stays loaded without work. */
  workerIdleSeconds: number;
  grammarIdleSeconds: number;
  /** Spelling is not counted for words used by at least this many indexed documents. */
  vocabularyMinDocs: number;
  /** Words per grammar task (a check's body is split at sentence ends). */
  grammarChunkWords: number;
  /** Measure grammar at all (off: grammarQualityPercentage is null). */
  grammar: boolean;
  /** harper's rules: `core` (the rules behind the counted kinds; fast) or `all` (~5× slower). */
  grammarRules: 'core' | 'all';
}

export const DEFAULT_SIMILARITY_OPTIONS: SimilarityOptions = {
  winnow: DEFAULT_WINNOW,
  align: DEFAULT_ALIGN,
  maxCandidates: 200,
  candidateQuery: 'any',
  workers: 1,
  grammarWorkers: 1,
  maxConcurrentChecks: 2,
  maxQueuedChecks: 8,
  workerIdleSeconds: 60,
  grammarIdleSeconds: 900,
  vocabularyMinDocs: 2,
  grammarChunkWords: 1200,
  grammar: true,
  grammarRules: 'core',
};

export interface CheckOptions {
  viewer: Viewer;
  excludeQuotes?: boolean;
  excludeBibliography?: boolean;
  /** Passages with fewer matched words are ignored (default 8). */
  minMatchWords?: number;
  /** Leave this indexed document, and every other version of the same work, out of the sources. */
  excludeDocument?: { kind: SourceKind; id: number };
  /** Leave every document of this group out ("submission:12": all versions of submission 12 and its article). */
  excludeGroup?: string;
  /** Measure grammar (default: the service's setting). */
  grammar?: boolean;
  onProgress?: (p: { stage: 'reading' | 'matching' | 'grammar' | 'done'; done: number; total: number }) => void;
}

export type CheckInput = CheckedUpload | { data: Buffer; kind?: DetectedKind };

export interface IndexResult {
  status: 'created' | 'replaced' | 'unchanged' | 'removed' | 'skipped' | 'failed';
  documentId?: number;
  reason?: string;
}

function reviveError(e: WorkerErrorShape): Error {
  if (e.name === 'ExtractionError' && e.code && e.code in EXTRACTION_MESSAGES) {
    return new ExtractionError(e.code as ExtractionErrorCode, e.message);
  }
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/** Limits how many checks run at once and how many may wait. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly concurrency: number,
    private readonly maxQueue: number,
  ) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueue) throw new BusyError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * The similarity step proper, on an already prepared manuscript: candidates from the inverted index,
 * alignment with each (by `alignFn`: a worker in the service, a direct call in the benchmark), crediting.
 */
export async function matchAgainstCorpus(
  store: SimilarityStore,
  prepared: Pick<PreparedText, 'wordHashes' | 'mask' | 'wordCount' | 'fingerprints'>,
  opts: {
    maxCandidates: number;
    query: CandidateQuery;
    excludeGroup: string | null;
    align: AlignParams;
    /** Candidates sharing at most this many fingerprints are read as windows around them. */
    weakShared?: number;
    windowRadius?: number;
  },
  alignFn: (payload: {
    manuscript: { wordHashes: Uint32Array; mask: Uint8Array };
    sources: { key: number; hashes: Uint32Array; offset: number }[];
    params: AlignParams;
  }) => Promise<SourcePassages[]> | SourcePassages[],
) {
  const t0 = performance.now();
  const candidates = await store.candidates(prepared.fingerprints.hashes, {
    limit: opts.maxCandidates,
    excludeGroup: opts.excludeGroup,
    query: opts.query,
    weak: opts.weakShared ?? 3,
  });
  const words = await store.loadWords(candidates, opts.windowRadius ?? 150);
  const candidatesMs = performance.now() - t0;
  const t1 = performance.now();
  const matches = await alignFn({
    manuscript: { wordHashes: prepared.wordHashes, mask: prepared.mask },
    sources: words.map((w) => ({ key: w.documentId, hashes: w.wordHashes, offset: w.offset })),
    params: opts.align,
  });
  const alignMs = performance.now() - t1;
  const docs = await store.describe(matches.map((m) => m.key));
  const published = new Map(docs.map((d) => [d.id, d.published]));
  const score = creditWords(
    prepared.wordCount,
    prepared.mask,
    matches.map((m) => ({ key: m.key, published: published.get(m.key) ?? false, passages: m.passages })),
  );
  return { candidates, docs, matches, score, candidatesMs, alignMs };
}

export class SimilarityService {
  readonly store: SimilarityStore;
  readonly options: SimilarityOptions;
  private readonly pool: WorkerPool;
  private readonly grammarPool: WorkerPool;
  private readonly gate: Gate;
  private background: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly db: Db,
    private readonly deps: { files: FileService; log: Logger; options?: Partial<SimilarityOptions> },
  ) {
    this.options = { ...DEFAULT_SIMILARITY_OPTIONS, ...deps.options };
    this.store = new SimilarityStore(db);
    const o = this.options;
    this.pool = new WorkerPool({
      name: 'similarity',
      entry: new URL('./worker.ts', import.meta.url),
      size: o.workers,
      // Checks are bounded by the gate; indexing jobs are serial: this queue stays short.
      maxQueue: 64,
      idleMs: o.workerIdleSeconds * 1000,
      reviveError,
    });
    this.grammarPool = new WorkerPool({
      name: 'grammar',
      entry: new URL('./grammar-worker.ts', import.meta.url),
      size: o.grammarWorkers,
      maxQueue: 1024,
      idleMs: o.grammarIdleSeconds * 1000,
      reviveError,
    });
    this.gate = new Gate(o.maxConcurrentChecks, o.maxQueuedChecks);
  }

  // ---- Checking -------------------------------------------------------------------------------------

  /**
   * Checks a file against the corpus. Never adds it to the corpus. Throws ExtractionError (with `status`
   * and a message for the person) when the file's text cannot be read, BusyError (503) when too many
   * checks are waiting.
   */
  async check(input: CheckInput, opts: CheckOptions): Promise<SimilarityReport> {
    return this.gate.run(() => this.runCheck(input.data, opts));
  }

  /** An editor's report on one stored version of a submission: the other versions are not sources. */
  async checkSubmissionFile(submissionFileId: number, opts: Omit<CheckOptions, 'excludeDocument'> = { viewer: 'editor' }) {
    const row = await this.submissionFileRow(submissionFileId);
    if (!row) throw new Error(`No submission file ${submissionFileId}`);
    const data = await this.readFile(row.fileId);
    return this.check({ data }, { ...opts, excludeGroup: `submission:${row.submissionId}` });
  }

  private async runCheck(data: Buffer, opts: CheckOptions): Promise<SimilarityReport> {
    const o = this.options;
    const t0 = performance.now();
    const settings = {
      excludeQuotes: opts.excludeQuotes ?? false,
      excludeBibliography: opts.excludeBibliography ?? true,
      minMatchWords: opts.minMatchWords ?? o.align.minMatchWords,
    };
    const progress = opts.onProgress ?? (() => undefined);
    progress({ stage: 'reading', done: 0, total: 1 });
    const prepared = await this.prepare(data, { ...settings, winnow: o.winnow });
    const tPrepared = performance.now();

    const wantGrammar = opts.grammar ?? o.grammar;
    const grammar = wantGrammar
      ? this.grammar(prepared, progress).then(
          (r) => ({ ok: true as const, r, ms: performance.now() - tPrepared }),
          (err: Error) => ({ ok: false as const, err, ms: performance.now() - tPrepared }),
        )
      : null;

    progress({ stage: 'matching', done: 0, total: 1 });
    const tCandidates = performance.now();
    let excludeGroup = opts.excludeGroup ?? null;
    if (!excludeGroup && opts.excludeDocument) {
      excludeGroup = (await this.store.find(opts.excludeDocument.kind, opts.excludeDocument.id))?.groupKey ?? null;
    }
    const { candidates, docs, matches, score, candidatesMs, alignMs } = await matchAgainstCorpus(
      this.store,
      prepared,
      {
        maxCandidates: o.maxCandidates,
        query: o.candidateQuery,
        excludeGroup,
        align: { ...o.align, minMatchWords: settings.minMatchWords },
      },
      (payload) => this.pool.run<SourcePassages[]>('align', payload),
    );
    const docById = new Map(docs.map((d) => [d.id, d]));
    const credited = new Set(score.credits.map((c) => c.key));
    const texts = await this.store.texts([...credited]);
    const sources: MatchedSource[] = matches
      .filter((m) => credited.has(m.key))
      .map((m) => {
        const d = docById.get(m.key)!;
        const text = texts.get(m.key) ?? '';
        const tokens = tokenize(text);
        return {
          documentId: d.id,
          sourceKind: d.sourceKind,
          sourceId: d.sourceId,
          title: d.title,
          published: d.published,
          passages: m.passages,
          text,
          starts: tokens.starts,
          ends: tokens.ends,
        };
      });
    progress({ stage: 'matching', done: 1, total: 1 });
    const tokens = tokenize(prepared.text);
    const similarityMs = performance.now() - tCandidates;

    let grammarReport: GrammarReport & { grammarQualityPercentage: number | null } = {
      measure: GRAMMAR_MEASURE,
      available: false,
      error: 'The grammar check was not requested.',
      sentences: 0,
      sentencesWithIssues: 0,
      issues: [],
      grammarQualityPercentage: null,
    };
    let grammarMs = 0;
    if (grammar) {
      const g = await grammar;
      grammarMs = g.ms;
      if (g.ok) {
        grammarReport = {
          measure: GRAMMAR_MEASURE,
          available: true,
          sentences: g.r.sentences,
          sentencesWithIssues: g.r.sentencesWithIssues,
          issues: g.r.issues,
          grammarQualityPercentage: g.r.grammarQualityPercentage,
        };
      } else {
        this.deps.log.error({ err: g.err }, 'grammar check failed');
        grammarReport = { ...grammarReport, error: 'The grammar checker could not finish this file.' };
      }
    }
    progress({ stage: 'done', done: 1, total: 1 });
    return buildReport({
      viewer: opts.viewer,
      settings,
      file: { kind: prepared.kind, pages: prepared.pages },
      text: prepared.text,
      starts: tokens.starts,
      ends: tokens.ends,
      mask: prepared.mask,
      owner: score.owner,
      credits: score.credits,
      sources,
      grammar: grammarReport,
      timings: {
        extractMs: prepared.timings.extractMs,
        fingerprintMs: prepared.timings.fingerprintMs,
        candidatesMs,
        alignMs,
        similarityMs,
        grammarMs,
        totalMs: performance.now() - t0,
        candidates: candidates.length,
        thread: prepared.threadId,
      },
    });
  }

  /** Extraction and fingerprinting in a worker. The bytes are copied: the caller's buffer stays usable. */
  private prepare(data: Buffer, options: PrepareOptions): Promise<PreparedText> {
    const copy = new Uint8Array(data.byteLength);
    copy.set(data);
    return this.pool.run<PreparedText>('prepare', { data: copy, options }, [copy.buffer]);
  }

  private async grammar(
    prepared: PreparedText,
    progress: NonNullable<CheckOptions['onProgress']>,
  ): Promise<GrammarResult> {
    const body = grammarBody(prepared.text, prepared.bodyEnd);
    const sentences = bodySentences(body);
    const chunks = grammarChunks(body, sentences, this.options.grammarChunkWords);
    const rules = this.options.grammarRules === 'all' ? 'all' : [...CORE_RULES];
    let done = 0;
    progress({ stage: 'grammar', done, total: chunks.length });
    const results = await Promise.all(
      chunks.map((c) =>
        this.grammarPool.run<RawIssue[]>('lint', { text: c.text, rules }).then((issues) => {
          progress({ stage: 'grammar', done: ++done, total: chunks.length });
          return issues.map((i) => ({ ...i, start: i.start + c.offset, end: i.end + c.offset }));
        }),
      ),
    );
    const raw = results.flat();
    const known = await this.store.knownWords(spellingWords(body, sentences, raw), this.options.vocabularyMinDocs);
    return scoreGrammar(body, sentences, raw, known);
  }

  // ---- Indexing -------------------------------------------------------------------------------------

  /** Indexes (or refreshes) an article's PDF; an article without a PDF is skipped, a deleted one removed. */
  async indexArticle(articleId: number): Promise<IndexResult> {
    const [a] = await this.db
      .select({
        id: articles.id,
        title: articles.title,
        status: articles.status,
        pdfFileId: articles.pdfFileId,
        submissionId: articles.submissionId,
      })
      .from(articles)
      .where(eq(articles.id, articleId));
    if (!a) return (await this.store.remove('article', articleId)) ? { status: 'removed' } : { status: 'skipped', reason: 'no such article' };
    if (!a.pdfFileId) return { status: 'skipped', reason: 'the article has no PDF' };
    return this.indexStoredFile({
      sourceKind: 'article',
      sourceId: a.id,
      groupKey: a.submissionId ? `submission:${a.submissionId}` : `article:${a.id}`,
      title: a.title,
      published: a.status === 'published',
      fileId: a.pdfFileId,
    });
  }

  /** Indexes one stored version of a submission's manuscript (additional files are not indexed). */
  async indexSubmissionVersion(submissionFileId: number): Promise<IndexResult> {
    const row = await this.submissionFileRow(submissionFileId);
    if (!row) {
      return (await this.store.remove('submission_version', submissionFileId))
        ? { status: 'removed' }
        : { status: 'skipped', reason: 'no such submission file' };
    }
    if (row.kind !== 'manuscript') return { status: 'skipped', reason: 'not a manuscript' };
    return this.indexStoredFile({
      sourceKind: 'submission_version',
      sourceId: submissionFileId,
      groupKey: `submission:${row.submissionId}`,
      title: `${row.title} (${row.reference}, version ${row.version})`,
      published: false,
      fileId: row.fileId,
    });
  }

  /** Re-indexes every article and every submitted manuscript version; drops documents whose source is gone. */
  async reindexAll(onEach?: (kind: SourceKind, id: number, r: IndexResult) => void) {
    const counts: Record<IndexResult['status'], number> = { created: 0, replaced: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0 };
    const seen = new Set<string>();
    const articleIds = await this.db.select({ id: articles.id }).from(articles).where(isNotNull(articles.pdfFileId));
    for (const { id } of articleIds) {
      seen.add(`article:${id}`);
      const r = await this.indexArticle(id);
      counts[r.status]++;
      onEach?.('article', id, r);
    }
    const versions = await this.db
      .select({ id: submissionFiles.id })
      .from(submissionFiles)
      .where(eq(submissionFiles.kind, 'manuscript'));
    for (const { id } of versions) {
      seen.add(`submission_version:${id}`);
      const r = await this.indexSubmissionVersion(id);
      counts[r.status]++;
      onEach?.('submission_version', id, r);
    }
    for (const s of await this.store.sources()) {
      if (seen.has(`${s.sourceKind}:${s.sourceId}`)) continue;
      await this.store.remove(s.sourceKind, s.sourceId);
      counts.removed++;
    }
    return counts;
  }

  /**
   * THE HOOK for other services: call after the transaction that published/changed an article, or stored
   * a new manuscript version, has committed. Returns at once; the indexing runs in the background, one job
   * at a time, and a failure is logged, never thrown at the caller.
   */
  afterCommit(event: { type: 'article'; articleId: number } | { type: 'submission_version'; submissionFileId: number }): void {
    this.pending++;
    this.background = this.background
      .then(() =>
        event.type === 'article' ? this.indexArticle(event.articleId) : this.indexSubmissionVersion(event.submissionFileId),
      )
      .then((r) => {
        if (r.status === 'failed') this.deps.log.warn({ event, reason: r.reason }, 'similarity indexing failed');
      })
      .catch((err) => this.deps.log.error({ err, event }, 'similarity indexing failed'))
      .finally(() => {
        this.pending--;
      });
  }

  /** Resolves when the background indexing started by afterCommit has finished (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.background;
  }

  /** Ends the worker threads (they also end by themselves when idle). */
  async close(): Promise<void> {
    await this.idle().catch(() => undefined);
    await Promise.all([this.pool.close(), this.grammarPool.close()]);
  }

  stats() {
    return { pool: this.pool.stats(), grammar: this.grammarPool.stats() };
  }

  // ---- Helpers --------------------------------------------------------------------------------------

  private async indexStoredFile(doc: {
    sourceKind: SourceKind;
    sourceId: number;
    groupKey: string;
    title: string;
    published: boolean;
    fileId: number;
  }): Promise<IndexResult> {
    const file = await this.deps.files.get(doc.fileId);
    const existing = await this.store.find(doc.sourceKind, doc.sourceId);
    if (existing && existing.contentSha256 === file.sha256) {
      // Same file: no need to read it again; the title or the published flag may have changed.
      await this.store.refresh(existing.id, { title: doc.title, published: doc.published, groupKey: doc.groupKey });
      return { status: 'unchanged', documentId: existing.id };
    }
    let prepared: PreparedText;
    try {
      prepared = await this.prepare(await this.readFile(doc.fileId), {
        excludeQuotes: false,
        excludeBibliography: false,
        winnow: this.options.winnow,
        vocabulary: true,
      });
    } catch (err) {
      if (err instanceof ExtractionError) return { status: 'failed', reason: err.message };
      throw err;
    }
    const r = await this.store.upsert({
      sourceKind: doc.sourceKind,
      sourceId: doc.sourceId,
      groupKey: doc.groupKey,
      title: doc.title,
      published: doc.published,
      text: prepared.text,
      wordHashes: prepared.wordHashes,
      fingerprints: prepared.fingerprints,
      vocabulary: prepared.vocabulary ?? [],
      contentSha256: file.sha256,
    });
    return { status: r.status, documentId: r.id };
  }

  private async readFile(fileId: number): Promise<Buffer> {
    const file = await this.deps.files.get(fileId);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.deps.files.open(file)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async submissionFileRow(submissionFileId: number) {
    const [row] = await this.db
      .select({
        id: submissionFiles.id,
        kind: submissionFiles.kind,
        version: submissionFiles.version,
        fileId: submissionFiles.fileId,
        submissionId: submissionFiles.submissionId,
        title: submissions.title,
        reference: submissions.reference,
      })
      .from(submissionFiles)
      .innerJoin(submissions, eq(submissions.id, submissionFiles.submissionId))
      .where(and(eq(submissionFiles.id, submissionFileId)));
    return row ?? null;
  }
}
