import { TextField } from '../FormField.tsx';

/** A reference of a converted full text, as the editor's forms get it (server/fulltext/present.ts). */
export interface DoiReference {
  number: number;
  label: string;
  text: string;
  doi: string | null;
}

/**
 * One DOI field per reference that has none (`doi-N`, as the server reads them), under the reference as written:
 * the publish page and an article's new full text. Optional: a reference may have no DOI.
 */
export function ReferenceDoiFields({
  references,
  idPrefix,
  values,
  errors,
}: {
  references: readonly DoiReference[];
  idPrefix: string;
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  return (
    <fieldset className="form-box fulltext-dois">
      <legend>DOIs of the references</legend>
      <p className="field__hint">
        Optional: a DOI given here links the reference to doi.org on the article page and in JATS XML.
      </p>
      {references.map((r) => (
        <div key={r.number} className="fulltext-doi">
          <p className="fulltext-doi__text" id={`${idPrefix}-${r.number}-ref`}>
            {r.label ? `${r.label} ` : ''}
            {r.text}
          </p>
          <TextField
            id={`${idPrefix}-${r.number}`}
            name={`doi-${r.number}`}
            label={`DOI of reference ${r.label || r.number}`}
            hint="e.g. 10.1234/abc.2025.001"
            defaultValue={values[`doi-${r.number}`] ?? ''}
            error={errors[`doi-${r.number}`]}
          />
        </div>
      ))}
    </fieldset>
  );
}
