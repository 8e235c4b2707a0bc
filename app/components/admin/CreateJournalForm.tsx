import { Form, useNavigation } from 'react-router';
import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { TextField } from '../FormField.tsx';

/** The site admin's short form for a new journal: title, a path or a domain, and its first editor. */
export function CreateJournalForm({ result, siteUrl }: { result: FormResult | undefined; siteUrl: string }) {
  const { errors, values } = refusalFor(result, 'create');
  const busy = useNavigation().formData?.get('intent') === 'create';
  const host = new URL(siteUrl).host;
  return (
    <section aria-labelledby="create-journal-title" className="site-admin__create">
      <h2 id="create-journal-title">Make a journal</h2>
      <p className="muted">
        It starts with the settings and pages a new installation has, under its title, and no articles. Its
        office edits them from its dashboard.
      </p>
      <Form
        method="post"
        className="form"
        noValidate
        key={result?.intent === 'create' ? result.at : 'create'}
      >
        <input type="hidden" name="intent" value="create" />
        <TextField
          name="title"
          label="Title"
          required
          marks
          maxLength={200}
          defaultValue={values.title}
          error={errors.title}
        />
        <fieldset className="site-admin__address">
          <legend>Address: a path or a domain</legend>
          <TextField
            name="path"
            label="Path on this site"
            hint={`Readers find it at ${host}/path, such as ${host}/tides.`}
            autoComplete="off"
            spellCheck={false}
            defaultValue={values.path}
            error={errors.path}
          />
          <TextField
            name="domain"
            label="Or a domain of its own"
            hint="Such as tides.example.org, once its DNS points at this site."
            autoComplete="off"
            spellCheck={false}
            defaultValue={values.domain}
            error={errors.domain}
          />
        </fieldset>
        <TextField
          name="editor"
          label="First editor"
          hint="The username or e-mail of an existing account: they become the journal’s editor and its admin (its settings and accounts)."
          required
          marks
          autoComplete="off"
          defaultValue={values.editor}
          error={errors.editor}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Making the journal…' : 'Make the journal'}
        </button>
      </Form>
    </section>
  );
}
