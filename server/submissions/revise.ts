import { eq, sql } from 'drizzle-orm';
import type { SessionUser } from '../accounts/service.ts';
import { conflict, notFound } from '../errors.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { SubmissionsContext } from './context.ts';
import { submissionDetail } from './read.ts';
import { submissionEvents, submissionFiles, submissions } from './tables.ts';

/**
 * The author uploads a revised manuscript while revisions are requested: a new version beside the
 * earlier ones (which are kept), and the submission becomes "revised".
 */
export async function revise(
  ctx: SubmissionsContext,
  user: SessionUser,
  id: number,
  note: string,
  manuscript: CheckedUpload,
  additional?: CheckedUpload,
  responseToReviewers = '',
) {
  const [current] = await ctx.db.select().from(submissions).where(eq(submissions.id, id));
  if (!current || current.userId !== user.id) throw notFound('Submission not found.');
  if (current.status !== 'revisions_requested') {
    throw conflict('A revised manuscript can be uploaded only when the editors have requested revisions.');
  }
  const uploads = additional ? [manuscript, additional] : [manuscript];
  await ctx.deps.files.withStoredFiles(uploads, async (tx, files) => {
    // Lock the row: two revision uploads at once must not both pass the status check.
    const [locked] = await tx.select().from(submissions).where(eq(submissions.id, id)).for('update');
    if (locked.status !== 'revisions_requested') {
      throw conflict('A revised manuscript can be uploaded only when the editors have requested revisions.');
    }
    const [{ max }] = await tx
      .select({ max: sql<number>`coalesce(max(${submissionFiles.version}), 0)::int` })
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, id));
    const next = max + 1;
    await tx.insert(submissionFiles).values(
      files.map((f, i) => ({
        submissionId: id,
        fileId: f.id,
        kind: i === 0 ? ('manuscript' as const) : ('additional' as const),
        version: next,
      })),
    );
    await tx
      .update(submissions)
      .set({ status: 'revised', updatedAt: new Date() })
      .where(eq(submissions.id, id));
    await tx.insert(submissionEvents).values({
      submissionId: id,
      actorId: user.id,
      actorUsername: user.username,
      fromStatus: 'revisions_requested',
      toStatus: 'revised',
      message: note,
    });
    await ctx.reviewHooks?.onRevision(tx, id, responseToReviewers);
    await ctx.deps.audit.record(
      tx,
      user,
      'submission.revise',
      { type: 'submission', id },
      {
        reference: current.reference,
        version: next,
      },
    );
    // The editors' notice (to the journal's own office: decision 0060) and the author's receipt commit with
    // the new version.
    const office = await ctx.deps.officeEmail(tx);
    if (office)
      await ctx.deps.mail.queue(
        tx,
        {
          to: office,
          replyTo: user.email,
          subject: `[${current.reference}] Revised manuscript (version ${next}): ${current.title}`,
          text: `${user.fullName} (${user.username}) uploaded version ${next} of "${current.title}".

${
  note
    ? `Their note:

${note}

`
    : ''
}Open the submission: ${ctx.deps.publicUrl()}/editor-dashboard/submissions/${id}
`,
        },
        { submissionId: id, office: true },
      );
    await ctx.deps.mail.queue(
      tx,
      {
        to: user.email,
        subject: `[${current.reference}] Your revised manuscript has been received`,
        text: `Dear ${user.fullName},

Thank you: version ${next} of "${current.title}" (${current.reference}) has been received and is with the editors again.

With best regards,
The editorial office
`,
      },
      { submissionId: id },
    );
    await ctx.deps.events?.emit(tx, 'manuscript.arrived', { submissionId: id });
    return next;
  });
  return submissionDetail(ctx, id, user);
}
