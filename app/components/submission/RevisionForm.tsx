import { type FormEvent, useRef, useState } from 'react';
import { LIMITS } from '../../../common/limits.ts';
import { FileField } from '../FileField.tsx';
import { TextAreaField } from '../FormField.tsx';
import { SubmissionAlert } from './SubmissionAlert.tsx';
import { UploadProgress } from './UploadProgress.tsx';
import {
  ADDITIONAL_RULE,
  MANUSCRIPT_RULE,
  type UploadLimits,
  formatBytes,
} from '../../../common/upload-rules.ts';
import { useFormDraft } from '../../lib/use-form-draft.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { DraftOffer } from '../DraftOffer.tsx';
import { useManuscriptUpload } from './use-manuscript-upload.ts';

export interface RevisionFormState {
  note: string;
  /** The response to the reviewers (when the manuscript went through peer review). */
  response?: string;
  errors: Record<string, string>;
  message: string;
}

export const REVISION_FAILED_PREFIX = 'Upload failed: ';

/**
 * The revised manuscript (and optionally a new ZIP) with a note to the editors. The earlier versions stay.
 * With JavaScript: checked first, then uploaded to the API with progress and Cancel; without: a plain form
 * post to the page's action.
 */
export function RevisionForm({
  submissionId,
  limits,
  initial,
  onRevised,
  reviewed = false,
}: {
  submissionId: number;
  limits: UploadLimits;
  /** Reviews were shared with the author: the form asks for a response to them too (never to unseen ones). */
  reviewed?: boolean;
  initial: RevisionFormState | null;
  onRevised: () => void;
}) {
  const hydrated = useHydrated();
  const { upload, files, chooseFile, fileProblems, errors, failure, fail, send, refused } =
    useManuscriptUpload(initial ? { errors: initial.errors, message: initial.message } : null);
  const [note, setNote] = useState(initial?.note ?? '');
  const [response, setResponse] = useState(initial?.response ?? '');
  const [notice, setNotice] = useState<string | null>(null);
  // The note, kept if the session ends before it is sent, and offered back after signing in again.
  const draft = useFormDraft<{ note: string; response: string }>({
    form: `revision:${submissionId}`,
    read: () => ({ note, response }),
    apply: (kept) => {
      setNote(typeof kept.note === 'string' ? kept.note : '');
      setResponse(typeof kept.response === 'string' ? kept.response : '');
    },
  });
  const submitRef = useRef<HTMLButtonElement>(null);
  const reminder = initial
    ? 'Please choose this file again: browsers do not keep chosen files when a page reloads.'
    : undefined;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (upload.uploading) return;
    setNotice(null);
    const found = fileProblems();
    if (note.length > LIMITS.message)
      found.message = `The note must be at most ${LIMITS.message} characters.`;
    if (response.length > LIMITS.responseToReviewers)
      found.responseToReviewers = `The response to the reviewers must be at most ${LIMITS.responseToReviewers} characters.`;
    const first = Object.values(found)[0];
    if (first) {
      fail(first, found);
      return;
    }
    const body = new FormData();
    body.append('message', note);
    if (reviewed) body.append('responseToReviewers', response);
    const result = await send(`/api/submissions/${submissionId}/revision`, body);
    if (result.kind === 'aborted') {
      setNotice(
        'Upload cancelled. Nothing was sent to the editors; choose “Upload revised manuscript” again when ready.',
      );
      submitRef.current?.focus();
      return;
    }
    if (result.kind === 'response' && result.status === 200) {
      draft.clear();
      onRevised();
      return;
    }
    if (result.kind === 'response' && result.status === 401) draft.keep();
    refused(result);
  }

  return (
    <form
      method="post"
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={onSubmit}
      className="form revision-form"
      aria-busy={upload.uploading || undefined}
    >
      <DraftOffer draft={draft} what="the revision form" withFiles />
      {failure ? (
        <SubmissionAlert
          prefix={REVISION_FAILED_PREFIX}
          message={failure.message}
          errors={errors}
          attempt={failure.attempt}
        />
      ) : null}
      {notice ? (
        <p role="status" className="alert alert--info">
          {notice}
        </p>
      ) : null}
      <FileField
        rule={MANUSCRIPT_RULE}
        maxBytes={limits.manuscript}
        label="Revised manuscript"
        required
        hint={`Word (.doc, .docx) or PDF (.pdf), up to ${formatBytes(limits.manuscript)}.`}
        file={files.submissionFile}
        error={errors.submissionFile}
        reminder={reminder}
        disabled={upload.uploading}
        onChoose={(file, problem) => chooseFile('submissionFile', file, problem)}
      />
      <FileField
        rule={ADDITIONAL_RULE}
        maxBytes={limits.additional}
        label="Revised additional files"
        hint={`One .zip archive, up to ${formatBytes(limits.additional)}, if the supplementary material changed.`}
        file={files.additionalZip}
        error={errors.additionalZip}
        reminder={reminder}
        disabled={upload.uploading}
        onChoose={(file, problem) => chooseFile('additionalZip', file, problem)}
      />
      <TextAreaField
        name="message"
        label="Note to the editors"
        marks
        rows={5}
        maxLength={LIMITS.message}
        hint={
          reviewed
            ? 'What changed, for the editors only.'
            : 'What changed in this version.'
        }
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={errors.message}
      />
      {reviewed ? (
        <TextAreaField
          name="responseToReviewers"
          label="Response to the reviewers"
          marks
          rows={8}
          maxLength={LIMITS.responseToReviewers}
          hint="Answer the reviewers' comments point by point. The reviewers of the next round read it with the revised manuscript."
          value={response}
          onChange={(e) => setResponse(e.target.value)}
          error={errors.responseToReviewers}
        />
      ) : null}
      <div className="form-actions">
        {upload.progress ? (
          <UploadProgress
            label="Uploading your revised manuscript"
            progress={upload.progress}
            onCancel={upload.cancel}
          />
        ) : null}
        <button
          ref={submitRef}
          type="submit"
          className="button button--primary"
          aria-disabled={upload.uploading || undefined}
        >
          {upload.uploading ? 'Uploading…' : 'Upload revised manuscript'}
        </button>
      </div>
    </form>
  );
}
