import type {
  InputHTMLAttributes,
  ReactNode,
  Ref,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react';

/**
 * The one field kit of every form: a label (with " *" or "(optional)" when the form shows marks), the hint
 * and the error read with the control (aria-describedby), an invalid control flagged aria-invalid. Fields
 * work controlled (`value` + `onChange`) or uncontrolled (`defaultValue`), as the form needs. Error
 * summaries (FormAlert, SubmissionAlert) link to `#${fieldId(name)}`, or to the explicit `id` given.
 */

/** The element id of a field: "field-title"; a dotted name ("authors.1.email") becomes "field-authors-1-email". */
export const fieldId = (name: string) => `field-${name.replace(/\./g, '-')}`;
export const hintIdOf = (id: string) => `${id}-hint`;
export const errorIdOf = (id: string) => `${id}-error`;

export interface FieldProps {
  name: string;
  label: ReactNode;
  /** The control's id; by default `fieldId(name)`. Give one when several forms on a page share field names. */
  id?: string;
  hint?: ReactNode;
  error?: string;
  /** Marks in the label: " *" (not read out: `required` says it) when required, "(optional)" otherwise. */
  marks?: boolean;
  /** Classes for the field's wrapper (the control keeps `field__input`). */
  fieldClassName?: string;
}

export function describedBy(...ids: (string | false | undefined | null)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

const classes = (...names: (string | false | undefined | null)[]) => names.filter(Boolean).join(' ');

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

/** The label's mark: nothing unless the form shows marks. */
export function FieldMark({ marks, required }: { marks?: boolean; required?: boolean }) {
  if (!marks) return null;
  return required ? <RequiredMark /> : <OptionalMark />;
}

export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">Error: </span>
      {message}
    </p>
  );
}

/** What every control of the kit gets: its id, what describes it, and whether it is invalid. */
export interface ControlIds {
  id: string;
  describedBy?: string;
  invalid?: true;
}

/**
 * The frame every field of the kit shares: label with its mark, hint, error, then the control, which gets
 * the ids it must point at. `liveError` announces an error that appears without a page load (a file refused
 * as it is chosen).
 */
export function Field({
  name,
  id: givenId,
  label,
  hint,
  error,
  marks,
  required,
  fieldClassName,
  liveError,
  children,
}: FieldProps & { required?: boolean; liveError?: boolean; children: (ids: ControlIds) => ReactNode }) {
  const id = givenId ?? fieldId(name);
  const hintId = hint ? hintIdOf(id) : undefined;
  const errorId = error ? errorIdOf(id) : undefined;
  const errorText = error ? <FieldError id={errorId!} message={error} /> : null;
  return (
    <div className={classes('field', error && 'field--invalid', fieldClassName)}>
      <label htmlFor={id} className="field__label">
        {label}
        <FieldMark marks={marks} required={required} />
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {liveError ? <div aria-live="polite">{errorText}</div> : errorText}
      {children({ id, describedBy: describedBy(hintId, errorId), invalid: error ? true : undefined })}
    </div>
  );
}

type Own = 'id' | 'name';

export interface TextFieldProps extends FieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, Own> {
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input (text, e-mail, number, date, search…). */
export function TextField({
  name,
  id,
  label,
  hint,
  error,
  marks,
  fieldClassName,
  inputRef,
  className,
  ...input
}: TextFieldProps) {
  return (
    <Field {...{ name, id, label, hint, error, marks, fieldClassName }} required={input.required}>
      {(ids) => (
        <input
          id={ids.id}
          name={name}
          ref={inputRef}
          className={classes('field__input', className)}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          {...input}
        />
      )}
    </Field>
  );
}

export interface TextAreaFieldProps
  extends FieldProps,
    Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Own> {}

export function TextAreaField({
  name,
  id,
  label,
  hint,
  error,
  marks,
  fieldClassName,
  className,
  ...textarea
}: TextAreaFieldProps) {
  return (
    <Field {...{ name, id, label, hint, error, marks, fieldClassName }} required={textarea.required}>
      {(ids) => (
        <textarea
          id={ids.id}
          name={name}
          className={classes('field__input field__input--textarea', className)}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          {...textarea}
        />
      )}
    </Field>
  );
}

export type SelectOption = string | { value: string; label: string };

export interface SelectFieldProps extends FieldProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, Own> {
  options: readonly SelectOption[];
  /** A first option with the value "" ("Choose an issue", "Any status"). */
  placeholder?: string;
}

export function SelectField({
  name,
  id,
  label,
  hint,
  error,
  marks,
  fieldClassName,
  className,
  options,
  placeholder,
  ...select
}: SelectFieldProps) {
  return (
    <Field {...{ name, id, label, hint, error, marks, fieldClassName }} required={select.required}>
      {(ids) => (
        <select
          id={ids.id}
          name={name}
          className={classes('field__input field__input--select', className)}
          aria-invalid={ids.invalid}
          aria-describedby={ids.describedBy}
          {...select}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => {
            const { value, label: text } =
              typeof option === 'string' ? { value: option, label: option } : option;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

export interface ChoiceFieldProps {
  name: string;
  legend: ReactNode;
  options: readonly { value: string; label: ReactNode; hint?: ReactNode }[];
  /** The group's id (its first control's): by default `fieldId(name)`. */
  id?: string;
  /** The option chosen when the form is shown (uncontrolled); with `multiple`, the options ticked. */
  value?: string | readonly string[];
  /** Checkboxes: any number of the options (each posted under `name`), instead of one radio. */
  multiple?: boolean;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  marks?: boolean;
}

/** A radio group in a fieldset (or checkboxes, `multiple`); nothing is chosen unless `value` says so. */
export function ChoiceField({
  name,
  legend,
  options,
  id: givenId,
  value,
  multiple,
  hint,
  error,
  required,
  marks,
}: ChoiceFieldProps) {
  const id = givenId ?? fieldId(name);
  const chosen = new Set(typeof value === 'string' ? [value] : (value ?? []));
  const hintId = hint ? hintIdOf(id) : undefined;
  const errorId = error ? errorIdOf(id) : undefined;
  return (
    <fieldset className={classes('field', error && 'field--invalid', 'choice')}>
      <legend className="field__label">
        {legend}
        <FieldMark marks={marks} required={required} />
      </legend>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId!} message={error} /> : null}
      <div className="choice__options">
        {options.map((option, i) => {
          // The first control takes the group's id, so "#field-role" (an error-summary link) reaches the group.
          const optionId = i === 0 ? id : `${id}-${option.value}`;
          const optionHintId = option.hint
            ? hintIdOf(optionId === id ? `${id}-${option.value}` : optionId)
            : undefined;
          return (
            <div key={option.value} className="choice__option">
              <input
                type={multiple ? 'checkbox' : 'radio'}
                id={optionId}
                name={name}
                value={option.value}
                defaultChecked={chosen.has(option.value)}
                // A required checkbox would have to be ticked itself: a group's need is the server's to say.
                required={multiple ? undefined : required}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy(optionHintId, hintId, errorId)}
              />
              <label htmlFor={optionId}>
                <span className="choice__label">{option.label}</span>
                {option.hint ? (
                  <span id={optionHintId} className="choice__hint">
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

export interface CheckFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name'> {
  name: string;
  label: ReactNode;
}

/** A checkbox with its label beside it (posted as `value`, "true" unless given). */
export function CheckField({ name, label, value = 'true', className, ...input }: CheckFieldProps) {
  return (
    <label className={classes('check', className)}>
      <input type="checkbox" name={name} value={value} {...input} />
      <span>{label}</span>
    </label>
  );
}
