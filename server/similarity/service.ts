/**
 * The similarity and grammar checker: the corpus (index of published articles and submitted manuscripts)
 * and checks of uploaded files against it. See docs in the files beside this one:
 *   text.ts (normalisation), extract.ts (PDF/Word), fingerprint.ts (winnowing), align.ts (passages),
 *   score.ts (crediting), grammar.ts (the grammar measure), report.ts (report and privacy rule),
 *   store.ts + tables.ts (the database), pool.ts (worker threads).
 *
 * Workers: extraction, fingerprinting and alignment run in the check worker threads; harper.js in the
 * grammar worker process; only database queries and small bookkeeping run on the server's event loop.
 */
import { CATALOG } from '../cache/dependencies.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { HOUR } from '../clock.ts';
import { OPTION_DEFAULTS } from '../../common/similarity-rules.ts';
import type { CorpusCoverage } from '../../common/similarity.ts';
import { rowsOf } from '../db/client.ts';
import { articles } from '../catalog/tables.ts';
import type { Db } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { DetectedKind } from '../files/content-type.ts';
import type { FileService } from '../files/service.ts';
import { notFound } from '../http/errors.ts';
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
import { type SourceKind, similarityChecks, similarityDocuments, similarityUnreadable } from './tables.ts';
import { tokenize } from './text.ts';

export { BusyError } from './pool.ts';
export { ExtractionError } from './extract.ts';
export type { SimilarityReport } from './report.ts';

/** The worker entries sit beside this module: TypeScript sources, or the compiled build (`npm run build`). */
const MODULE_EXT = import.meta.url.endsWith('.ts') ? 'ts' : 'js';

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
  /**
   * Seconds a worker stays loaded without work. The grammar checker holds about 0.4 GB and takes a second or
   * so to load: a burst of checks keeps it, and the server's memory is back to what it was a minute after.
   */
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
  /**
   * Background work (jobs on the queue): the corpus follows the catalog's and the submissions' events
   * (server/events/followers.ts), each arriving manuscript version is indexed and checked, and the catch-up
   * pass fills an empty corpus. Off (tests), or without a queue: no job; `reindexAll` and checks still work
   * when called.
   */
  background: boolean;
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
  grammarIdleSeconds: 60,
  vocabularyMinDocs: 2,
  grammarChunkWords: 1200,
  grammar: true,
  grammarRules: 'core',
  background: true,
};

/** What the desk shows of a submission's stored check (the latest manuscript version's). */
export interface SimilaritySummary {
  submissionFileId: number;
  version: number;
  /** `pending`: not checked yet (it is being indexed and checked in the background). */
  status: 'checked' | 'failed' | 'pending';
  plagiarismPercentage: number | null;
  grammarQualityPercentage: number | null;
  /** The sources by share, largest first (editor's view: titles of unpublished manuscripts included). */
  sources: { label: string; sharePercentage: number; articleId: number | null }[];
  /** Why the check failed (a scanned PDF, a damaged file). */
  error: string | null;
  checkedAt: string | null;
}

/** Filters of an editor's report; unset ones take the defaults the arrival check used. */
export interface ReportFilters {
  fileId?: number;
  excludeQuotes?: boolean;
  excludeBibliography?: boolean;
  minMatchWords?: number;
  /** Run the check again even when a stored report exists (with the default filters, the new one is stored). */
  refresh?: boolean;
}

export interface SubmissionReport {
  submissionId: number;
  submissionFileId: number;
  version: number;
  /** Every manuscript version of the submission, oldest first. */
  versions: { submissionFileId: number; version: number }[];
  /** True when the report is the one stored on arrival (default filters), false when run just now. */
  stored: boolean;
  checkedAt: string;
  report: SimilarityReport;
}

export type CommitEvent =
  | { type: 'article'; articleId: number }
  | { type: 'submission_version'; submissionFileId: number }
  /** A submission's manuscript versions arrived (a new submission, a revision): index and check each new one. */
  | { type: 'submission'; submissionId: number };

/** The work of a `similarity.index` job: a committed change (an event followed), or the catch-up's re-index or versions. */
export type BackgroundWork =
  | CommitEvent
  | { type: 'reindex' }
  | { type: 'catch-up'; submissionFileIds: number[] };

export const SIMILARITY_JOB = 'similarity.index';
/** The recurring pass that finds what no event brought (an empty corpus, a PDF read by an older engine). */
export const CATCH_UP_JOB = 'similarity.catch-up';

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
  private closing = false;
  /** The signal of the background job running in this process (one at a time), aborted when the queue stops. */
  private signal: AbortSignal | null = null;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      files: FileService;
      log: Logger;
      options?: Partial<SimilarityOptions>;
      /** Search reads the indexed text: its kept answers go when a change of it commits (0018, 0031). */
      changes?: Pick<ChangeFeed, 'publish'>;
      /** The job queue that runs the background work (decision 0022); without it there is none. */
      jobs?: JobQueue;
    },
  ) {
    // One job at a time in a process: indexing is serial, and checks are bounded by the worker pool.
    deps.jobs?.define<BackgroundWork>(SIMILARITY_JOB, (work, ctx) => this.work(work, ctx.signal), {
      concurrency: 1,
      maxAttempts: 3,
    });
    this.options = { ...DEFAULT_SIMILARITY_OPTIONS, ...deps.options };
    // Once across processes (one row), at the first start and every hour after: not a loop in each process.
    if (this.background)
      deps.jobs!.recurring(CATCH_UP_JOB, { every: HOUR, firstAfter: 0 }, () => this.catchUp().then(() => undefined));
    this.store = new SimilarityStore(db, async (tx) => {
      await deps.changes?.publish(tx, [CATALOG]);
    });
    const o = this.options;
    this.pool = new WorkerPool({
      name: 'similarity',
      entry: new URL(`./worker.${MODULE_EXT}`, import.meta.url),
      // A process too: pdf.js's native allocations stayed with the server after a thread ended (about 70 MB
      // after a first start's indexing, measured); a process gives them back when it ends (decision 0021).
      isolation: 'process',
      size: o.workers,
      // Checks are bounded by the gate; indexing jobs are serial: this queue stays short.
      maxQueue: 64,
      idleMs: o.workerIdleSeconds * 1000,
      reviveError,
    });
    this.grammarPool = new WorkerPool({
      name: 'grammar',
      entry: new URL(`./grammar-worker.${MODULE_EXT}`, import.meta.url),
      // A process: everything harper.js held goes back to the system when it ends.
      isolation: 'process',
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

    let excludeGroup = opts.excludeGroup ?? null;
    if (!excludeGroup && opts.excludeDocument) {
      excludeGroup = (await this.store.find(opts.excludeDocument.kind, opts.excludeDocument.id))?.groupKey ?? null;
    }
    const wantGrammar = opts.grammar ?? o.grammar;
    // The checked work's own indexed versions must not vouch for its spelling: each adds one to a word's count.
    const ownDocuments = wantGrammar && excludeGroup ? await this.store.groupSize(excludeGroup) : 0;
    const grammar = wantGrammar
      ? this.grammar(prepared, progress, ownDocuments).then(
          (r) => ({ ok: true as const, r, ms: performance.now() - tPrepared }),
          (err: Error) => ({ ok: false as const, err, ms: performance.now() - tPrepared }),
        )
      : null;

    progress({ stage: 'matching', done: 0, total: 1 });
    // What this check is compared against, read before the candidates: said in the report (decision 0037).
    const corpus = await this.coverage();
    const tCandidates = performance.now();
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
        workerPid: prepared.ranIn.pid,
        workerThread: prepared.ranIn.threadId,
      },
      corpus,
    });
  }

  /**
   * What the corpus holds against what it should (decision 0037): every article PDF and every manuscript
   * version, less the files tried and found to have no readable text; a source not indexed yet (or indexed
   * from an older file) is work still to do, and while there is any the corpus is incomplete. Right after a
   * first start, a reindex, an import or a restore, a check must say so rather than look clean.
   */
  async coverage(): Promise<CorpusCoverage> {
    const [row] = rowsOf<{ sources: number; pending: number; unreadable: number; newest: string | Date | null }>(
      await this.db.execute(sql`
        with sources as (
          select 'article'::text as kind, a.id, f.sha256 from articles a join stored_files f on f.id = a.pdf_file_id
          union all
          select 'submission_version', s.id, f.sha256 from submission_files s join stored_files f on f.id = s.file_id
          where s.kind = 'manuscript'
        ), state as (
          select
            exists (select 1 from ${similarityUnreadable} u
                    where u.source_kind = s.kind and u.source_id = s.id and u.content_sha256 = s.sha256) as unreadable,
            exists (select 1 from ${similarityDocuments} d
                    where d.source_kind = s.kind and d.source_id = s.id and d.content_sha256 = s.sha256) as indexed
          from sources s
        )
        select count(*)::int as sources,
          (count(*) filter (where not indexed and not unreadable))::int as pending,
          (count(*) filter (where unreadable and not indexed))::int as unreadable,
          (select max(updated_at) from ${similarityDocuments}) as newest
        from state`),
    );
    const expected = row.sources - row.unreadable;
    const indexed = expected - row.pending;
    const complete = row.pending === 0;
    const newest = row.newest === null ? null : new Date(row.newest).toISOString();
    return {
      indexed,
      expected,
      complete,
      newestIndexedAt: newest,
      unreadable: row.unreadable,
      message: complete
        ? null
        : `The journal's corpus was still being indexed: this check compared the text with ${indexed} of ${expected} documents. A copy of a document not indexed yet is not found, so a low score does not mean the text is original: check again in a few minutes.`,
    };
  }

  /**
   * Makes again the stored arrival checks that were made against an incomplete corpus, once it is complete
   * (at the end of every indexing job, and by the hourly catch-up): a report that could have missed a copy
   * is not left as the word on that manuscript. Returns how many it made again.
   */
  async recheckIncomplete(): Promise<number> {
    const stale = rowsOf<{ id: number }>(
      await this.db.execute(sql`
        select submission_file_id as id from ${similarityChecks}
        where report is not null and report->'corpus'->>'complete' = 'false'
        order by submission_file_id`),
    );
    if (!stale.length || !(await this.coverage()).complete) return 0;
    let made = 0;
    for (const { id } of stale) {
      if (this.stopping()) break;
      await this.db.delete(similarityChecks).where(eq(similarityChecks.submissionFileId, id));
      await this.checkOnArrival(id);
      made++;
    }
    if (made) this.deps.log.info({ made }, 'similarity: reports made against an incomplete corpus made again');
    return made;
  }

  /** Extraction and fingerprinting in a worker. The bytes are copied: the caller's buffer stays usable. */
  private prepare(data: Buffer, options: PrepareOptions): Promise<PreparedText> {
    const copy = new Uint8Array(data.byteLength);
    copy.set(data);
    return this.pool.run<PreparedText>('prepare', { data: copy, options }, [copy.buffer]);
  }

  /** `ownDocuments`: how many indexed documents are the checked work itself (left out of the vocabulary rule). */
  private async grammar(
    prepared: PreparedText,
    progress: NonNullable<CheckOptions['onProgress']>,
    ownDocuments: number,
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
    const known = await this.store.knownWords(
      spellingWords(body, sentences, raw),
      this.options.vocabularyMinDocs + ownDocuments,
    );
    return scoreGrammar(body, sentences, raw, known);
  }

  // ---- Indexing -------------------------------------------------------------------------------------

  /** Indexes (or refreshes) an article's PDF; an article without a PDF is skipped, a deleted one removed. */
  async indexArticle(articleId: number, opts: { force?: boolean } = {}): Promise<IndexResult> {
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
    }, opts);
  }

  /** Indexes one stored version of a submission's manuscript (additional files are not indexed). */
  async indexSubmissionVersion(submissionFileId: number, opts: { force?: boolean } = {}): Promise<IndexResult> {
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
    }, opts);
  }

  /** Re-indexes every article and every submitted manuscript version; drops documents whose source is gone. */
  async reindexAll(onEach?: (kind: SourceKind, id: number, r: IndexResult) => void, opts: { force?: boolean } = {}) {
    const counts: Record<IndexResult['status'], number> = { created: 0, replaced: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0 };
    const seen = new Set<string>();
    const articleIds = await this.db.select({ id: articles.id }).from(articles).where(isNotNull(articles.pdfFileId));
    for (const { id } of articleIds) {
      if (this.stopping()) return counts;
      seen.add(`article:${id}`);
      const r = await this.indexArticle(id, opts);
      counts[r.status]++;
      onEach?.('article', id, r);
    }
    const versions = await this.db
      .select({ id: submissionFiles.id })
      .from(submissionFiles)
      .where(eq(submissionFiles.kind, 'manuscript'));
    for (const { id } of versions) {
      if (this.stopping()) return counts;
      seen.add(`submission_version:${id}`);
      const r = await this.indexSubmissionVersion(id, opts);
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

  /** Whether background work is on: the option, and a queue to run it (the events' followers are then registered). */
  get background(): boolean {
    return this.options.background && Boolean(this.deps.jobs);
  }

  /** Queues background work as a durable job (run by any server process). */
  private async later(work: BackgroundWork): Promise<void> {
    if (!this.background) return;
    await this.deps.jobs!.enqueue(this.db, SIMILARITY_JOB, work);
  }

  /**
   * The catch-up pass (a recurring job, decision 0031): the whole corpus when it is empty (a new installation
   * with its demo articles, an upgrade), else the article PDFs it has not read or read from an older file,
   * and the manuscript versions without a document or a report. Returns how many items it queued.
   */
  async catchUp(): Promise<number> {
    if (await this.startupReindex()) return 1;
    const queued = (await this.staleArticles()) + (await this.startupCatchUp());
    // Nothing left to index: reports made against an incomplete corpus are made again now.
    return queued ? queued : this.recheckIncomplete();
  }

  /** Queues the article PDFs the corpus has no text for, or an older file's text (the search text follows it). */
  async staleArticles(): Promise<number> {
    if (!this.background) return 0;
    const stale = (
      (await this.db.execute(sql`
        select a.id from articles a
        join stored_files f on f.id = a.pdf_file_id
        left join similarity_documents d on d.source_kind = 'article' and d.source_id = a.id
        where d.id is null or d.content_sha256 <> f.sha256
        order by a.id`)) as unknown as { rows: { id: number }[] }
    ).rows;
    for (const { id } of stale) await this.later({ type: 'article', articleId: id });
    return stale.length;
  }

  /** The `similarity.index` job. Stopped between items when the queue stops: put back, resumed later. */
  private async work(work: BackgroundWork, signal: AbortSignal): Promise<void> {
    this.signal = signal;
    try {
      if (work.type === 'article') {
        this.logIndex(work, await this.indexArticle(work.articleId));
      } else if (work.type === 'reindex') {
        const counts = await this.reindexAll();
        this.deps.log.info({ counts }, 'similarity corpus indexed');
        const checked = await this.checkUnchecked();
        if (checked) this.deps.log.info({ checked }, 'similarity: manuscript versions checked');
      } else if (work.type === 'catch-up') {
        for (const id of work.submissionFileIds) {
          if (this.stopping()) break;
          this.logIndex({ type: 'submission_version', submissionFileId: id }, await this.indexSubmissionVersion(id));
        }
        const checked = await this.checkUnchecked();
        if (checked) this.deps.log.info({ checked }, 'similarity: manuscript versions checked');
      } else {
        const ids =
          work.type === 'submission_version'
            ? [work.submissionFileId]
            : (await this.manuscriptVersions(work.submissionId)).map((v) => v.submissionFileId);
        for (const id of ids) {
          if (this.stopping()) break;
          const r = await this.indexSubmissionVersion(id);
          this.logIndex({ type: 'submission_version', submissionFileId: id }, r);
          if (r.status !== 'skipped' && r.status !== 'removed') await this.checkOnArrival(id);
        }
      }
      // The corpus may be complete now: reports made while it was not are made again.
      if (!this.stopping()) await this.recheckIncomplete();
    } finally {
      this.signal = null;
    }
    // Cut short by the shutdown: the job is put back as it was (what was done is not done twice: indexing
    // skips unchanged files, checks skip versions with a stored report).
    if (signal.aborted) throw signal.reason;
  }

  private stopping(): boolean {
    return this.closing || Boolean(this.signal?.aborted);
  }

  /**
   * Part of the catch-up: when the corpus is empty but articles with PDFs exist (a new installation with its
   * demo articles, an upgrade), index everything in the background.
   */
  async startupReindex(): Promise<boolean> {
    if (!this.background) return false;
    const { documents } = await this.store.stats();
    if (documents > 0) return false;
    const [article] = await this.db.select({ id: articles.id }).from(articles).where(isNotNull(articles.pdfFileId)).limit(1);
    const [version] = await this.db.select({ id: submissionFiles.id }).from(submissionFiles).limit(1);
    if (!article && !version) return false;
    await this.later({ type: 'reindex' });
    return true;
  }

  /**
   * Part of the catch-up, when the corpus is there: the manuscript versions not indexed (an index or check
   * that failed its last attempt) are indexed, then every version without a stored report is checked. In the
   * background; returns how many versions it queued for indexing or checking.
   */
  async startupCatchUp(): Promise<number> {
    if (!this.background) return 0;
    const unindexed = await this.db
      .select({ id: submissionFiles.id })
      .from(submissionFiles)
      .leftJoin(
        similarityDocuments,
        and(
          eq(similarityDocuments.sourceKind, 'submission_version'),
          eq(similarityDocuments.sourceId, submissionFiles.id),
        ),
      )
      .where(and(eq(submissionFiles.kind, 'manuscript'), isNull(similarityDocuments.id)))
      .orderBy(asc(submissionFiles.id));
    const [{ n: unchecked }] = await this.db
      .select({ n: count() })
      .from(submissionFiles)
      .leftJoin(similarityChecks, eq(similarityChecks.submissionFileId, submissionFiles.id))
      .where(and(eq(submissionFiles.kind, 'manuscript'), isNull(similarityChecks.submissionFileId)));
    if (!unindexed.length && !unchecked) return 0;
    await this.later({ type: 'catch-up', submissionFileIds: unindexed.map((v) => v.id) });
    return Math.max(unindexed.length, Number(unchecked));
  }

  /**
   * An article was unpublished or republished: readers' checks follow at once (they may quote only published
   * articles), before and whether or not the background re-index runs.
   */
  async articleVisibility(articleId: number, published: boolean): Promise<void> {
    await this.store.setPublished('article', articleId, published);
  }

  /** Ends the worker threads (they also end by themselves when idle); queued work stays for the next start. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([this.pool.close(), this.grammarPool.close()]);
  }

  // ---- Stored reports (the desk) --------------------------------------------------------------------

  /** Runs the arrival check of every manuscript version that has no stored report (after an upgrade, a reindex). */
  async checkUnchecked(onEach?: (submissionFileId: number, status: 'checked' | 'failed') => void): Promise<number> {
    const rows = await this.db
      .select({ id: submissionFiles.id })
      .from(submissionFiles)
      .leftJoin(similarityChecks, eq(similarityChecks.submissionFileId, submissionFiles.id))
      .where(and(eq(submissionFiles.kind, 'manuscript'), isNull(similarityChecks.submissionFileId)))
      .orderBy(asc(submissionFiles.id));
    for (const { id } of rows) {
      if (this.stopping()) break;
      await this.checkOnArrival(id);
      const [row] = await this.db.select({ error: similarityChecks.error }).from(similarityChecks).where(eq(similarityChecks.submissionFileId, id));
      onEach?.(id, row?.error ? 'failed' : 'checked');
    }
    return rows.length;
  }

  /** The check made when a manuscript version arrived: stored with the editor's report (default filters). */
  private async checkOnArrival(submissionFileId: number): Promise<void> {
    const [done] = await this.db
      .select({ id: similarityChecks.submissionFileId })
      .from(similarityChecks)
      .where(eq(similarityChecks.submissionFileId, submissionFileId));
    if (done || this.stopping()) return;
    const row = await this.submissionFileRow(submissionFileId);
    if (!row) return;
    try {
      // Not through the gate: background jobs run one at a time, and must not be refused as "busy".
      const report = await this.runCheck(await this.readFile(row.fileId), {
        viewer: 'editor',
        excludeGroup: `submission:${row.submissionId}`,
      });
      await this.storeCheck(row.submissionId, submissionFileId, report, null);
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      await this.storeCheck(row.submissionId, submissionFileId, null, err.message);
    }
  }

  private async storeCheck(submissionId: number, submissionFileId: number, report: SimilarityReport | null, error: string | null) {
    const values = {
      submissionFileId,
      submissionId,
      plagiarismPercentage: report?.plagiarismPercentage ?? null,
      grammarQualityPercentage: report?.grammarQualityPercentage ?? null,
      report,
      error,
      checkedAt: new Date(),
    };
    await this.db
      .insert(similarityChecks)
      .values(values)
      .onConflictDoUpdate({ target: similarityChecks.submissionFileId, set: values });
  }

  /** The manuscript versions of a submission, oldest first. */
  async manuscriptVersions(submissionId: number) {
    return this.db
      .select({ submissionFileId: submissionFiles.id, version: submissionFiles.version })
      .from(submissionFiles)
      .where(and(eq(submissionFiles.submissionId, submissionId), eq(submissionFiles.kind, 'manuscript')))
      .orderBy(asc(submissionFiles.version), asc(submissionFiles.id));
  }

  /**
   * What the submissions desk shows: the stored check of the submission's latest manuscript version, or
   * null when the submission has no manuscript (or does not exist).
   */
  async summaryForSubmission(submissionId: number): Promise<SimilaritySummary | null> {
    const versions = await this.manuscriptVersions(submissionId);
    const latest = versions.at(-1);
    if (!latest) return null;
    const [row] = await this.db
      .select()
      .from(similarityChecks)
      .where(eq(similarityChecks.submissionFileId, latest.submissionFileId));
    const report = (row?.report ?? null) as SimilarityReport | null;
    return {
      submissionFileId: latest.submissionFileId,
      version: latest.version,
      status: !row ? 'pending' : row.error ? 'failed' : 'checked',
      plagiarismPercentage: row?.plagiarismPercentage ?? null,
      grammarQualityPercentage: row?.grammarQualityPercentage ?? null,
      sources: (report?.sources ?? []).map((s) => ({ label: s.label, sharePercentage: s.sharePercentage, articleId: s.articleId })),
      error: row?.error ?? null,
      checkedAt: row?.checkedAt.toISOString() ?? null,
    };
  }

  /**
   * An editor's report on one manuscript version of a submission (default: the latest). With the default
   * filters it is the report stored on arrival (made now, and stored, if there is none yet); other filters
   * run the check again. 404 for an unknown submission or a file that is not one of its manuscripts.
   * Throws ExtractionError when the file has no readable text, BusyError when the checker is full.
   */
  async reportForSubmission(submissionId: number, filters: ReportFilters = {}): Promise<SubmissionReport> {
    const versions = await this.manuscriptVersions(submissionId);
    if (!versions.length) throw notFound('Submission not found.');
    const chosen =
      filters.fileId === undefined ? versions.at(-1)! : versions.find((v) => v.submissionFileId === filters.fileId);
    if (!chosen) throw notFound('That file is not a manuscript version of this submission.');
    const defaults = {
      excludeQuotes: OPTION_DEFAULTS.excludeQuotes,
      excludeBibliography: OPTION_DEFAULTS.excludeBibliography,
      minMatchWords: this.options.align.minMatchWords,
    };
    const settings = {
      excludeQuotes: filters.excludeQuotes ?? defaults.excludeQuotes,
      excludeBibliography: filters.excludeBibliography ?? defaults.excludeBibliography,
      minMatchWords: filters.minMatchWords ?? defaults.minMatchWords,
    };
    const isDefault =
      settings.excludeQuotes === defaults.excludeQuotes &&
      settings.excludeBibliography === defaults.excludeBibliography &&
      settings.minMatchWords === defaults.minMatchWords;
    const base = { submissionId, submissionFileId: chosen.submissionFileId, version: chosen.version, versions };
    if (isDefault && !filters.refresh) {
      const [row] = await this.db
        .select()
        .from(similarityChecks)
        .where(eq(similarityChecks.submissionFileId, chosen.submissionFileId));
      if (row?.report) {
        const report = row.report as SimilarityReport;
        // Reports stored before the corpus was recorded say nothing of it (null).
        return { ...base, stored: true, checkedAt: row.checkedAt.toISOString(), report: { ...report, corpus: report.corpus ?? null } };
      }
    }
    let report: SimilarityReport;
    try {
      report = await this.checkSubmissionFile(chosen.submissionFileId, { viewer: 'editor', ...settings });
    } catch (err) {
      if (isDefault && err instanceof ExtractionError) await this.storeCheck(submissionId, chosen.submissionFileId, null, err.message);
      throw err;
    }
    if (isDefault) await this.storeCheck(submissionId, chosen.submissionFileId, report, null);
    return { ...base, stored: isDefault, checkedAt: new Date().toISOString(), report };
  }

  private logIndex(event: CommitEvent, r: IndexResult) {
    if (r.status === 'failed') this.deps.log.warn({ event, reason: r.reason }, 'similarity indexing failed');
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
  }, opts: { force?: boolean } = {}): Promise<IndexResult> {
    const file = await this.deps.files.get(doc.fileId);
    const existing = await this.store.find(doc.sourceKind, doc.sourceId);
    if (existing && existing.contentSha256 === file.sha256 && !opts.force) {
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
      if (!(err instanceof ExtractionError)) throw err;
      // Tried, and no text: left out of the corpus, and not counted as work still to do (coverage()).
      const unreadable = { contentSha256: file.sha256, reason: err.message, at: new Date() };
      await this.db
        .insert(similarityUnreadable)
        .values({ sourceKind: doc.sourceKind, sourceId: doc.sourceId, ...unreadable })
        .onConflictDoUpdate({ target: [similarityUnreadable.sourceKind, similarityUnreadable.sourceId], set: unreadable });
      return { status: 'failed', reason: err.message };
    }
    await this.db
      .delete(similarityUnreadable)
      .where(and(eq(similarityUnreadable.sourceKind, doc.sourceKind), eq(similarityUnreadable.sourceId, doc.sourceId)));
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
    }, opts);
    return { status: r.status, documentId: r.id };
  }

  private async readFile(fileId: number): Promise<Buffer> {
    return this.deps.files.bytes(await this.deps.files.get(fileId));
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
