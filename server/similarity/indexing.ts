/**
 * The corpus: indexing articles' PDFs and manuscript versions (text, fingerprints, vocabulary), the
 * `similarity.index` job that follows committed changes, and the catch-up pass that finds what no event
 * brought (decision 0031).
 */
import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { articles } from '../catalog/tables.ts';
import { submissionFiles } from '../submissions/tables.ts';
import { prepare } from './checking.ts';
import { readFile, type SimilarityContext, stopping, submissionFileRow } from './context.ts';
import type { PreparedText } from './engine.ts';
import { ExtractionError } from './extract.ts';
import { type BackgroundWork, type CommitEvent, type IndexResult, SIMILARITY_JOB } from './options.ts';
import { checkOnArrival, checkUnchecked, manuscriptVersions, recheckIncomplete } from './reports.ts';
import { type SourceKind, similarityChecks, similarityDocuments, similarityUnreadable } from './tables.ts';

/** Indexes (or refreshes) an article's PDF; an article without a PDF is skipped, a deleted one removed. */
export async function indexArticle(
  ctx: SimilarityContext,
  articleId: number,
  opts: { force?: boolean } = {},
): Promise<IndexResult> {
  const [a] = await ctx.db
    .select({
      id: articles.id,
      journalId: articles.journalId,
      title: articles.title,
      status: articles.status,
      pdfFileId: articles.pdfFileId,
      submissionId: articles.submissionId,
    })
    .from(articles)
    .where(eq(articles.id, articleId));
  if (!a)
    return (await ctx.store.remove('article', articleId))
      ? { status: 'removed' }
      : { status: 'skipped', reason: 'no such article' };
  if (!a.pdfFileId) return { status: 'skipped', reason: 'the article has no PDF' };
  return indexStoredFile(
    ctx,
    {
      sourceKind: 'article',
      sourceId: a.id,
      journalId: a.journalId,
      groupKey: a.submissionId ? `submission:${a.submissionId}` : `article:${a.id}`,
      title: a.title,
      published: a.status === 'published',
      fileId: a.pdfFileId,
    },
    opts,
  );
}

/** Indexes one stored version of a submission's manuscript (additional files are not indexed). */
export async function indexSubmissionVersion(
  ctx: SimilarityContext,
  submissionFileId: number,
  opts: { force?: boolean } = {},
): Promise<IndexResult> {
  const row = await submissionFileRow(ctx, submissionFileId);
  if (!row) {
    return (await ctx.store.remove('submission_version', submissionFileId))
      ? { status: 'removed' }
      : { status: 'skipped', reason: 'no such submission file' };
  }
  if (row.kind !== 'manuscript') return { status: 'skipped', reason: 'not a manuscript' };
  return indexStoredFile(
    ctx,
    {
      sourceKind: 'submission_version',
      sourceId: submissionFileId,
      journalId: row.journalId,
      groupKey: `submission:${row.submissionId}`,
      title: `${row.title} (${row.reference}, version ${row.version})`,
      published: false,
      fileId: row.fileId,
    },
    opts,
  );
}

/** Re-indexes every article and every submitted manuscript version; drops documents whose source is gone. */
export async function reindexAll(
  ctx: SimilarityContext,
  onEach?: (kind: SourceKind, id: number, r: IndexResult) => void,
  opts: { force?: boolean } = {},
) {
  const counts: Record<IndexResult['status'], number> = {
    created: 0,
    replaced: 0,
    unchanged: 0,
    removed: 0,
    skipped: 0,
    failed: 0,
  };
  const seen = new Set<string>();
  const articleIds = await ctx.db
    .select({ id: articles.id })
    .from(articles)
    .where(isNotNull(articles.pdfFileId));
  for (const { id } of articleIds) {
    if (stopping(ctx)) return counts;
    seen.add(`article:${id}`);
    const r = await indexArticle(ctx, id, opts);
    counts[r.status]++;
    onEach?.('article', id, r);
  }
  const versions = await ctx.db
    .select({ id: submissionFiles.id })
    .from(submissionFiles)
    .where(eq(submissionFiles.kind, 'manuscript'));
  for (const { id } of versions) {
    if (stopping(ctx)) return counts;
    seen.add(`submission_version:${id}`);
    const r = await indexSubmissionVersion(ctx, id, opts);
    counts[r.status]++;
    onEach?.('submission_version', id, r);
  }
  for (const s of await ctx.store.sources()) {
    if (seen.has(`${s.sourceKind}:${s.sourceId}`)) continue;
    await ctx.store.remove(s.sourceKind, s.sourceId);
    counts.removed++;
  }
  return counts;
}

async function indexStoredFile(
  ctx: SimilarityContext,
  doc: {
    sourceKind: SourceKind;
    sourceId: number;
    /** The journal of the source, read from it: a re-index in the site's scope keeps each document's. */
    journalId: number;
    groupKey: string;
    title: string;
    published: boolean;
    fileId: number;
  },
  opts: { force?: boolean } = {},
): Promise<IndexResult> {
  const file = await ctx.files.get(doc.fileId);
  const existing = await ctx.store.find(doc.sourceKind, doc.sourceId);
  if (existing && existing.contentSha256 === file.sha256 && !opts.force) {
    // Same file: no need to read it again; the title or the published flag may have changed.
    await ctx.store.refresh(existing.id, {
      title: doc.title,
      published: doc.published,
      groupKey: doc.groupKey,
    });
    return { status: 'unchanged', documentId: existing.id };
  }
  let prepared: PreparedText;
  try {
    prepared = await prepare(ctx, await readFile(ctx, doc.fileId), {
      excludeQuotes: false,
      excludeBibliography: false,
      winnow: ctx.options.winnow,
      vocabulary: true,
    });
  } catch (err) {
    if (!(err instanceof ExtractionError)) throw err;
    // Tried, and no text: left out of the corpus, and not counted as work still to do (coverage()).
    const unreadable = { contentSha256: file.sha256, reason: err.message, at: new Date() };
    await ctx.db
      .insert(similarityUnreadable)
      .values({ sourceKind: doc.sourceKind, sourceId: doc.sourceId, ...unreadable })
      .onConflictDoUpdate({
        target: [similarityUnreadable.sourceKind, similarityUnreadable.sourceId],
        set: unreadable,
      });
    return { status: 'failed', reason: err.message };
  }
  await ctx.db
    .delete(similarityUnreadable)
    .where(
      and(
        eq(similarityUnreadable.sourceKind, doc.sourceKind),
        eq(similarityUnreadable.sourceId, doc.sourceId),
      ),
    );
  const r = await ctx.store.upsert(
    {
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
      journalId: doc.journalId,
    },
    opts,
  );
  return { status: r.status, documentId: r.id };
}

/** The `similarity.index` job. Stopped between items when the queue stops: put back, resumed later. */
export async function runIndexJob(
  ctx: SimilarityContext,
  work: BackgroundWork,
  signal: AbortSignal,
): Promise<void> {
  ctx.signal = signal;
  try {
    if (work.type === 'article') {
      logIndex(ctx, work, await indexArticle(ctx, work.articleId));
    } else if (work.type === 'reindex') {
      const counts = await reindexAll(ctx);
      ctx.log.info({ counts }, 'similarity corpus indexed');
      const checked = await checkUnchecked(ctx);
      if (checked) ctx.log.info({ checked }, 'similarity: manuscript versions checked');
    } else if (work.type === 'catch-up') {
      for (const id of work.submissionFileIds) {
        if (stopping(ctx)) break;
        logIndex(
          ctx,
          { type: 'submission_version', submissionFileId: id },
          await indexSubmissionVersion(ctx, id),
        );
      }
      const checked = await checkUnchecked(ctx);
      if (checked) ctx.log.info({ checked }, 'similarity: manuscript versions checked');
    } else {
      const ids =
        work.type === 'submission_version'
          ? [work.submissionFileId]
          : (await manuscriptVersions(ctx, work.submissionId)).map((v) => v.submissionFileId);
      for (const id of ids) {
        if (stopping(ctx)) break;
        const r = await indexSubmissionVersion(ctx, id);
        logIndex(ctx, { type: 'submission_version', submissionFileId: id }, r);
        if (r.status !== 'skipped' && r.status !== 'removed') await checkOnArrival(ctx, id);
      }
    }
    // The corpus may be complete now: reports made while it was not are made again.
    if (!stopping(ctx)) await recheckIncomplete(ctx);
  } finally {
    ctx.signal = null;
  }
  // Cut short by the shutdown: the job is put back as it was (what was done is not done twice: indexing
  // skips unchanged files, checks skip versions with a stored report).
  if (signal.aborted) throw signal.reason;
}

function logIndex(ctx: SimilarityContext, event: CommitEvent, r: IndexResult) {
  if (r.status === 'failed') ctx.log.warn({ event, reason: r.reason }, 'similarity indexing failed');
}

/** Queues background work as a durable job (run by any server process). */
async function later(ctx: SimilarityContext, work: BackgroundWork): Promise<void> {
  if (!ctx.background) return;
  await ctx.jobs!.enqueue(ctx.db, SIMILARITY_JOB, work);
}

/**
 * The catch-up pass (a recurring job, decision 0031): the whole corpus when it is empty (a new installation
 * with its demo articles, an upgrade), else the article PDFs it has not read or read from an older file,
 * and the manuscript versions without a document or a report. Returns how many items it queued.
 */
export async function catchUp(ctx: SimilarityContext): Promise<number> {
  if (await startupReindex(ctx)) return 1;
  const queued = (await staleArticles(ctx)) + (await startupCatchUp(ctx));
  // Nothing left to index: reports made against an incomplete corpus are made again now.
  return queued ? queued : recheckIncomplete(ctx);
}

/** Queues the article PDFs the corpus has no text for, or an older file's text (the search text follows it). */
export async function staleArticles(ctx: SimilarityContext): Promise<number> {
  if (!ctx.background) return 0;
  const stale = (
    (await ctx.db.execute(sql`
      select a.id from articles a
      join stored_files f on f.id = a.pdf_file_id
      left join similarity_documents d on d.source_kind = 'article' and d.source_id = a.id
      where d.id is null or d.content_sha256 <> f.sha256
      order by a.id`)) as unknown as { rows: { id: number }[] }
  ).rows;
  for (const { id } of stale) await later(ctx, { type: 'article', articleId: id });
  return stale.length;
}

/**
 * Part of the catch-up: when the corpus is empty but articles with PDFs exist (a new installation with its
 * demo articles, an upgrade), index everything in the background.
 */
export async function startupReindex(ctx: SimilarityContext): Promise<boolean> {
  if (!ctx.background) return false;
  const { documents } = await ctx.store.stats();
  if (documents > 0) return false;
  const [article] = await ctx.db
    .select({ id: articles.id })
    .from(articles)
    .where(isNotNull(articles.pdfFileId))
    .limit(1);
  const [version] = await ctx.db.select({ id: submissionFiles.id }).from(submissionFiles).limit(1);
  if (!article && !version) return false;
  await later(ctx, { type: 'reindex' });
  return true;
}

/**
 * Part of the catch-up, when the corpus is there: the manuscript versions not indexed (an index or check
 * that failed its last attempt) are indexed, then every version without a stored report is checked. In the
 * background; returns how many versions it queued for indexing or checking.
 */
export async function startupCatchUp(ctx: SimilarityContext): Promise<number> {
  if (!ctx.background) return 0;
  const unindexed = await ctx.db
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
  const [{ n: unchecked }] = await ctx.db
    .select({ n: count() })
    .from(submissionFiles)
    .leftJoin(similarityChecks, eq(similarityChecks.submissionFileId, submissionFiles.id))
    .where(and(eq(submissionFiles.kind, 'manuscript'), isNull(similarityChecks.submissionFileId)));
  if (!unindexed.length && !unchecked) return 0;
  await later(ctx, { type: 'catch-up', submissionFileIds: unindexed.map((v) => v.id) });
  return Math.max(unindexed.length, Number(unchecked));
}
