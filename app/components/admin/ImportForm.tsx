import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { IMPORT_FILE_HINT, OJS_EXPORT_RULE } from '../../../common/imports.ts';
import { formatBytes } from '../../../common/upload-rules.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { FileField } from '../FileField.tsx';
import { CheckField, SelectField, TextField } from '../FormField.tsx';

export interface ImportJournalChoice {
  /** What the form posts as `journal`: its path, its domain, or its id. */
  value: string;
  title: string;
  /** Where it answers, in words. */
  where: string;
}

type Sent = { loaded: number; total: number } | null;
type Refusal = { message: string; errors: Record<string, string> } | null;

/** The API's refusal: its message, and each field's. */
function refusalOf(status: number, text: string): Refusal {
  try {
    const body = JSON.parse(text) as { message?: string; errors?: Record<string, string> };
    return { message: body.message ?? `The upload was refused (${status}).`, errors: body.errors ?? {} };
  } catch {
    return { message: `The upload was refused (${status}). Please try again.`, errors: {} };
  }
}

/**
 * The site admin's OJS import form (decision 0069). It posts to the API itself (`POST /api/admin/imports`):
 * without JavaScript a plain multipart post the API answers with a 303 to the run's page; with it, an
 * XMLHttpRequest that shows the upload's bytes as they go, then the run's page. Each field's refusal is shown
 * under it; a chosen file that is not XML is refused before any upload.
 */
export function ImportForm({
  journals,
  maxBytes,
  refused,
}: {
  journals: ImportJournalChoice[];
  maxBytes: number;
  /** A refusal after a plain post (no JavaScript), from the address. */
  refused: string | null;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [journal, setJournal] = useState(journals[0]?.value ?? '');
  const [sent, setSent] = useState<Sent>(null);
  const [refusal, setRefusal] = useState<Refusal>(refused ? { message: refused, errors: {} } : null);
  const [native, setNative] = useState<File | null>(null);
  const [users, setUsers] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const errors = refusal?.errors ?? {};
  const busy = sent !== null;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = formRef.current;
    if (!form || busy) return;
    if (!native && !users) {
      const message = 'Choose an OJS export: a Native XML or Users XML file.';
      setRefusal({ message, errors: { file: message } });
      return;
    }
    const body = new FormData(form);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', form.action);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) setSent({ loaded: ev.loaded, total: ev.total });
    };
    xhr.onload = () => {
      if (xhr.status === 202) {
        const { run } = JSON.parse(xhr.responseText) as { run: { id: number } };
        navigate(`/admin/imports/${run.id}`);
        return;
      }
      setSent(null);
      setRefusal(refusalOf(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => {
      setSent(null);
      setRefusal({
        message: 'The upload did not reach the server. Check the connection and try again.',
        errors: {},
      });
    };
    setRefusal(null);
    setSent({ loaded: 0, total: (native?.size ?? 0) + (users?.size ?? 0) });
    xhr.send(body);
  }

  const percent = sent && sent.total > 0 ? Math.min(100, Math.round((100 * sent.loaded) / sent.total)) : 0;
  const newJournal = journal === '';
  const fileError = errors.file ?? fileProblem ?? undefined;

  return (
    <section aria-labelledby="import-form-title" className="site-admin__create import-form">
      <h2 id="import-form-title">Upload the exports</h2>
      <p className="muted">
        Upload the exports of an Open Journal Systems site: its issues (with their articles and files) and its
        users. Importing the same export again changes nothing; a corrected export updates what changed.
      </p>
      {refusal ? (
        <div className="alert alert--error" role="alert">
          {refusal.message}
        </div>
      ) : null}
      <form
        ref={formRef}
        method="post"
        action="/api/admin/imports"
        encType="multipart/form-data"
        className="form"
        noValidate
        onSubmit={hydrated ? submit : undefined}
      >
        <SelectField
          name="journal"
          label="Import into"
          options={[
            ...journals.map((j) => ({ value: j.value, label: `${j.title} (${j.where})` })),
            { value: '', label: 'A new journal…' },
          ]}
          value={journal}
          onChange={(e) => setJournal(e.target.value)}
          error={errors.journal}
          disabled={busy}
        />
        {newJournal || !hydrated ? (
          <fieldset className="site-admin__address">
            <legend>A new journal{hydrated ? '' : ' (when “A new journal…” is chosen above)'}</legend>
            <TextField
              name="newTitle"
              label="Title"
              maxLength={200}
              error={errors.newTitle}
              disabled={busy}
            />
            <TextField
              name="newPath"
              label="Path on this site"
              hint="2 to 40 lower-case letters, digits and hyphens; you become its first editor."
              autoComplete="off"
              spellCheck={false}
              error={errors.newPath}
              disabled={busy}
            />
          </fieldset>
        ) : null}
        <TextField
          name="oldPath"
          label="Its path on the OJS site"
          marks
          hint={
            <>
              The journal’s path on the OJS site, e.g. <code>jeii</code> in
              https://old.example.org/index.php/jeii/: its old addresses then lead to the imported pages.
            </>
          }
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          error={errors.oldPath}
          disabled={busy}
        />
        <FileField
          rule={OJS_EXPORT_RULE}
          id="field-file-native"
          label="Issues: Native XML export"
          hint={`${IMPORT_FILE_HINT}. At most ${formatBytes(maxBytes)} together.`}
          maxBytes={maxBytes}
          marks={false}
          file={native}
          error={fileError}
          disabled={busy}
          onChoose={(file, problem) => {
            setNative(file);
            setFileProblem(problem);
          }}
        />
        <FileField
          rule={OJS_EXPORT_RULE}
          id="field-file-users"
          label="Users: Users XML export"
          hint="The journal’s accounts, with their roles; optional."
          maxBytes={maxBytes}
          marks
          file={users}
          disabled={busy}
          onChoose={(file, problem) => {
            setUsers(file);
            setFileProblem(problem);
          }}
        />
        <div className="import-form__checks">
          <CheckField
            name="dryRun"
            label="Dry run: see what would be created first (nothing is written)"
            disabled={busy}
          />
          <CheckField
            name="sendPasswordLinks"
            label="Send password links"
            aria-describedby="send-links-hint"
            disabled={busy}
          />
          <p id="send-links-hint" className="field__hint">
            OJS passwords cannot be carried over. Ticked, each imported account gets an e-mail with a link to
            set its password here; otherwise they use “Forgot password” when they first come.
          </p>
        </div>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload and import'}
        </button>
        {sent ? (
          <div className="import-form__upload">
            <label htmlFor="upload-progress">Uploading the exports</label>
            <progress
              id="upload-progress"
              max={100}
              value={percent}
              aria-valuetext={`${formatBytes(sent.loaded)} of ${formatBytes(sent.total)} sent`}
            />
            <p className="muted" aria-live="polite">
              {formatBytes(sent.loaded)} of {formatBytes(sent.total)} sent ({percent}%)
            </p>
          </div>
        ) : null}
      </form>
    </section>
  );
}
