import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { DECLINE_REASON_LABELS, type DeclineInput } from '../../common/review.ts';
import { newLinkSecret } from '../accounts/links.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { journalMemberships, passwordResets, users } from '../accounts/tables.ts';
import { DAY } from '../clock.ts';
import type { Tx } from '../db/client.ts';
import {
  actorOf,
  assignmentsChanged,
  journal,
  move,
  type ProfileRow,
  type ReviewContext,
  type ReviewerAccess,
} from './context.ts';
import { newAccountMail } from './mail.ts';
import { tellEditors } from './notices.ts';
import { reachOpen, view } from './reviewer-access.ts';
import { reviewerProfiles } from './tables.ts';

/** The reviewer answers the invitation: accepts (an account made if they have none) or declines. */

/** How long the set-password link of an account created on accepting works. */
const NEW_ACCOUNT_LINK_MS = 7 * DAY;

/**
 * The reviewer accepts. A person invited by name and e-mail gets an account then (approved, researcher)
 * with a link to choose a password; an account with their address made since is linked instead.
 */
export async function accept(ctx: ReviewContext, access: ReviewerAccess, id: number) {
  const now = ctx.clock.date();
  const { name: journalName } = await journal(ctx);
  await ctx.db.transaction(async (tx) => {
    const { a, p } = await reachOpen(ctx, access, id, tx, 'answer');
    await move(tx, a, 'accept', { respondedAt: now });
    if (p.userId === null) await createReviewerAccount(ctx, tx, p, journalName, a.submissionId);
    await ctx.audit.record(tx, actorOf(access), 'review.accept', { type: 'review_assignment', id }, {});
    await tellEditors(ctx, tx, a, p, 'accepted');
    await assignmentsChanged(ctx, tx);
  });
  return view(ctx, access, id);
}

async function createReviewerAccount(
  ctx: ReviewContext,
  tx: Tx,
  p: ProfileRow,
  journalName: string,
  submissionId: number,
) {
  const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${p.email})`);
  if (existing) {
    await tx.update(reviewerProfiles).set({ userId: existing.id }).where(eq(reviewerProfiles.id, p.id));
    return;
  }
  const base =
    p.email
      .split('@')[0]
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '')
      .slice(0, 24) || 'reviewer';
  const taken = await tx
    .select({ u: users.username })
    .from(users)
    .where(sql`lower(${users.username}) like ${`${base.replace(/[%_\\]/g, '\\$&')}%`}`);
  const names = new Set(taken.map((t) => t.u.toLowerCase()));
  let username = base.length >= 3 ? base : `${base}-reviewer`;
  for (let n = 2; names.has(username); n++) username = `${base}${n}`;
  const now = ctx.clock.now();
  const [user] = await tx
    .insert(users)
    .values({
      username,
      // Nobody knows this password: the reviewer chooses theirs from the link.
      passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
      email: p.email,
      fullName: p.name,
      contactNumber: '',
      institution: p.affiliation,
      orcid: p.orcid,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    })
    .returning();
  // An account of the site, and an approved researcher of this journal (decision 0054).
  await tx.insert(journalMemberships).values({
    userId: user.id,
    role: 'researcher',
    status: 'approved',
    createdAt: new Date(now),
    updatedAt: new Date(now),
  });
  await tx.update(reviewerProfiles).set({ userId: user.id }).where(eq(reviewerProfiles.id, p.id));
  const { token, hash } = newLinkSecret();
  await tx.insert(passwordResets).values({
    userId: user.id,
    tokenHash: hash,
    createdAt: new Date(now),
    expiresAt: new Date(now + NEW_ACCOUNT_LINK_MS),
  });
  await ctx.audit.record(tx, null, 'review.account.create', { type: 'user', id: user.id }, { username });
  await ctx.mail.queue(
    tx,
    newAccountMail({
      to: p.email,
      name: p.name,
      username,
      journal: journalName,
      link: `${ctx.publicUrl()}/reset-password?${new URLSearchParams({ token })}`,
    }),
    { submissionId, secrets: [token] },
  );
}

/** The reviewer declines with a reason, and may suggest someone else (the editor sees both). */
export async function decline(ctx: ReviewContext, access: ReviewerAccess, id: number, input: DeclineInput) {
  await ctx.db.transaction(async (tx) => {
    const { a, p } = await reachOpen(ctx, access, id, tx, 'answer');
    await move(tx, a, 'decline', {
      respondedAt: ctx.clock.date(),
      declineReason: input.reason,
      declineComment: input.comment,
      suggestedReviewer: input.suggestion,
    });
    await ctx.audit.record(
      tx,
      actorOf(access),
      'review.decline',
      { type: 'review_assignment', id },
      { reason: input.reason },
    );
    await tellEditors(ctx, tx, a, p, 'declined', {
      detail: [
        `Reason: ${DECLINE_REASON_LABELS[input.reason]}`,
        input.comment ? `Comment: ${input.comment}` : '',
        input.suggestion ? `Suggested reviewer: ${input.suggestion}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    });
    await assignmentsChanged(ctx, tx);
  });
  return { message: 'Thank you for letting us know. The editors have been told.' };
}
