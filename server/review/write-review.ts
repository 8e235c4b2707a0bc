import { and, eq } from 'drizzle-orm';
import { answerProblems, type ReviewDraft } from '../../common/review.ts';
import type { Tx } from '../db/client.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import {
  type AssignmentRow,
  actorOf,
  assignmentsChanged,
  move,
  questionsOf,
  type ReviewContext,
  type ReviewerAccess,
  reviewsChanged,
} from './context.ts';
import { tellEditors } from './notices.ts';
import { reachOpen, view } from './reviewer-access.ts';
import { reviewAssignments } from './tables.ts';

/** The reviewer writes the review: drafts (with an attached file), then submits it once. */

/** A draft can change only while the reviewer has accepted and not yet submitted. */
function assertWritable(a: AssignmentRow) {
  if (a.state === 'submitted') throw conflict('This review has been submitted and can no longer be changed.');
  if (a.state !== 'accepted') throw conflict('Accept the invitation before writing the review.');
}

/** Saves the review as a draft (any part, any number of times, the same result for the same input). */
export async function saveDraft(
  ctx: ReviewContext,
  access: ReviewerAccess,
  id: number,
  draft: ReviewDraft,
  attachment?: CheckedUpload,
) {
  const write = async (tx: Tx, fileId?: number) => {
    const { a, r } = await reachOpen(ctx, access, id, tx, 'review');
    assertWritable(a);
    if (draft.answers) {
      const problems = answerProblems(await questionsOf(ctx, r.formId, tx), draft.answers, {
        complete: false,
      });
      if (Object.keys(problems).length) throw invalid(Object.values(problems)[0], problems);
    }
    if (draft.publishAgreed && r.mode !== 'open') {
      throw invalid('Reviews can be published only in open review.', {
        publishAgreed: 'Only in open review.',
      });
    }
    await tx
      .update(reviewAssignments)
      .set({
        ...(draft.recommendation !== undefined ? { recommendation: draft.recommendation } : {}),
        ...(draft.commentsForAuthor !== undefined ? { commentsForAuthor: draft.commentsForAuthor } : {}),
        ...(draft.confidentialComments !== undefined
          ? { confidentialComments: draft.confidentialComments }
          : {}),
        ...(draft.answers !== undefined ? { answers: draft.answers } : {}),
        ...(draft.publishAgreed !== undefined ? { publishAgreed: draft.publishAgreed } : {}),
        ...(fileId !== undefined ? { attachmentFileId: fileId } : {}),
        draftSavedAt: ctx.clock.date(),
      })
      .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.state, 'accepted')));
  };
  if (attachment) await ctx.files.withStoredFiles([attachment], (tx, [f]) => write(tx, f.id));
  else await ctx.db.transaction((tx) => write(tx));
  return view(ctx, access, id);
}

/** Submits the review once (with any last changes): complete by the form's rules, then read-only. */
export async function submit(ctx: ReviewContext, access: ReviewerAccess, id: number, draft: ReviewDraft) {
  await saveDraft(ctx, access, id, draft);
  await ctx.db.transaction(async (tx) => {
    const { a, p, r } = await reachOpen(ctx, access, id, tx, 'review');
    const problems: Record<string, string> = answerProblems(await questionsOf(ctx, r.formId, tx), a.answers, {
      complete: true,
    });
    if (!a.recommendation) problems.recommendation = 'Choose a recommendation.';
    if (!a.commentsForAuthor.trim()) problems.commentsForAuthor = 'Write your comments for the author.';
    if (Object.keys(problems).length) throw invalid(Object.values(problems)[0], problems);
    await move(tx, a, 'submit', { submittedAt: ctx.clock.date() });
    await ctx.audit.record(tx, actorOf(access), 'review.submit', { type: 'review_assignment', id }, {});
    await tellEditors(ctx, tx, a, p, 'submitted', { recommendation: a.recommendation });
    await assignmentsChanged(ctx, tx);
    await reviewsChanged(ctx, tx, { submissionId: a.submissionId });
  });
  return view(ctx, access, id);
}

/**
 * Removes the draft's attached file (the reviewer chose the wrong one, or no longer wants to send one). Its
 * stored file is left as a replaced attachment's is: nothing names it any more, nobody can download it.
 */
export async function removeAttachment(ctx: ReviewContext, access: ReviewerAccess, id: number) {
  await ctx.db.transaction(async (tx) => {
    const { a } = await reachOpen(ctx, access, id, tx, 'review');
    assertWritable(a);
    if (!a.attachmentFileId) throw notFound('This review has no attached file.');
    await tx
      .update(reviewAssignments)
      .set({ attachmentFileId: null, draftSavedAt: ctx.clock.date() })
      .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.state, 'accepted')));
  });
  return view(ctx, access, id);
}
