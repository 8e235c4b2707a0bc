import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatDay } from '../../common/dates.ts';
import type { InviteInput } from '../../common/review.ts';
import { memberHere } from '../accounts/membership.ts';
import { journalMemberships, users } from '../accounts/tables.ts';
import type { Actor } from '../audit/service.ts';
import type { Tx } from '../db/client.ts';
import { asSite } from '../db/scope.ts';
import { conflict, invalid, notFound, unprocessable } from '../errors.ts';
import { submissions } from '../submissions/tables.ts';
import {
  assignmentsChanged,
  journal,
  linkFor,
  type ProfileRow,
  type ReviewContext,
  reviewSettings,
  submissionFacts,
} from './context.ts';
import { editorView } from './editor-view.ts';
import { invitationMail } from './mail.ts';
import { openRoundOf } from './rounds.ts';
import { conflicts, dayIn, defaultDueDay } from './rules.ts';
import { reviewAssignments, reviewerProfiles } from './tables.ts';

/**
 * Invites a reviewer to the current round: an account, a profile of the pool, or a name and e-mail (a
 * profile is kept; an account is created only when they accept). Authors of the submission are refused;
 * a shared institution is a warning returned with the invitation.
 */
export async function invite(ctx: ReviewContext, actor: Actor, submissionId: number, input: InviteInput) {
  const settings = await reviewSettings(ctx);
  const now = ctx.clock.now();
  const { name: journalName } = await journal(ctx);
  if (input.userId !== undefined && !(await invitable(ctx, input.userId))) throw notFound('No such account.');
  const result = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(eq(submissions.id, submissionId))
      .for('update');
    if (!locked) throw notFound('Submission not found.');
    const round = await openRoundOf(ctx, submissionId, tx);
    const profile = await profileFor(ctx, tx, input);
    const { facts, submitter } = await submissionFacts(ctx, submissionId, tx);
    const check = conflicts(profile, facts.authors, submitter);
    if (check.refusal) throw unprocessable(check.refusal, { reviewer: check.refusal });
    const today = dayIn(now, settings.timeZone);
    const away =
      profile.unavailableUntil && profile.unavailableUntil >= today
        ? `The reviewer said they are unavailable until ${formatDay(profile.unavailableUntil)}.`
        : null;
    const warning = [check.warning, away].filter(Boolean).join(' ') || null;
    const [open] = await tx
      .select({ id: reviewAssignments.id })
      .from(reviewAssignments)
      .where(
        and(
          eq(reviewAssignments.roundId, round.id),
          eq(reviewAssignments.profileId, profile.id),
          inArray(reviewAssignments.state, ['invited', 'accepted', 'submitted', 'cancelled']),
        ),
      );
    if (open) {
      throw conflict(
        'This reviewer already has an assignment in this round (reinstate it if it was cancelled; invite again only after a decline).',
      );
    }
    const responseDue = input.responseDue ?? defaultDueDay(now, settings.respondDays, settings.timeZone);
    const reviewDue =
      input.reviewDue ?? defaultDueDay(now, settings.respondDays + settings.reviewDays, settings.timeZone);
    if (reviewDue < responseDue) {
      throw invalid('The review cannot be due before the answer to the invitation.', {
        reviewDue: 'The review cannot be due before the answer to the invitation.',
      });
    }
    const [a] = await tx
      .insert(reviewAssignments)
      .values({
        roundId: round.id,
        submissionId,
        profileId: profile.id,
        responseDue,
        reviewDue,
        linkNonce: randomBytes(16).toString('base64url'),
        warning,
        invitedAt: new Date(now),
      })
      .returning();
    await ctx.audit.record(
      tx,
      actor,
      'review.invite',
      { type: 'review_assignment', id: a.id },
      {
        submissionId,
        round: round.number,
        profileId: profile.id,
      },
    );
    const { link, token } = linkFor(ctx, a);
    await ctx.mail.queue(
      tx,
      invitationMail({
        to: profile.email,
        name: profile.name,
        link,
        responseDue,
        reviewDue,
        zone: settings.timeZone,
        mode: round.mode,
        round: round.number,
        message: input.message,
        reference: facts.reference,
        title: facts.title,
        abstract: facts.abstract,
        articleType: facts.articleType,
        keywords: facts.keywords,
        // Never in an anonymous mode: the authors are on the assignment's page when the mode allows.
        authors:
          round.mode === 'open'
            ? facts.authors.map((x) => ({ name: x.name, affiliation: x.affiliation }))
            : null,
        journal: journalName,
      }),
      { submissionId, secrets: [token] },
    );
    await assignmentsChanged(ctx, tx);
    return { id: a.id, warning };
  });
  return { assignmentId: result.id, warning: result.warning, review: await editorView(ctx, submissionId) };
}

/**
 * Whether an editor may invite this account by its id: a member of the journal at hand, or one of the site's
 * reviewer pool (a profile with an account in any journal, listed across the site: decisions 0058, 0062). Any other account is only another
 * journal's (its authors, its readers), and is answered as an id nobody has: an invitation would copy its name
 * and e-mail address into this journal's pool (decision 0060).
 */
async function invitable(ctx: ReviewContext, userId: number): Promise<boolean> {
  const [member] = await ctx.db
    .select({ userId: journalMemberships.userId })
    .from(journalMemberships)
    .where(memberHere(userId));
  if (member) return true;
  // Every journal's profiles (the site's pool): in the site's scope, for this one query only. Someone who
  // said other journals may not find them (decision 0062) is not invitable by id either.
  const [reviewer] = await asSite(() =>
    ctx.db
      .select({ id: reviewerProfiles.id })
      .from(reviewerProfiles)
      .innerJoin(users, eq(users.id, reviewerProfiles.userId))
      .where(and(eq(reviewerProfiles.userId, userId), eq(users.listedInSitePool, true)))
      .limit(1),
  );
  return reviewer !== undefined;
}

/** The profile an invitation names: found or made (an account's details, or the name and e-mail typed). */
async function profileFor(ctx: ReviewContext, tx: Tx, input: InviteInput): Promise<ProfileRow> {
  if (input.profileId !== undefined) {
    const [p] = await tx.select().from(reviewerProfiles).where(eq(reviewerProfiles.id, input.profileId));
    if (!p) throw notFound('No such reviewer in the pool.');
    return p;
  }
  let account: typeof users.$inferSelect | undefined;
  if (input.userId !== undefined) {
    [account] = await tx.select().from(users).where(eq(users.id, input.userId));
    if (!account) throw notFound('No such account.');
  } else {
    [account] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${input.email!})`);
  }
  const email = account?.email ?? input.email!;
  const [existing] = await tx
    .select()
    .from(reviewerProfiles)
    .where(
      account
        ? sql`${reviewerProfiles.userId} = ${account.id} or lower(${reviewerProfiles.email}) = lower(${email})`
        : sql`lower(${reviewerProfiles.email}) = lower(${email})`,
    )
    .limit(1);
  if (existing) {
    if (account && existing.userId === null) {
      const [linked] = await tx
        .update(reviewerProfiles)
        .set({ userId: account.id })
        .where(eq(reviewerProfiles.id, existing.id))
        .returning();
      return linked;
    }
    return existing;
  }
  const [created] = await tx
    .insert(reviewerProfiles)
    .values({
      userId: account?.id ?? null,
      name: account?.fullName ?? input.name!,
      email,
      affiliation: input.affiliation ?? account?.institution ?? '',
      orcid: account?.orcid ?? null,
      createdAt: ctx.clock.date(),
    })
    .returning();
  return created;
}
