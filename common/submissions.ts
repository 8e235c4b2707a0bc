import { z } from 'zod';
import { ARTICLE_TYPES, LIMITS } from './limits.ts';
import { DECISION_CONFIRMATIONS, REVIEW_FILTERS, REVISION_KINDS } from './review.ts';
import { idField, optionalDoiField, pagesField } from './schemas.ts';

/** A manuscript's road from arrival to decision. */
export const SUBMISSION_STATUSES = [
  'submitted',
  'under_review',
  'revisions_requested',
  'revised',
  'accepted',
  'rejected',
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const STATUS_LABELS: Record<SubmissionStatus, string> = {
  submitted: 'Submitted',
  under_review: 'Under review',
  revisions_requested: 'Revisions requested',
  revised: 'Revised',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/**
 * The editor's possible moves from each status. `revised` is reached only by the author uploading a
 * revision while revisions are requested. Accepted and rejected are final.
 */
export const EDITOR_TRANSITIONS: Record<SubmissionStatus, readonly SubmissionStatus[]> = {
  submitted: ['under_review', 'rejected'],
  under_review: ['revisions_requested', 'accepted', 'rejected'],
  revisions_requested: ['rejected'],
  revised: ['under_review', 'revisions_requested', 'accepted', 'rejected'],
  accepted: [],
  rejected: [],
};

export function canMove(from: SubmissionStatus, to: SubmissionStatus): boolean {
  return EDITOR_TRANSITIONS[from].includes(to);
}

const decisionStatus = z.enum(SUBMISSION_STATUSES, 'Choose the new status.');
/** "Revisions requested" is always minor or major (issue 14): the author, and the e-mail, are told which. */
const REVISIONS_REQUIRED = 'Choose minor or major revisions.';
const revisionKind = z.enum(REVISION_KINDS, REVISIONS_REQUIRED);

export const decisionSchema = z
  .object({
    status: decisionStatus,
    message: z
      .string('A message to the author is required.')
      .trim()
      .min(1, 'A message to the author is required.')
      .max(LIMITS.message, `The message must be at most ${LIMITS.message} characters.`),
    /** With "revisions requested" (and only then): minor or major. */
    revisions: revisionKind.optional(),
    /**
     * The submitted reviews of the current round shared with the author (their comments for the author go
     * with the message). Left out: all of them. The ones not listed are withheld; withholding every one
     * needs `confirm: ["withhold-reviews"]` (issue 22).
     */
    shareReviews: z
      .array(z.number('Choose reviews to share.').int().positive(), 'Choose reviews to share.')
      .max(50)
      .optional(),
    /** What the editor confirms: accepting with no review in any round, withholding every review. */
    confirm: z
      .array(z.enum(DECISION_CONFIRMATIONS, 'Confirm "accept-without-review" or "withhold-reviews".'), {
        error: 'Confirm "accept-without-review" or "withhold-reviews".',
      })
      .max(2)
      .optional()
      .describe(
        '"accept-without-review": accept a manuscript no reviewer reviewed in any round; "withhold-reviews": share none of the submitted reviews. Such a decision without its confirmation is refused with 409 and `errors.confirm`.',
      ),
    /** With "revisions requested": the author's due day (default from Journal settings). */
    authorDue: z.iso.date('Revision due: use a date such as 2026-01-31.').optional(),
  })
  .refine((v) => v.status !== 'revisions_requested' || v.revisions !== undefined, {
    message: REVISIONS_REQUIRED,
    path: ['revisions'],
    // Said with the other fields' refusals (a missing message too), not only once they are right.
    when: (payload) =>
      z.object({ status: decisionStatus, revisions: revisionKind.optional() }).safeParse(payload.value)
        .success,
  });
export type DecisionInput = z.infer<typeof decisionSchema>;

export const revisionFieldsSchema = z.object({
  message: z
    .string()
    .trim()
    .max(LIMITS.message, `The note must be at most ${LIMITS.message} characters.`)
    .optional()
    .default(''),
  /** The author's response to the reviewers, which the next round's reviewers see. */
  responseToReviewers: z
    .string()
    .trim()
    .max(
      LIMITS.responseToReviewers,
      `The response to the reviewers must be at most ${LIMITS.responseToReviewers} characters.`,
    )
    .optional()
    .default(''),
});

/**
 * The submissions desk's filters (the API's query and the desk page's GET form): status, article type, the
 * date of arrival (from/to, both days included) and a search of title, reference and author names.
 */
export const deskFilterSchema = z.object({
  status: z.enum(SUBMISSION_STATUSES, 'Choose a status from the list.').optional(),
  type: z.enum(ARTICLE_TYPES, 'Choose an article type from the list.').optional(),
  from: z.iso.date('Use a date such as 2026-01-31.').optional(),
  to: z.iso.date('Use a date such as 2026-01-31.').optional(),
  q: z.string().trim().max(200, 'The search must be at most 200 characters.').optional(),
  /** Peer review: needs reviewers, reviews overdue, reviews complete. */
  review: z.enum(REVIEW_FILTERS, 'Choose a review filter from the list.').optional(),
});
export type DeskFilter = z.infer<typeof deskFilterSchema>;

/**
 * Publishing an accepted submission: the issue it goes into, its pages and DOI (the final PDF is a file). No
 * DOI: the journal's pattern gives one (decision 0064).
 */
export const publishSubmissionSchema = z.object({
  issue_id: idField('Issue', { required: 'Choose the issue.', invalid: 'Choose the issue.' }),
  pages: pagesField,
  doi: optionalDoiField,
});
export type PublishSubmissionInput = z.infer<typeof publishSubmissionSchema>;
