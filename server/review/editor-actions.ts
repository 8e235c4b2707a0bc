import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Actor } from '../audit/service.ts';
import { conflict, invalid } from '../errors.ts';
import { move, type ReviewContext, reviewSettings } from './context.ts';
import { editorAction } from './editor-view.ts';
import { notify } from './notices.ts';
import { dayIn } from './rules.ts';
import { reviewAssignments } from './tables.ts';

/**
 * The editor's actions on one assignment (each audited, in one transaction, answering the editor's view):
 * cancel, reinstate, due dates, and a submitted review's read mark, thanks and rating. "Remind now" is
 * remind-now.ts.
 */

/** Cancels an invitation or an accepted assignment (the reviewer is told; the link stops opening it). */
export function cancel(ctx: ReviewContext, actor: Actor, id: number) {
  return editorAction(ctx, actor, id, 'review.cancel', async (tx, row) => {
    const { after } = await move(tx, row.a, 'cancel', {
      cancelledFrom: row.a.state,
      cancelledAt: ctx.clock.date(),
    });
    await notify(ctx, tx, { a: after, p: row.p }, 'cancelled');
  });
}

/** Reinstates a cancelled assignment where it was, with a fresh link (the old one stays dead). */
export function reinstate(ctx: ReviewContext, actor: Actor, id: number) {
  return editorAction(ctx, actor, id, 'review.reinstate', async (tx, row) => {
    if (row.r.decidedAt)
      throw conflict('The round is decided: invite the reviewer in the new round instead.');
    const { after } = await move(tx, row.a, 'reinstate', {
      cancelledFrom: null,
      cancelledAt: null,
      linkNonce: randomBytes(16).toString('base64url'),
    });
    await notify(ctx, tx, { a: after, p: row.p }, 'reinstated', { withLink: true });
  });
}

/** Sets or extends the due dates; the reviewer is told the new dates. */
export async function setDueDates(
  ctx: ReviewContext,
  actor: Actor,
  id: number,
  input: { responseDue?: string; reviewDue?: string },
) {
  // A new date is never in the past (read outside the transaction: one connection on PGlite).
  const today = dayIn(ctx.clock.now(), (await reviewSettings(ctx)).timeZone);
  const past = {
    ...(input.responseDue && input.responseDue < today
      ? { responseDue: 'The response cannot be due before today.' }
      : {}),
    ...(input.reviewDue && input.reviewDue < today
      ? { reviewDue: 'The review cannot be due before today.' }
      : {}),
  };
  if (Object.keys(past).length) throw invalid(Object.values(past)[0], past);
  return editorAction(ctx, actor, id, 'review.dates', async (tx, row) => {
    if (row.a.state !== 'invited' && row.a.state !== 'accepted') {
      throw conflict('Due dates can be changed only while the reviewer has yet to answer or to submit.');
    }
    if (input.responseDue && row.a.state !== 'invited') {
      throw invalid('The reviewer has already answered: only the review due date can change.', {
        responseDue: 'Already answered.',
      });
    }
    const responseDue = input.responseDue ?? row.a.responseDue;
    const reviewDue = input.reviewDue ?? row.a.reviewDue;
    if (reviewDue < responseDue) {
      throw invalid('The review cannot be due before the answer to the invitation.', {
        reviewDue: 'The review cannot be due before the answer to the invitation.',
      });
    }
    const [after] = await tx
      .update(reviewAssignments)
      .set({ responseDue, reviewDue })
      .where(eq(reviewAssignments.id, id))
      .returning();
    await notify(ctx, tx, { a: after, p: row.p }, 'dates', { withLink: true, dates: true });
  });
}

/** Marks a submitted review as read by the editors. */
export function markRead(ctx: ReviewContext, actor: Actor, id: number) {
  return editorAction(ctx, actor, id, 'review.read', async (tx, row) => {
    if (row.a.state !== 'submitted') throw conflict('Only a submitted review can be marked as read.');
    await tx.update(reviewAssignments).set({ readAt: ctx.clock.date() }).where(eq(reviewAssignments.id, id));
  });
}

/** Thanks the reviewer for a submitted review (an e-mail). */
export function thank(ctx: ReviewContext, actor: Actor, id: number) {
  return editorAction(ctx, actor, id, 'review.thank', async (tx, row) => {
    if (row.a.state !== 'submitted') throw conflict('A reviewer is thanked for a submitted review.');
    await tx
      .update(reviewAssignments)
      .set({ thankedAt: ctx.clock.date() })
      .where(eq(reviewAssignments.id, id));
    await notify(ctx, tx, row, 'thanks');
  });
}

/** The editors' private rating of a submitted review (1-5); never shown to reviewers or authors. */
export function rate(ctx: ReviewContext, actor: Actor, id: number, rating: number) {
  return editorAction(ctx, actor, id, 'review.rate', async (tx, row) => {
    if (row.a.state !== 'submitted') throw conflict('Only a submitted review can be rated.');
    await tx.update(reviewAssignments).set({ rating }).where(eq(reviewAssignments.id, id));
  });
}
