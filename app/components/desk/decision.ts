import { DECISION_CONFIRMATIONS, type DecisionConfirmation } from '../../../common/review.ts';

/** The confirm step's buttons: `decide:accept-without-review`, `decide:withhold-reviews` (issue 22). */
export const DECIDE_CONFIRM = 'decide:';
export const isConfirmIntent = (intent: string): intent is `decide:${DecisionConfirmation}` =>
  intent.startsWith(DECIDE_CONFIRM) &&
  (DECISION_CONFIRMATIONS as readonly string[]).includes(intent.slice(DECIDE_CONFIRM.length));
