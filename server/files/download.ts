import type { FastifyReply, FastifyRequest } from 'fastify';
import { messageResponse } from '../../common/api.ts';
import type { ByteRange } from './blob-store.ts';
import type { FileService, StoredFile } from './service.ts';

/**
 * The bytes a `Range` header asks for, for a file of `size` bytes: a range (ends included, cut to the
 * file), 'unsatisfiable' (it starts past the end: 416), or null to send the whole file (no header, another
 * unit, several ranges, or one that does not parse: RFC 9110 lets a server ignore those). One range is what
 * PDF readers ask for, a piece at a time.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return 'unsatisfiable';
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (end < start) return null;
  return { start, end: Math.min(end, size - 1) };
}

/** What a stored file's download declares beside its 200 (a route's `responses`). */
export const partialDownloadResponses = {
  206: { description: 'The part of the file a Range header asked for', binary: 'application/octet-stream' },
  416: { description: 'The range asked for starts past the end of the file', schema: messageResponse },
};

/** The request headers a download answers to. */
export function downloadRequest(request: { headers: Record<string, string | string[] | undefined> }) {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return { range: one(request.headers.range), ifRange: one(request.headers['if-range']) };
}

/** A stored file as a private download under the name given: the whole of it, or the range asked for. */
export async function sendStoredFile(
  files: FileService,
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  file: StoredFile,
) {
  const download = await files.download(file, name, downloadRequest(request));
  return reply.code(download.status).headers(download.headers).send(download.body);
}
