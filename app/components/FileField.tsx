import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { type FileRule, fileProblem, formatBytes } from '../../common/upload-rules.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { Field, describedBy, fieldId } from './FormField.tsx';

export interface FileFieldProps {
  rule: FileRule<string>;
  maxBytes: number;
  label: string;
  /** The input's id; by default `fieldId(rule.field)`. Give one when two forms on a page take the same file. */
  id?: string;
  required?: boolean;
  /** " *" or "(optional)" beside the label (true unless the form shows no marks). */
  marks?: boolean;
  hint?: ReactNode;
  /**
   * Controlled: the file chosen and accepted (null when none), with `onChoose`. Leave both out in a plain
   * form post: the field then keeps the chosen file and its refusal itself.
   */
  file?: File | null;
  error?: string;
  /** Said beside the field after a form post without JavaScript: the browser has forgotten the file. */
  reminder?: string;
  disabled?: boolean;
  /** A file that passed the checks, or null with the reason it was refused (or null, null when cleared). */
  onChoose?: (file: File | null, problem: string | null) => void;
}

/**
 * A file input that is also a drop target. A chosen or dropped file is checked at once (name, size, first
 * bytes) and refused before any upload with the reason; an accepted one shows its name and size. The native
 * input stays the control, so it works with the keyboard and, without JavaScript, in a plain form post
 * (the zone is then only its frame around the browser's own picker).
 */
export function FileField({
  rule,
  maxBytes,
  label,
  id: givenId,
  required,
  marks = true,
  hint,
  file: givenFile,
  error: givenError,
  reminder,
  disabled,
  onChoose,
}: FileFieldProps) {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // Uncontrolled: what was chosen here since the page was shown (the server's `error` is about an earlier file).
  const [own, setOwn] = useState<{ file: File | null; problem: string | null } | null>(null);
  const controlled = onChoose !== undefined;
  const file = controlled ? (givenFile ?? null) : (own?.file ?? null);
  const error = controlled || !own ? givenError : (own.problem ?? undefined);
  const choose = (chosen: File | null, problem: string | null) => {
    if (controlled) onChoose(chosen, problem);
    else setOwn({ file: chosen, problem });
  };

  const id = givenId ?? fieldId(rule.field);
  const reminderId = reminder && !file ? `${id}-reminder` : undefined;
  const chosenId = file ? `${id}-chosen` : undefined;

  async function take(chosen: File | null) {
    if (!chosen) {
      choose(null, null);
      return;
    }
    const problem = await fileProblem(chosen, rule, maxBytes);
    if (problem && inputRef.current) inputRef.current.value = '';
    choose(problem ? null : chosen, problem);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = e.dataTransfer.files;
    if (dropped.length !== 1) {
      choose(null, dropped.length ? 'Please drop one file at a time.' : null);
      return;
    }
    // The input then holds the dropped file too, as if it had been chosen with the picker.
    try {
      if (inputRef.current) inputRef.current.files = dropped;
    } catch {
      /* older browsers cannot set files; the page keeps the file itself */
    }
    void take(dropped[0]);
  }

  function clear() {
    if (inputRef.current) {
      inputRef.current.value = '';
      inputRef.current.focus();
    }
    choose(null, null);
  }

  const dropHandlers = hydrated
    ? {
        onDragEnter: (e: DragEvent<HTMLDivElement>) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        },
        onDragOver: (e: DragEvent<HTMLDivElement>) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
        },
        onDragLeave: (e: DragEvent<HTMLDivElement>) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        },
        onDrop,
      }
    : {};

  return (
    <Field
      name={rule.field}
      id={id}
      label={label}
      hint={hint}
      error={error}
      marks={marks}
      required={required}
      fieldClassName="file-field"
      liveError
    >
      {(ids) => (
        <>
          <div
            className={['dropzone', dragging ? 'dropzone--active' : '', file ? 'dropzone--filled' : '']
              .filter(Boolean)
              .join(' ')}
            {...dropHandlers}
          >
            {hydrated ? (
              <p className="dropzone__text" aria-hidden="true">
                {dragging ? 'Drop the file to choose it' : 'Drag and drop the file here, or choose it:'}
              </p>
            ) : null}
            <input
              ref={inputRef}
              type="file"
              id={ids.id}
              name={rule.field}
              accept={rule.acceptAttr}
              className="file-input"
              disabled={disabled}
              required={required}
              aria-invalid={ids.invalid}
              aria-describedby={describedBy(ids.describedBy, reminderId, chosenId)}
              onChange={(e) => void take(e.currentTarget.files?.[0] ?? null)}
            />
          </div>
          <div aria-live="polite">
            {file ? (
              <p id={chosenId} className="file-chosen">
                <span>
                  Chosen: <strong className="file-chosen__name">{file.name}</strong>{' '}
                  <span className="file-chosen__size">({formatBytes(file.size)})</span>
                </span>
                <button type="button" className="link-button" onClick={clear} disabled={disabled}>
                  Remove<span className="visually-hidden"> {file.name}</span>
                </button>
              </p>
            ) : null}
          </div>
          {reminderId ? (
            <p id={reminderId} className="field__hint file-field__reminder">
              {reminder}
            </p>
          ) : null}
        </>
      )}
    </Field>
  );
}
