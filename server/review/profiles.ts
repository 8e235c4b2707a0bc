import { eq, sql } from 'drizzle-orm';
import type { ReviewerProfileInput } from '../../common/review.ts';
import type { SessionUser } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import { invalid } from '../errors.ts';
import {
  assignmentsChanged,
  journal,
  type ProfileRow,
  type ReviewContext,
  reviewsChanged,
} from './context.ts';
import { dayIn } from './rules.ts';
import { reviewerProfiles } from './tables.ts';

/** A reviewer's own profile: the areas they review in and when they are away. */

function presentProfile(p: ProfileRow, listedAcrossSite: boolean) {
  return {
    name: p.name,
    email: p.email,
    affiliation: p.affiliation,
    interests: p.interests,
    orcid: p.orcid,
    unavailableUntil: p.unavailableUntil,
    listedAcrossSite,
  };
}

/** The signed-in account's reviewer profile (made from the account the first time). */
export async function profile(ctx: ReviewContext, user: SessionUser) {
  const [[p], [u]] = await Promise.all([
    ctx.db.select().from(reviewerProfiles).where(eq(reviewerProfiles.userId, user.id)),
    ctx.db.select().from(users).where(eq(users.id, user.id)),
  ]);
  if (p) return presentProfile(p, u.listedInSitePool);
  return {
    name: u.fullName,
    email: u.email,
    affiliation: u.institution,
    interests: [] as string[],
    orcid: u.orcid,
    unavailableUntil: null,
    listedAcrossSite: u.listedInSitePool,
  };
}

/**
 * Saves the signed-in account's reviewer profile. Interests are the journal's areas; "unavailable until"
 * is today or later in the journal's time zone (a past day would change nothing), unless it is the day
 * already saved (a profile saved again after its day has passed is not refused for it).
 */
export async function saveProfile(ctx: ReviewContext, user: SessionUser, input: ReviewerProfileInput) {
  const settings = await journal(ctx);
  const unknown = input.interests.filter((i) => !settings.areas.includes(i));
  if (unknown.length) {
    throw invalid(`Choose areas of interest from the journal's areas (not "${unknown[0]}").`, {
      interests: "Choose areas of interest from the journal's list.",
    });
  }
  const today = dayIn(ctx.clock.now(), settings.review.timeZone);
  if (input.unavailableUntil && input.unavailableUntil < today) {
    const saved = await profile(ctx, user);
    if (saved.unavailableUntil !== input.unavailableUntil) {
      const past = 'Unavailable until: choose today or a later day, or leave it empty if you are available.';
      throw invalid(past, { unavailableUntil: past });
    }
  }
  const values = {
    name: input.name,
    affiliation: input.affiliation,
    interests: input.interests,
    orcid: input.orcid ?? null,
    unavailableUntil: input.unavailableUntil ?? null,
  };
  await ctx.db.transaction(async (tx) => {
    const [p] = await tx
      .select()
      .from(reviewerProfiles)
      .where(
        sql`${reviewerProfiles.userId} = ${user.id} or lower(${reviewerProfiles.email}) = lower(${user.email})`,
      )
      .limit(1);
    if (p)
      await tx
        .update(reviewerProfiles)
        .set({ ...values, userId: user.id })
        .where(eq(reviewerProfiles.id, p.id));
    else
      await tx
        .insert(reviewerProfiles)
        .values({ ...values, userId: user.id, email: user.email, createdAt: ctx.clock.date() });
    // The account's choice, for every journal of the site.
    if (input.listedAcrossSite !== undefined)
      await tx.update(users).set({ listedInSitePool: input.listedAcrossSite }).where(eq(users.id, user.id));
    await assignmentsChanged(ctx, tx);
    if (p) await reviewsChanged(ctx, tx, { profileId: p.id });
  });
  return profile(ctx, user);
}
