import { Form } from 'react-router';

/** A one-button form acting on an assignment, named for screen readers by what it does and to whom. */
export function AssignmentButton({
  id,
  intent,
  label,
  who,
  danger,
}: {
  id: number;
  intent: string;
  label: string;
  who: string;
  danger?: boolean;
}) {
  return (
    <Form method="post" className="dash-inline-form">
      <input type="hidden" name="assignment" value={id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={`${label}: ${who}`}
        className={`button button--small ${danger ? 'button--danger' : 'button--secondary'}`}
      >
        {label}
      </button>
    </Form>
  );
}
