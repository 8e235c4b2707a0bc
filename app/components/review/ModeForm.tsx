import { Form } from 'react-router';
import { REVIEW_MODE_LABELS, REVIEW_MODES } from '../../../common/review.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { SelectField } from '../FormField.tsx';
import { type Round, refusalOfForm } from './review-panel.ts';

/** The review mode of a round without reviewers yet (intent `mode`). */
export function ModeForm({ round, result }: { round: Round; result: FormResult | undefined }) {
  const refused = refusalOfForm(result, 'mode');
  return (
    <Form method="post" noValidate className="dash-inline-form review-mode" aria-label="Review mode">
      <SelectField
        id="review-mode"
        name="mode"
        label="Review mode of this round"
        hint="It can be changed until the first reviewer is invited."
        defaultValue={refused.values.mode ?? round.mode}
        error={refused.errors.mode}
        options={REVIEW_MODES.map((m) => ({ value: m, label: REVIEW_MODE_LABELS[m] }))}
      />
      <button type="submit" name="intent" value="mode" className="button button--secondary button--small">
        Change the mode
      </button>
    </Form>
  );
}
