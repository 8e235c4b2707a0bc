import { copyFile, link, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { CatalogService } from '../catalog/service.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { requireJournalId, withJournal } from '../db/scope.ts';
import { invalid } from '../errors.ts';
import type { FileService } from '../files/service.ts';
import { type JobContext, type JobQueue, PermanentJobError } from '../jobs/queue.ts';
import { ImportRefused, OLD_PATH, runImport } from './import.ts';
import { type ImportReport, type ImportState, importRuns } from './tables.ts';

/**
 * Moving in from OJS (issue 26, decision 0066): an import is a row of import_runs, run by a durable job
 * (`ojs.import`) in the journal's scope, its progress (total, done, current) written as it goes and its report
 * at the end. The export files are copied into the run's own folder (DATA_DIR/imports/{id}/) when it starts,
 * and that folder is removed when it ends. The admin's upload page and API call `startImport`, `run` and
 * `runs`; the CLI (commands.ts) `importNow`, the same run in its own process.
 */

export const IMPORT_JOB = 'ojs.import';

export type StartImport = {
  /** The export files (Native XML of issues or articles, Users XML), where they are now and their names. */
  files: Array<{ path: string; name: string }>;
  /** The journal's path on the OJS site (`/index.php/{oldPath}/…`), for the redirects from its old links. */
  oldPath?: string | null;
  /** Plan everything, write nothing: the report says what would be created, updated, refused. */
  dryRun?: boolean;
  /** E-mail accounts that come without a usable password a link to set one (forgotten-password's). */
  sendPasswordLinks?: boolean;
  /** The folder `<href>` files may be read from (nothing outside it is read); none: only embedded files. */
  filesFrom?: string | null;
  /** The account that started it (null: the CLI). */
  startedBy?: number | null;
};

export type ImportRun = {
  id: number;
  status: ImportState;
  dryRun: boolean;
  files: string[];
  oldPath: string | null;
  total: number;
  done: number;
  current: string;
  report: ImportReport | null;
  error: string | null;
  startedBy: number | null;
  createdAt: Date;
  finishedAt: Date | null;
};

type Deps = {
  catalog: CatalogService;
  files: FileService;
  jobs: JobQueue;
  clock: Clock;
  dataDir: string;
  changes?: Pick<ChangeFeed, 'publish'>;
};

const resolved = (dir: string | null | undefined) => (dir ? path.resolve(dir) : null);

const present = (r: typeof importRuns.$inferSelect): ImportRun => ({
  id: r.id,
  status: r.status,
  dryRun: r.dryRun,
  files: r.files.map((f) => f.name),
  oldPath: r.oldPath,
  total: r.total,
  done: r.done,
  current: r.current,
  report: r.report,
  error: r.error,
  startedBy: r.startedBy,
  createdAt: r.createdAt,
  finishedAt: r.finishedAt,
});

/** How often progress is written while a run goes (and always at its end). */
const PROGRESS_EVERY_MS = 1000;

export class OjsService {
  constructor(
    private readonly db: Db,
    private readonly deps: Deps,
  ) {
    // One import at a time in a process: each streams large files and writes a journal's catalogue.
    // Where <href> files may be read from is the job's payload (the run's choice, never a default).
    deps.jobs.define<{ runId: number; filesFrom: string | null }>(
      IMPORT_JOB,
      (p, ctx) => this.runJob(p, ctx),
      {
        concurrency: 1,
        maxAttempts: 3,
      },
    );
  }

  /**
   * Starts an import into the journal at hand: its files copied into the run's folder, the run's row and its
   * job in one transaction. Returns the run (queued). 400 when no file is given or the old path is no path.
   */
  async startImport(journalId: number, input: StartImport): Promise<ImportRun> {
    return withJournal(journalId, async () => {
      const run = await this.createRun(input);
      await this.enqueue(run.id, input.filesFrom ?? null, 'start');
      return run;
    });
  }

  /** One run of the journal at hand (null when there is none). */
  async run(id: number): Promise<ImportRun | null> {
    const [row] = await this.db.select().from(importRuns).where(eq(importRuns.id, id));
    return row ? present(row) : null;
  }

  /** The journal's runs, newest first. */
  async runs(limit = 50): Promise<ImportRun[]> {
    const rows = await this.db
      .select()
      .from(importRuns)
      .orderBy(desc(importRuns.createdAt), desc(importRuns.id))
      .limit(limit);
    return rows.map(present);
  }

  /**
   * The CLI's import: the same run, in this process, now (no job), in the journal at hand; `progress` hears how
   * far it is. Returns the finished run (done or failed).
   */
  async importNow(
    input: StartImport,
    progress?: (p: { done: number; total: number; current: string }) => void,
  ): Promise<ImportRun> {
    const run = await this.createRun(input);
    await this.execute(run.id, { progress, filesFrom: resolved(input.filesFrom) });
    return (await this.run(run.id))!;
  }

  /**
   * Runs again, as a job, a run that stopped part-way (its process killed, a CLI run interrupted): it reads
   * its files from the start, and what it had already done is found unchanged. 404-like null when the run is
   * not there or has ended.
   */
  async resume(id: number, filesFrom: string | null = null): Promise<ImportRun | null> {
    const run = await this.run(id);
    if (!run || run.status === 'done' || run.status === 'failed') return null;
    await this.enqueue(id, filesFrom, `resume-${this.deps.clock.now()}`);
    return run;
  }

  private async enqueue(runId: number, filesFrom: string | null | undefined, why: string) {
    await this.deps.jobs.enqueue(
      this.db,
      IMPORT_JOB,
      { runId, filesFrom: resolved(filesFrom) },
      { key: `ojs-import:${runId}:${why}` },
    );
  }

  private async createRun(input: StartImport): Promise<ImportRun> {
    requireJournalId();
    if (!input.files.length)
      throw invalid('Give at least one OJS export file.', { files: 'Give at least one OJS export file.' });
    const oldPath = input.oldPath?.trim().toLowerCase() || null;
    if (oldPath && !OLD_PATH.test(oldPath))
      throw invalid(`"${input.oldPath}" is not a journal path (letters, digits, . _ -).`, {
        oldPath: 'Letters, digits, dots, underscores and hyphens only.',
      });
    const [row] = await this.db
      .insert(importRuns)
      .values({
        files: [],
        oldPath,
        dryRun: input.dryRun ?? false,
        sendPasswordLinks: input.sendPasswordLinks ?? false,
        startedBy: input.startedBy ?? null,
        createdAt: this.deps.clock.date(),
        updatedAt: this.deps.clock.date(),
      })
      .returning();
    // Into the run's own folder: the upload's temporary file (or the CLI's argument) may go. A hard link on the
    // same file system (an upload under DATA_DIR: a 2 GB export is not copied before the answer), else a copy.
    const dir = this.folder(row.id);
    const files: Array<{ path: string; name: string; size: number }> = [];
    try {
      await mkdir(dir, { recursive: true });
      for (const [i, f] of input.files.entries()) {
        const to = path.join(dir, `${i + 1}.xml`);
        await link(f.path, to).catch(() => copyFile(f.path, to));
        const { size } = await stat(to);
        files.push({ path: to, name: f.name || path.basename(f.path), size });
      }
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      await this.db.delete(importRuns).where(eq(importRuns.id, row.id));
      throw invalid(
        `The file could not be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`,
      );
    }
    const [updated] = await this.db
      .update(importRuns)
      .set({ files })
      .where(eq(importRuns.id, row.id))
      .returning();
    return present(updated);
  }

  private folder(runId: number) {
    return path.join(this.deps.dataDir, 'imports', String(runId));
  }

  private async runJob(p: { runId: number; filesFrom: string | null }, ctx: JobContext): Promise<void> {
    const outcome = await this.execute(p.runId, {
      signal: ctx.signal,
      lastAttempt: ctx.job.attempt >= ctx.job.maxAttempts,
      filesFrom: p.filesFrom ?? null,
    });
    if (outcome === 'failed') throw new PermanentJobError('The import was refused: see its run.');
  }

  /**
   * Runs (or runs again, after a crash) the import of a run: running, its progress, then done with its report
   * or failed with its reason; its folder removed at the end. A refused file ends it as failed; any other error
   * is thrown (the job retries; what was done is found unchanged), and on the last attempt fails it.
   */
  private async execute(
    runId: number,
    opts: {
      filesFrom: string | null;
      signal?: AbortSignal;
      lastAttempt?: boolean;
      progress?: (p: { done: number; total: number; current: string }) => void;
    },
  ): Promise<'done' | 'failed' | 'gone'> {
    const [row] = await this.db.select().from(importRuns).where(eq(importRuns.id, runId));
    if (!row || row.status === 'done' || row.status === 'failed') return 'gone';
    await this.db
      .update(importRuns)
      .set({ status: 'running', updatedAt: this.deps.clock.date() })
      .where(eq(importRuns.id, runId));
    let written = 0;
    let total = 0;
    const finish = async (values: Partial<typeof importRuns.$inferInsert>) => {
      await this.db
        .update(importRuns)
        .set({ ...values, updatedAt: this.deps.clock.date(), finishedAt: this.deps.clock.date() })
        .where(eq(importRuns.id, runId));
      await rm(this.folder(runId), { recursive: true, force: true });
    };
    try {
      const report = await runImport(
        {
          db: this.db,
          catalog: this.deps.catalog,
          files: this.deps.files,
          jobs: this.deps.jobs,
          clock: this.deps.clock,
          changes: this.deps.changes,
        },
        {
          runId,
          dryRun: row.dryRun,
          sendPasswordLinks: row.sendPasswordLinks,
          filesFrom: opts.filesFrom,
          oldPath: row.oldPath,
          files: row.files,
          tmpDir: path.join(this.folder(runId), 'tmp'),
          signal: opts.signal,
          onProgress: async (p) => {
            opts.progress?.(p);
            total = p.total;
            const now = this.deps.clock.now();
            if (p.done === 0 || p.done === p.total || now - written >= PROGRESS_EVERY_MS) {
              written = now;
              await this.db
                .update(importRuns)
                .set({
                  total: p.total,
                  done: p.done,
                  current: p.current.slice(0, 200),
                  updatedAt: new Date(now),
                })
                .where(eq(importRuns.id, runId));
            }
          },
        },
      );
      await finish({ status: 'done', report, total, done: total, current: '' });
      return 'done';
    } catch (err) {
      if (err instanceof ImportRefused) {
        await finish({ status: 'failed', error: err.message });
        return 'failed';
      }
      if (opts.lastAttempt) await finish({ status: 'failed', error: (err as Error).message });
      else
        await this.db
          .update(importRuns)
          .set({ error: (err as Error).message, updatedAt: this.deps.clock.date() })
          .where(eq(importRuns.id, runId));
      throw err;
    }
  }
}
