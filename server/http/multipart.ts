import type { FastifyRequest } from 'fastify';
import type { RawUpload } from '../files/uploads.ts';
import { type FormBody, type FormBodyLimits, type SavedFile, pullStream, readFormBody } from './form-body.ts';
import { unsupportedMediaType } from './errors.ts';

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, RawUpload>;
}

/**
 * An API upload: a multipart body read by the one form reader (`readFormBody`), with its limits. Any breach
 * is refused (413 past a limit, 400 for a second file in one field or an unexpected file field).
 */
export async function readMultipart(
  request: FastifyRequest,
  opts: { files: NonNullable<FormBodyLimits['files']>; maxTextBytes?: number; maxFields?: number },
): Promise<MultipartBody> {
  const { fields, body } = await readApiForm(request, {
    maxTextBytes: opts.maxTextBytes ?? 1024 * 1024,
    maxFields: opts.maxFields ?? 40,
    files: opts.files,
  });
  const files: Record<string, RawUpload> = {};
  for (const [name, file] of body.files)
    files[name] = { field: name, filename: file.filename, data: file.data };
  return { fields, files };
}

/**
 * A large API upload: the file parts named in `toDisk` stream into files in their folders (never into
 * memory), the text fields are read as usual. A refused body leaves no file behind (form-body removes them).
 */
export async function readMultipartToDisk(
  request: FastifyRequest,
  opts: { toDisk: NonNullable<FormBodyLimits['toDisk']>; maxTextBytes?: number; maxFields?: number },
): Promise<{ fields: Record<string, string>; saved: SavedFile[] }> {
  const { fields, body } = await readApiForm(request, {
    maxTextBytes: opts.maxTextBytes ?? 64 * 1024,
    maxFields: opts.maxFields ?? 40,
    toDisk: opts.toDisk,
  });
  return { fields, saved: body.saved };
}

/** Either upload: multipart only (415 otherwise), read whole or refused, each text field's first value. */
async function readApiForm(
  request: FastifyRequest,
  limits: FormBodyLimits,
): Promise<{ fields: Record<string, string>; body: FormBody }> {
  const type = request.headers['content-type'];
  if (!type?.toLowerCase().startsWith('multipart/form-data')) {
    throw unsupportedMediaType('This request must be sent as multipart/form-data.');
  }
  const body = await readFormBody(pullStream(request.raw), type, limits);
  if (body.refused) throw body.refused;
  const fields: Record<string, string> = {};
  for (const [name, values] of body.fields) fields[name] = values[0];
  return { fields, body };
}
