import {
  type InviteInput,
  dueDatesSchema,
  inviteSchema,
  ratingSchema,
  reviewModeSchema,
} from '../../../common/review.ts';
import { defaultDueDay, dayIn } from '../../../server/review/rules.ts';
import type { Services } from '../../../server/services.ts';
import type { SessionUser } from '../../../server/accounts/service.ts';
import { asClientError, validateForm } from '../../lib/forms.server.ts';
import type { PostedForm } from '../../lib/forms.server.ts';
import { clientError, replyDone, replyRefused } from '../../lib/reply.server.ts';
import { WITHOUT_PROPERTIES_INTENT } from './FilePropertiesWarning.tsx';

/**
 * The peer-review part of the submission's desk page (issue 14, decision 0023): what its loader reads and what
 * its forms post, as thin calls to `services.review` (and the mail log).
 */

/** What the desk page shows of the review: the rounds, the search of reviewers, the decision's defaults. */
export async function deskReviewData(
  services: Services,
  submissionId: number,
  find: string,
  opts: { site?: boolean } = {},
) {
  const { review, mail, settings, clock, accounts } = services;
  const journal = await settings.journal();
  const zone = journal.review.timeZone;
  const now = clock.now();
  // The site's pool is there only when the site has other journals.
  const otherJournals = services.journals.list().length > 1;
  const site = Boolean(opts.site && otherJournals);
  const [rounds, log, pool, people, sitePool] = await Promise.all([
    review.editorView(submissionId),
    mail.log(submissionId),
    find ? review.pool(find) : Promise.resolve(null),
    find ? accounts.listUsers({ q: find, status: 'approved', limit: 10, offset: 0 }) : Promise.resolve(null),
    find && site ? review.sitePool(find) : Promise.resolve(null),
  ]);
  // Double-anonymous and still open: the files reviewers get, checked for properties that name people
  // (decision 0024; each file is read once, then its scan is kept by content).
  const current = rounds.rounds.at(-1);
  const properties =
    current && !current.decidedAt && current.mode === 'double-anonymous'
      ? await review.fileProperties(submissionId)
      : null;
  // Search results: the pool's reviewers, then accounts never invited yet (reviewing is not a role).
  const today = dayIn(now, zone);
  const known = new Set((pool ?? []).flatMap((p) => [p.email.toLowerCase(), `user:${p.userId}`]));
  const candidates = pool
    ? [
        ...pool.slice(0, 20).map((p) => ({
          pick: `profile:${p.profileId}`,
          name: p.name,
          email: p.email,
          affiliation: p.affiliation,
          interests: p.interests,
          openAssignments: p.openAssignments as number | null,
          completedReviews: p.completedReviews as number | null,
          // The pool gives it while it lasts.
          unavailableUntil: p.unavailableUntil,
          averageRating: p.averageRating,
          otherJournals: null as number | null,
        })),
        ...(people?.users ?? [])
          .filter((u) => !known.has(u.email.toLowerCase()) && !known.has(`user:${u.id}`))
          .map((u) => ({
            pick: `user:${u.id}`,
            name: u.fullName,
            email: u.email,
            affiliation: u.institution ?? '',
            interests: [] as string[],
            openAssignments: null,
            completedReviews: null,
            unavailableUntil: null,
            averageRating: null,
            otherJournals: null,
          })),
        // Then, when asked, the people who review for the site's other journals only: no e-mail address (they
        // are invited by their account), their load across the site (decision 0058).
        ...(sitePool ?? [])
          .filter((r) => !r.inThisJournal && !known.has(`user:${r.userId}`))
          .filter((r) => !(people?.users ?? []).some((u) => u.id === r.userId))
          .slice(0, 20)
          .map((r) => ({
            pick: `user:${r.userId}`,
            name: r.name,
            email: null,
            affiliation: r.affiliation,
            interests: r.interests,
            openAssignments: r.openAssignments as number | null,
            completedReviews: r.completedReviews as number | null,
            unavailableUntil: null,
            averageRating: null,
            otherJournals: r.journals as number | null,
          })),
      ]
    : null;
  return {
    review: rounds,
    properties,
    log,
    find,
    site,
    otherJournals,
    candidates,
    today,
    authorDueDefault: defaultDueDay(now, journal.review.revisionDays, zone),
    responseDueDefault: defaultDueDay(now, journal.review.respondDays, zone),
    reviewDueDefault: defaultDueDay(now, journal.review.respondDays + journal.review.reviewDays, zone),
  };
}

export type DeskReviewData = Awaited<ReturnType<typeof deskReviewData>>;

/** The intents of the review panel's forms. */
export const REVIEW_INTENTS = [
  'invite',
  'reinvite',
  'cancel',
  'reinstate',
  'remind',
  'dates',
  'read',
  'thank',
  'rate',
  'mode',
  'share',
  WITHOUT_PROPERTIES_INTENT,
] as const;

const isReviewIntent = (intent: string): intent is (typeof REVIEW_INTENTS)[number] =>
  (REVIEW_INTENTS as readonly string[]).includes(intent);

/** Only the non-empty fields, so that optional schema fields stay absent. */
function filled(values: Record<string, string>) {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
}

/**
 * Handles a post of the review panel; `null` when the intent is not one of its own. Client errors (409, 422…)
 * are thrown and answered by the page's action like its other forms.
 */
export async function reviewAction(
  services: Services,
  user: SessionUser,
  submissionId: number,
  intent: string,
  form: PostedForm,
) {
  if (!isReviewIntent(intent)) return null;
  const values: Record<string, string> = {};
  try {
    return await reviewMove(services, user, submissionId, intent, form, values);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, values);
  }
}

/** One move of the panel; `values` collects what was typed, for a refusal to show again. */
async function reviewMove(
  services: Services,
  user: SessionUser,
  submissionId: number,
  intent: (typeof REVIEW_INTENTS)[number],
  form: PostedForm,
  values: Record<string, string>,
) {
  const { review } = services;
  if (intent === 'invite') {
    for (const key of [
      'reviewer',
      'name',
      'email',
      'affiliation',
      'responseDue',
      'reviewDue',
      'message',
      'find',
    ])
      values[key] = form.text(key);
    const [kind, rawId] = values.reviewer.split(':');
    const picked = /^\d{1,9}$/.test(rawId ?? '') ? Number(rawId) : undefined;
    const input: Record<string, unknown> = filled({
      responseDue: values.responseDue,
      reviewDue: values.reviewDue,
      message: values.message,
    });
    if (picked !== undefined && kind === 'profile') input.profileId = picked;
    else if (picked !== undefined && kind === 'user') input.userId = picked;
    else
      Object.assign(
        input,
        filled({ name: values.name, email: values.email, affiliation: values.affiliation }),
      );
    if (values.reviewer === '' && (values.name.trim() === '') !== (values.email.trim() === '')) {
      // One of the two typed: say which is missing rather than the general sentence.
      const errors: Record<string, string> = values.name.trim()
        ? { email: "Enter the reviewer's e-mail address, such as name@example.org." }
        : { name: "Enter the reviewer's name." };
      return replyRefused(intent, clientError(400, 'Please correct the marked fields.', errors), values);
    }
    const parsed = validateForm(inviteSchema, input);
    if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
    const result = await review.invite(user, submissionId, parsed.data as InviteInput);
    const invited = result.review.rounds.at(-1)?.assignments.find((a) => a.id === result.assignmentId);
    return replyDone(
      intent,
      `The invitation has been sent to ${invited?.reviewer.name ?? 'the reviewer'}.${result.warning ? ` Warning: ${result.warning}` : ''}`,
    );
  }
  if (intent === WITHOUT_PROPERTIES_INTENT) {
    const after = await review.withoutNamesForReviewers(user, submissionId);
    const copies = after.files.filter((f) => f.copy).map((f) => f.name);
    return replyDone(
      intent,
      `Reviewers now get ${copies.length === 1 ? 'a copy' : 'copies'} without the properties that named people (${copies.join(', ')}). The author's files are as they were.`,
    );
  }
  if (intent === 'mode') {
    values.mode = form.text('mode');
    const parsed = validateForm(reviewModeSchema, values);
    if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
    await review.setMode(user, submissionId, parsed.data.mode);
    return replyDone(intent, 'The review mode of this round has been changed.');
  }
  // The rest act on one assignment, which must be one of this submission's.
  const assignmentId = /^\d{1,9}$/.test(form.text('assignment')) ? Number(form.text('assignment')) : 0;
  const view = await review.editorView(submissionId);
  const assignment = view.rounds.flatMap((r) => r.assignments).find((a) => a.id === assignmentId);
  values.assignment = String(assignmentId);
  if (!assignment) return replyRefused(intent, clientError(404, 'Review assignment not found.'), values);
  const who = assignment.reviewer.name;
  switch (intent) {
    case 'reinvite': {
      await review.invite(user, submissionId, { profileId: assignment.reviewer.profileId });
      return replyDone(intent, `${who} has been invited again, with a new link.`);
    }
    case 'cancel':
      await review.cancel(user, assignmentId);
      return replyDone(intent, `The assignment of ${who} has been cancelled; they have been told.`);
    case 'reinstate':
      await review.reinstate(user, assignmentId);
      return replyDone(
        intent,
        `The assignment of ${who} has been reinstated; they have been sent a new link.`,
      );
    case 'remind':
      await review.remindNow(user, assignmentId);
      return replyDone(intent, `A reminder has been sent to ${who}.`);
    case 'dates': {
      values.responseDue = form.text('responseDue');
      values.reviewDue = form.text('reviewDue');
      // Unchanged dates are not changes: only what differs from the assignment goes to the service.
      const input = filled({
        responseDue: values.responseDue === assignment.responseDue ? '' : values.responseDue,
        reviewDue: values.reviewDue === assignment.reviewDue ? '' : values.reviewDue,
      });
      const parsed = validateForm(dueDatesSchema, input);
      if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
      await review.setDueDates(user, assignmentId, parsed.data);
      return replyDone(intent, `The new due dates have been e-mailed to ${who}.`);
    }
    case 'share':
      await review.shareLater(user, submissionId, [assignmentId]);
      return replyDone(
        intent,
        `The review of ${who} is now shared with the author, who has been e-mailed its comments.`,
      );
    case 'read':
      await review.markRead(user, assignmentId);
      return replyDone(intent, `The review of ${who} is marked as read.`);
    case 'thank':
      await review.thank(user, assignmentId);
      return replyDone(intent, `A thank-you e-mail has been sent to ${who}.`);
    case 'rate': {
      values.rating = form.text('rating');
      const parsed = validateForm(ratingSchema, {
        rating: /^[0-9]{1,2}$/.test(values.rating) ? Number(values.rating) : values.rating,
      });
      if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
      await review.rate(user, assignmentId, parsed.data.rating);
      return replyDone(intent, `Your rating of ${who}'s review (${parsed.data.rating} of 5) is saved.`);
    }
  }
  return null;
}

/**
 * The decision form's peer-review fields, read from the post and kept as typed for a refusal; the shared
 * decision schema checks them (minor or major is required with "revisions requested": decision 0023).
 */
export function decisionReviewFields(form: PostedForm, status: string) {
  const chose = form.text('shareChoice') === '1';
  const values = {
    revisions: form.text('revisions'),
    authorDue: form.text('authorDue'),
    shareChoice: chose ? '1' : '',
    shareReviews: form.all('shareReviews').join(','),
  };
  const share = form
    .all('shareReviews')
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number);
  return {
    values,
    // Shown the reviews, the editor chose which to share (none ticked: withhold them all, to be confirmed).
    shared: share.length,
    input: {
      ...(status === 'revisions_requested'
        ? { revisions: values.revisions || undefined, authorDue: values.authorDue || undefined }
        : {}),
      ...(chose || share.length ? { shareReviews: share } : {}),
    },
  };
}
