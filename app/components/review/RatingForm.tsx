import { Form } from 'react-router';
import type { FormResult } from '../../lib/form-result.ts';
import { SelectField } from '../FormField.tsx';
import { type Assignment, refusalOfForm } from './review-panel.ts';

/** The editor's private rating of a submitted review (intent `rate`). */
export function RatingForm({ a, result }: { a: Assignment; result: FormResult | undefined }) {
  const rate = refusalOfForm(result, 'rate', a.id);
  return (
    <Form
      method="post"
      noValidate
      className="dash-inline-form review-card__rating"
      aria-label={`Rating of ${a.reviewer.name}'s review`}
      key={`rate-${a.id}-${a.rating}-${result?.at ?? 0}`}
    >
      <input type="hidden" name="assignment" value={a.id} />
      <SelectField
        id={`rate-${a.id}`}
        name="rating"
        label="Your rating (private, 1-5)"
        placeholder="Not rated"
        defaultValue={rate.values.rating ?? (a.rating ? String(a.rating) : '')}
        error={rate.errors.rating}
        options={[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `${n} of 5` }))}
      />
      <button type="submit" name="intent" value="rate" className="button button--secondary button--small">
        Save the rating
      </button>
    </Form>
  );
}
