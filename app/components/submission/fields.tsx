import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { fieldDomId } from './draft.ts';

/**
 * Labelled fields for the submission forms: required ones carry a visible mark and `required`; the hint and
 * the error are read with the field (aria-describedby), and an invalid field is flagged aria-invalid.
 */
interface ShellProps {
  name: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  className?: string;
}

export function describedBy(...ids: (string | false | undefined | null)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

export function RequiredMark() {
  return (
    <span className="req" aria-hidden="true">
      {' '}
      *
    </span>
  );
}

export function OptionalMark() {
  return <span className="optional"> (optional)</span>;
}

export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">Error: </span>
      {message}
    </p>
  );
}

function Shell({
  name,
  label,
  required,
  hint,
  error,
  className,
  children,
}: ShellProps & { children: (ids: { id: string; describedBy?: string; invalid?: true }) => ReactNode }) {
  const id = fieldDomId(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
        {required ? <RequiredMark /> : <OptionalMark />}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId!} message={error} /> : null}
      {children({ id, describedBy: describedBy(hintId, errorId), invalid: error ? true : undefined })}
    </div>
  );
}

type Common = ShellProps & { value: string; onValue?: (value: string) => void };

export function InputField({
  name,
  label,
  required,
  hint,
  error,
  className,
  value,
  onValue,
  ...input
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'value' | 'required' | 'className'>) {
  return (
    <Shell name={name} label={label} required={required} hint={hint} error={error} className={className}>
      {(ids) => (
        <input
          id={ids.id}
          name={name}
          className="field__input"
          required={required}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          value={value}
          onChange={(e) => onValue?.(e.target.value)}
          {...input}
        />
      )}
    </Shell>
  );
}

export function TextAreaField({
  name,
  label,
  required,
  hint,
  error,
  className,
  value,
  onValue,
  ...textarea
}: Common &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name' | 'value' | 'required' | 'className'>) {
  return (
    <Shell name={name} label={label} required={required} hint={hint} error={error} className={className}>
      {(ids) => (
        <textarea
          id={ids.id}
          name={name}
          className="field__input field__input--textarea"
          required={required}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          value={value}
          onChange={(e) => onValue?.(e.target.value)}
          {...textarea}
        />
      )}
    </Shell>
  );
}

export function SelectField({
  name,
  label,
  required,
  hint,
  error,
  className,
  value,
  onValue,
  options,
  placeholder,
  ...select
}: Common & {
  options: readonly string[];
  placeholder: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'value' | 'required' | 'className'>) {
  return (
    <Shell name={name} label={label} required={required} hint={hint} error={error} className={className}>
      {(ids) => (
        <select
          id={ids.id}
          name={name}
          className="field__input field__input--select"
          required={required}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          value={value}
          onChange={(e) => onValue?.(e.target.value)}
          {...select}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Shell>
  );
}
