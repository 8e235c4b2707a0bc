import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

interface Common {
  /** Unique on the page (several forms share field names). */
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

function Frame({ id, label, error, hint, children }: Omit<Common, 'name'> & { children: ReactNode }) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          <span className="visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      {children}
    </div>
  );
}

const describedBy = ({ id, error, hint }: Common) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** A labelled input with its hint and error next to it (aria-describedby, aria-invalid). */
export function DashInput(props: Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>) {
  const { id, name, label, error, hint, ...input } = props;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        name={name}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(props)}
        {...input}
      />
    </Frame>
  );
}

export function DashTextArea(
  props: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name'>,
) {
  const { id, name, label, error, hint, ...textarea } = props;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        name={name}
        className="field__input field__input--textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(props)}
        {...textarea}
      />
    </Frame>
  );
}

export function DashSelect(
  props: Common &
    Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> & {
      options: readonly { value: string; label: string }[];
      placeholder?: string;
    },
) {
  const { id, name, label, error, hint, options, placeholder, ...select } = props;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        name={name}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(props)}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}
