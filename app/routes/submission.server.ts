import { MESSAGES } from '../../common/messages.ts';
import {
  ADDITIONAL_RULE,
  COPYRIGHT_FORM_RULE,
  MANUSCRIPT_RULE,
  type UploadLimits,
  fileLimit,
  formatBytes,
} from '../../common/upload-rules.ts';
import type { CheckedUpload } from '../../server/files/uploads.ts';
import { checkUpload } from '../../server/files/uploads.ts';
import { badRequest } from '../../server/http/errors.ts';
import type { WebContext } from '../../server/web-context.ts';
import type { PostedForm, ReadFormOptions } from '../lib/forms.server.ts';

/**
 * Form posts of the submission and revision forms from browsers without JavaScript (with JavaScript, the
 * page uploads to the JSON API instead, with a progress bar). Both end in the same services and checks.
 */

export function uploadLimits(context: WebContext): UploadLimits {
  const { MAX_MANUSCRIPT_SIZE, MAX_ADDITIONAL_SIZE } = context.services.config;
  return { manuscript: MAX_MANUSCRIPT_SIZE, additional: MAX_ADDITIONAL_SIZE };
}

/**
 * How the manuscript forms are read: the two files with their limits. A file past its limit is dropped as it
 * streams in and the text fields after it are still read, so the refusal comes back with what was typed.
 */
export function manuscriptFormOptions(limits: UploadLimits): ReadFormOptions {
  return {
    files: {
      [MANUSCRIPT_RULE.field]: fileLimit(MANUSCRIPT_RULE, limits.manuscript),
      [ADDITIONAL_RULE.field]: fileLimit(ADDITIONAL_RULE, limits.additional),
      [COPYRIGHT_FORM_RULE.field]: fileLimit(COPYRIGHT_FORM_RULE, limits.manuscript),
    },
    tooLarge: `The files are too large: the limit is ${formatBytes(limits.manuscript)} for the manuscript and ${formatBytes(limits.additional)} for the ZIP.`,
  };
}

/**
 * The manuscript, optional ZIP and (with a submission) the signed copyright form of a posted form, checked by
 * content as the API checks them.
 */
export async function checkedManuscriptFiles(
  form: PostedForm,
  limits: UploadLimits,
): Promise<{ manuscript: CheckedUpload; additional?: CheckedUpload; copyrightForm?: CheckedUpload }> {
  const main = form.file(MANUSCRIPT_RULE.field);
  if (!main) throw badRequest(MESSAGES.mainFileMissing, { submissionFile: MESSAGES.mainFileMissing });
  const zip = form.file(ADDITIONAL_RULE.field);
  const manuscript = await checkUpload(main, { ...MANUSCRIPT_RULE, maxBytes: limits.manuscript });
  const additional = zip
    ? await checkUpload(zip, { ...ADDITIONAL_RULE, maxBytes: limits.additional })
    : undefined;
  const signed = form.file(COPYRIGHT_FORM_RULE.field);
  const copyrightForm = signed
    ? await checkUpload(signed, { ...COPYRIGHT_FORM_RULE, maxBytes: limits.manuscript })
    : undefined;
  return { manuscript, additional, copyrightForm };
}
