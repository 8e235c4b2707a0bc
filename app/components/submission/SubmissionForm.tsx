import { Link } from 'react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ARTICLE_TYPES, LIMITS } from '../../../common/limits.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { AuthorsEditor, type KeyedAuthor, authorButtonId } from './AuthorsEditor.tsx';
import {
  AUTHOR_KEYS,
  type AuthorDraft,
  type AuthorEdit,
  type AuthorKey,
  type SubmissionValues,
  TEXT_FIELDS,
  type TextFieldName,
  authorFieldName,
  authorsJson,
  blankAuthor,
  checkFields,
  editAuthors,
  emptyValues,
} from './draft.ts';
import { FileField } from '../FileField.tsx';
import { SelectField, TextAreaField, TextField, fieldId } from '../FormField.tsx';
import { SubmissionAlert } from './SubmissionAlert.tsx';
import { UploadProgress } from './UploadProgress.tsx';
import {
  ADDITIONAL_RULE,
  COPYRIGHT_FORM_RULE,
  MANUSCRIPT_RULE,
  type UploadLimits,
  formatBytes,
} from '../../../common/upload-rules.ts';
import { useFormDraft } from '../../lib/use-form-draft.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { DraftOffer } from '../DraftOffer.tsx';
import { useManuscriptUpload } from './use-manuscript-upload.ts';

/** What the page's action sends back to a browser without JavaScript: the form as it was posted. */
export interface SubmissionFormState {
  values: SubmissionValues;
  authors: AuthorDraft[];
  errors: Record<string, string>;
  /** Set when the post was refused; absent when it only edited the author list. */
  message?: string;
}

export interface Submitted {
  id: number;
  reference: string;
}

const SUBMIT_URL = '/api/submission/submit';

/** The named text entries of a kept object (anything else in it is ignored). */
function pick<K extends string>(from: unknown, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  if (!from || typeof from !== 'object') return out;
  for (const key of keys) {
    const value = (from as Record<string, unknown>)[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

const keywordCount = (text: string) => text.split(/[,;]/).filter((k) => k.trim()).length;

/**
 * The manuscript submission form (spec sections 3 and 5). With JavaScript it checks everything with the
 * server's schema and the file rules first, then uploads to the API with a progress bar and Cancel; without
 * it, it is a plain multipart form posted to the page's action, which runs the same checks.
 */
export function SubmissionForm({
  limits,
  initial,
  onSubmitted,
  firstAuthor,
  copyrightRequired = false,
}: {
  limits: UploadLimits;
  initial: SubmissionFormState | null;
  onSubmitted: (submitted: Submitted) => void;
  /** Author 1 as the signed-in account knows them (name, e-mail, institution, ORCID iD): editable. */
  firstAuthor?: AuthorDraft;
  /** The journal's setting: the signed copyright form must come with the submission. */
  copyrightRequired?: boolean;
}) {
  const hydrated = useHydrated();
  const keySeq = useRef(0);
  const withKey = (a: AuthorDraft): KeyedAuthor => ({ ...a, key: `author-${keySeq.current++}` });

  const [values, setValues] = useState<SubmissionValues>(() => initial?.values ?? emptyValues());
  const [authors, setAuthors] = useState<KeyedAuthor[]>(() =>
    (initial?.authors.length ? initial.authors : [firstAuthor ?? blankAuthor()]).map(withKey),
  );
  const { upload, files, chooseFile, fileProblems, errors, setErrors, failure, fail, send, refused } =
    useManuscriptUpload(initial, copyrightRequired);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const pendingFocus = useRef<string | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  // After a refused post without JavaScript the browser has dropped the chosen files: say so beside them.
  const reminder = initial?.message
    ? 'Please choose this file again: browsers do not keep chosen files when a page reloads.'
    : undefined;

  // What was typed, kept if the session ends before it is sent, and offered back after signing in again.
  const draft = useFormDraft<{ values: SubmissionValues; authors: AuthorDraft[] }>({
    form: 'submission',
    read: () => ({ values, authors: authors.map(({ key: _key, ...author }) => author) }),
    apply: (kept) => {
      setValues({ ...emptyValues(), ...pick(kept.values, TEXT_FIELDS) });
      const rows = (Array.isArray(kept.authors) ? kept.authors : []).slice(0, LIMITS.authors);
      setAuthors(
        (rows.length ? rows : [blankAuthor()]).map((a) =>
          withKey({ ...blankAuthor(), ...pick(a, AUTHOR_KEYS) }),
        ),
      );
      setErrors({});
    },
  });

  useEffect(() => {
    if (!pendingFocus.current) return;
    document.getElementById(pendingFocus.current)?.focus();
    pendingFocus.current = null;
  });

  /** Once errors are showing, each one goes away as soon as its field is right. */
  function refreshErrors(nextValues: SubmissionValues, nextAuthors: readonly AuthorDraft[], key: string) {
    if (!errors[key]) return;
    const checked = checkFields(nextValues, nextAuthors);
    const fresh = checked.ok ? undefined : checked.errors[key];
    setErrors((prev) => {
      const next = { ...prev };
      if (fresh) next[key] = fresh;
      else delete next[key];
      return next;
    });
  }

  function setValue(name: TextFieldName, value: string) {
    const next = { ...values, [name]: value };
    setValues(next);
    refreshErrors(next, authors, name);
  }

  function setAuthorValue(index: number, key: AuthorKey, value: string) {
    const next = authors.map((a, i) => (i === index ? { ...a, [key]: value } : a));
    setAuthors(next);
    refreshErrors(values, next, authorFieldName(index, key));
  }

  function editAuthorList(edit: AuthorEdit) {
    const next = editAuthors(authors, edit, () => withKey(blankAuthor()));
    if (next === authors || next.length === 0) return;
    // Errors follow their author to the new position.
    const order = editAuthors(
      authors.map((_, i) => i),
      edit,
      () => -1,
    );
    setErrors((prev) => {
      const out: Record<string, string> = {};
      for (const [key, message] of Object.entries(prev)) {
        const m = /^authors\.(\d+)\.(\w+)$/.exec(key);
        if (!m) out[key] = message;
        else if (order.includes(Number(m[1])))
          out[`authors.${order.indexOf(Number(m[1]))}.${m[2]}`] = message;
      }
      return out;
    });
    setAuthors(next);
    const n = next.length;
    if (edit.op === 'add') {
      setAnnouncement(`Author ${n} added.`);
      pendingFocus.current = fieldId(authorFieldName(n - 1, 'name'));
    } else if (edit.op === 'remove') {
      setAnnouncement(
        `Author ${edit.index + 1} removed. ${n === 1 ? 'One author remains.' : `${n} authors remain.`}`,
      );
      pendingFocus.current = fieldId(authorFieldName(Math.min(edit.index, n - 1), 'name'));
    } else {
      const to = edit.op === 'up' ? edit.index - 1 : edit.index + 1;
      setAnnouncement(`Author ${edit.index + 1} moved ${edit.op}; now author ${to + 1}.`);
      const same = edit.op === 'up' ? to > 0 : to < n - 1;
      pendingFocus.current = authorButtonId(to, same ? edit.op : edit.op === 'up' ? 'down' : 'up');
    }
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (upload.uploading) return;
    setNotice(null);

    const checked = checkFields(values, authors);
    const found: Record<string, string> = { ...(checked.ok ? {} : checked.errors), ...fileProblems() };
    const first = Object.values(found)[0];
    if (first) {
      fail(first, found);
      return;
    }

    const body = new FormData();
    for (const name of TEXT_FIELDS) body.append(name, values[name]);
    body.append('authors', authorsJson(authors));
    const result = await send(SUBMIT_URL, body);
    if (result.kind === 'aborted') {
      setNotice('Upload cancelled. Nothing was submitted; the form still holds everything you entered.');
      submitRef.current?.focus();
      return;
    }
    if (result.kind === 'response' && result.status === 201) {
      const created = result.body as { id: number; reference: string };
      draft.clear();
      onSubmitted({ id: created.id, reference: created.reference });
      return;
    }
    // Signed out meanwhile (the session ended, or was ended elsewhere): keep the text for after signing in.
    if (result.kind === 'response' && result.status === 401) draft.keep();
    refused(result);
  }

  const uploading = upload.uploading;
  const keywords = keywordCount(values.keywords);

  return (
    <form
      method="post"
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={onSubmit}
      className="form submission-form"
      aria-describedby="submission-required-note"
      aria-busy={uploading || undefined}
    >
      {hydrated ? null : (
        // Without JavaScript, Enter in a text field presses the form's first submit button: make it this one,
        // not "Add another author".
        <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
          Submit manuscript
        </button>
      )}
      <DraftOffer draft={draft} what="the submission form" withFiles />
      {failure ? (
        <SubmissionAlert
          prefix={MESSAGES.submissionFailedPrefix}
          message={failure.message}
          errors={errors}
          attempt={failure.attempt}
        />
      ) : null}
      {notice ? (
        <p role="status" className="alert alert--info submission-notice">
          {notice}
        </p>
      ) : null}

      <p id="submission-required-note" className="form-note">
        Fields marked <span className="req">*</span> are required.
      </p>

      <section className="form-section" aria-labelledby="section-article">
        <h2 id="section-article" className="form-section__title">
          <span className="form-section__number" aria-hidden="true">
            1
          </span>
          The article
        </h2>
        <TextField
          name="title"
          label="Title"
          required
          marks
          maxLength={LIMITS.title}
          value={values.title}
          onChange={(e) => setValue('title', e.target.value)}
          error={errors.title}
        />
        <SelectField
          name="articleType"
          label="Article type"
          required
          marks
          placeholder="Choose the article type"
          options={ARTICLE_TYPES}
          value={values.articleType}
          onChange={(e) => setValue('articleType', e.target.value)}
          error={errors.articleType}
        />
        <TextField
          name="keywords"
          label="Keywords"
          required
          marks
          maxLength={LIMITS.keywords}
          hint={
            <>
              4–5 keywords, separated by commas, e.g.{' '}
              <i>edge computing, IoT, energy efficiency, task offloading</i>.
              {keywords ? ` You have ${keywords}.` : null}
            </>
          }
          value={values.keywords}
          onChange={(e) => setValue('keywords', e.target.value)}
          error={errors.keywords}
        />
        <TextAreaField
          name="abstract"
          label="Abstract"
          required
          marks
          rows={8}
          maxLength={LIMITS.abstract}
          hint="Plain text, as it should appear with the article."
          value={values.abstract}
          onChange={(e) => setValue('abstract', e.target.value)}
          error={errors.abstract}
        />
      </section>

      <section className="form-section" aria-labelledby="section-authors">
        <h2 id="section-authors" className="form-section__title">
          <span className="form-section__number" aria-hidden="true">
            2
          </span>
          Authors
        </h2>
        <p className="form-section__intro">
          In the order they should appear on the article. Name, email and affiliation are required for each
          author.
          {hydrated ? null : ' Without JavaScript, add and arrange the authors before choosing the files.'}
        </p>
        <AuthorsEditor
          authors={authors}
          errors={errors}
          hydrated={hydrated}
          disabled={uploading}
          announcement={announcement}
          onEdit={editAuthorList}
          onChange={setAuthorValue}
        />
      </section>

      <section className="form-section" aria-labelledby="section-statements">
        <h2 id="section-statements" className="form-section__title">
          <span className="form-section__number" aria-hidden="true">
            3
          </span>
          Statements
        </h2>
        <TextAreaField
          name="conflictOfInterest"
          marks
          label="Conflict of interest"
          rows={3}
          maxLength={LIMITS.statement}
          hint="Any financial or personal relationship that could be seen to influence the work, or “None”."
          value={values.conflictOfInterest}
          onChange={(e) => setValue('conflictOfInterest', e.target.value)}
          error={errors.conflictOfInterest}
        />
        <TextAreaField
          name="fundingStatement"
          marks
          label="Funding statement"
          rows={3}
          maxLength={LIMITS.statement}
          hint="Funders and grant numbers."
          value={values.fundingStatement}
          onChange={(e) => setValue('fundingStatement', e.target.value)}
          error={errors.fundingStatement}
        />
        <TextAreaField
          name="dataAvailabilityStatement"
          marks
          label="Data availability statement"
          rows={3}
          maxLength={LIMITS.statement}
          hint="Where the data behind the results can be found, or why it cannot be shared."
          value={values.dataAvailabilityStatement}
          onChange={(e) => setValue('dataAvailabilityStatement', e.target.value)}
          error={errors.dataAvailabilityStatement}
        />
      </section>

      <section className="form-section" aria-labelledby="section-files">
        <h2 id="section-files" className="form-section__title">
          <span className="form-section__number" aria-hidden="true">
            4
          </span>
          Files
        </h2>
        <FileField
          rule={MANUSCRIPT_RULE}
          maxBytes={limits.manuscript}
          label="Main manuscript file"
          required
          hint={`Word (.doc, .docx) or PDF (.pdf), up to ${formatBytes(limits.manuscript)}.`}
          file={files.submissionFile}
          error={errors.submissionFile}
          reminder={reminder}
          disabled={uploading}
          onChoose={(file, problem) => chooseFile('submissionFile', file, problem)}
        />
        <FileField
          rule={ADDITIONAL_RULE}
          maxBytes={limits.additional}
          label="Additional files"
          hint={`Figures, data or supplementary material as one .zip archive, up to ${formatBytes(limits.additional)}.`}
          file={files.additionalZip}
          error={errors.additionalZip}
          reminder={reminder}
          disabled={uploading}
          onChoose={(file, problem) => chooseFile('additionalZip', file, problem)}
        />
        <FileField
          rule={COPYRIGHT_FORM_RULE}
          maxBytes={limits.manuscript}
          label="Signed copyright form"
          required={copyrightRequired}
          hint={
            <>
              The <Link reloadDocument to="/copyright">copyright form</Link>, signed by the corresponding author, as a PDF (a scan
              is fine), up to {formatBytes(limits.manuscript)}.
              {copyrightRequired ? ' This journal needs it with every submission.' : ''}
            </>
          }
          file={files.copyrightForm}
          error={errors.copyrightForm}
          reminder={reminder}
          disabled={uploading}
          onChoose={(file, problem) => chooseFile('copyrightForm', file, problem)}
        />
      </section>

      <div className="form-actions">
        {upload.progress ? (
          <UploadProgress
            label="Uploading your submission"
            progress={upload.progress}
            onCancel={upload.cancel}
          />
        ) : null}
        <button
          id="submission-submit"
          ref={submitRef}
          type="submit"
          className="button button--primary button--large"
          // Not `disabled`: focus stays on the button while the upload runs (a second press does nothing).
          aria-disabled={uploading || undefined}
        >
          {uploading ? 'Submitting…' : 'Submit manuscript'}
        </button>
        <p className="form-actions__note">
          You and the editorial office will receive an acknowledgement by email with the manuscript's
          reference number.
        </p>
      </div>
    </form>
  );
}
