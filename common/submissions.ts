import { z } from 'zod';
import { LIMITS } from './limits.ts';

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

export const decisionSchema = z.object({
  status: z.enum(SUBMISSION_STATUSES, 'Choose the new status.'),
  message: z
    .string('A message to the author is required.')
    .trim()
    .min(1, 'A message to the author is required.')
    .max(LIMITS.message, `The message must be at most ${LIMITS.message} characters.`),
});
export type DecisionInput = z.infer<typeof decisionSchema>;

export const revisionFieldsSchema = z.object({
  message: z
    .string()
    .trim()
    .max(LIMITS.message, `The note must be at most ${LIMITS.message} characters.`)
    .optional()
    .default(''),
});
