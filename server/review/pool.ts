import { sql } from 'drizzle-orm';
import { asSite, currentJournalId } from '../db/scope.ts';
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

/**
 * The reviewer pool across the site (decision 0058), for an editor who asks for it: the people with an account
 * who reviewed for any journal of the site, each once (their profiles in every journal taken together), with
 * their interests, ORCID iD and load (open assignments, completed reviews, median days, last review) across the
 * site, in how many journals they review, and whether this journal already has them. Nothing of another
 * journal's submissions, reviews or ratings, and no e-mail address (they are invited by their account); a
 * search matches names, affiliations and interests only. Reviewers without an account stay their journal's,
 * and so do those who said on their profile that other journals may not find them (decision 0062).
 */
export async function sitePool(ctx: ReviewContext, q?: string) {
  const like = q ? `%${q.replace(/[%_\\]/g, '\\$&')}%` : null;
  const here = currentJournalId() ?? 0;
  type SiteRow = {
    user_id: number;
    name: string;
    affiliation: string;
    orcid: string | null;
    interests: string[] | null;
    open: number;
    completed: number;
    median_days: number | null;
    last_review: Date | string | null;
    journals: number;
    here: boolean;
  };
  // Every journal's profiles and assignments: in the site's scope, for this one query only.
  const result = await asSite(() =>
    ctx.db.execute(sql`
      with people as (
        select p.user_id from reviewer_profiles p
        join users u on u.id = p.user_id
        where p.user_id is not null
          -- Who said no is listed only to a journal that has them already (decision 0062).
          and (u.listed_in_site_pool or exists (
            select 1 from reviewer_profiles h where h.user_id = p.user_id and h.journal_id = ${here}))
          and (${like} :: text is null
            or p.name ilike ${like} or p.affiliation ilike ${like}
            or exists (select 1 from jsonb_array_elements_text(p.interests) i where i ilike ${like}))
        group by p.user_id
      )
      select p.user_id,
             (array_agg(p.name order by p.journal_id = ${here} desc, p.id desc))[1] as name,
             (array_agg(p.affiliation order by p.journal_id = ${here} desc, p.id desc))[1] as affiliation,
             (array_agg(p.orcid order by p.id desc) filter (where p.orcid is not null))[1] as orcid,
             (select jsonb_agg(distinct i order by i) from reviewer_profiles x
                cross join jsonb_array_elements_text(x.interests) i where x.user_id = p.user_id) as interests,
             count(a.id) filter (where a.state in ('invited', 'accepted'))::int as open,
             count(a.id) filter (where a.state = 'submitted')::int as completed,
             percentile_cont(0.5) within group (
               order by extract(epoch from a.submitted_at - coalesce(a.responded_at, a.invited_at)) / 86400
             ) filter (where a.state = 'submitted') as median_days,
             max(a.submitted_at) as last_review,
             count(distinct p.journal_id)::int as journals,
             bool_or(p.journal_id = ${here}) as here
      from reviewer_profiles p
      join people using (user_id)
      left join review_assignments a on a.profile_id = p.id
      group by p.user_id
      order by lower((array_agg(p.name order by p.journal_id = ${here} desc, p.id desc))[1]), p.user_id
      limit 200`),
  );
  const rows = (result as unknown as { rows: SiteRow[] }).rows;
  return rows.map((r) => ({
    userId: r.user_id,
    name: r.name,
    affiliation: r.affiliation,
    interests: r.interests ?? [],
    orcid: r.orcid,
    openAssignments: r.open,
    completedReviews: r.completed,
    medianDaysToComplete: r.median_days === null ? null : Math.round(Number(r.median_days) * 10) / 10,
    lastReviewAt: r.last_review ? new Date(r.last_review).toISOString() : null,
    journals: r.journals,
    inThisJournal: r.here,
  }));
}
