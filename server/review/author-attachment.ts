import { and, eq, isNull } from 'drizzle-orm';
import { notFound } from '../errors.ts';
import { describeProperty } from '../files/document-properties.ts';
import type { AssignmentRow, ReviewContext, RoundRow } from './context.ts';
import { authorsSeeReviewers } from './present.ts';
import { reviewAssignments } from './tables.ts';

/**
 * A reviewer's attached file and the names in its own properties (decision 0034). What the author may have
 * of it: where authors do not see reviewers, the file is checked like a manuscript for reviewers (decision
 * 0024) — as it is when it names no one, a copy without the properties that name the reviewer when they can
 * be removed, nothing when they cannot.
 */
export async function attachmentForAuthor(ctx: ReviewContext, a: AssignmentRow, mode: RoundRow['mode']) {
  return (await attachmentCheck(ctx, a, mode)).forAuthor;
}

async function attachmentCheck(ctx: ReviewContext, a: AssignmentRow, mode: RoundRow['mode']) {
  if (!a.attachmentFileId || authorsSeeReviewers(mode)) return { forAuthor: 'original' as const, scan: null };
  const scan = await ctx.files
    .personalProperties(await ctx.files.get(a.attachmentFileId))
    .catch((err: unknown) => ({
      properties: [],
      removable: false,
      problem: { code: 'unreadable' as const, message: (err as Error).message },
    }));
  if (scan.properties.length === 0 && scan.problem === null) return { forAuthor: 'original' as const, scan };
  return { forAuthor: scan.removable ? ('copy' as const) : ('withheld' as const), scan };
}

/** The editor's warning about a review's attached file: what names the reviewer, and what the author gets. */
export async function attachmentWarning(ctx: ReviewContext, a: AssignmentRow, mode: RoundRow['mode']) {
  const { forAuthor, scan } = await attachmentCheck(ctx, a, mode);
  if (forAuthor === 'original' || !scan) return null;
  return {
    properties: scan.properties.map(describeProperty),
    problem: scan.problem?.message ?? null,
    forAuthor,
  };
}

/**
 * The stored file the author downloads: the attachment itself, or its copy without the reviewer's names,
 * made the first time and kept (`attachmentAuthorFileId`). 404 when the names cannot be removed.
 */
export async function attachmentCopyForAuthor(ctx: ReviewContext, a: AssignmentRow, mode: RoundRow['mode']) {
  const forAuthor = await attachmentForAuthor(ctx, a, mode);
  if (forAuthor === 'original') return ctx.files.get(a.attachmentFileId!);
  if (forAuthor === 'withheld') throw notFound('File not found.');
  if (a.attachmentAuthorFileId) return ctx.files.get(a.attachmentAuthorFileId);
  const copy = await ctx.files.copyWithoutPersonalProperties(
    await ctx.files.get(a.attachmentFileId!),
    'for-author',
  );
  if (!copy.ok) throw notFound('File not found.');
  return ctx.files.withStoredFiles([copy.upload], async (tx, [stored]) => {
    const [kept] = await tx
      .update(reviewAssignments)
      .set({ attachmentAuthorFileId: stored.id })
      .where(and(eq(reviewAssignments.id, a.id), isNull(reviewAssignments.attachmentAuthorFileId)))
      .returning({ id: reviewAssignments.attachmentAuthorFileId });
    if (kept) return stored;
    // Made at the same moment by another download: that one is kept, this row stays unnamed.
    const [other] = await tx
      .select({ id: reviewAssignments.attachmentAuthorFileId })
      .from(reviewAssignments)
      .where(eq(reviewAssignments.id, a.id));
    return ctx.files.get(other.id!);
  });
}
