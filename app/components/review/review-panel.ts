import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import type { DeskReviewData } from './desk-review.server.ts';

/** What the peer-review panel's forms (one file each, beside this one) share: its rows, and their refusals. */

export type Round = DeskReviewData['review']['rounds'][number];
export type Assignment = Round['assignments'][number];
export type Candidate = NonNullable<DeskReviewData['candidates']>[number];

/** The errors and typed values of a refusal of `intent`, for one assignment's form only when `assignmentId` is given. */
export function refusalOfForm(result: FormResult | undefined, intent: string, assignmentId?: number) {
  const refused = refusalFor(result, intent);
  if (assignmentId !== undefined && refused.values.assignment !== String(assignmentId))
    return { errors: {} as Record<string, string>, values: {} as Record<string, string> };
  return refused;
}
