import { asc, eq, inArray } from 'drizzle-orm';
import type { Actor } from '../audit/service.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { submissions } from '../submissions/tables.ts';
import { journal, type ReviewContext, submissionFacts } from './context.ts';
import { sharedReviewsText } from './decision.ts';
import { editorView } from './editor-view.ts';
import { reviewsSharedMail } from './mail.ts';
import { reviewAssignments, reviewerProfiles, reviewRounds } from './tables.ts';

/**
 * Shares submitted reviews of a decided round with the author after the decision (issue 22): each review
 * named must be submitted, of a decided round of this submission, and not shared yet. The author is
 * e-mailed their comments, labelled after the ones shared before ("Reviewer 2" follows "Reviewer 1").
 */
export async function shareLater(
  ctx: ReviewContext,
  actor: Actor,
  submissionId: number,
  assignmentIds: number[],
) {
  const { name: journalName } = await journal(ctx);
  await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: submissions.id, status: submissions.status })
      .from(submissions)
      .where(eq(submissions.id, submissionId))
      .for('update');
    if (!locked) throw notFound('Submission not found.');
    const rows = await tx
      .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .where(eq(reviewAssignments.submissionId, submissionId))
      .orderBy(asc(reviewRounds.number), asc(reviewAssignments.id));
    const ids = new Set(assignmentIds);
    const chosen = rows.filter(({ a }) => ids.has(a.id));
    if (chosen.length !== ids.size || chosen.some(({ a }) => a.state !== 'submitted')) {
      throw invalid('Only submitted reviews of this submission can be shared with the author.', {
        reviews: 'Choose submitted reviews of this submission.',
      });
    }
    if (chosen.some(({ r }) => !r.decidedAt)) {
      throw conflict(
        'The round is not decided yet: its reviews are shared with the author with the decision.',
      );
    }
    if (chosen.some(({ a }) => a.sharedAt)) {
      throw conflict('This review has already been shared with the author.');
    }
    const now = ctx.clock.date();
    await tx
      .update(reviewAssignments)
      .set({ sharedAt: now })
      .where(inArray(reviewAssignments.id, [...ids]));
    const { facts, submitter } = await submissionFacts(ctx, submissionId, tx);
    const rounds = [...new Set(chosen.map(({ r }) => r.number))];
    const parts = rounds.map((n) => {
      const inRound = chosen.filter(({ r }) => r.number === n);
      const before = rows.filter(({ a, r }) => r.number === n && a.sharedAt !== null).length;
      const text = sharedReviewsText(inRound, inRound[0].r.mode, before);
      return rounds.length > 1 ? `Round ${n}:\n\n${text}` : text;
    });
    await ctx.mail.queue(
      tx,
      reviewsSharedMail({
        to: submitter.email,
        name: submitter.name,
        count: chosen.length,
        round: rounds.length === 1 ? rounds[0] : null,
        reviews: parts.join('\n\n---\n\n'),
        revising: locked.status === 'revisions_requested',
        link: `${ctx.publicUrl()}/my-submissions/${submissionId}`,
        reference: facts.reference,
        title: facts.title,
        journal: journalName,
      }),
      { submissionId, secrets: [] },
    );
    await ctx.audit.record(
      tx,
      actor,
      'review.share',
      { type: 'submission', id: submissionId },
      { sharedReviews: [...ids] },
    );
  });
  return editorView(ctx, submissionId);
}
