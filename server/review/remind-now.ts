import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { ReminderKind } from '../../common/review.ts';
import type { Actor } from '../audit/service.ts';
import { DAY } from '../clock.ts';
import { conflict, tooManyAttempts } from '../errors.ts';
import { type ReviewContext, reviewSettings } from './context.ts';
import { editorAction } from './editor-view.ts';
import { due, mailReminder } from './notices.ts';
import { reviewAssignments, reviewReminders } from './tables.ts';

/**
 * "Remind now": a reminder of the answer or the review, recorded like the automatic ones (reminders.ts) and
 * queued in the same transaction.
 */
export function remindNow(ctx: ReviewContext, actor: Actor, id: number) {
  return editorAction(ctx, actor, id, 'review.remind', async (tx, row) => {
    const kind: ReminderKind | null =
      row.a.state === 'invited' ? 'response' : row.a.state === 'accepted' ? 'review' : null;
    if (!kind || row.r.decidedAt)
      throw conflict('Only a reviewer who has yet to answer or to submit can be reminded.');
    const now = ctx.clock.date();
    // At most one reminder a day for one assignment, manual or automatic (decision 0038). The assignment's
    // row is locked first, so two editors (or two processes) pressing at once send one.
    await tx.execute(
      sql`select 1 from ${reviewAssignments} where ${reviewAssignments.id} = ${id} for update`,
    );
    const [last] = await tx
      .select({ sentAt: reviewReminders.sentAt })
      .from(reviewReminders)
      .where(
        and(
          inArray(reviewReminders.kind, ['response', 'review']),
          eq(reviewReminders.subjectId, id),
          eq(reviewReminders.mailed, true),
          gt(reviewReminders.sentAt, new Date(now.getTime() - DAY)),
        ),
      )
      .orderBy(desc(reviewReminders.sentAt))
      .limit(1);
    if (last) {
      const next = last.sentAt.getTime() + DAY;
      throw tooManyAttempts(
        `This reviewer was already reminded of this assignment at ${last.sentAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: one reminder a day at most, the next from ${new Date(next).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
        next - now.getTime(),
      );
    }
    await tx
      .insert(reviewReminders)
      .values({ kind, subjectId: id, offsetDays: null, dueAt: now, sentAt: now });
    const settings = await reviewSettings(ctx);
    await mailReminder(ctx, tx, {
      kind,
      a: row.a,
      p: row.p,
      overdue: now >= due(row.a, kind, settings.timeZone),
      // Asked for now by an editor: refused (429) rather than held when the reviewer is at the daily limit.
      manual: true,
    });
  });
}
