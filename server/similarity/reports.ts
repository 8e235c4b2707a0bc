/**
 * The stored reports the desk shows: the check made when a manuscript version arrives (default filters),
 * made again when it was made against an incomplete corpus, and the editor's report on any version.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { OPTION_DEFAULTS } from '../../common/similarity-rules.ts';
import { rowsOf } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { submissionFiles } from '../submissions/tables.ts';
import { checkSubmissionFile, coverage, runCheck } from './checking.ts';
import { readFile, type SimilarityContext, stopping, submissionFileRow } from './context.ts';
import { ExtractionError } from './extract.ts';
import type { ReportFilters, SimilaritySummary, SubmissionReport } from './options.ts';
import type { SimilarityReport } from './report.ts';
import { similarityChecks } from './tables.ts';

/** Runs the arrival check of every manuscript version that has no stored report (after an upgrade, a reindex). */
export async function checkUnchecked(
  ctx: SimilarityContext,
  onEach?: (submissionFileId: number, status: 'checked' | 'failed') => void,
): Promise<number> {
  const rows = await ctx.db
    .select({ id: submissionFiles.id })
    .from(submissionFiles)
    .leftJoin(similarityChecks, eq(similarityChecks.submissionFileId, submissionFiles.id))
    .where(and(eq(submissionFiles.kind, 'manuscript'), isNull(similarityChecks.submissionFileId)))
    .orderBy(asc(submissionFiles.id));
  for (const { id } of rows) {
    if (stopping(ctx)) break;
    await checkOnArrival(ctx, id);
    const [row] = await ctx.db
      .select({ error: similarityChecks.error })
      .from(similarityChecks)
      .where(eq(similarityChecks.submissionFileId, id));
    onEach?.(id, row?.error ? 'failed' : 'checked');
  }
  return rows.length;
}

/** The check made when a manuscript version arrived: stored with the editor's report (default filters). */
export async function checkOnArrival(ctx: SimilarityContext, submissionFileId: number): Promise<void> {
  const [done] = await ctx.db
    .select({ id: similarityChecks.submissionFileId })
    .from(similarityChecks)
    .where(eq(similarityChecks.submissionFileId, submissionFileId));
  if (done || stopping(ctx)) return;
  const row = await submissionFileRow(ctx, submissionFileId);
  if (!row) return;
  try {
    // Not through the gate: background jobs run one at a time, and must not be refused as "busy".
    const report = await runCheck(ctx, await readFile(ctx, row.fileId), {
      viewer: 'editor',
      excludeGroup: `submission:${row.submissionId}`,
    });
    await storeCheck(ctx, row.submissionId, submissionFileId, report, null);
  } catch (err) {
    if (!(err instanceof ExtractionError)) throw err;
    await storeCheck(ctx, row.submissionId, submissionFileId, null, err.message);
  }
}

/**
 * Makes again the stored arrival checks that were made against an incomplete corpus, once it is complete
 * (at the end of every indexing job, and by the hourly catch-up): a report that could have missed a copy
 * is not left as the word on that manuscript. Returns how many it made again.
 */
export async function recheckIncomplete(ctx: SimilarityContext): Promise<number> {
  const stale = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select submission_file_id as id from ${similarityChecks}
      where report is not null and report->'corpus'->>'complete' = 'false'
      order by submission_file_id`),
  );
  if (!stale.length || !(await coverage(ctx)).complete) return 0;
  let made = 0;
  for (const { id } of stale) {
    if (stopping(ctx)) break;
    await ctx.db.delete(similarityChecks).where(eq(similarityChecks.submissionFileId, id));
    await checkOnArrival(ctx, id);
    made++;
  }
  if (made) ctx.log.info({ made }, 'similarity: reports made against an incomplete corpus made again');
  return made;
}

async function storeCheck(
  ctx: SimilarityContext,
  submissionId: number,
  submissionFileId: number,
  report: SimilarityReport | null,
  error: string | null,
) {
  const values = {
    submissionFileId,
    submissionId,
    plagiarismPercentage: report?.plagiarismPercentage ?? null,
    grammarQualityPercentage: report?.grammarQualityPercentage ?? null,
    report,
    error,
    checkedAt: new Date(),
  };
  await ctx.db
    .insert(similarityChecks)
    .values(values)
    .onConflictDoUpdate({ target: similarityChecks.submissionFileId, set: values });
}

/** The manuscript versions of a submission, oldest first. */
export async function manuscriptVersions(ctx: SimilarityContext, submissionId: number) {
  return ctx.db
    .select({ submissionFileId: submissionFiles.id, version: submissionFiles.version })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, submissionId), eq(submissionFiles.kind, 'manuscript')))
    .orderBy(asc(submissionFiles.version), asc(submissionFiles.id));
}

/**
 * What the submissions desk shows: the stored check of the submission's latest manuscript version, or
 * null when the submission has no manuscript (or does not exist).
 */
export async function summaryForSubmission(
  ctx: SimilarityContext,
  submissionId: number,
): Promise<SimilaritySummary | null> {
  const versions = await manuscriptVersions(ctx, submissionId);
  const latest = versions.at(-1);
  if (!latest) return null;
  const [row] = await ctx.db
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
    sources: (report?.sources ?? []).map((s) => ({
      label: s.label,
      sharePercentage: s.sharePercentage,
      articleId: s.articleId,
    })),
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
export async function reportForSubmission(
  ctx: SimilarityContext,
  submissionId: number,
  filters: ReportFilters = {},
): Promise<SubmissionReport> {
  const versions = await manuscriptVersions(ctx, submissionId);
  if (!versions.length) throw notFound('Submission not found.');
  const chosen =
    filters.fileId === undefined
      ? versions.at(-1)!
      : versions.find((v) => v.submissionFileId === filters.fileId);
  if (!chosen) throw notFound('That file is not a manuscript version of this submission.');
  const defaults = {
    excludeQuotes: OPTION_DEFAULTS.excludeQuotes,
    excludeBibliography: OPTION_DEFAULTS.excludeBibliography,
    minMatchWords: ctx.options.align.minMatchWords,
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
    const [row] = await ctx.db
      .select()
      .from(similarityChecks)
      .where(eq(similarityChecks.submissionFileId, chosen.submissionFileId));
    if (row?.report) {
      const report = row.report as SimilarityReport;
      // Reports stored before the corpus was recorded say nothing of it (null).
      return {
        ...base,
        stored: true,
        checkedAt: row.checkedAt.toISOString(),
        report: { ...report, corpus: report.corpus ?? null },
      };
    }
  }
  let report: SimilarityReport;
  try {
    report = await checkSubmissionFile(ctx, chosen.submissionFileId, { viewer: 'editor', ...settings });
  } catch (err) {
    if (isDefault && err instanceof ExtractionError)
      await storeCheck(ctx, submissionId, chosen.submissionFileId, null, err.message);
    throw err;
  }
  if (isDefault) await storeCheck(ctx, submissionId, chosen.submissionFileId, report, null);
  return { ...base, stored: isDefault, checkedAt: new Date().toISOString(), report };
}
