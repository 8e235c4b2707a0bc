import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Actor } from '../audit/service.ts';
import type { Tx } from '../db/client.ts';
import { conflict, invalid } from '../errors.ts';
import { storedFiles } from '../files/tables.ts';
import { submissionFiles, submissions } from '../submissions/tables.ts';
import { currentRound, type ReviewContext, type RoundRow, reviewSettings } from './context.ts';
import { editorView } from './editor-view.ts';
import { reviewAssignments, reviewForms, reviewRounds } from './tables.ts';

/** Review rounds: opened by the desk, set up by the editor (mode, reviewer files) before inviting. */

/**
 * Opens the next round on the submission's latest manuscript version (round 1 on the original), in the
 * transaction of the desk's move to "under review". The round takes the journal's default mode and review
 * form, and the author's response written with the revision.
 */
export async function openRound(ctx: ReviewContext, tx: Tx, submissionId: number): Promise<RoundRow> {
  const settings = await reviewSettings(ctx);
  const previous = await currentRound(ctx, submissionId, tx);
  const files = await tx
    .select({
      fileId: submissionFiles.fileId,
      version: submissionFiles.version,
      kind: submissionFiles.kind,
    })
    .from(submissionFiles)
    .where(eq(submissionFiles.submissionId, submissionId))
    // The manuscript first, then its additional files ('additional' sorts before 'manuscript' as text).
    .orderBy(
      desc(submissionFiles.version),
      sql`${submissionFiles.kind} = 'manuscript' desc`,
      asc(submissionFiles.id),
    );
  const version = files[0]?.version ?? 1;
  const [form] = await tx
    .select({ id: reviewForms.id })
    .from(reviewForms)
    .where(eq(reviewForms.retired, false))
    .orderBy(desc(reviewForms.id))
    .limit(1);
  const [round] = await tx
    .insert(reviewRounds)
    .values({
      submissionId,
      number: (previous?.number ?? 0) + 1,
      version,
      // A later round keeps the mode its predecessor used (the editor may change it before inviting).
      mode: previous?.mode ?? settings.defaultMode,
      formId: form?.id ?? null,
      reviewerFileIds: files.filter((f) => f.version === version).map((f) => f.fileId),
      authorResponse: previous?.authorResponse && previous.revisedAt ? previous.authorResponse : '',
      createdAt: ctx.clock.date(),
    })
    .returning();
  return round;
}

/** The submission's undecided current round (opened now for one put under review before peer review existed). */
export async function openRoundOf(ctx: ReviewContext, submissionId: number, tx: Tx) {
  const round = await currentRound(ctx, submissionId, tx);
  if (!round) {
    // A submission put under review before peer review existed gets its first round when first needed.
    const [s] = await tx
      .select({ status: submissions.status })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (s?.status === 'under_review') return openRound(ctx, tx, submissionId);
  }
  if (!round || round.decidedAt) {
    throw conflict('This submission has no open review round: move it to "Under review" first.');
  }
  return round;
}

/** A change to the open round, audited, in one transaction; answers the editor's view. */
async function roundAction(
  ctx: ReviewContext,
  actor: Actor,
  submissionId: number,
  action: string,
  details: Record<string, unknown>,
  work: (tx: Tx, round: RoundRow) => Promise<void>,
) {
  await ctx.db.transaction(async (tx) => {
    await work(tx, await openRoundOf(ctx, submissionId, tx));
    await ctx.audit.record(tx, actor, action, { type: 'submission', id: submissionId }, details);
  });
  return editorView(ctx, submissionId);
}

/** The editor changes a round's review mode while nobody has been invited in it yet. */
export function setMode(ctx: ReviewContext, actor: Actor, submissionId: number, mode: RoundRow['mode']) {
  return roundAction(ctx, actor, submissionId, 'review.round.mode', { mode }, async (tx, round) => {
    const [any] = await tx
      .select({ id: reviewAssignments.id })
      .from(reviewAssignments)
      .where(eq(reviewAssignments.roundId, round.id))
      .limit(1);
    if (any) throw conflict('The review mode can be changed only before the first reviewer is invited.');
    await tx.update(reviewRounds).set({ mode }).where(eq(reviewRounds.id, round.id));
  });
}

/**
 * The seam for scrubbed copies (decision 0023): the files reviewers of the current round may download,
 * as stored file ids (the version's own files, or a copy stored without its document properties); the
 * author's original stays as it was. Only this submission's files: its versions' and the copies made for its
 * reviewers (already among its rounds' files). Stored files are the site's, with no journal of their own, so
 * any other id, another journal's manuscript included, is refused as one that does not exist (decision 0060).
 */
export function setReviewerFiles(ctx: ReviewContext, actor: Actor, submissionId: number, fileIds: number[]) {
  return roundAction(ctx, actor, submissionId, 'review.round.files', { fileIds }, async (tx, round) => {
    const versions = await tx
      .select({ id: submissionFiles.fileId })
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, submissionId));
    const rounds = await tx
      .select({ ids: reviewRounds.reviewerFileIds })
      .from(reviewRounds)
      .where(eq(reviewRounds.submissionId, submissionId));
    const own = new Set([...versions.map((v) => v.id), ...rounds.flatMap((r) => r.ids)]);
    const wanted = fileIds.filter((id) => own.has(id));
    const known = wanted.length
      ? await tx.select({ id: storedFiles.id }).from(storedFiles).where(inArray(storedFiles.id, wanted))
      : [];
    if (known.length !== new Set(fileIds).size)
      throw invalid('Some of these files do not exist.', { fileIds: 'Choose stored files.' });
    await tx.update(reviewRounds).set({ reviewerFileIds: fileIds }).where(eq(reviewRounds.id, round.id));
  });
}
