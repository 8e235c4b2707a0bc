import { TextField } from '../FormField.tsx';

/**
 * An article's facts beyond its citation (issue 26: an imported OJS article carries them): subtitle, section,
 * language, licence and copyright, each optional — an emptied field clears it.
 */
export function ArticleFactsFields({
  prefix,
  values,
  errors,
}: {
  prefix: string;
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  const field = (
    name: string,
    label: string,
    more: {
      hint?: string;
      type?: string;
      inputMode?: 'numeric';
      maxLength?: number;
      spellCheck?: false;
    } = {},
  ) => (
    <TextField
      id={`${prefix}-${name.replace(/_/g, '-')}`}
      name={name}
      label={label}
      marks
      defaultValue={values[name] ?? ''}
      error={errors[name]}
      {...more}
    />
  );
  return (
    <fieldset className="dash-facts">
      <legend>Subtitle, section, language and licence</legend>
      {field('subtitle', 'Subtitle')}
      <div className="dash-forms">
        {field('section', 'Section', { hint: 'The journal section it appeared in, such as Articles.' })}
        {field('language', 'Language', {
          hint: "A language code, such as en, fr or pt-BR. Empty for the journal's language.",
          maxLength: 35,
          spellCheck: false,
        })}
      </div>
      {field('license_url', 'Licence URL', {
        type: 'url',
        spellCheck: false,
        hint: "Empty for the journal's licence; otherwise its address, such as https://creativecommons.org/licenses/by/4.0/.",
      })}
      <div className="dash-forms">
        {field('copyright_holder', 'Copyright holder')}
        {field('copyright_year', 'Copyright year', {
          hint: 'Four digits, such as 2024.',
          inputMode: 'numeric',
          maxLength: 4,
        })}
      </div>
    </fieldset>
  );
}
