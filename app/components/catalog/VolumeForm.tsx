import type { ReactNode } from 'react';
import { Form } from 'react-router';
import { MONTHS } from '../../../common/dates.ts';
import { SelectField, TextAreaField, TextField } from '../FormField.tsx';

/**
 * The fields of a volume and of an issue, written once for the dashboard's "create" forms and for the edit
 * form under each row of its tables. `values` are what to show (as typed after a refusal, else the record's);
 * ids are `{idPrefix}-title`, `{idPrefix}-number`… unless `titleId` names the title's own.
 */
interface FieldsProps {
  idPrefix: string;
  titleId?: string;
  titleLabel: string;
  values: Record<string, string | undefined>;
  errors: Record<string, string>;
}

/** The month an issue is dated by (decision 0039): none, or January to December of its volume's year. */
const MONTH_OPTIONS = MONTHS.map((m, i) => ({ value: String(i + 1), label: m }));
const NO_MONTH = 'No month (the year alone)';

function TitleField({ idPrefix, titleId, titleLabel, values, errors }: FieldsProps) {
  return (
    <TextField
      id={titleId ?? `${idPrefix}-title`}
      name="title"
      label={titleLabel}
      marks
      required
      defaultValue={values.title}
      error={errors.title}
    />
  );
}

export function VolumeFields(props: FieldsProps) {
  const { idPrefix, values, errors } = props;
  return (
    <>
      <TitleField {...props} />
      <TextField
        id={`${idPrefix}-number`}
        name="volume_number"
        label="Volume number"
        marks
        inputMode="numeric"
        required
        defaultValue={values.volume_number}
        error={errors.volume_number}
      />
      <TextField
        id={`${idPrefix}-year`}
        name="year"
        label="Year"
        marks
        inputMode="numeric"
        required
        defaultValue={values.year}
        error={errors.year}
      />
    </>
  );
}

/** An issue's own fields (its volume is chosen once, when it is created). */
export function IssueFields(props: FieldsProps & { monthHint?: string }) {
  const { idPrefix, values, errors } = props;
  return (
    <>
      <TitleField {...props} />
      <TextAreaField
        id={`${idPrefix}-description`}
        name="description"
        label="Description"
        marks
        required
        rows={3}
        defaultValue={values.description}
        error={errors.description}
      />
      <SelectField
        id={`${idPrefix}-month`}
        name="publication_month"
        label="Publication month"
        hint={props.monthHint}
        placeholder={NO_MONTH}
        defaultValue={values.publication_month ?? ''}
        error={errors.publication_month}
        options={MONTH_OPTIONS}
      />
    </>
  );
}

/**
 * "Edit" under a table row: a disclosure holding the record's form, open again after a refused post of it.
 * `round` (a new one after each post) draws it afresh, so a saved form shows the record as it is now.
 */
export function EditInRow({
  open,
  round,
  summary,
  intent,
  id,
  saveLabel,
  children,
}: {
  open: boolean;
  round: number;
  /** After "Edit", for screen readers: which record. */
  summary: ReactNode;
  intent: string;
  id: number;
  saveLabel: string;
  children: ReactNode;
}) {
  return (
    <details open={open || undefined} key={`${round}`}>
      <summary>
        Edit<span className="visually-hidden"> {summary}</span>
      </summary>
      <Form method="post" noValidate className="dash-edit-form" key={`${intent}-${id}-${round}`}>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={id} />
        {children}
        <button type="submit" className="button button--small">
          {saveLabel}
        </button>
      </Form>
    </details>
  );
}
