import { MESSAGES } from '../../common/messages.ts';
import type { CheckedUpload } from '../../server/files/uploads.ts';
import { checkUpload } from '../../server/files/uploads.ts';
import { badRequest, payloadTooLarge } from '../../server/http/errors.ts';
import type { WebContext } from '../../server/web-context.ts';
import {
  ADDITIONAL_RULE,
  MANUSCRIPT_RULE,
  type UploadLimits,
  formatBytes,
} from '../../common/upload-rules.ts';

/**
 * Form posts of the submission and revision forms from browsers without JavaScript (with JavaScript, the
 * page uploads to the JSON API instead, with a progress bar). Both end in the same services and checks.
 */

export function uploadLimits(context: WebContext): UploadLimits {
  const { MAX_MANUSCRIPT_SIZE, MAX_ADDITIONAL_SIZE } = context.services.config;
  return { manuscript: MAX_MANUSCRIPT_SIZE, additional: MAX_ADDITIONAL_SIZE };
}

/** Room for the text fields and the multipart framing besides the two files. */
const FORM_OVERHEAD = 1024 * 1024;

/**
 * The posted form. `formData()` holds the whole body in memory, so a body larger than the two files may
 * be is refused from its Content-Length before it is read.
 */
export async function readUploadForm(request: Request, limits: UploadLimits): Promise<FormData> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  const allowed = limits.manuscript + limits.additional + FORM_OVERHEAD;
  if (declared > allowed) {
    throw payloadTooLarge(
      `The files are too large: the limit is ${formatBytes(limits.manuscript)} for the manuscript and ${formatBytes(limits.additional)} for the ZIP.`,
    );
  }
  try {
    return await request.formData();
  } catch {
    throw badRequest('The upload was incomplete or malformed. Please try again.');
  }
}

type FormFile = Blob & { name: string };

/** A chosen file, or null for a file input left empty (it arrives nameless and with no bytes). */
function chosenFile(form: FormData, name: string): FormFile | null {
  const value = form.get(name);
  if (value === null || typeof value === 'string') return null;
  const file = value as FormFile;
  return file.size === 0 && !file.name ? null : file;
}

/** The manuscript and optional ZIP of a posted form, checked by content as the API checks them. */
export async function checkedManuscriptFiles(
  form: FormData,
  limits: UploadLimits,
): Promise<{ manuscript: CheckedUpload; additional?: CheckedUpload }> {
  const main = chosenFile(form, MANUSCRIPT_RULE.field);
  if (!main) throw badRequest(MESSAGES.mainFileMissing, { submissionFile: MESSAGES.mainFileMissing });
  const zip = chosenFile(form, ADDITIONAL_RULE.field);
  const raw = async (field: string, file: FormFile) => ({
    field,
    filename: file.name,
    data: Buffer.from(await file.arrayBuffer()),
  });
  const manuscript = await checkUpload(await raw(MANUSCRIPT_RULE.field, main), {
    ...MANUSCRIPT_RULE,
    maxBytes: limits.manuscript,
  });
  const additional = zip
    ? await checkUpload(await raw(ADDITIONAL_RULE.field, zip), { ...ADDITIONAL_RULE, maxBytes: limits.additional })
    : undefined;
  return { manuscript, additional };
}
