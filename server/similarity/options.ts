import type { DetectedKind } from '../files/content-type.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import { type AlignParams, DEFAULT_ALIGN } from './align.ts';
import { DEFAULT_WINNOW, type WinnowParams } from './fingerprint.ts';
import type { SimilarityReport, Viewer } from './report.ts';
import type { CandidateQuery } from './store.ts';
import type { SourceKind } from './tables.ts';

/** The checker's settings and the shapes its use cases share (server/similarity/service.ts). */

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
  onProgress?: (p: {
    stage: 'reading' | 'matching' | 'grammar' | 'done';
    done: number;
    total: number;
  }) => void;
}

export type CheckInput = CheckedUpload | { data: Buffer; kind?: DetectedKind };

export interface IndexResult {
  status: 'created' | 'replaced' | 'unchanged' | 'removed' | 'skipped' | 'failed';
  documentId?: number;
  reason?: string;
}
