import { useEffect, useRef } from 'react';

/**
 * The outcome of a failed form post, with role="alert". It takes focus each time `attempt` changes (a new
 * failed post), so keyboard and screen-reader users land on it. With more than one field error it lists them
 * (the first of them is the server's summary message), each linking to its field.
 */
export function FormAlert({
  message,
  attempt,
  fieldLinks = [],
}: {
  message: string;
  attempt: unknown;
  fieldLinks?: { id: string; message: string }[];
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (attempt) ref.current?.focus();
  }, [attempt]);
  return (
    <div role="alert" tabIndex={-1} ref={ref} className="alert alert--error">
      <p className="alert__message">
        {fieldLinks.length > 1 ? `Please correct the ${fieldLinks.length} fields below:` : message}
      </p>
      {fieldLinks.length > 1 ? (
        <ul className="alert__list">
          {fieldLinks.map((item) => (
            <li key={item.id}>
              <a href={`#${item.id}`}>{item.message}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function FormStatus({ children }: { children: React.ReactNode }) {
  return (
    <div role="status" className="alert alert--success">
      {children}
    </div>
  );
}
