import { Readable } from 'node:stream';
import Busboy from '@fastify/busboy';
import { MESSAGES } from '../../common/messages.ts';
import type { CheckedUpload } from '../../server/files/uploads.ts';
import { checkUpload } from '../../server/files/uploads.ts';
import { badRequest, payloadTooLarge } from '../../server/http/errors.ts';
import type { WebContext } from '../../server/web-context.ts';
import type { ClientError } from '../lib/forms.server.ts';
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

/** Past this, an oversize form is refused unread (its typed fields are lost): reading it costs the network. */
const READ_OVERSIZE_UP_TO = 4;

/**
 * The posted form. `formData()` holds the whole body in memory, so it only reads bodies within the limits.
 * From a larger body only the text fields are read, from the stream, and the files dropped as they arrive,
 * so that the refusal ("too large") comes back with everything the author typed (`refused` is set, `form`
 * holds the text fields only). A body past a few times the limit is refused unread.
 */
export async function readUploadForm(
  request: Request,
  limits: UploadLimits,
): Promise<{ form: FormData; refused?: ClientError }> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  const allowed = limits.manuscript + limits.additional + FORM_OVERHEAD;
  if (declared > allowed) {
    const message = `The files are too large: the limit is ${formatBytes(limits.manuscript)} for the manuscript and ${formatBytes(limits.additional)} for the ZIP.`;
    if (declared > allowed * READ_OVERSIZE_UP_TO) throw payloadTooLarge(message);
    const form = await textFieldsOnly(request).catch(() => new FormData());
    return { form, refused: { status: 413, message, errors: {} } };
  }
  try {
    return { form: await request.formData() };
  } catch {
    throw badRequest('The upload was incomplete or malformed. Please try again.');
  }
}

/** The text fields of a multipart body, read as it streams in; file contents are discarded unread. */
async function textFieldsOnly(request: Request): Promise<FormData> {
  const form = new FormData();
  const type = request.headers.get('content-type') ?? '';
  if (!request.body || !type.toLowerCase().startsWith('multipart/form-data')) return form;
  await new Promise<void>((resolve, reject) => {
    const parser = new Busboy({
      headers: { 'content-type': type },
      limits: { fields: 200, fieldSize: FORM_OVERHEAD },
    });
    parser.on('field', (name, value) => form.append(name, value));
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('finish', resolve);
    parser.on('error', reject);
    const body = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('error', reject);
    body.pipe(parser);
  });
  return form;
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
