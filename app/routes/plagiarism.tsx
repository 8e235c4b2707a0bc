import { Link } from 'react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { MESSAGES } from '../../common/messages.ts';
import type { SimilarityReportData } from '../../common/similarity.ts';
import { PLAGIARISM_RULE } from '../../common/similarity-rules.ts';
import { formatBytes } from '../../common/upload-rules.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { SimilarityReport } from '../components/similarity/SimilarityReport.tsx';
import { plagiarismFormPost } from '../components/similarity/check.server.ts';
import { OPTION_DEFAULTS, optionFields } from '../components/similarity/options.ts';
import { FileField } from '../components/FileField.tsx';
import { CheckField, TextField } from '../components/FormField.tsx';
import { type UploadProgressState, uploadFailure, useUpload } from '../components/submission/use-upload.ts';
import { retryAfterHeaders } from '../lib/headers.ts';
import { pageTitle } from '../lib/meta.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import submissionCss from '../styles/submission.css?url';
import similarityCss from '../styles/similarity.css?url';
import type { Route } from './+types/plagiarism';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: similarityCss },
];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Plagiarism check') },
  {
    name: 'description',
    content:
      'Check a manuscript (.doc, .docx or .pdf) against everything the journal has published and received, and measure its grammar.',
  },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return {
    signedIn: context.auth !== null,
    maxBytes: context.services.config.MAX_MANUSCRIPT_SIZE,
  };
}

/** The form posted without JavaScript (with it, the page uploads to POST /api/plagiarism with a progress bar). */
export async function action({ request, context }: Route.ActionArgs) {
  return plagiarismFormPost(request, context);
}

type Failure = { message: string; reason: string | null; at: number };

/** A refusal as the page shows it: the spec's failure message with the specific reason beside it, or no file. */
function failureOf(message: string, at: number): Failure {
  if (message === MESSAGES.plagiarismNoFile) return { message, reason: null, at };
  return { message: MESSAGES.plagiarismFailure, reason: message === MESSAGES.plagiarismFailure ? null : message, at };
}
type Shown = { report: SimilarityReportData; filename: string; at: number };

const LOGIN = `/login?${new URLSearchParams({ redirectTo: '/plagiarism' })}`;

export default function Plagiarism({ loaderData, actionData }: Route.ComponentProps) {
  const { signedIn, maxBytes } = loaderData;
  const hydrated = useHydrated();
  const upload = useUpload();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  // What the page's own upload produced; before any, what a form post without JavaScript answered.
  const [local, setLocal] = useState<{ failure: Failure | null; shown: Shown | null } | null>(null);
  const fromPost = actionData
    ? actionData.ok
      ? {
          failure: null,
          shown: { report: actionData.report, filename: actionData.filename, at: actionData.at },
        }
      : {
          failure: failureOf(actionData.message, actionData.at),
          shown: null,
        }
    : { failure: null, shown: null };
  const { failure, shown } = local ?? fromPost;
  const setFailure = (f: Failure | null) => setLocal({ failure: f, shown: null });
  const setShown = (r: Shown) => setLocal({ failure: null, shown: r });
  const resultRef = useRef<HTMLElement>(null);
  const postErrors = actionData && !actionData.ok ? actionData.errors : {};

  useEffect(() => {
    if (shown && hydrated) resultRef.current?.focus();
  }, [shown, hydrated]);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFailure(null);
    if (!file) {
      setFileError(MESSAGES.plagiarismNoFile);
      setFailure({ message: MESSAGES.plagiarismNoFile, reason: null, at: Date.now() });
      return;
    }
    setFileError(undefined);
    const body = new FormData();
    body.append('file', file, file.name);
    for (const [k, v] of Object.entries(optionFields(new FormData(e.currentTarget)) ?? {})) body.append(k, v);
    const result = await upload.start('/api/plagiarism', body, file.size);
    if (result.kind === 'aborted') return;
    if (result.kind === 'response' && result.status === 200) {
      setShown({ report: result.body as SimilarityReportData, filename: file.name, at: Date.now() });
      return;
    }
    const { message, errors } = uploadFailure(result);
    if (errors.file) setFileError(errors.file);
    setFailure(failureOf(message, Date.now()));
  }

  const busy = upload.uploading;
  const shownFileError = fileError ?? (local ? undefined : postErrors.file);
  return (
    <JournalPageLayout
      title="Plagiarism check"
      lead="Compare a manuscript with every article the journal has published and every manuscript it has received, and measure its grammar. Your file is checked and then discarded: it is not stored or added to the journal's collection."
      className="plagiarism-page"
    >
      {!signedIn ? (
        <section aria-labelledby="plagiarism-signin-title" className="alert alert--info plagiarism-signin">
          <h2 id="plagiarism-signin-title">Sign in to check a manuscript</h2>
          <p>
            The checker is open to every registered reader, author and editor. Please{' '}
            <Link reloadDocument to={LOGIN}>sign in</Link> (you will come back here), or <Link reloadDocument to="/regist">register</Link> first.
          </p>
        </section>
      ) : (
        <section aria-labelledby="plagiarism-form-title">
          <h2 id="plagiarism-form-title" className="visually-hidden">
            Check a file
          </h2>
          {failure ? <FormAlert attempt={failure.at} message={failure.message} /> : null}
          {/* The reason, where the file field does not already say it. */}
          {failure?.reason && failure.reason !== shownFileError ? (
            <p className="field__error plagiarism-reason">{failure.reason}</p>
          ) : null}
          <form
            method="post"
            action="/plagiarism"
            encType="multipart/form-data"
            className="plagiarism-form"
            onSubmit={hydrated ? onSubmit : undefined}
            noValidate
          >
            <FileField
              rule={PLAGIARISM_RULE}
              maxBytes={maxBytes}
              label="Manuscript"
              required
              hint={`A Word document (.doc, .docx) or a PDF (.pdf) of up to ${formatBytes(maxBytes)}. A scanned PDF has no text to compare: use the file exported from your word processor.`}
              file={file}
              error={shownFileError}
              disabled={busy}
              onChoose={(chosen, problem) => {
                setFile(chosen);
                setFileError(problem ?? undefined);
              }}
            />
            <fieldset className="plagiarism-options">
              <legend>Options</legend>
              <input type="hidden" name="options" value="1" />
              <CheckField
                name="excludeBibliography"
                label="Leave out the bibliography (the list after the last “References” heading)"
                defaultChecked={OPTION_DEFAULTS.excludeBibliography}
              />
              <CheckField
                name="excludeQuotes"
                label="Leave out text in quotation marks"
                defaultChecked={OPTION_DEFAULTS.excludeQuotes}
              />
              <TextField
                name="minMatchWords"
                label="Smallest match, in words"
                type="number"
                inputMode="numeric"
                min={3}
                max={200}
                defaultValue={OPTION_DEFAULTS.minMatchWords}
                fieldClassName="field--short"
              />
            </fieldset>
            {upload.progress ? <CheckProgress progress={upload.progress} onCancel={upload.cancel} /> : null}
            <div>
              <button type="submit" className="button button--primary" disabled={busy}>
                {busy ? 'Checking…' : 'Check the file'}
              </button>
            </div>
          </form>
        </section>
      )}
      {shown ? (
        <section
          aria-labelledby="plagiarism-result-title"
          className="plagiarism-result"
          ref={resultRef}
          tabIndex={-1}
          key={shown.at}
        >
          <h2 id="plagiarism-result-title">Result{shown.filename ? ` for ${shown.filename}` : ''}</h2>
          <SimilarityReport report={shown.report} headingLevel={3} />
        </section>
      ) : null}
    </JournalPageLayout>
  );
}

/**
 * Two stages: the upload (a progress bar with bytes, cancellable), then the check on the server (an
 * indeterminate bar: reading the text, comparing, grammar), announced politely to screen readers.
 */
function CheckProgress({ progress, onCancel }: { progress: UploadProgressState; onCancel: () => void }) {
  const percent = Math.min(100, Math.floor((progress.loaded / Math.max(progress.total, 1)) * 100));
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!progress.sent) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [progress.sent]);
  return (
    <div className="sim-checking">
      {progress.sent ? (
        <>
          <label htmlFor="sim-check-bar">
            <strong>Checking the manuscript</strong>
          </label>
          <progress id="sim-check-bar" aria-describedby="sim-check-stage" />
          <p id="sim-check-stage" className="muted">
            Reading its text, comparing it with the journal's articles and manuscripts, and checking its
            grammar
            {seconds >= 2 ? ` (${seconds} s)` : ''}…
          </p>
        </>
      ) : (
        <>
          <label htmlFor="sim-upload-bar">
            <strong>Uploading</strong>
          </label>
          <progress id="sim-upload-bar" max={100} value={percent} aria-describedby="sim-upload-figures">
            {percent}%
          </progress>
          <p id="sim-upload-figures" className="muted">
            {percent}% · {formatBytes(progress.loaded)} of {formatBytes(progress.total)}{' '}
            <button type="button" className="link-button" onClick={onCancel}>
              Cancel
            </button>
          </p>
        </>
      )}
      <p className="visually-hidden" role="status">
        {progress.sent
          ? 'Upload complete. Checking the manuscript.'
          : `Uploading: ${Math.floor(percent / 25) * 25}%`}
      </p>
    </div>
  );
}
