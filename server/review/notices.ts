import type { Tx } from '../db/client.ts';
import {
  type AssignmentRow,
  journal,
  linkFor,
  type ProfileRow,
  type ReviewContext,
  reviewSettings,
  submissionFacts,
} from './context.ts';
import { assignmentNoticeMail, editorNoticeMail, reminderMail } from './mail.ts';
import { dueInstant } from './rules.ts';

/**
 * The e-mails several use cases send about an assignment: to its reviewer (a notice, a reminder) or to the
 * editorial office. Each is queued in the caller's transaction (`mail.queue(tx)`): it goes when the change
 * it reports commits, and never if it rolls back.
 */

/** Sends a notice about an assignment to its reviewer, in the transaction. */
export async function notify(
  ctx: ReviewContext,
  tx: Tx,
  row: { a: AssignmentRow; p: ProfileRow },
  what: Parameters<typeof assignmentNoticeMail>[0]['what'],
  extra: { decision?: string; withLink?: boolean; dates?: boolean } = {},
) {
  const settings = await reviewSettings(ctx);
  const { facts } = await submissionFacts(ctx, row.a.submissionId, tx);
  const { link, token } = linkFor(ctx, row.a);
  await ctx.mail.queue(
    tx,
    assignmentNoticeMail({
      to: row.p.email,
      name: row.p.name,
      what,
      reference: facts.reference,
      title: facts.title,
      journal: (await journal(ctx)).name,
      zone: settings.timeZone,
      ...(extra.dates
        ? {
            responseDue: row.a.state === 'invited' ? row.a.responseDue : undefined,
            reviewDue: row.a.reviewDue,
          }
        : {}),
      ...(extra.withLink ? { link } : {}),
      decision: extra.decision,
    }),
    { submissionId: row.a.submissionId, secrets: extra.withLink ? [token] : [] },
  );
}

/** Tells the editorial office that a reviewer answered or submitted (editors see reviewer names). */
export async function tellEditors(
  ctx: ReviewContext,
  tx: Tx,
  a: AssignmentRow,
  p: ProfileRow,
  what: 'accepted' | 'declined' | 'submitted',
  extra: { detail?: string; recommendation?: AssignmentRow['recommendation'] } = {},
) {
  const { facts } = await submissionFacts(ctx, a.submissionId, tx);
  const to = await ctx.officeEmail(tx);
  if (!to) return;
  await ctx.mail.queue(
    tx,
    editorNoticeMail({
      to,
      reviewer: `${p.name} <${p.email}>`,
      what,
      ...extra,
      reference: facts.reference,
      title: facts.title,
      journal: (await journal(ctx)).name,
      publicUrl: ctx.publicUrl(),
      submissionId: a.submissionId,
    }),
    { submissionId: a.submissionId, secrets: [], office: true },
  );
}

export function due(a: AssignmentRow, kind: 'response' | 'review', zone: string) {
  return dueInstant(kind === 'response' ? a.responseDue : a.reviewDue, zone);
}

/** A reminder of the answer or the review to the reviewer, with the assignment's link. */
export async function mailReminder(
  ctx: ReviewContext,
  tx: Tx,
  o: {
    kind: 'response' | 'review';
    a: Pick<AssignmentRow, 'id' | 'linkNonce' | 'submissionId' | 'responseDue' | 'reviewDue'>;
    p: Pick<ProfileRow, 'name' | 'email'>;
    overdue: boolean;
    /** An editor's "remind now": refused (429) rather than held when the reviewer is at the daily limit. */
    manual?: boolean;
  },
) {
  const settings = await reviewSettings(ctx);
  const { facts } = await submissionFacts(ctx, o.a.submissionId, tx);
  const { link, token } = linkFor(ctx, o.a);
  await ctx.mail.queue(
    tx,
    reminderMail({
      to: o.p.email,
      name: o.p.name,
      kind: o.kind,
      due: o.kind === 'response' ? o.a.responseDue : o.a.reviewDue,
      zone: settings.timeZone,
      overdue: o.overdue,
      link,
      reference: facts.reference,
      title: facts.title,
      journal: (await journal(ctx)).name,
    }),
    { submissionId: o.a.submissionId, secrets: [token], manual: o.manual },
  );
}
