import { eq } from 'drizzle-orm';
import { canMove, type DecisionInput, STATUS_LABELS } from '../../common/submissions.ts';
import type { SessionUser } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import { conflict, notFound } from '../errors.ts';
import type { SubmissionsContext } from './context.ts';
import { submissionDetail } from './read.ts';
import { submissionEvents, submissions } from './tables.ts';

/** An editor moves a submission on, with a message the author sees and receives by e-mail. */
export async function decide(ctx: SubmissionsContext, actor: SessionUser, id: number, input: DecisionInput) {
  const journal = await ctx.deps.journalName();
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(submissions).where(eq(submissions.id, id)).for('update');
    if (!current) throw notFound('Submission not found.');
    if (!canMove(current.status, input.status)) {
      throw conflict(
        `A submission that is ${STATUS_LABELS[current.status].toLowerCase()} cannot be moved to ${STATUS_LABELS[input.status].toLowerCase()}.`,
      );
    }
    const [row] = await tx
      .update(submissions)
      .set({ status: input.status, updatedAt: new Date() })
      .where(eq(submissions.id, id))
      .returning();
    // Peer review's part first: it may refuse (a decision to confirm) and it says what the history notes.
    const review = await ctx.reviewHooks?.onDecision(tx, {
      submissionId: id,
      from: current.status,
      to: input.status,
      revisions: input.revisions,
      shareReviews: input.shareReviews,
      authorDue: input.authorDue,
      confirm: input.confirm,
    });
    // The article processing charge's invoice, made with the acceptance (decision 0063).
    const apc = input.status === 'accepted' ? await ctx.apcHooks?.onAccepted(tx, actor, id) : undefined;
    const note = [review?.note, apc?.note].filter(Boolean).join(' ');
    await tx.insert(submissionEvents).values({
      submissionId: id,
      actorId: actor.id,
      actorUsername: actor.username,
      fromStatus: current.status,
      toStatus: input.status,
      message: input.message,
      note,
    });
    await ctx.deps.audit.record(
      tx,
      actor,
      'submission.decide',
      { type: 'submission', id },
      {
        reference: current.reference,
        from: current.status,
        to: input.status,
        ...(input.revisions ? { revisions: input.revisions } : {}),
        ...(input.shareReviews?.length ? { sharedReviews: input.shareReviews } : {}),
        ...(input.confirm?.length ? { confirmed: input.confirm } : {}),
        ...(note ? { note } : {}),
      },
    );
    const updated = {
      ...row,
      label: review?.label ?? STATUS_LABELS[row.status],
      appendix: review?.mailAppendix ?? '',
    };
    const [owner] = await tx.select().from(users).where(eq(users.id, updated.userId));
    // The author's e-mail commits with the decision.
    await ctx.deps.mail.queue(
      tx,
      {
        to: owner.email,
        subject: `[${updated.reference}] ${updated.label}: ${updated.title}`,
        text: `Dear ${owner.fullName},

Your manuscript "${updated.title}" (${updated.reference}) submitted to ${journal} is now: ${updated.label}.

Message from the editorial office:

${input.message}

${
  updated.appendix
    ? `${updated.appendix}

`
    : ''
}${
  updated.status === 'revisions_requested'
    ? `Please upload your revised manuscript from My submissions: ${ctx.deps.publicUrl()}/my-submissions

`
    : `You can follow your submissions at ${ctx.deps.publicUrl()}/my-submissions

`
}With best regards,
The editorial office
`,
      },
      { submissionId: id },
    );
  });
  return submissionDetail(ctx, id, actor);
}
