import type { InputHTMLAttributes, ReactNode } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>;

export interface TextFieldProps extends InputProps {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  inputRef?: React.Ref<HTMLInputElement>;
}

export const fieldId = (name: string) => `field-${name}`;

/** A labelled input whose hint and error are announced with it (aria-describedby) and flagged aria-invalid. */
export function TextField({ name, label, error, hint, inputRef, ...input }: TextFieldProps) {
  const id = fieldId(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
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
      {error ? <FieldError id={errorId!} message={error} /> : null}
      <input
        id={id}
        name={name}
        ref={inputRef}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId)}
        {...input}
      />
    </div>
  );
}

export interface ChoiceFieldProps {
  name: string;
  legend: string;
  options: readonly { value: string; label: string; hint?: string }[];
  value?: string;
  error?: string;
  required?: boolean;
}

/** A radio group in a fieldset; nothing is chosen unless `value` says so. */
export function ChoiceField({ name, legend, options, value, error, required }: ChoiceFieldProps) {
  const id = fieldId(name);
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset className={error ? 'field field--invalid choice' : 'field choice'}>
      <legend className="field__label">{legend}</legend>
      {error ? <FieldError id={errorId!} message={error} /> : null}
      <div className="choice__options">
        {options.map((option, i) => {
          // The first radio takes the group's id, so "#field-role" (an error-summary link) reaches the group.
          const optionId = i === 0 ? id : `${id}-${option.value}`;
          const hintId = option.hint ? `${optionId}-hint` : undefined;
          return (
            <div key={option.value} className="choice__option">
              <input
                type="radio"
                id={optionId}
                name={name}
                value={option.value}
                defaultChecked={value === option.value}
                required={required}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy(hintId, errorId)}
              />
              <label htmlFor={optionId}>
                <span className="choice__label">{option.label}</span>
                {option.hint ? (
                  <span id={hintId} className="choice__hint">
                    {option.hint}
                  </span>
                ) : null}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">Error: </span>
      {message}
    </p>
  );
}

function describedBy(...ids: (string | undefined)[]): string | undefined {
  const joined = ids.filter(Boolean).join(' ');
  return joined || undefined;
}
