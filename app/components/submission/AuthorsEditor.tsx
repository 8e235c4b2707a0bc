import { LIMITS } from '../../../common/limits.ts';
import { type AuthorDraft, type AuthorEdit, type AuthorKey, authorFieldName, intentOf } from './draft.ts';
import { FieldError, TextField, errorIdOf, fieldId } from '../FormField.tsx';

export type KeyedAuthor = AuthorDraft & { key: string };

const FIELDS: { key: AuthorKey; label: string; type?: string; autoComplete?: string; hint?: string }[] = [
  { key: 'name', label: 'Full name', autoComplete: 'off' },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'off' },
  {
    key: 'affiliation',
    label: 'Affiliation',
    autoComplete: 'off',
    hint: 'Department, institution, city, country.',
  },
  {
    key: 'superscript',
    label: 'Superscript',
    autoComplete: 'off',
    hint: 'Links the author to an affiliation, e.g. 1 or 1,2.',
  },
  {
    key: 'orcid',
    label: 'ORCID iD',
    autoComplete: 'off',
    hint: 'e.g. 0000-0002-1825-0097, or the orcid.org link.',
  },
];

const MAX_LENGTH: Record<AuthorKey, number> = {
  name: LIMITS.name,
  email: LIMITS.email,
  affiliation: LIMITS.institution,
  superscript: LIMITS.superscript,
  // The orcid.org address with its iD fits (the shared `orcidField` allows 60).
  orcid: 60,
};

/** Never required (superscript, ORCID iD). */
const OPTIONAL: readonly AuthorKey[] = ['superscript', 'orcid'];

export const authorButtonId = (index: number, op: 'up' | 'down' | 'remove') => `author-${index}-${op}`;

/**
 * The list of authors: each with name, email and affiliation (required), a superscript and an ORCID iD; add, remove
 * (only while more than one remains) and move up or down. With JavaScript the buttons act in place; without
 * it they post the form back (URL-encoded, so no file is sent) and the page returns with the list changed.
 */
export function AuthorsEditor({
  authors,
  errors,
  hydrated,
  disabled,
  announcement,
  onEdit,
  onChange,
}: {
  authors: readonly KeyedAuthor[];
  errors: Record<string, string>;
  hydrated: boolean;
  disabled?: boolean;
  /** What the last edit did, for screen readers ("Author 2 moved up, now author 1."). */
  announcement: string;
  onEdit: (edit: AuthorEdit) => void;
  onChange: (index: number, key: AuthorKey, value: string) => void;
}) {
  const listError = errors.authors;
  const button = (edit: AuthorEdit) =>
    hydrated
      ? ({ type: 'button', onClick: () => onEdit(edit) } as const)
      : ({
          type: 'submit',
          name: 'intent',
          value: intentOf(edit),
          formNoValidate: true,
          formEncType: 'application/x-www-form-urlencoded',
        } as const);

  return (
    <div className="authors" id={fieldId('authors')} tabIndex={-1}>
      {listError ? <FieldError id={errorIdOf(fieldId('authors'))} message={listError} /> : null}
      <ol className="authors__list">
        {authors.map((author, i) => {
          const n = i + 1;
          return (
            <li key={author.key} className="author">
              <fieldset className="author__fieldset">
                <legend className="author__legend">
                  Author {n}
                  {i === 0 ? <span className="author__note"> (listed first)</span> : null}
                </legend>
                <div className="author__grid">
                  {FIELDS.map((f) => (
                    <TextField
                      key={f.key}
                      name={authorFieldName(i, f.key)}
                      label={f.label}
                      required={!OPTIONAL.includes(f.key)}
                      marks
                      type={f.type ?? 'text'}
                      autoComplete={f.autoComplete}
                      hint={f.hint}
                      maxLength={MAX_LENGTH[f.key]}
                      fieldClassName={`author__field author__field--${f.key}`}
                      value={author[f.key]}
                      onChange={(e) => onChange(i, f.key, e.target.value)}
                      error={errors[authorFieldName(i, f.key)]}
                      spellCheck={f.key === 'email' || f.key === 'orcid' ? false : undefined}
                      autoCapitalize={f.key === 'orcid' ? 'none' : undefined}
                    />
                  ))}
                </div>
                {authors.length > 1 ? (
                  <div className="author__actions">
                    {i > 0 ? (
                      <button
                        id={authorButtonId(i, 'up')}
                        className="button button--small button--secondary"
                        disabled={disabled}
                        {...button({ op: 'up', index: i })}
                      >
                        <span aria-hidden="true">↑</span> Move up
                        <span className="visually-hidden"> author {n}</span>
                      </button>
                    ) : null}
                    {i < authors.length - 1 ? (
                      <button
                        id={authorButtonId(i, 'down')}
                        className="button button--small button--secondary"
                        disabled={disabled}
                        {...button({ op: 'down', index: i })}
                      >
                        <span aria-hidden="true">↓</span> Move down
                        <span className="visually-hidden"> author {n}</span>
                      </button>
                    ) : null}
                    <button
                      id={authorButtonId(i, 'remove')}
                      className="button button--small button--danger"
                      disabled={disabled}
                      {...button({ op: 'remove', index: i })}
                    >
                      Remove<span className="visually-hidden"> author {n}</span>
                    </button>
                  </div>
                ) : null}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {authors.length < LIMITS.authors ? (
        <button
          id="add-author"
          className="button button--secondary"
          disabled={disabled}
          {...button({ op: 'add' })}
        >
          <span aria-hidden="true">+</span> Add another author
        </button>
      ) : (
        <p className="muted">The form takes at most {LIMITS.authors} authors.</p>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
