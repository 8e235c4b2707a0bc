/**
 * The similarity and grammar checker: the corpus (index of published articles and submitted manuscripts)
 * and checks of uploaded files against it. This class is the door the server uses; its use cases sit
 * beside it, sharing one context (context.ts): checking.ts (a check, the corpus's coverage), indexing.ts
 * (the corpus, its job and the catch-up), reports.ts (the stored reports of the desk), options.ts (settings
 * and shapes). See also:
 *   text.ts (normalisation), extract.ts (PDF/Word), fingerprint.ts (winnowing), align.ts (passages),
 *   score.ts (crediting), grammar.ts (the grammar measure), report.ts (report and privacy rule),
 *   store.ts + tables.ts (the database), pool.ts (worker threads).
 *
 * Workers: extraction, fingerprinting and alignment run in the check worker threads; harper.js in the
 * grammar worker process; only database queries and small bookkeeping run on the server's event loop.
 */

import type { CorpusCoverage } from '../../common/similarity.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { CATALOG } from '../cache/dependencies.ts';
import { HOUR } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { FileService } from '../files/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Logger } from '../services.ts';
import { checkSubmissionFile, coverage, runCheck } from './checking.ts';
import { Gate, type SimilarityContext } from './context.ts';
import { EXTRACTION_MESSAGES, ExtractionError, type ExtractionErrorCode } from './extract.ts';
import {
  catchUp,
  indexArticle,
  indexSubmissionVersion,
  reindexAll,
  runIndexJob,
  staleArticles,
  startupCatchUp,
  startupReindex,
} from './indexing.ts';
import {
  type BackgroundWork,
  CATCH_UP_JOB,
  type CheckInput,
  type CheckOptions,
  DEFAULT_SIMILARITY_OPTIONS,
  type IndexResult,
  type ReportFilters,
  SIMILARITY_JOB,
  type SimilarityOptions,
  type SimilaritySummary,
  type SubmissionReport,
} from './options.ts';
import { type WorkerErrorShape, WorkerPool } from './pool.ts';
import type { OtherJournal, SimilarityReport } from './report.ts';
import {
  checkUnchecked,
  manuscriptVersions,
  recheckIncomplete,
  reportForSubmission,
  summaryForSubmission,
} from './reports.ts';
import { SimilarityStore } from './store.ts';
import type { SourceKind } from './tables.ts';

export { matchAgainstCorpus } from './checking.ts';
export { ExtractionError } from './extract.ts';
export * from './options.ts';
export { BusyError } from './pool.ts';
export type { SimilarityReport } from './report.ts';

/** The worker entries sit beside this module: TypeScript sources, or the compiled build (`npm run build`). */
const MODULE_EXT = import.meta.url.endsWith('.ts') ? 'ts' : 'js';

function reviveError(e: WorkerErrorShape): Error {
  if (e.name === 'ExtractionError' && e.reason && e.reason in EXTRACTION_MESSAGES) {
    return new ExtractionError(e.reason as ExtractionErrorCode, e.message);
  }
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

export class SimilarityService {
  readonly store: SimilarityStore;
  readonly options: SimilarityOptions;
  private readonly ctx: SimilarityContext;

  constructor(
    db: Db,
    deps: {
      files: FileService;
      log: Logger;
      options?: Partial<SimilarityOptions>;
      /** Search reads the indexed text: its kept answers go when a change of it commits (0018, 0031). */
      changes?: Pick<ChangeFeed, 'publish'>;
      /** The job queue that runs the background work (decision 0022); without it there is none. */
      jobs?: JobQueue;
      /** The site's journals, as a report names a source in another (decision 0058). */
      journal?: (id: number) => OtherJournal | undefined;
    },
  ) {
    // One job at a time in a process: indexing is serial, and checks are bounded by the worker pool.
    deps.jobs?.define<BackgroundWork>(
      SIMILARITY_JOB,
      (work, job) => runIndexJob(this.ctx, work, job.signal),
      {
        concurrency: 1,
        maxAttempts: 3,
      },
    );
    const options = { ...DEFAULT_SIMILARITY_OPTIONS, ...deps.options };
    this.options = options;
    // Once across processes for each journal (a row each, decision 0058), in its scope (its articles and
    // manuscripts), at the first start and every hour after: not a loop in each process.
    const background = options.background && Boolean(deps.jobs);
    if (background)
      deps.jobs!.recurring(CATCH_UP_JOB, { every: HOUR, firstAfter: 0, perJournal: true }, () =>
        this.catchUp().then(() => undefined),
      );
    this.store = new SimilarityStore(db, async (tx) => {
      await deps.changes?.publish(tx, [CATALOG]);
    });
    const o = options;
    const pool = new WorkerPool({
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
    const grammarPool = new WorkerPool({
      name: 'grammar',
      entry: new URL(`./grammar-worker.${MODULE_EXT}`, import.meta.url),
      // A process: everything harper.js held goes back to the system when it ends.
      isolation: 'process',
      size: o.grammarWorkers,
      maxQueue: 1024,
      idleMs: o.grammarIdleSeconds * 1000,
      reviveError,
    });
    this.ctx = {
      db,
      store: this.store,
      options,
      log: deps.log,
      files: deps.files,
      pool,
      grammarPool,
      gate: new Gate(o.maxConcurrentChecks, o.maxQueuedChecks),
      jobs: deps.jobs,
      background,
      journal: deps.journal ?? (() => undefined),
      closing: false,
      signal: null,
    };
  }

  // ---- Checking -------------------------------------------------------------------------------------

  /**
   * Checks a file against the corpus. Never adds it to the corpus. Throws ExtractionError (a domain refusal
   * with a message for the person) when the file's text cannot be read, BusyError (`unavailable`) when too
   * many checks are waiting.
   */
  async check(input: CheckInput, opts: CheckOptions): Promise<SimilarityReport> {
    return this.ctx.gate.run(() => runCheck(this.ctx, input.data, opts));
  }

  /** An editor's report on one stored version of a submission: the other versions are not sources. */
  checkSubmissionFile(
    submissionFileId: number,
    opts: Omit<CheckOptions, 'excludeDocument'> = { viewer: 'editor' },
  ) {
    return checkSubmissionFile(this.ctx, submissionFileId, opts);
  }

  /** What the corpus holds against what it should (decision 0037). */
  coverage(): Promise<CorpusCoverage> {
    return coverage(this.ctx);
  }

  /** Makes again the stored arrival checks made against an incomplete corpus, once it is complete. */
  recheckIncomplete(): Promise<number> {
    return recheckIncomplete(this.ctx);
  }

  // ---- Indexing -------------------------------------------------------------------------------------

  indexArticle(articleId: number, opts: { force?: boolean } = {}): Promise<IndexResult> {
    return indexArticle(this.ctx, articleId, opts);
  }

  indexSubmissionVersion(submissionFileId: number, opts: { force?: boolean } = {}): Promise<IndexResult> {
    return indexSubmissionVersion(this.ctx, submissionFileId, opts);
  }

  reindexAll(
    onEach?: (kind: SourceKind, id: number, r: IndexResult) => void,
    opts: { force?: boolean } = {},
  ) {
    return reindexAll(this.ctx, onEach, opts);
  }

  /** Whether background work is on: the option, and a queue to run it (the events' followers are then registered). */
  get background(): boolean {
    return this.ctx.background;
  }

  catchUp(): Promise<number> {
    return catchUp(this.ctx);
  }

  staleArticles(): Promise<number> {
    return staleArticles(this.ctx);
  }

  startupReindex(): Promise<boolean> {
    return startupReindex(this.ctx);
  }

  startupCatchUp(): Promise<number> {
    return startupCatchUp(this.ctx);
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
    this.ctx.closing = true;
    await Promise.all([this.ctx.pool.close(), this.ctx.grammarPool.close()]);
  }

  stats() {
    return { pool: this.ctx.pool.stats(), grammar: this.ctx.grammarPool.stats() };
  }

  // ---- Stored reports (the desk) --------------------------------------------------------------------

  checkUnchecked(onEach?: (submissionFileId: number, status: 'checked' | 'failed') => void): Promise<number> {
    return checkUnchecked(this.ctx, onEach);
  }

  manuscriptVersions(submissionId: number) {
    return manuscriptVersions(this.ctx, submissionId);
  }

  summaryForSubmission(submissionId: number): Promise<SimilaritySummary | null> {
    return summaryForSubmission(this.ctx, submissionId);
  }

  reportForSubmission(submissionId: number, filters: ReportFilters = {}): Promise<SubmissionReport> {
    return reportForSubmission(this.ctx, submissionId, filters);
  }
}
