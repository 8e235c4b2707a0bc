import { eq, inArray } from 'drizzle-orm';
import type { Actor } from '../audit/service.ts';
import { conflict } from '../errors.ts';
import { describeProperty, PROPERTIES_MESSAGES } from '../files/document-properties.ts';
import { storedFiles } from '../files/tables.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import { submissionFiles } from '../submissions/tables.ts';
import { currentRound, type ReviewContext, type RoundRow, submissionFacts } from './context.ts';
import { openRoundOf } from './rounds.ts';
import { reviewRounds } from './tables.ts';

/**
 * Double-anonymous review and the files' own properties (decision 0024): each file reviewers of the
 * current round will download, checked for properties that name a person (a Word file's Author, a PDF's
 * Author, the authors of comments and tracked changes). `warn` is true in a double-anonymous round when a
 * file names someone or could not be checked; `removable` files can be replaced for reviewers by a copy
 * without them (`withoutNamesForReviewers`). Files that are neither Word nor PDF (a ZIP) are not checked.
 * Reads the files, so it is asked for on its own, not with every view of the round.
 */
export async function fileProperties(ctx: ReviewContext, submissionId: number) {
  const round = await currentRound(ctx, submissionId);
  if (!round) {
    await submissionFacts(ctx, submissionId); // 404 for an unknown submission
    return { round: null, mode: null, warn: false, files: [] };
  }
  const files = await scanReviewerFiles(ctx, round);
  const checked = files.filter((f) => f.problem?.code !== 'unsupported');
  return {
    round: round.number,
    mode: round.mode,
    warn:
      round.mode === 'double-anonymous' &&
      round.decidedAt === null &&
      checked.some((f) => f.properties.length > 0 || f.problem !== null),
    files,
  };
}

async function scanReviewerFiles(ctx: ReviewContext, round: RoundRow) {
  const originals = await ctx.db
    .select({ fileId: submissionFiles.fileId, kind: submissionFiles.kind })
    .from(submissionFiles)
    .where(eq(submissionFiles.submissionId, round.submissionId));
  const rows = round.reviewerFileIds.length
    ? await ctx.db.select().from(storedFiles).where(inArray(storedFiles.id, round.reviewerFileIds))
    : [];
  const result = [];
  for (const id of round.reviewerFileIds) {
    const f = rows.find((x) => x.id === id);
    if (!f) continue;
    const scan = await ctx.files.personalProperties(f);
    const original = originals.find((o) => o.fileId === id);
    result.push({
      fileId: f.id,
      name: f.originalName,
      mediaType: f.mediaType,
      /** The author's own upload, or a copy made for reviewers. */
      copy: !original,
      properties: scan.properties.map(describeProperty),
      removable: scan.removable && scan.properties.length > 0,
      problem: scan.problem,
    });
  }
  return result;
}

/**
 * The editor sends reviewers copies without the properties that name people: each removable file of the
 * current round's reviewer files is copied without them (`withoutPersonalProperties`), stored as a new
 * file, and put in the original's place among the round's reviewer files. The author's original stays as
 * it was (and in the submission's files). Refused when the round is decided or nothing can be removed.
 */
export async function withoutNamesForReviewers(ctx: ReviewContext, actor: Actor, submissionId: number) {
  const round = await ctx.db.transaction((tx) => openRoundOf(ctx, submissionId, tx));
  const scanned = await scanReviewerFiles(ctx, round);
  const removable = scanned.filter((f) => f.removable);
  if (!removable.length) {
    throw conflict('No file of this round has properties naming a person that can be removed.');
  }
  const copies: CheckedUpload[] = [];
  const replaced: number[] = [];
  for (const f of removable) {
    const copy = await ctx.files.copyWithoutPersonalProperties(
      await ctx.files.get(f.fileId),
      'for-reviewers',
    );
    if (!copy.ok) continue;
    copies.push(copy.upload);
    replaced.push(f.fileId);
  }
  if (!copies.length) throw conflict(PROPERTIES_MESSAGES.not_removable);
  await ctx.files.withStoredFiles(copies, async (tx, stored) => {
    const current = await openRoundOf(ctx, submissionId, tx);
    const [locked] = await tx
      .select({ ids: reviewRounds.reviewerFileIds })
      .from(reviewRounds)
      .where(eq(reviewRounds.id, current.id))
      .for('update');
    const ids = locked.ids.map((id) => {
      const i = replaced.indexOf(id);
      return i < 0 ? id : stored[i].id;
    });
    await tx.update(reviewRounds).set({ reviewerFileIds: ids }).where(eq(reviewRounds.id, current.id));
    await ctx.audit.record(
      tx,
      actor,
      'review.round.files',
      { type: 'submission', id: submissionId },
      { fileIds: ids, withoutPropertiesOf: replaced },
    );
  });
  return fileProperties(ctx, submissionId);
}
