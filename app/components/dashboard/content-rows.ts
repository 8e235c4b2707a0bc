/**
 * Structured content (the editorial board, the special issues) edited as rows of plain form fields:
 * `{field}_{i}` for row i, and `count`. Adding, removing and moving rows are form posts too (buttons with
 * `intent` = `add`, `remove:i`, `up:i`, `down:i`), so the editor works without JavaScript and nothing typed
 * is lost: the page is drawn again from what was posted until it is saved. (Pure: pages and actions share it.)
 */

export const MAX_ROWS = 200;

export type Row = Record<string, string>;

/** The rows of a posted form (`PostedForm` on the server). */
export function readRows(form: { text(name: string): string }, fields: readonly string[]): Row[] {
  return unflattenRows({ count: form.text('count') }, fields).map((_, i) =>
    Object.fromEntries(fields.map((f) => [f, form.text(`${f}_${i}`)])),
  );
}

/** Flat form values (`count` and `{field}_{i}`) for the page to draw the rows from. */
export function flattenRows(rows: readonly Row[], fields: readonly string[]): Record<string, string> {
  const values: Record<string, string> = { count: String(rows.length) };
  rows.forEach((row, i) => {
    for (const f of fields) values[`${f}_${i}`] = row[f] ?? '';
  });
  return values;
}

/** Rows from flat values (the inverse of flattenRows). */
export function unflattenRows(values: Record<string, string>, fields: readonly string[]): Row[] {
  const count = Math.max(0, Math.min(MAX_ROWS, /^\d{1,4}$/.test(values.count ?? '') ? Number(values.count) : 0));
  return Array.from({ length: count }, (_, i) =>
    Object.fromEntries(fields.map((f) => [f, values[`${f}_${i}`] ?? ''])),
  );
}

/**
 * Applies a row intent; null when the intent is not one. The message says what happened, and that nothing
 * is saved yet. `what` names a row ("member", "special issue").
 */
export function applyRowIntent(
  rows: Row[],
  intent: string,
  blank: Row,
  what: (i: number, row: Row | undefined) => string,
): { rows: Row[]; message: string } | null {
  const unsaved = 'Not saved yet: press Save to publish the change.';
  if (intent === 'add') {
    if (rows.length >= MAX_ROWS) return { rows, message: `At most ${MAX_ROWS} rows.` };
    return {
      rows: [...rows, { ...blank }],
      message: `${capitalise(what(rows.length, undefined))} was added at the end, empty. ${unsaved}`,
    };
  }
  const match = /^(remove|up|down):(\d+)$/.exec(intent);
  if (!match) return null;
  const i = Number(match[2]);
  if (i >= rows.length) return { rows, message: 'That row no longer exists.' };
  const next = [...rows];
  const name = what(i, rows[i]);
  if (match[1] === 'remove') {
    next.splice(i, 1);
    return { rows: next, message: `${capitalise(name)} was removed. ${unsaved}` };
  }
  const j = match[1] === 'up' ? i - 1 : i + 1;
  if (j < 0 || j >= rows.length)
    return { rows, message: `${capitalise(name)} is already ${j < 0 ? 'first' : 'last'}.` };
  [next[i], next[j]] = [next[j], next[i]];
  return { rows: next, message: `${capitalise(name)} moved ${match[1]}. ${unsaved}` };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A list schema's field errors (`validate`'s, keyed by path) as field keys of the rows: `i.field…` →
 * `{field}_{i}`; errors on the list itself → `list`. The first message of each field wins.
 */
export function rowErrors(fieldErrors: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors)) {
    const [i, field] = path.split('.');
    const key = /^\d+$/.test(i) && field ? `${field}_${i}` : 'list';
    errors[key] ??= message;
  }
  return errors;
}

/** Lines of a textarea, trimmed, without empty ones. */
export const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
