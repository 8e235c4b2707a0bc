import { SelectField, TextAreaField, TextField } from '../FormField.tsx';
import { issueLabel } from '../../../common/issues.ts';

export interface IssueOption {
  id: number;
  volume_number: number;
  issue_number: number;
  title: string;
}

/**
 * An article's metadata and authors, as plain form fields: `author_{field}_{i}` rows that the server
 * gathers into the `authors` list (the ORCID iD the one optional field of a row). Adding or removing an author posts the form (it works without JavaScript).
 */
export function ArticleFields({
  prefix,
  values,
  errors,
  issues,
}: {
  prefix: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  issues: readonly IssueOption[];
}) {
  const count = Math.max(1, Math.min(30, Number(values.author_count) || 1));
  return (
    <>
      <input type="hidden" name="author_count" value={count} />
      <TextField
        id={`${prefix}-title`}
        name="title"
        label="Title"
        marks
        required
        defaultValue={values.title}
        error={errors.title}
      />
      <TextAreaField
        id={`${prefix}-abstract`}
        name="abstract"
        label="Abstract"
        marks
        required
        rows={5}
        defaultValue={values.abstract}
        error={errors.abstract}
      />
      <TextField
        id={`${prefix}-keywords`}
        name="keywords"
        label="Keywords"
        marks
        hint="Separated by commas."
        required
        defaultValue={values.keywords}
        error={errors.keywords}
      />
      <div className="dash-forms">
        <TextField
          id={`${prefix}-pages`}
          name="pages"
          label="Pages"
          marks
          hint="First-last, e.g. 1-10."
          required
          defaultValue={values.pages}
          error={errors.pages}
        />
        <TextField
          id={`${prefix}-doi`}
          name="doi"
          label="DOI"
          marks
          hint="e.g. 10.1234/abc.2025.001"
          required
          defaultValue={values.doi}
          error={errors.doi}
        />
      </div>
      <SelectField
        id={`${prefix}-issue`}
        name="issue_id"
        label="Issue"
        marks
        required
        placeholder="Choose an issue"
        defaultValue={values.issue_id ?? ''}
        error={errors.issue_id}
        options={issues.map((i) => ({
          value: String(i.id),
          label: issueLabel(i),
        }))}
      />
      <fieldset className="dash-authors">
        <legend>Authors</legend>
        {errors.authors ? (
          <p className="field__error" id={`${prefix}-authors-error`}>
            {errors.authors}
          </p>
        ) : null}
        {Array.from({ length: count }, (_, i) => {
          const n = i + 1;
          const field = (f: string, label: string, optional?: { hint: string; maxLength: number }) => (
            <TextField
              id={`${prefix}-author-${f}-${i}`}
              name={`author_${f}_${i}`}
              label={`Author ${n} ${label}`}
              marks
              required={!optional}
              hint={optional?.hint}
              maxLength={optional?.maxLength}
              spellCheck={optional ? false : undefined}
              autoCapitalize={optional ? 'none' : undefined}
              defaultValue={values[`author_${f}_${i}`]}
              error={errors[`authors.${i}.${f}`]}
            />
          );
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: author rows are positional form fields.
            <div key={i} className="dash-author">
              {field('name', 'name')}
              {field('email', 'email')}
              {field('affiliation', 'affiliation')}
              {field('superscript', 'superscript')}
              {field('orcid', 'ORCID iD', {
                hint: 'e.g. 0000-0002-1825-0097, or the orcid.org link.',
                maxLength: 60,
              })}
              {count > 1 ? (
                <button
                  type="submit"
                  name="intent"
                  value={`remove-author:${i}`}
                  formNoValidate
                  className="button button--small button--secondary"
                >
                  Remove author {n}
                </button>
              ) : null}
            </div>
          );
        })}
        <button
          type="submit"
          name="intent"
          value="add-author"
          formNoValidate
          className="button button--small"
        >
          Add an author
        </button>
      </fieldset>
    </>
  );
}
