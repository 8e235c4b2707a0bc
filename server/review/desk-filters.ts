import { sql } from 'drizzle-orm';
import type { ReviewFilter } from '../../common/review.ts';
import { submissions } from '../submissions/tables.ts';
import { type ReviewContext, reviewSettings } from './context.ts';

/**
 * The desk list's peer-review filters as a condition on `submissions`: under review and its current round
 * has fewer than two reviewers invited or at work ("needs reviewers"), an open assignment overdue, or
 * every accepted assignment submitted with at least one review ("reviews complete").
 */
export async function deskCondition(ctx: ReviewContext, filter: ReviewFilter) {
  const zone = (await reviewSettings(ctx)).timeZone;
  const now = ctx.clock.date();
  const current = sql`(select max(r2.number) from review_rounds r2 where r2.submission_id = ${submissions.id})`;
  const inCurrent = sql`a.round_id = (select r.id from review_rounds r where r.submission_id = ${submissions.id} and r.number = ${current} and r.decided_at is null)`;
  if (filter === 'needs-reviewers') {
    return sql`${submissions.status} in ('under_review') and (select count(*) from review_assignments a where ${inCurrent} and a.state in ('invited', 'accepted', 'submitted')) < 2`;
  }
  if (filter === 'reviews-overdue') {
    return sql`exists (select 1 from review_assignments a where ${inCurrent} and (
      (a.state = 'invited' and ((a.response_due + 1)::timestamp at time zone ${zone}) <= ${now.toISOString()}::timestamptz)
      or (a.state = 'accepted' and ((a.review_due + 1)::timestamp at time zone ${zone}) <= ${now.toISOString()}::timestamptz)))`;
  }
  return sql`exists (select 1 from review_assignments a where ${inCurrent} and a.state = 'submitted')
    and not exists (select 1 from review_assignments a where ${inCurrent} and a.state in ('invited', 'accepted'))`;
}
