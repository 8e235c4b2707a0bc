import { and, asc, count, desc, eq, exists, gte, ilike, inArray, lt, notExists, or, sql } from 'drizzle-orm';
import type { ReviewFilter } from '../../common/review.ts';
import { can } from '../../common/roles.ts';
import { EDITOR_TRANSITIONS, type SubmissionStatus } from '../../common/submissions.ts';
import type { SessionUser } from '../accounts/service.ts';
import { escapeLike } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import { articles } from '../catalog/tables.ts';
import { notFound } from '../errors.ts';
import { storedFiles } from '../files/tables.ts';
import type { SubmissionsContext } from './context.ts';
import { submissionAuthors, submissionEvents, submissionFiles, submissions } from './tables.ts';

/** Reading submissions: the editors' desk and its count, one submission, an author's own, their files. */

export interface SubmissionFilter {
  status?: SubmissionStatus;
  articleType?: string;
  from?: string;
  to?: string;
  q?: string;
  review?: ReviewFilter;
  limit: number;
  offset: number;
}

/** The editors' desk: every submission, filtered and searched, newest first. */
export async function listSubmissions(ctx: SubmissionsContext, filter: SubmissionFilter) {
  const conditions = [
    filter.review && ctx.reviewHooks ? await ctx.reviewHooks.deskCondition(filter.review) : undefined,
    filter.status ? eq(submissions.status, filter.status) : undefined,
    filter.articleType ? eq(submissions.articleType, filter.articleType) : undefined,
    filter.from ? gte(submissions.createdAt, new Date(`${filter.from}T00:00:00Z`)) : undefined,
    filter.to
      ? lt(submissions.createdAt, new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000))
      : undefined,
    filter.q
      ? or(
          ilike(submissions.title, `%${escapeLike(filter.q)}%`),
          ilike(submissions.reference, `%${escapeLike(filter.q)}%`),
          exists(
            ctx.db
              .select({ one: sql`1` })
              .from(submissionAuthors)
              .where(
                and(
                  eq(submissionAuthors.submissionId, submissions.id),
                  ilike(submissionAuthors.name, `%${escapeLike(filter.q)}%`),
                ),
              ),
          ),
        )
      : undefined,
  ].filter(Boolean);
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: submissions.id,
        reference: submissions.reference,
        title: submissions.title,
        articleType: submissions.articleType,
        status: submissions.status,
        createdAt: submissions.createdAt,
        updatedAt: submissions.updatedAt,
        submitter: users.username,
        submitterName: users.fullName,
        articleId: articles.id,
      })
      .from(submissions)
      .innerJoin(users, eq(users.id, submissions.userId))
      .leftJoin(articles, eq(articles.submissionId, submissions.id))
      .where(where)
      .orderBy(desc(submissions.createdAt), desc(submissions.id))
      .limit(filter.limit)
      .offset(filter.offset),
    ctx.db.select({ total: count() }).from(submissions).where(where),
  ]);
  const authors = rows.length
    ? await ctx.db
        .select({ submissionId: submissionAuthors.submissionId, name: submissionAuthors.name })
        .from(submissionAuthors)
        .where(
          inArray(
            submissionAuthors.submissionId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(submissionAuthors.submissionId), asc(submissionAuthors.position))
    : [];
  return {
    total,
    submissions: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      authors: authors.filter((a) => a.submissionId === r.id).map((a) => a.name),
    })),
  };
}

/**
 * How many submissions wait for an editor's move (the dashboard's count beside "Submissions", decision
 * 0039): new ones, revised ones, those under review whose current round's reviews are all in, and accepted
 * ones not yet published.
 */
export async function attentionCount(ctx: SubmissionsContext): Promise<number> {
  const reviewsIn = ctx.reviewHooks ? await ctx.reviewHooks.deskCondition('reviews-complete') : sql`false`;
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(submissions)
    .where(
      or(
        inArray(submissions.status, ['submitted', 'revised']),
        and(eq(submissions.status, 'under_review'), reviewsIn),
        and(
          eq(submissions.status, 'accepted'),
          notExists(
            ctx.db.select({ one: sql`1` }).from(articles).where(eq(articles.submissionId, submissions.id)),
          ),
        ),
      ),
    );
  return n;
}

/** One submission with its authors, files (every version), history and article; for its author or editors. */
export async function submissionDetail(ctx: SubmissionsContext, id: number, viewer: SessionUser) {
  const [row] = await ctx.db
    .select({
      s: submissions,
      submitter: users.username,
      submitterName: users.fullName,
      submitterEmail: users.email,
    })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.userId))
    .where(eq(submissions.id, id));
  if (!row || (row.s.userId !== viewer.id && !can('editorial', viewer)))
    throw notFound('Submission not found.');
  const s = row.s;
  const [authors, files, events, [article], copyrightForm, finalPdf] = await Promise.all([
    ctx.db
      .select()
      .from(submissionAuthors)
      .where(eq(submissionAuthors.submissionId, id))
      .orderBy(asc(submissionAuthors.position)),
    ctx.db
      .select({
        id: submissionFiles.id,
        kind: submissionFiles.kind,
        version: submissionFiles.version,
        name: storedFiles.originalName,
        size: storedFiles.size,
        mediaType: storedFiles.mediaType,
        createdAt: submissionFiles.createdAt,
      })
      .from(submissionFiles)
      .innerJoin(storedFiles, eq(storedFiles.id, submissionFiles.fileId))
      .where(eq(submissionFiles.submissionId, id))
      .orderBy(desc(submissionFiles.version), asc(submissionFiles.kind)),
    ctx.db
      .select()
      .from(submissionEvents)
      .where(eq(submissionEvents.submissionId, id))
      .orderBy(asc(submissionEvents.id)),
    ctx.db.select({ id: articles.id }).from(articles).where(eq(articles.submissionId, id)),
    fileSummary(ctx, s.copyrightFileId),
    fileSummary(ctx, s.finalPdfFileId),
  ]);
  return {
    id: s.id,
    reference: s.reference,
    title: s.title,
    articleType: s.articleType,
    keywords: s.keywords,
    abstract: s.abstract,
    conflictOfInterest: s.conflictOfInterest,
    fundingStatement: s.fundingStatement,
    dataAvailabilityStatement: s.dataAvailabilityStatement,
    status: s.status,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    submitter: { username: row.submitter, fullName: row.submitterName, email: row.submitterEmail },
    authors: authors.map((a) => ({
      name: a.name,
      email: a.email,
      affiliation: a.affiliation,
      superscript: a.superscript,
      orcid: a.orcid,
    })),
    files: files.map((f) => ({ ...f, createdAt: f.createdAt.toISOString() })),
    history: events.map((e) => ({
      at: e.createdAt.toISOString(),
      by: e.actorUsername,
      from: e.fromStatus as SubmissionStatus | null,
      to: e.toStatus as SubmissionStatus,
      message: e.message,
      // What a decision did that needed the editor's confirmation: for editors only.
      ...(can('editorial', viewer) ? { note: e.note } : {}),
    })),
    articleId: article?.id ?? null,
    nextStatuses: can('editorial', viewer) ? [...EDITOR_TRANSITIONS[s.status]] : [],
    copyrightForm,
    finalPdf,
  };
}

async function fileSummary(
  ctx: SubmissionsContext,
  fileId: number | null,
): Promise<{ name: string; size: number } | null> {
  if (fileId === null) return null;
  const [f] = await ctx.db
    .select({ name: storedFiles.originalName, size: storedFiles.size })
    .from(storedFiles)
    .where(eq(storedFiles.id, fileId));
  return f ?? null;
}

/** The signed copyright form of a submission (its author, or editors), or the final PDF (editors). */
export async function ownFile(
  ctx: SubmissionsContext,
  id: number,
  which: 'copyright' | 'final',
  viewer: SessionUser,
) {
  const detail = await submissionDetail(ctx, id, viewer);
  if (which === 'final' && !can('editorial', viewer)) throw notFound('File not found.');
  const [row] = await ctx.db
    .select({ copyright: submissions.copyrightFileId, final: submissions.finalPdfFileId })
    .from(submissions)
    .where(eq(submissions.id, id));
  const fileId = row?.[which === 'copyright' ? 'copyright' : 'final'];
  if (!fileId)
    throw notFound(
      which === 'copyright' ? 'No copyright form was sent with this submission.' : 'No final PDF yet.',
    );
  return { reference: detail.reference, file: await ctx.deps.files.get(fileId) };
}

/** An author's own submissions, newest first, with the latest message from the editors. */
export async function submissionsOf(ctx: SubmissionsContext, userId: number) {
  const rows = await ctx.db
    .select({
      id: submissions.id,
      reference: submissions.reference,
      title: submissions.title,
      articleType: submissions.articleType,
      status: submissions.status,
      createdAt: submissions.createdAt,
      updatedAt: submissions.updatedAt,
      articleId: articles.id,
    })
    .from(submissions)
    .leftJoin(articles, eq(articles.submissionId, submissions.id))
    .where(eq(submissions.userId, userId))
    .orderBy(desc(submissions.id));
  const events = rows.length
    ? await ctx.db
        .select()
        .from(submissionEvents)
        .where(
          and(
            inArray(
              submissionEvents.submissionId,
              rows.map((r) => r.id),
            ),
            sql`${submissionEvents.message} <> ''`,
          ),
        )
        .orderBy(desc(submissionEvents.id))
    : [];
  return rows.map((r) => {
    const last = events.find((e) => e.submissionId === r.id);
    return {
      ...r,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      lastMessage: last
        ? { at: last.createdAt.toISOString(), by: last.actorUsername, message: last.message }
        : null,
    };
  });
}

/** A stored file of a submission, for its author or editors. */
export async function submissionFile(
  ctx: SubmissionsContext,
  id: number,
  fileId: number,
  viewer: SessionUser,
) {
  const detail = await submissionDetail(ctx, id, viewer);
  const [row] = await ctx.db
    .select({ fileId: submissionFiles.fileId })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.id, fileId), eq(submissionFiles.submissionId, id)));
  if (!row) throw notFound('File not found.');
  const file = await ctx.deps.files.get(row.fileId);
  return { reference: detail.reference, file };
}
