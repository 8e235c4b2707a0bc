import { asc, eq } from 'drizzle-orm';
import type { Actor } from '../audit/service.ts';
import type { Tx } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { submissions } from '../submissions/tables.ts';
import { attachmentWarning } from './author-attachment.ts';
import {
  assignmentsChanged,
  extensionOf,
  NO_ASSIGNMENT,
  questionsOf,
  type ReviewContext,
  reviewSettings,
} from './context.ts';
import { assignmentStatus } from './rules.ts';
import { reviewAssignments, reviewerProfiles, reviewRounds } from './tables.ts';

/**
 * The editor's side, read: every round of a submission with its assignments and reviews (editors see
 * everything), and the frame of the editor's actions on one assignment (`editorAction`), which answer it.
 */

/** A submission's rounds (in order) and its assignments with their reviewers (oldest first). */
export async function roundsOf(ctx: ReviewContext, submissionId: number) {
  const rounds = await ctx.db
    .select()
    .from(reviewRounds)
    .where(eq(reviewRounds.submissionId, submissionId))
    .orderBy(asc(reviewRounds.number));
  const rows = await ctx.db
    .select({ a: reviewAssignments, p: reviewerProfiles })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .where(eq(reviewAssignments.submissionId, submissionId))
    .orderBy(asc(reviewAssignments.id));
  return { rounds, rows };
}

/** Every round of a submission with its assignments and reviews side by side (editors see everything). */
export async function editorView(ctx: ReviewContext, submissionId: number) {
  const settings = await reviewSettings(ctx);
  const [exists] = await ctx.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(eq(submissions.id, submissionId));
  if (!exists) throw notFound('Submission not found.');
  const { rounds, rows } = await roundsOf(ctx, submissionId);
  const now = ctx.clock.now();
  const modes = new Map(rounds.map((r) => [r.id, r.mode]));
  const warnings = new Map(
    await Promise.all(
      rows
        .filter(({ a }) => a.submittedAt && a.attachmentFileId)
        .map(async ({ a }) => [a.id, await attachmentWarning(ctx, a, modes.get(a.roundId)!)] as const),
    ),
  );
  return {
    timeZone: settings.timeZone,
    rounds: await Promise.all(
      rounds.map(async (r) => ({
        id: r.id,
        number: r.number,
        version: r.version,
        mode: r.mode,
        questions: await questionsOf(ctx, r.formId),
        reviewerFileIds: r.reviewerFileIds,
        authorResponse: r.authorResponse,
        decision: r.decision,
        decidedAt: r.decidedAt?.toISOString() ?? null,
        revisionDue: r.revisionDue,
        assignments: rows
          .filter(({ a }) => a.roundId === r.id)
          .map(({ a, p }) => ({
            id: a.id,
            reviewer: {
              profileId: p.id,
              userId: p.userId,
              name: p.name,
              email: p.email,
              affiliation: p.affiliation,
              orcid: p.orcid,
            },
            state: a.state,
            status: assignmentStatus(a, now, settings.timeZone),
            warning: a.warning,
            responseDue: a.responseDue,
            reviewDue: a.reviewDue,
            invitedAt: a.invitedAt.toISOString(),
            respondedAt: a.respondedAt?.toISOString() ?? null,
            submittedAt: a.submittedAt?.toISOString() ?? null,
            declineReason: a.declineReason,
            declineComment: a.declineComment,
            suggestedReviewer: a.suggestedReviewer,
            recommendation: a.submittedAt ? a.recommendation : null,
            commentsForAuthor: a.submittedAt ? a.commentsForAuthor : null,
            confidentialComments: a.submittedAt ? a.confidentialComments : null,
            answers: a.submittedAt ? a.answers : null,
            hasAttachment: a.submittedAt !== null && a.attachmentFileId !== null,
            attachmentProperties: warnings.get(a.id) ?? null,
            publishAgreed: a.publishAgreed,
            readAt: a.readAt?.toISOString() ?? null,
            thankedAt: a.thankedAt?.toISOString() ?? null,
            sharedAt: a.sharedAt?.toISOString() ?? null,
            rating: a.rating,
          })),
      })),
    ),
  };
}

export async function editorAssignment(tx: Tx, id: number) {
  const [row] = await tx
    .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
    .where(eq(reviewAssignments.id, id));
  if (!row) throw notFound(NO_ASSIGNMENT);
  return row;
}

export type EditorAssignment = Awaited<ReturnType<typeof editorAssignment>>;

/** An editor's action on one assignment, audited, in one transaction; answers the editor's view. */
export async function editorAction(
  ctx: ReviewContext,
  actor: Actor,
  id: number,
  action: string,
  work: (tx: Tx, row: EditorAssignment) => Promise<void>,
) {
  const submissionId = await ctx.db.transaction(async (tx) => {
    const row = await editorAssignment(tx, id);
    await work(tx, row);
    await ctx.audit.record(tx, actor, action, { type: 'review_assignment', id }, {});
    await assignmentsChanged(ctx, tx);
    return row.a.submissionId;
  });
  return editorView(ctx, submissionId);
}

/** A review's attached file, for editors (and the author once shared: see `authorAttachment`). */
export async function editorAttachment(ctx: ReviewContext, id: number) {
  const row = await editorAssignment(ctx.db, id);
  if (!row.a.attachmentFileId || !row.a.submittedAt) throw notFound('This review has no attached file.');
  const file = await ctx.files.get(row.a.attachmentFileId);
  return { name: `review-${id}${extensionOf(file.originalName)}`, file };
}
