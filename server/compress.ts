import type { Transform } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Brotli and gzip of bytes (decision 0051): the bytes work behind the cache's kept answers (server/cache,
 * compressed once when stored) and the HTTP layer's compression of answers as they go out
 * (server/http/compression.ts, which decides when and which).
 */

export type Encoding = 'br' | 'gzip';

/** `fast` for answers compressed per request, `best` for answers compressed once and kept. */
export type Effort = 'fast' | 'best';

const brotliOptions = (effort: Effort, size?: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: effort === 'best' ? 9 : 4,
    ...(size ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } : {}),
  },
});
const gzipOptions = (effort: Effort): zlib.ZlibOptions => ({ level: effort === 'best' ? 9 : 6 });

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Compresses a whole body off the event loop (libuv's thread pool). */
export function compress(body: Buffer, encoding: Encoding, effort: Effort = 'fast'): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, brotliOptions(effort, body.length))
    : gzip(body, gzipOptions(effort));
}

export function gunzipBody(body: Buffer): Promise<Buffer> {
  return gunzip(body);
}

/** A stream that compresses what passes through it (streamed pages), flushed as each chunk arrives. */
export function compressStream(encoding: Encoding): Transform {
  return encoding === 'br'
    ? zlib.createBrotliCompress({ ...brotliOptions('fast'), flush: zlib.constants.BROTLI_OPERATION_FLUSH })
    : zlib.createGzip({ ...gzipOptions('fast'), flush: zlib.constants.Z_SYNC_FLUSH });
}
