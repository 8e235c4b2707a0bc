import { Form } from 'react-router';
import type { FormResult } from '../../lib/form-result.ts';
import { TextField } from '../FormField.tsx';
import { type Assignment, refusalOfForm } from './review-panel.ts';

/** An open assignment's due dates, changed and told to the reviewer (intent `dates`). */
export function DueDatesForm({ a, result }: { a: Assignment; result: FormResult | undefined }) {
  const label = a.reviewer.name;
  const dates = refusalOfForm(result, 'dates', a.id);
  const datesRefused = Object.keys(dates.values).length > 0;
  return (
    <details className="reviewer__dates-form" open={datesRefused || undefined}>
      <summary>Change the due dates</summary>
      <Form
        method="post"
        noValidate
        aria-label={`Due dates of ${label}`}
        key={`dates-${a.id}-${a.responseDue}-${a.reviewDue}-${result?.at ?? 0}`}
      >
        <input type="hidden" name="assignment" value={a.id} />
        <div className="dash-forms">
          {a.state === 'invited' ? (
            <TextField
              id={`dates-${a.id}-response`}
              name="responseDue"
              type="date"
              label="Response due"
              defaultValue={dates.values.responseDue ?? a.responseDue}
              error={dates.errors.responseDue}
            />
          ) : null}
          <TextField
            id={`dates-${a.id}-review`}
            name="reviewDue"
            type="date"
            label="Review due"
            defaultValue={dates.values.reviewDue ?? a.reviewDue}
            error={dates.errors.reviewDue}
          />
        </div>
        <button type="submit" name="intent" value="dates" className="button button--secondary button--small">
          Save the due dates and tell the reviewer
        </button>
      </Form>
    </details>
  );
}
