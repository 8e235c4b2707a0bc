import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  CONFIRMATION_NEEDED,
  type DecisionConfirmation,
  RECOMMENDATION_LABELS,
  revisionLabel,
} from '../../common/review.ts';
import { STATUS_LABELS } from '../../common/submissions.ts';
import type { Tx } from '../db/client.ts';
import { conflict, invalid } from '../errors.ts';
import type { ReviewHooks } from '../submissions/service.ts';
import {
  type AssignmentRow,
  assignmentsChanged,
  currentRound,
  type ProfileRow,
  type ReviewContext,
  type RoundRow,
  reviewSettings,
} from './context.ts';
import { dueLine } from './mail.ts';
import { notify } from './notices.ts';
import { authorsSeeReviewers } from './present.ts';
import { openRound } from './rounds.ts';
import { dayIn, defaultDueDay } from './rules.ts';
import { reviewAssignments, reviewerProfiles, reviewRounds } from './tables.ts';

/** Peer review's part of the desk's decisions and of the author's revision, called in their transactions. */

/**
 * The desk's decision, peer review's part, in the decision's transaction: moving to "under review" opens a
 * round; a decision closes the current one (recording minor or major revisions and the author's due day)
 * and shares the chosen reviews; reviewers of a final decision are told (journal setting). Returns the
 * decision's label and the text added to the author's e-mail (shared reviews, the revision's due day).
 */
export async function onDecision(
  ctx: ReviewContext,
  tx: Tx,
  o: Parameters<ReviewHooks['onDecision']>[1],
): Promise<{ mailAppendix: string; label: string; note: string }> {
  const nothing = { mailAppendix: '', label: STATUS_LABELS[o.to], note: '' };
  // A round opens or closes: the header's open-review counts on kept pages go stale at the commit (0025).
  await assignmentsChanged(ctx, tx);
  if (o.to === 'under_review') {
    await openRound(ctx, tx, o.submissionId);
    return nothing;
  }
  const confirmed = new Set(o.confirm ?? []);
  const notes: string[] = [];
  if (o.to === 'accepted') {
    // The journal accepts nothing without review: with no review submitted in any round, the editor confirms.
    const [reviewed] = await tx
      .select({ id: reviewAssignments.id })
      .from(reviewAssignments)
      .where(
        and(eq(reviewAssignments.submissionId, o.submissionId), eq(reviewAssignments.state, 'submitted')),
      )
      .limit(1);
    if (!reviewed) {
      needsConfirmation(confirmed, 'accept-without-review');
      notes.push('Accepted without peer review: no reviewer submitted a review in any round (confirmed).');
    }
  }
  const round = await currentRound(ctx, o.submissionId, tx);
  if (o.shareReviews?.length && (!round || round.decidedAt)) {
    throw conflict('There is no open review round whose reviews could be shared.');
  }
  if (!round || round.decidedAt) {
    const label = o.to === 'revisions_requested' ? revisionLabel(o.revisions) : STATUS_LABELS[o.to];
    return { ...nothing, label, note: notes.join(' ') };
  }
  const settings = await reviewSettings(ctx);
  const now = ctx.clock.date();
  const decision =
    o.to === 'revisions_requested'
      ? o.revisions
        ? `${o.revisions}-revisions`
        : 'revisions'
      : o.to === 'accepted'
        ? 'accepted'
        : 'rejected';
  const revisionDue =
    o.to === 'revisions_requested'
      ? (o.authorDue ?? defaultDueDay(now.getTime(), settings.revisionDays, settings.timeZone))
      : null;
  if (revisionDue && revisionDue < dayIn(now.getTime(), settings.timeZone)) {
    throw invalid('The revision cannot be due before today.', {
      authorDue: 'The revision cannot be due before today.',
    });
  }
  const rows = await tx
    .select({ a: reviewAssignments, p: reviewerProfiles })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .where(eq(reviewAssignments.roundId, round.id))
    .orderBy(asc(reviewAssignments.id));
  const submitted = rows.filter(({ a }) => a.state === 'submitted');
  // Every submitted review goes to the author unless the editor lists the ones to share (issue 22).
  const share = new Set(o.shareReviews ?? submitted.map(({ a }) => a.id));
  for (const id of share) {
    if (!submitted.some(({ a }) => a.id === id)) {
      throw invalid('Only submitted reviews of the current round can be shared with the author.', {
        shareReviews: 'Choose submitted reviews of this round.',
      });
    }
  }
  const withheld = submitted.length - share.size;
  if (submitted.length && !share.size) needsConfirmation(confirmed, 'withhold-reviews');
  if (withheld) {
    notes.push(
      withheld === submitted.length
        ? `${submitted.length === 1 ? 'The submitted review was' : `All ${submitted.length} submitted reviews were`} withheld from the author (confirmed).`
        : `${withheld} of ${submitted.length} submitted reviews withheld from the author.`,
    );
  }
  await tx
    .update(reviewRounds)
    .set({ decision, decidedAt: now, revisionDue })
    .where(eq(reviewRounds.id, round.id));
  if (share.size) {
    await tx
      .update(reviewAssignments)
      .set({ sharedAt: now })
      .where(inArray(reviewAssignments.id, [...share]));
  }
  const shared = submitted.filter(({ a }) => share.has(a.id));
  const appendix = [
    revisionDue
      ? `Please upload your revised manuscript by ${dueLine(revisionDue, settings.timeZone)}${shared.length ? ', with a response to the reviewers' : ''}.`
      : '',
    shared.length ? `The reviewers' comments:\n\n${sharedReviewsText(shared, round.mode, 0)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const final = o.to === 'accepted' || o.to === 'rejected';
  // Everyone who reviewed the manuscript, in any of its rounds, is told once (their latest review's link).
  const told = final && settings.tellReviewersDecision ? await reviewersOf(tx, o.submissionId) : [];
  const label = o.to === 'revisions_requested' ? revisionLabel(o.revisions) : STATUS_LABELS[o.to];
  for (const row of told) await notify(ctx, tx, row, 'decision', { decision: label });
  return { mailAppendix: appendix, label, note: notes.join(' ') };
}

/** The author's revision arrived: its response to the reviewers goes with the round that follows. */
export async function onRevision(
  ctx: ReviewContext,
  tx: Tx,
  submissionId: number,
  responseToReviewers: string,
) {
  const round = await currentRound(ctx, submissionId, tx);
  if (!round) return;
  await tx
    .update(reviewRounds)
    .set({ authorResponse: responseToReviewers, revisedAt: ctx.clock.date() })
    .where(eq(reviewRounds.id, round.id));
}

/** Refuses (409, the sentence saying what to confirm) a decision the editor has not confirmed. */
function needsConfirmation(confirmed: Set<DecisionConfirmation>, what: DecisionConfirmation) {
  if (!confirmed.has(what)) throw conflict(CONFIRMATION_NEEDED[what], { confirm: CONFIRMATION_NEEDED[what] });
}

/** Each reviewer who submitted a review of the submission, in any round, once: with their latest review. */
async function reviewersOf(tx: Tx, submissionId: number) {
  const rows = await tx
    .select({ a: reviewAssignments, p: reviewerProfiles })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .where(and(eq(reviewAssignments.submissionId, submissionId), eq(reviewAssignments.state, 'submitted')))
    .orderBy(desc(reviewAssignments.id));
  const seen = new Set<number>();
  return rows.filter(({ p }) => !seen.has(p.id) && Boolean(seen.add(p.id))).reverse();
}

/**
 * Shared reviews in the author's e-mail: "Reviewer N" (the name only in open review), the recommendation and
 * the comments for the author, numbered after the `before` reviews of the round shared earlier; in the order
 * the author's page shows them (`authorView`).
 */
export function sharedReviewsText(
  rows: { a: AssignmentRow; p: ProfileRow }[],
  mode: RoundRow['mode'],
  before: number,
): string {
  return rows
    .map(({ a, p }, i) => {
      const n = before + i + 1;
      const who = authorsSeeReviewers(mode) ? `Reviewer ${n} (${p.name})` : `Reviewer ${n}`;
      const recommendation = a.recommendation
        ? ` — recommendation: ${RECOMMENDATION_LABELS[a.recommendation]}`
        : '';
      const file = a.attachmentFileId
        ? '\n\n(This reviewer attached a file: download it from My submissions.)'
        : '';
      return `${who}${recommendation}\n\n${a.commentsForAuthor}${file}`;
    })
    .join('\n\n---\n\n');
}
