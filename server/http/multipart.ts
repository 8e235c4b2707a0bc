import type { FastifyRequest } from 'fastify';
import type { RawUpload } from '../files/uploads.ts';
import { HttpError, badRequest, formatTooLarge, unsupportedMediaType } from './errors.ts';

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, RawUpload>;
}

/**
 * Reads a whole multipart body into memory, refusing more than `maxFileBytes` per file (413) and any file
 * field not in `fileFields`. Files are only kept once the whole request has arrived.
 */
export async function readMultipart(
  request: FastifyRequest,
  opts: { fileFields: string[]; maxFileBytes: number; maxFields?: number },
): Promise<MultipartBody> {
  if (!request.isMultipart()) {
    throw unsupportedMediaType('This request must be sent as multipart/form-data.');
  }
  const fields: Record<string, string> = {};
  const files: Record<string, RawUpload> = {};
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: opts.maxFileBytes,
        files: opts.fileFields.length,
        fields: opts.maxFields ?? 40,
        fieldSize: 1024 * 1024,
        parts: opts.fileFields.length + (opts.maxFields ?? 40),
      },
    })) {
      if (part.type === 'file') {
        if (!opts.fileFields.includes(part.fieldname)) {
          part.file.resume();
          throw badRequest(`Unexpected file field "${part.fieldname}".`);
        }
        const data = await part.toBuffer();
        // An empty file input arrives as a part with no name and no bytes: treat it as not chosen.
        if (data.length === 0 && !part.filename) continue;
        files[part.fieldname] = { field: part.fieldname, filename: part.filename ?? '', data };
      } else {
        if (typeof part.value !== 'string') continue;
        if (!(part.fieldname in fields)) fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw formatTooLarge(opts.maxFileBytes);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badRequest('Too many fields or files in this form.');
    }
    if (code.startsWith('FST_')) throw badRequest('The upload could not be read. Please try again.');
    // A client that hangs up mid-upload, or a body that is not valid multipart.
    throw badRequest('The upload was incomplete or malformed. Please try again.');
  }
  return { fields, files };
}
