import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { type FormResult, postedOf, refusalOf } from '../../lib/form-result.ts';
import { ActionResult } from '../dashboard/ActionResult.tsx';
import { ContentRowControls } from '../dashboard/ContentRowControls.tsx';
import { type Row, unflattenRows } from '../dashboard/content-rows.ts';

/** What each field of a row is given: its place in the posted form, what it holds, its refusal. */
export interface RowFieldProps {
  id: string;
  name: string;
  defaultValue: string;
  error: string | undefined;
  required?: true;
}

export interface RowEditorProps<F extends string> {
  /** The heading's id, which labels the form too. */
  titleId: string;
  title: string;
  /** Where the content is shown, and any rule the editor should know. */
  intro: ReactNode;
  /** The rows as the loader read them (`flattenRows`, with `base`, the version they were read at). */
  loaded: Record<string, string>;
  /**
   * The last post's answer (decision 0046): until saved (refused, or a row added, moved or removed), the rows
   * are drawn again from what was posted.
   */
  result: FormResult | undefined;
  fields: readonly F[];
  /** When the list's own refusal shows above the rows: always, or only when there are none. */
  listError: 'always' | 'without-rows';
  /** Each field's id is `{idPrefix}-{field}-{row}`. */
  idPrefix: string;
  /** Every field of a row is required (else each field says so itself). */
  required?: boolean;
  /** "Member", "Special issue": the row's legend is this, its number and `legendField`'s text. */
  noun: string;
  legendField: F;
  /** The row as the move and remove buttons name it to screen readers. */
  rowName: (index: number, row: Row | undefined) => string;
  /** The row's fields, each given `field(name)`'s props. */
  children: (field: (name: F) => RowFieldProps, row: Row, index: number) => ReactNode;
  addLabel: string;
  saveLabel: string;
}

/**
 * A structured-content editor (the editorial board, the special issues): rows of plain fields, each row with
 * its move and remove buttons, then "add" and "save". Every button posts the form, so it works without
 * JavaScript; `app/components/dashboard/content-rows.ts` reads and rearranges the rows on the server.
 */
export function RowEditor<F extends string>(props: RowEditorProps<F>) {
  const { titleId, result, idPrefix } = props;
  const values = postedOf(result) ?? props.loaded;
  const errors = refusalOf(result)?.errors ?? {};
  const rows = unflattenRows(values, props.fields);
  const listError = props.listError === 'always' || !rows.length ? errors.list : undefined;
  return (
    <section aria-labelledby={titleId}>
      <p className="content-editor__back">
        <Link to="/editor-dashboard/content">← Journal content</Link>
      </p>
      <h1 id={titleId}>{props.title}</h1>
      {props.intro}
      <ActionResult result={result} />
      <Form method="post" noValidate aria-labelledby={titleId} key={result?.at ?? 0}>
        <input type="hidden" name="base" value={values.base} />
        <input type="hidden" name="count" value={rows.length} />
        {listError ? <p className="field__error">{listError}</p> : null}
        <ol className="content-rows">
          {rows.map((row, i) => {
            const field = (f: F): RowFieldProps => ({
              id: `${idPrefix}-${f}-${i}`,
              name: `${f}_${i}`,
              defaultValue: row[f],
              error: errors[`${f}_${i}`],
              ...(props.required ? { required: true } : {}),
            });
            const named = row[props.legendField].trim();
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional form fields.
              <li key={i} className="panel content-row">
                <fieldset>
                  <legend>
                    {props.noun} {i + 1}
                    {named ? `: ${named}` : ''}
                  </legend>
                  {props.children(field, row, i)}
                  <ContentRowControls index={i} count={rows.length} name={props.rowName(i, row)} />
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div className="content-editor__actions">
          <button type="submit" name="intent" value="add" formNoValidate className="button button--secondary">
            {props.addLabel}
          </button>
          <button type="submit" name="intent" value="save" className="button button--primary">
            {props.saveLabel}
          </button>
        </div>
      </Form>
    </section>
  );
}
