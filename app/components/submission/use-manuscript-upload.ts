import { useRef, useState } from 'react';
import { MESSAGES } from '../../../common/messages.ts';
import {
  ADDITIONAL_RULE,
  COPYRIGHT_FORM_RULE,
  MANUSCRIPT_RULE,
  type UploadField,
} from '../../../common/upload-rules.ts';
import { type UploadResult, uploadFailure, useUpload } from './use-upload.ts';

export type FieldErrors = Record<string, string>;

/**
 * What the submission and revision forms share: the manuscript and the optional ZIP (chosen, or refused by
 * the page before any upload), the field errors and the failure alert (its `attempt` changes on every
 * refusal so the alert is announced again), and the upload with progress and Cancel.
 */
export function useManuscriptUpload(
  initial: { errors?: FieldErrors; message?: string } | null,
  /** The journal asks for the signed copyright form with a submission (the submission form only). */
  copyrightRequired = false,
) {
  const upload = useUpload();
  const [files, setFiles] = useState<Record<UploadField, File | null>>({
    submissionFile: null,
    additionalZip: null,
    copyrightForm: null,
  });
  const [refusals, setRefusals] = useState<Partial<Record<UploadField, string>>>({});
  const [errors, setErrors] = useState<FieldErrors>(() => initial?.errors ?? {});
  const [failure, setFailure] = useState<{ message: string; attempt: number } | null>(() =>
    initial?.message ? { message: initial.message, attempt: 0 } : null,
  );
  const attempts = useRef(0);

  /** A file was chosen (or cleared); `problem` is the page's refusal of it, shown at once beside the field. */
  function chooseFile(field: UploadField, file: File | null, problem: string | null) {
    setFiles((prev) => ({ ...prev, [field]: file }));
    setRefusals((prev) => ({ ...prev, [field]: problem ?? undefined }));
    setErrors((prev) => {
      const next = { ...prev };
      if (problem) next[field] = problem;
      else delete next[field];
      return next;
    });
  }

  /** The files' problems to report before uploading: no main file (or a refused one), a refused ZIP. */
  function fileProblems(): FieldErrors {
    const found: FieldErrors = {};
    if (!files.submissionFile) found.submissionFile = refusals.submissionFile ?? MESSAGES.mainFileMissing;
    if (refusals.additionalZip && !files.additionalZip) found.additionalZip = refusals.additionalZip;
    if (!files.copyrightForm && (refusals.copyrightForm || copyrightRequired))
      found.copyrightForm = refusals.copyrightForm ?? MESSAGES.copyrightFormMissing;
    return found;
  }

  function fail(message: string, nextErrors: FieldErrors) {
    setErrors(nextErrors);
    attempts.current += 1;
    setFailure({ message, attempt: attempts.current });
  }

  /** Adds the chosen files to `body` and uploads it; a refusal by the server becomes the alert and field errors. */
  async function send(url: string, body: FormData): Promise<UploadResult> {
    body.append(MANUSCRIPT_RULE.field, files.submissionFile!);
    if (files.additionalZip) body.append(ADDITIONAL_RULE.field, files.additionalZip);
    if (files.copyrightForm) body.append(COPYRIGHT_FORM_RULE.field, files.copyrightForm);
    setFailure(null);
    return upload.start(
      url,
      body,
      (files.submissionFile?.size ?? 0) + (files.additionalZip?.size ?? 0) + (files.copyrightForm?.size ?? 0),
    );
  }

  /** Shows the server's refusal (or a network failure) of an upload. */
  function refused(result: Exclude<UploadResult, { kind: 'aborted' }>) {
    const { message, errors: fieldErrors } = uploadFailure(result);
    const next = { ...fieldErrors };
    delete next._;
    fail(message, next);
  }

  return { upload, files, chooseFile, fileProblems, errors, setErrors, failure, fail, send, refused };
}
