import { asClientError, readForm } from '../../lib/forms.server.ts';
import { clientError, replyDone, replyRefused } from '../../lib/reply.server.ts';
import { applyRowIntent, flattenRows, type Row, readRows } from '../dashboard/content-rows.ts';

export interface RowEditorAction<T> {
  fields: readonly string[];
  /** A new row's values. */
  blank: Row;
  /** A row as messages name it ("member 3", "“Title”"). */
  rowName: (i: number, row: Row | undefined) => string;
  /** The rows checked: what to save, or each field's message (`name_3`, or `list` for the whole). */
  check: (rows: Row[]) => { ok: true; data: T } | { ok: false; errors: Record<string, string> };
  /** Saves against the version the form was loaded from (`base`); answers the success message. */
  save: (data: T, base: string) => Promise<string>;
}

/**
 * The action of a page of editable rows (the editorial board, the special issues; decision 0047): a row added,
 * moved or removed is drawn again unsaved; "save" checks every row and saves them together, or says how many
 * fields need correcting, each beside its row. Every answer carries what was typed.
 */
export async function rowEditorAction<T>(request: Request, opts: RowEditorAction<T>) {
  const read = await readForm(request, { maxTextBytes: 1024 * 1024 });
  const { form } = read;
  const intent = form.text('intent');
  const rows = readRows(form, opts.fields);
  const base = form.text('base');
  const values = { ...flattenRows(rows, opts.fields), base };
  const refuse = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);
  if (!read.ok) return replyRefused(intent, read.refusal, values);

  const moved = applyRowIntent(rows, intent, opts.blank, opts.rowName);
  if (moved) {
    return replyDone(intent, moved.message, { values: { ...flattenRows(moved.rows, opts.fields), base } });
  }
  if (intent !== 'save') return refuse(400, 'Unknown action.');
  const checked = opts.check(rows);
  if (!checked.ok) {
    const count = Object.keys(checked.errors).filter((k) => k !== 'list').length || 1;
    return refuse(
      400,
      count === 1 ? 'One field needs correcting: see below.' : `${count} fields need correcting: see below.`,
      checked.errors,
    );
  }
  let message: string;
  try {
    message = await opts.save(checked.data, base);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return refuse(refused.status, refused.message);
  }
  return replyDone(intent, message);
}
