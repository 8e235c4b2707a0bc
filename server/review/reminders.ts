import { eq, inArray, sql } from 'drizzle-orm';
import { users } from '../accounts/tables.ts';
import { submissions } from '../submissions/tables.ts';
import { journal, linkFor, type ReviewContext, reviewSettings } from './context.ts';
import { reminderMail, revisionReminderMail } from './mail.ts';
import { reviewAssignments, reviewerProfiles, reviewRounds } from './tables.ts';

/** The recurring job of the reminder pass. */
export const REMINDER_PASS = 'review.reminders';

/**
 * One reminder pass at `now`: every reminder due by now — invitation answers and reviews still awaited,
 * revisions still expected, never for cancelled, declined or submitted assignments or decided rounds, never
 * one that fell due before its assignment began — is claimed by inserting its (kind, subject, offset) row,
 * and its mail queued in the same transaction. A claim that exists already (another process, an earlier
 * pass) is skipped by the unique constraint, so each goes out exactly once; after downtime only the latest
 * of a subject's missed reminders is mailed (the earlier are claimed as not mailed). One set-based
 * statement finds and claims them all.
 */
export async function reminderPass(
  ctx: ReviewContext,
  now: Date = ctx.clock.date(),
): Promise<{ sent: number }> {
  const settings = await reviewSettings(ctx);
  const { reminders, timeZone } = settings;
  const journalName = (await journal(ctx)).name;
  const list = (xs: number[]) => sql.raw(`array[${xs.map((x) => Math.trunc(x)).join(',')}]::int[]`);
  return ctx.db.transaction(async (tx) => {
    type Claim = {
      kind: 'response' | 'review' | 'revision';
      subject_id: number;
      offset_days: number;
      mailed: boolean;
    };
    const result = await tx.execute(sql`
      with due as (
        select 'response' as kind, a.id as subject_id, o.off,
               ((a.response_due + 1 + o.off)::timestamp at time zone ${timeZone}) as due_at, a.invited_at as since
        from review_assignments a
        join review_rounds r on r.id = a.round_id and r.decided_at is null
        cross join unnest(${list(reminders.response)}) as o(off)
        where a.state = 'invited'
        union all
        select 'review', a.id, o.off,
               ((a.review_due + 1 + o.off)::timestamp at time zone ${timeZone}), coalesce(a.responded_at, a.invited_at)
        from review_assignments a
        join review_rounds r on r.id = a.round_id and r.decided_at is null
        cross join unnest(${list(reminders.review)}) as o(off)
        where a.state = 'accepted'
        union all
        select 'revision', r.id, o.off,
               ((r.revision_due + 1 + o.off)::timestamp at time zone ${timeZone}), r.decided_at
        from review_rounds r
        join submissions s on s.id = r.submission_id and s.status = 'revisions_requested'
        cross join unnest(${list(reminders.revision)}) as o(off)
        where r.revision_due is not null and r.revised_at is null
      ),
      ready as (
        select d.*, row_number() over (partition by d.kind, d.subject_id order by d.due_at desc) = 1 as latest
        from due d
        where d.due_at <= ${now.toISOString()}::timestamptz and d.due_at > d.since
          and not exists (
            select 1 from review_reminders x
            where x.kind = d.kind and x.subject_id = d.subject_id and x.offset_days = d.off
          )
      )
      insert into review_reminders (kind, subject_id, offset_days, due_at, mailed, sent_at)
      select kind, subject_id, off, due_at, latest, ${now.toISOString()}::timestamptz from ready
      on conflict do nothing
      returning kind, subject_id, offset_days, mailed`);
    const claimed = (result as unknown as { rows: Claim[] }).rows.filter((c) => c.mailed);
    if (!claimed.length) return { sent: 0 };
    const assignmentIds = claimed.filter((c) => c.kind !== 'revision').map((c) => c.subject_id);
    const roundIds = claimed.filter((c) => c.kind === 'revision').map((c) => c.subject_id);
    const assignments = assignmentIds.length
      ? await tx
          .select({
            a: reviewAssignments,
            p: reviewerProfiles,
            title: submissions.title,
            reference: submissions.reference,
          })
          .from(reviewAssignments)
          .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
          .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
          .where(inArray(reviewAssignments.id, assignmentIds))
      : [];
    const rounds = roundIds.length
      ? await tx
          .select({
            r: reviewRounds,
            title: submissions.title,
            reference: submissions.reference,
            name: users.fullName,
            email: users.email,
            reviewsShared: sql<boolean>`exists (select 1 from ${reviewAssignments} x
              where x.round_id = ${reviewRounds.id} and x.shared_at is not null)`,
          })
          .from(reviewRounds)
          .innerJoin(submissions, eq(submissions.id, reviewRounds.submissionId))
          .innerJoin(users, eq(users.id, submissions.userId))
          .where(inArray(reviewRounds.id, roundIds))
      : [];
    for (const c of claimed) {
      // From the due day's end on (offset 0 and after), the reminder says it is overdue.
      const overdue = c.offset_days >= 0;
      if (c.kind === 'revision') {
        const row = rounds.find((x) => x.r.id === c.subject_id)!;
        await ctx.mail.queue(
          tx,
          revisionReminderMail({
            to: row.email,
            name: row.name,
            due: row.r.revisionDue!,
            zone: timeZone,
            overdue,
            publicUrl: ctx.publicUrl(),
            reviewsShared: row.reviewsShared,
            reference: row.reference,
            title: row.title,
            journal: journalName,
          }),
          { submissionId: row.r.submissionId, secrets: [] },
        );
      } else {
        const row = assignments.find((x) => x.a.id === c.subject_id)!;
        const { link, token } = linkFor(ctx, row.a);
        await ctx.mail.queue(
          tx,
          reminderMail({
            to: row.p.email,
            name: row.p.name,
            kind: c.kind,
            due: c.kind === 'response' ? row.a.responseDue : row.a.reviewDue,
            zone: timeZone,
            overdue,
            link,
            reference: row.reference,
            title: row.title,
            journal: journalName,
          }),
          { submissionId: row.a.submissionId, secrets: [token] },
        );
      }
    }
    return { sent: claimed.length };
  });
}
