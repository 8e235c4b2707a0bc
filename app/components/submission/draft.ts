import { LIMITS } from '../../../common/limits.ts';
import { submissionFieldsSchema } from '../../../common/schemas.ts';
import { validate } from '../../../common/validate.ts';

/**
 * What the submission form holds, and the author-list edits, as plain functions: the page runs them in the
 * browser, and the page's action runs the same ones for a browser without JavaScript (where "Add author"
 * and the move and remove buttons post the form back).
 */
export const TEXT_FIELDS = [
  'title',
  'articleType',
  'keywords',
  'abstract',
  'conflictOfInterest',
  'fundingStatement',
  'dataAvailabilityStatement',
] as const;
export type TextFieldName = (typeof TEXT_FIELDS)[number];
export type SubmissionValues = Record<TextFieldName, string>;

export const AUTHOR_KEYS = ['name', 'email', 'affiliation', 'superscript', 'orcid'] as const;
export type AuthorKey = (typeof AUTHOR_KEYS)[number];
export type AuthorDraft = Record<AuthorKey, string>;

export const emptyValues = (): SubmissionValues =>
  Object.fromEntries(TEXT_FIELDS.map((name) => [name, ''])) as SubmissionValues;
export const blankAuthor = (): AuthorDraft => ({ name: '', email: '', affiliation: '', superscript: '', orcid: '' });

/** The form field of one author's detail: "authors.1.email", the same path the schema's errors carry. */
export const authorFieldName = (index: number, key: AuthorKey) => `authors.${index}.${key}`;

/** A posted form's text fields, as the page action reads them (`PostedForm`). */
export interface PostedFields {
  text(name: string): string;
  has(name: string): boolean;
}

export function valuesFromForm(form: PostedFields): SubmissionValues {
  return Object.fromEntries(TEXT_FIELDS.map((name) => [name, form.text(name)])) as SubmissionValues;
}

/** The author rows of a posted form, in order (a row is there when any of its inputs is). */
export function authorsFromForm(form: PostedFields): AuthorDraft[] {
  const authors: AuthorDraft[] = [];
  for (let i = 0; i < LIMITS.authors + 1; i++) {
    if (!AUTHOR_KEYS.some((key) => form.has(authorFieldName(i, key)))) break;
    const row = blankAuthor();
    for (const key of AUTHOR_KEYS) row[key] = form.text(authorFieldName(i, key));
    authors.push(row);
  }
  return authors.length ? authors : [blankAuthor()];
}

export type AuthorEdit =
  | { op: 'add' }
  | { op: 'remove'; index: number }
  | { op: 'up'; index: number }
  | { op: 'down'; index: number };

/** The value of the button that asks for an edit (without JavaScript the form posts it as `intent`). */
export function intentOf(edit: AuthorEdit): string {
  return edit.op === 'add' ? 'add-author' : `${edit.op}-author:${edit.index}`;
}

export function parseIntent(value: unknown): AuthorEdit | null {
  if (value === 'add-author') return { op: 'add' };
  const m = typeof value === 'string' ? /^(remove|up|down)-author:(\d{1,3})$/.exec(value) : null;
  return m ? { op: m[1] as 'remove' | 'up' | 'down', index: Number(m[2]) } : null;
}

/** The list after an edit; one author always remains, and no more than the schema allows are added. */
export function editAuthors<T>(list: readonly T[], edit: AuthorEdit, blank: () => T): T[] {
  const next = [...list];
  if (edit.op === 'add') {
    if (next.length < LIMITS.authors) next.push(blank());
    return next;
  }
  const i = edit.index;
  if (i < 0 || i >= next.length) return next;
  if (edit.op === 'remove') {
    if (next.length > 1) next.splice(i, 1);
  } else {
    const j = edit.op === 'up' ? i - 1 : i + 1;
    if (j >= 0 && j < next.length) [next[i], next[j]] = [next[j], next[i]];
  }
  return next;
}

/**
 * Checks the typed fields by the one rule the server uses (`validate`: the text rule, then the schema), in the
 * browser and in the page's action alike; errors are keyed as the API keys them ("title", "authors.0.email").
 * The authors travel as a JSON text list.
 */
export function checkFields(values: SubmissionValues, authors: readonly AuthorDraft[]) {
  const parsed = validate(submissionFieldsSchema, { ...values, authors: authorsJson(authors) });
  return parsed.success
    ? ({ ok: true, data: parsed.data } as const)
    : ({ ok: false, errors: parsed.errors } as const);
}

export function authorsJson(authors: readonly AuthorDraft[]): string {
  return JSON.stringify(
    authors.map(({ name, email, affiliation, superscript, orcid }) => ({
      name,
      email,
      affiliation,
      superscript,
      orcid,
    })),
  );
}
