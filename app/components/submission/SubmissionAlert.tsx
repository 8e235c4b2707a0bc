import { useEffect, useRef } from 'react';
import { fieldId } from '../FormField.tsx';

/**
 * A refused submission or revision: "{prefix}{message}" in role="alert", and, when several fields are
 * wrong, a list linking to each. It takes focus each time `attempt` changes, so keyboard and screen-reader
 * users land on it.
 */
export function SubmissionAlert({
  prefix,
  message,
  errors,
  attempt,
}: {
  prefix: string;
  message: string;
  errors: Record<string, string>;
  attempt: unknown;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (attempt) ref.current?.focus();
  }, [attempt]);
  const links = Object.entries(errors).filter(([key]) => key !== '_');
  return (
    <div role="alert" tabIndex={-1} ref={ref} className="alert alert--error submission-alert">
      <p className="alert__message">
        {prefix}
        {message}
      </p>
      {links.length > 1 ? (
        <>
          <p>Please correct these {links.length} fields:</p>
          <ul className="alert__list">
            {links.map(([key, text]) => (
              <li key={key}>
                <a href={`#${fieldId(key)}`}>{text}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
