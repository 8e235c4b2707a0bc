import { TextField } from '../FormField.tsx';

/**
 * The ORCID iD field, wherever a person gives theirs (My account, the reviewer profile): the shared
 * `orcidField` schema takes the iD or its orcid.org address and checks the check digit.
 */
export function OrcidField({
  defaultValue,
  error,
  marks,
}: {
  defaultValue: string;
  error?: string;
  /** The form shows marks: "(optional)" is the label's mark, not its words. */
  marks?: boolean;
}) {
  return (
    <TextField
      name="orcid"
      label={marks ? 'ORCID iD' : 'ORCID iD (optional)'}
      marks={marks}
      autoCapitalize="none"
      spellCheck={false}
      maxLength={60}
      hint={
        <>
          Your identifier from <span lang="en">orcid.org</span>, such as 0000-0002-1825-0097. Leave it empty
          to remove it.
        </>
      }
      defaultValue={defaultValue}
      error={error}
    />
  );
}
