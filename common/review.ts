import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { orcidField } from './schemas.ts';

/**
 * Peer review (issue 14, decision 0023): the words, enums and input schemas shared by the API and the
 * pages (the API's answers are review-responses.ts). Reviewing is an assignment, not a role: any account, or a
 * person by name and e-mail, can be invited.
 */

export const REVIEW_MODES = ['double-anonymous', 'anonymous', 'open'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];
export const REVIEW_MODE_LABELS: Record<ReviewMode, string> = {
  'double-anonymous': 'Double-anonymous (reviewers and authors do not see each other)',
  anonymous: 'Anonymous (reviewers see the authors; authors do not see the reviewers)',
  open: 'Open (reviewers and authors see each other)',
};

/** What is stored; "response overdue" and "review overdue" are derived from the due dates. */
export const ASSIGNMENT_STATES = ['invited', 'accepted', 'declined', 'submitted', 'cancelled'] as const;
export type AssignmentState = (typeof ASSIGNMENT_STATES)[number];
/** What an editor or reviewer is shown: the stored state, or an overdue one derived from it and the clock. */
export type AssignmentStatus = AssignmentState | 'response-overdue' | 'review-overdue';
export const ASSIGNMENT_STATUS_LABELS: Record<AssignmentStatus, string> = {
  invited: 'Invited, waiting for an answer',
  'response-overdue': 'Response overdue',
  accepted: 'Accepted, review in progress',
  'review-overdue': 'Review overdue',
  declined: 'Declined',
  submitted: 'Review submitted',
  cancelled: 'Cancelled',
};

export const RECOMMENDATIONS = ['accept', 'minor-revisions', 'major-revisions', 'reject'] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];
export const RECOMMENDATION_LABELS: Record<Recommendation, string> = {
  accept: 'Accept',
  'minor-revisions': 'Minor revisions',
  'major-revisions': 'Major revisions',
  reject: 'Reject',
};

export const DECLINE_REASONS = ['too-busy', 'outside-expertise', 'conflict-of-interest', 'other'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];
export const DECLINE_REASON_LABELS: Record<DeclineReason, string> = {
  'too-busy': 'I do not have the time at the moment',
  'outside-expertise': 'The manuscript is outside my expertise',
  'conflict-of-interest': 'I have a conflict of interest',
  other: 'Another reason',
};

/** The kinds of reminder; each fires once per (subject, offset): decision 0023. */
export const REMINDER_KINDS = ['response', 'review', 'revision'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const QUESTION_TYPES = ['short-text', 'long-text', 'yes-no', 'choice', 'scale'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

const text = (label: string, max: number) =>
  z.string(`${label} must be text.`).trim().max(max, `${label} must be at most ${max} characters.`);
const required = (label: string, max: number) =>
  z
    .string(`${label} is required.`)
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** A calendar day (the due dates are the end of that day in the journal's time zone). */
export const dayField = (label: string) => z.iso.date(`${label}: use a date such as 2026-01-31.`);

const offsets = (label: string) =>
  z
    .array(
      z
        .number(`${label}: each offset is a whole number of days.`)
        .int(`${label}: each offset is a whole number of days.`)
        .min(-60, `${label}: an offset is at most 60 days before.`)
        .max(60, `${label}: an offset is at most 60 days after.`),
      `${label}: give a list of day offsets (negative before the due date, positive after), or an empty list for none.`,
    )
    .max(5, `${label}: at most five reminders.`)
    .refine((list) => new Set(list).size === list.length, `${label}: each offset once.`);

/** Whether a time zone name is one this server's Intl knows (IANA names such as Europe/Berlin). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const days = (label: string, max: number) =>
  z
    .number(`${label} must be a number.`)
    .int(`${label} must be a whole number.`)
    .min(1, `${label} must be at least 1.`)
    .max(max, `${label} must be at most ${max}.`);

/** The journal's review defaults (Journal settings). Stored inside the journal settings as `review`. */
export const reviewSettingsSchema = z.object({
  respondDays: days('Days to respond', 90),
  reviewDays: days('Days to review', 180),
  revisionDays: days('Days for a revision', 365),
  defaultMode: z.enum(REVIEW_MODES, 'Choose the default review mode.'),
  reminders: z.object({
    response: offsets('Invitation reminders'),
    review: offsets('Review reminders'),
    revision: offsets('Revision reminders'),
  }),
  tellReviewersDecision: z.boolean('Say whether reviewers are told the final decision (true or false).'),
  timeZone: z
    .string('The time zone is required.')
    .trim()
    .min(1, 'The time zone is required.')
    .refine(isTimeZone, 'Use a time zone name such as UTC, Europe/Berlin or Asia/Kolkata.'),
});
export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;

export const REVIEW_SETTINGS_DEFAULTS: ReviewSettings = {
  respondDays: 7,
  reviewDays: 28,
  revisionDays: 30,
  defaultMode: 'double-anonymous',
  reminders: { response: [-2, 1], review: [-3, 1, 7], revision: [-7, 1] },
  tellReviewersDecision: true,
  timeZone: 'UTC',
};

// ---- Inputs ------------------------------------------------------------------------------------------

/** Inviting a reviewer: an account (`userId`), a profile from the pool (`profileId`), or a name and e-mail. */
export const inviteSchema = z
  .object({
    userId: z.number('Choose a reviewer.').int().positive().optional(),
    profileId: z.number('Choose a reviewer.').int().positive().optional(),
    name: text("The reviewer's name", 200).optional(),
    email: z.email("Enter the reviewer's e-mail address, such as name@example.org.").max(254).optional(),
    affiliation: text("The reviewer's affiliation", 300).optional(),
    responseDue: dayField('Response due').optional(),
    reviewDue: dayField('Review due').optional(),
    message: text('The message to the reviewer', LIMITS.message).optional(),
  })
  .refine((v) => v.userId !== undefined || v.profileId !== undefined || (v.name && v.email), {
    message: "Choose a reviewer from the pool, or give the reviewer's name and e-mail address.",
    path: ['email'],
  });
export type InviteInput = z.infer<typeof inviteSchema>;

export const dueDatesSchema = z
  .object({ responseDue: dayField('Response due').optional(), reviewDue: dayField('Review due').optional() })
  .refine((v) => v.responseDue || v.reviewDue, {
    message: 'Give a new response or review due date.',
    path: ['reviewDue'],
  });

export const declineSchema = z.object({
  reason: z.enum(DECLINE_REASONS, 'Choose a reason for declining.'),
  comment: text('The comment', 2000).optional().default(''),
  suggestion: text('The suggested reviewer', 500).optional().default(''),
});
export type DeclineInput = z.infer<typeof declineSchema>;

export const answerValue = z.union([z.string().max(LIMITS.message), z.number(), z.boolean(), z.null()]);

/** A draft: any part, saved as typed (nothing checked for completeness until submitting). */
export const reviewDraftSchema = z.object({
  recommendation: z.enum(RECOMMENDATIONS, 'Choose a recommendation from the list.').nullable().optional(),
  commentsForAuthor: text('The comments for the author', 50_000).optional(),
  confidentialComments: text('The confidential comments for the editor', 20_000).optional(),
  answers: z.record(z.string().max(40), answerValue).optional(),
  publishAgreed: z.boolean().optional(),
});
export type ReviewDraft = z.infer<typeof reviewDraftSchema>;

export const ratingSchema = z.object({
  rating: z
    .number('Rate from 1 to 5.')
    .int('Rate from 1 to 5.')
    .min(1, 'Rate from 1 to 5.')
    .max(5, 'Rate from 1 to 5.'),
});

/** A reviewer's areas of interest are the journal's own areas (Journal settings); the service checks which. */
const INTERESTS_FROM_LIST = "Choose areas of interest from the journal's list.";

export const reviewerProfileSchema = z.object({
  name: required('Your name', 200),
  affiliation: text('Your affiliation', 300).default(''),
  interests: z
    .array(z.string(INTERESTS_FROM_LIST).trim().min(1, INTERESTS_FROM_LIST).max(200, INTERESTS_FROM_LIST), {
      error: INTERESTS_FROM_LIST,
    })
    .max(20, 'Choose at most 20 areas of interest.')
    .default([]),
  orcid: orcidField,
  /** A day in the journal's time zone; empty (null) when available. A new one is never before today. */
  unavailableUntil: dayField('Unavailable until').nullable().optional(),
  /**
   * Whether editors of the site's other journals may find them in the site's pool (decision 0062): the
   * account's, in every journal. Left out, it stays as it is.
   */
  listedAcrossSite: z
    .boolean("Say whether other journals' editors may find you in the site's reviewer pool (true or false).")
    .optional(),
});
export type ReviewerProfileInput = z.infer<typeof reviewerProfileSchema>;

export const questionSchema = z
  .object({
    id: z
      .string('Each question needs an id.')
      .regex(/^[a-z0-9-]{1,40}$/, 'A question id is 1 to 40 lower-case letters, digits or hyphens.'),
    type: z.enum(QUESTION_TYPES, 'Choose the type of question.'),
    label: required('The question', 500),
    required: z.boolean().default(false),
    options: z.array(required('An option', 200)).max(20).optional(),
  })
  .refine((q) => q.type !== 'choice' || (q.options && q.options.length >= 2), {
    message: 'A question with a list of choices needs at least two options.',
    path: ['options'],
  });
export type Question = z.infer<typeof questionSchema>;

export const reviewFormSchema = z.object({
  name: required('The form name', 200),
  questions: z
    .array(questionSchema)
    .max(40, 'A form has at most 40 questions.')
    .refine((qs) => new Set(qs.map((q) => q.id)).size === qs.length, 'Each question id must be different.'),
});
export type ReviewFormInput = z.infer<typeof reviewFormSchema>;

/** The problems of an answer set against a form (required answered, types right); field → message. */
export function answerProblems(
  questions: readonly Question[],
  answers: Record<string, unknown>,
  { complete }: { complete: boolean },
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const q of questions) {
    const a = answers[q.id];
    const empty = a === undefined || a === null || (typeof a === 'string' && a.trim() === '');
    const key = `answers.${q.id}`;
    if (empty) {
      if (complete && q.required) problems[key] = `Answer "${q.label}".`;
      continue;
    }
    const ok =
      q.type === 'short-text'
        ? typeof a === 'string' && a.length <= 500
        : q.type === 'long-text'
          ? typeof a === 'string'
          : q.type === 'yes-no'
            ? typeof a === 'boolean'
            : q.type === 'choice'
              ? typeof a === 'string' && (q.options ?? []).includes(a)
              : Number.isInteger(a) && (a as number) >= 1 && (a as number) <= 5;
    if (!ok) {
      problems[key] =
        q.type === 'yes-no'
          ? `Answer "${q.label}" with yes or no.`
          : q.type === 'choice'
            ? `Choose one of the options for "${q.label}".`
            : q.type === 'scale'
              ? `Answer "${q.label}" from 1 to 5.`
              : `The answer to "${q.label}" is too long.`;
    }
  }
  for (const id of Object.keys(answers)) {
    if (!questions.some((q) => q.id === id)) problems[`answers.${id}`] = 'This question is not on the form.';
  }
  return problems;
}

/** The editor's decision's peer-review parts (with the desk's status and message). */
export const REVISION_KINDS = ['minor', 'major'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/**
 * A round's decision in words (`review_rounds.decision`). Plain `revisions` is a request recorded before
 * minor or major was required (decision 0023), kept readable.
 */
export const ROUND_DECISION_LABELS: Record<string, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  'minor-revisions': 'Minor revisions requested',
  'major-revisions': 'Major revisions requested',
  revisions: 'Revisions requested',
};

/** "Minor revisions requested": the decision's name in the author's e-mail and on the pages. */
export const revisionLabel = (kind?: RevisionKind): string =>
  ROUND_DECISION_LABELS[kind ? `${kind}-revisions` : 'revisions'];

/**
 * What an editor confirms with a decision the journal would otherwise not take (issue 22): accepting a
 * manuscript no reviewer has reviewed in any round, and withholding every submitted review of the round from
 * the author. The API refuses such a decision with 409 and the sentence below until `confirm` names it.
 */
export const DECISION_CONFIRMATIONS = ['accept-without-review', 'withhold-reviews'] as const;
export type DecisionConfirmation = (typeof DECISION_CONFIRMATIONS)[number];
export const CONFIRMATION_NEEDED: Record<DecisionConfirmation, string> = {
  'accept-without-review':
    'No reviewer has submitted a review of this manuscript in any round, and the journal accepts no manuscript without review. Confirm that you accept it without peer review.',
  'withhold-reviews':
    'None of the submitted reviews would be shared with the author, who would then be asked to act on reviews they cannot read. Share at least one, or confirm that you withhold them all.',
};

/** Sharing submitted reviews of a decided round with the author after the decision. */
export const shareReviewsSchema = z.object({
  reviews: z
    .array(z.number('Choose reviews to share.').int().positive(), 'Choose reviews to share.')
    .min(1, 'Choose at least one review to share.')
    .max(50),
});

export const poolQuerySchema = z.object({
  q: z.string().trim().max(200, 'The search must be at most 200 characters.').optional(),
});

/** The desk list's peer-review filters. */
export const REVIEW_FILTERS = ['needs-reviewers', 'reviews-overdue', 'reviews-complete'] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

export const reviewTokenQuery = z.object({
  token: z
    .string('The link is incomplete.')
    .max(100, 'The link is not valid.')
    .optional()
    .describe("The invitation link's token (instead of signing in)"),
});

export const reviewerFilesSchema = z.object({
  fileIds: z.array(z.number().int().positive(), 'Give the stored file ids.').max(20),
});

export const reviewModeSchema = z.object({ mode: z.enum(REVIEW_MODES, 'Choose a review mode.') });
