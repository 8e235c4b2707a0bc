import { sql } from 'drizzle-orm';
import { type ReviewContext, reviewSettings } from './context.ts';
import { dayIn } from './rules.ts';

/**
 * The reviewer pool: every reviewer with open assignments, completed reviews, median days from acceptance to
 * review, decline rate, last review, average rating, interests and "unavailable until" (while it lasts);
 * searched by name, e-mail, affiliation or interest. One aggregate query (bench/README.md has its time on
 * 20,000 assignments).
 */
export async function pool(ctx: ReviewContext, q?: string) {
  const like = q ? `%${q.replace(/[%_\\]/g, '\\$&')}%` : null;
  // "Unavailable until" is shown while it lasts: up to and including that day, in the journal's time zone.
  const today = dayIn(ctx.clock.now(), (await reviewSettings(ctx)).timeZone);
  type PoolRow = {
    id: number;
    user_id: number | null;
    name: string;
    email: string;
    affiliation: string;
    interests: string[];
    orcid: string | null;
    unavailable_until: string | null;
    open: number;
    completed: number;
    median_days: number | null;
    declined: number;
    answered: number;
    last_review: Date | string | null;
    rating: number | null;
  };
  const result = await ctx.db.execute(sql`
    select p.id, p.user_id, p.name, p.email, p.affiliation, p.interests, p.orcid,
           case when p.unavailable_until >= ${today}::date
             then to_char(p.unavailable_until, 'YYYY-MM-DD') end as unavailable_until,
           count(a.id) filter (where a.state in ('invited', 'accepted'))::int as open,
           count(a.id) filter (where a.state = 'submitted')::int as completed,
           percentile_cont(0.5) within group (
             order by extract(epoch from a.submitted_at - coalesce(a.responded_at, a.invited_at)) / 86400
           ) filter (where a.state = 'submitted') as median_days,
           count(a.id) filter (where a.state = 'declined')::int as declined,
           count(a.id) filter (where a.responded_at is not null)::int as answered,
           max(a.submitted_at) as last_review,
           avg(a.rating)::float as rating
    from reviewer_profiles p
    left join review_assignments a on a.profile_id = p.id
    where ${like} :: text is null
       or p.name ilike ${like} or p.email ilike ${like} or p.affiliation ilike ${like}
       or exists (select 1 from jsonb_array_elements_text(p.interests) i where i ilike ${like})
    group by p.id
    order by lower(p.name), p.id`);
  const rows = (result as unknown as { rows: PoolRow[] }).rows;
  return rows.map((r) => ({
    profileId: r.id,
    userId: r.user_id,
    name: r.name,
    email: r.email,
    affiliation: r.affiliation,
    interests: r.interests,
    orcid: r.orcid,
    unavailableUntil: r.unavailable_until,
    openAssignments: r.open,
    completedReviews: r.completed,
    medianDaysToComplete: r.median_days === null ? null : Math.round(Number(r.median_days) * 10) / 10,
    declineRate: r.answered ? Math.round((r.declined / r.answered) * 100) / 100 : null,
    lastReviewAt: r.last_review ? new Date(r.last_review).toISOString() : null,
    averageRating: r.rating === null ? null : Math.round(Number(r.rating) * 10) / 10,
  }));
}
