import type { TextareaHTMLAttributes } from 'react';
import { fieldId } from './FormField.tsx';

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name'>;

/** A labelled textarea, with its hint and error announced with it, like FormField's TextField. */
export function TextAreaField({
  name,
  label,
  error,
  hint,
  ...textarea
}: TextAreaProps & { name: string; label: string; error?: string; hint?: string }) {
  const id = fieldId(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          <span className="visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      <textarea
        id={id}
        name={name}
        className="field__input field__input--textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...textarea}
      />
    </div>
  );
}
