import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SessionUser } from '../accounts/service.ts';
import type { Tx } from '../db/client.ts';
import { conflict, forbidden, gone, notFound } from '../errors.ts';
import { storedFiles } from '../files/tables.ts';
import { submissionFiles, submissions } from '../submissions/tables.ts';
import {
  assignmentFacts,
  extensionFor,
  extensionOf,
  NO_ASSIGNMENT,
  type ReviewContext,
  type ReviewerAccess,
  type RoundRow,
  reviewSettings,
  roundFacts,
  submissionFacts,
} from './context.ts';
import { reviewerView } from './present.ts';
import { assignmentStatus, ReviewLinks } from './rules.ts';
import { reviewAssignments, reviewerProfiles, reviewRounds } from './tables.ts';

/** The reviewer's side, read: how a reviewer reaches an assignment, and what they see of it and of theirs. */

const ACCESS_CLOSED =
  'This review link no longer opens anything: the assignment was declined, cancelled or closed.';
/** Said to a signed-in reviewer acting on an assignment whose round is decided (the link says 410 instead). */
const ROUND_DECIDED = {
  answer: 'The editors have already decided on this manuscript: the invitation can no longer be answered.',
  review:
    'The editors have already decided on this manuscript: the review can no longer be changed or submitted.',
};

/**
 * The assignment a reviewer opens: by the link's token (verified by recomputing; it opens this assignment
 * only, and nothing once it is declined, cancelled or its round decided), or by the signed-in reviewer's
 * own account. Anything else is "not found".
 */
export async function reach(ctx: ReviewContext, access: ReviewerAccess, id: number, tx: Tx = ctx.db) {
  const [row] = await tx
    .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
    .where(eq(reviewAssignments.id, id));
  if ('token' in access) {
    if (
      !row ||
      ReviewLinks.idOf(access.token) !== id ||
      !ctx.links.verify(access.token, id, row.a.linkNonce)
    ) {
      throw notFound(NO_ASSIGNMENT);
    }
    if (row.a.state === 'declined' || row.a.state === 'cancelled' || row.r.decidedAt) {
      throw gone(ACCESS_CLOSED);
    }
  } else if (!row || row.p.userId === null || row.p.userId !== access.user.id) {
    throw notFound(NO_ASSIGNMENT);
  }
  return row!;
}

/**
 * The assignment a reviewer is about to change (answer, draft, attachment, submit): only while its round is
 * undecided. The link no longer opens a decided round at all (410); a signed-in reviewer still reads it,
 * and is refused here with a sentence (409) whatever the way in.
 */
export async function reachOpen(
  ctx: ReviewContext,
  access: ReviewerAccess,
  id: number,
  tx: Tx,
  what: keyof typeof ROUND_DECIDED,
) {
  const row = await reach(ctx, access, id, tx);
  if (row.r.decidedAt) throw conflict(ROUND_DECIDED[what]);
  return row;
}

/** The reviewer's view (see present.ts): the invitation, then files and the review once accepted. */
export async function view(ctx: ReviewContext, access: ReviewerAccess, id: number) {
  const { a, p, r } = await reach(ctx, access, id);
  const settings = await reviewSettings(ctx);
  const { facts } = await submissionFacts(ctx, a.submissionId);
  const files = await reviewerFiles(ctx, r);
  return reviewerView(
    facts,
    await roundFacts(ctx, r),
    assignmentFacts(ctx, a, p, settings.timeZone),
    files,
    settings.timeZone,
  );
}

/**
 * The round's files as a reviewer sees them, under generic names (an original's name may name its author)
 * made from each file's own role and type: `manuscript-round-1.docx`, `supplementary-round-1.zip`. The
 * role is the submission's record of the file (manuscript or additional); a file that is not one of the
 * author's uploads (a copy made for reviewers without its document properties, or one the editor chose) is
 * named by its type, as the upload rules allow (a manuscript is Word or PDF, an additional file a ZIP).
 */
async function reviewerFiles(ctx: ReviewContext, r: RoundRow) {
  if (!r.reviewerFileIds.length) return [];
  const [rows, roles] = await Promise.all([
    ctx.db.select().from(storedFiles).where(inArray(storedFiles.id, r.reviewerFileIds)),
    ctx.db
      .select({ fileId: submissionFiles.fileId, kind: submissionFiles.kind })
      .from(submissionFiles)
      .where(
        and(
          eq(submissionFiles.submissionId, r.submissionId),
          inArray(submissionFiles.fileId, r.reviewerFileIds),
        ),
      ),
  ]);
  const files = r.reviewerFileIds
    .map((id) => rows.find((f) => f.id === id))
    .filter((f) => f !== undefined)
    .map((f) => {
      const ext = extensionFor(f.mediaType, f.originalName);
      const kind =
        roles.find((x) => x.fileId === f.id)?.kind ?? (ext === '.zip' ? 'additional' : 'manuscript');
      return { f, ext, role: kind === 'manuscript' ? 'manuscript' : 'supplementary' };
    });
  const seen = new Map<string, number>();
  return files.map(({ f, ext, role }) => {
    const n = (seen.get(role) ?? 0) + 1;
    seen.set(role, n);
    return {
      id: f.id,
      name: `${role}${n > 1 ? `-${n}` : ''}-round-${r.number}${ext}`,
      size: f.size,
      mediaType: f.mediaType,
    };
  });
}

/** A round file, for a reviewer who accepted (404 for anything else). */
export async function file(ctx: ReviewContext, access: ReviewerAccess, id: number, fileId: number) {
  const { a, r } = await reach(ctx, access, id);
  if (a.state !== 'accepted' && a.state !== 'submitted') {
    throw forbidden('The files of the manuscript can be downloaded once you accept the invitation.');
  }
  const files = await reviewerFiles(ctx, r);
  const shown = files.find((f) => f.id === fileId);
  if (!shown) throw notFound('File not found.');
  const stored = await ctx.files.get(fileId);
  return { name: shown.name, file: stored };
}

/** The review's attached file, for its reviewer. */
export async function attachment(ctx: ReviewContext, access: ReviewerAccess, id: number) {
  const { a } = await reach(ctx, access, id);
  if (!a.attachmentFileId) throw notFound('This review has no attached file.');
  const stored = await ctx.files.get(a.attachmentFileId);
  return { name: `review-${id}${extensionOf(stored.originalName)}`, file: stored };
}

/** Every assignment of the signed-in account, newest first, with its status and due dates. */
export async function mine(ctx: ReviewContext, user: SessionUser) {
  const settings = await reviewSettings(ctx);
  const rows = await ctx.db
    .select({
      a: reviewAssignments,
      r: reviewRounds,
      title: submissions.title,
      reference: submissions.reference,
    })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
    .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
    .where(eq(reviewerProfiles.userId, user.id))
    .orderBy(desc(reviewAssignments.invitedAt), desc(reviewAssignments.id));
  return rows.map(({ a, r, title, reference }) => ({
    id: a.id,
    reference,
    title,
    round: r.number,
    mode: r.mode,
    state: a.state,
    status: assignmentStatus(a, ctx.clock.now(), settings.timeZone),
    responseDue: a.responseDue,
    reviewDue: a.reviewDue,
    submittedAt: a.submittedAt?.toISOString() ?? null,
    roundDecided: r.decidedAt !== null,
  }));
}

/**
 * The header's "Reviews" link: shown to every reviewer, that is every account with a reviewer profile (made
 * when they are first invited, or when they fill it in), with a count of the assignments that wait for them
 * (invited or accepted, in a round not yet decided). One query: the root layout asks on every page.
 */
export async function reviewing(
  ctx: ReviewContext,
  userId: number,
): Promise<{ reviewer: boolean; open: number }> {
  const [row] = await ctx.db
    .select({
      profiles: sql<number>`count(distinct ${reviewerProfiles.id})::int`,
      open: sql<number>`count(${reviewAssignments.id}) filter (where ${reviewAssignments.state} in ('invited', 'accepted') and ${reviewRounds.decidedAt} is null)::int`,
    })
    .from(reviewerProfiles)
    .leftJoin(reviewAssignments, eq(reviewAssignments.profileId, reviewerProfiles.id))
    .leftJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
    .where(eq(reviewerProfiles.userId, userId));
  return { reviewer: row.profiles > 0, open: row.open };
}
