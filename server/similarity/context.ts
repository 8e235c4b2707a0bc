import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { FileService } from '../files/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Logger } from '../services.ts';
import { submissionFiles, submissions } from '../submissions/tables.ts';
import type { SimilarityOptions } from './options.ts';
import { BusyError, type WorkerPool } from './pool.ts';
import type { OtherJournal } from './report.ts';
import type { SimilarityStore } from './store.ts';

/**
 * What the checker's use cases share (checking.ts, indexing.ts, reports.ts): the database and the corpus
 * store, the worker pools, the gate in front of checks, and whether the process is stopping. Made once by
 * SimilarityService (service.ts), which is the only door the rest of the server uses.
 */
export interface SimilarityContext {
  readonly db: Db;
  readonly store: SimilarityStore;
  readonly options: SimilarityOptions;
  readonly log: Logger;
  readonly files: FileService;
  /** Extraction, fingerprinting and alignment. */
  readonly pool: WorkerPool;
  readonly grammarPool: WorkerPool;
  readonly gate: Gate;
  /** The job queue that runs the background work (decision 0022), when background work is on. */
  readonly jobs?: JobQueue;
  /** Background work is on: the option, and a queue to run it. */
  readonly background: boolean;
  /** Another journal of the site, as a report names it (its title and address), when it has a source there. */
  readonly journal: (id: number) => OtherJournal | undefined;
  /** The service is closing. */
  closing: boolean;
  /** The signal of the background job running in this process (one at a time), aborted when the queue stops. */
  signal: AbortSignal | null;
}

/** Between items of long work: the service is closing, or the job's queue stops. */
export function stopping(ctx: SimilarityContext): boolean {
  return ctx.closing || Boolean(ctx.signal?.aborted);
}

/** Limits how many checks run at once and how many may wait. */
export class Gate {
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

export async function readFile(ctx: SimilarityContext, fileId: number): Promise<Buffer> {
  return ctx.files.bytes(await ctx.files.get(fileId));
}

export async function submissionFileRow(ctx: SimilarityContext, submissionFileId: number) {
  const [row] = await ctx.db
    .select({
      id: submissionFiles.id,
      journalId: submissionFiles.journalId,
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
