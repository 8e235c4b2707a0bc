import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { fieldDomId } from './draft.ts';
import { FieldError, OptionalMark, RequiredMark, describedBy } from './fields.tsx';
import { type FileRule, fileProblem, formatBytes } from '../../../common/upload-rules.ts';
import { useHydrated } from './use-hydrated.ts';

export interface FileFieldProps {
  rule: FileRule<string>;
  maxBytes: number;
  label: string;
  required?: boolean;
  hint: ReactNode;
  /** The file chosen and accepted; null when none. */
  file: File | null;
  error?: string;
  /** Said beside the field after a form post without JavaScript: the browser has forgotten the file. */
  reminder?: string;
  disabled?: boolean;
  /** A file that passed the checks, or null with the reason it was refused (or null, null when cleared). */
  onChoose: (file: File | null, problem: string | null) => void;
}

/**
 * A file input that is also a drop target. A chosen or dropped file is checked at once (name, size, first
 * bytes) and refused before any upload with the reason; an accepted one shows its name and size. The native
 * input stays the control, so it works with the keyboard and, without JavaScript, in a plain form post.
 */
export function FileField({
  rule,
  maxBytes,
  label,
  required,
  hint,
  file,
  error,
  reminder,
  disabled,
  onChoose,
}: FileFieldProps) {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const id = fieldDomId(rule.field);
  const hintId = `${id}-hint`;
  const errorId = error ? `${id}-error` : undefined;
  const reminderId = reminder && !file ? `${id}-reminder` : undefined;
  const chosenId = file ? `${id}-chosen` : undefined;

  async function take(chosen: File | null) {
    if (!chosen) {
      onChoose(null, null);
      return;
    }
    const problem = await fileProblem(chosen, rule, maxBytes);
    if (problem && inputRef.current) inputRef.current.value = '';
    onChoose(problem ? null : chosen, problem);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = e.dataTransfer.files;
    if (dropped.length !== 1) {
      onChoose(null, dropped.length ? 'Please drop one file at a time.' : null);
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
    onChoose(null, null);
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
    <div className={['field', 'file-field', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
        {required ? <RequiredMark /> : <OptionalMark />}
      </label>
      <p id={hintId} className="field__hint">
        {hint}
      </p>
      <div aria-live="polite">{error ? <FieldError id={errorId!} message={error} /> : null}</div>
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
          id={id}
          name={rule.field}
          accept={rule.acceptAttr}
          className="file-input"
          disabled={disabled}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hintId, errorId, reminderId, chosenId)}
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
    </div>
  );
}
