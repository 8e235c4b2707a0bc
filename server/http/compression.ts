import type { FastifyInstance } from 'fastify';
import { compress, type Encoding } from '../compress.ts';

/**
 * Compression of every text answer (issue 13): brotli or gzip, as the client's Accept-Encoding allows.
 * Built assets are compressed once at build time (scripts/precompress.ts, sent by @fastify/static); cached
 * pages and public JSON once when they are cached (server/cache); everything else here, as it goes out.
 * What HTTP decides lives here (which encoding a client takes, which answers to compress, Vary); the bytes
 * work itself is server/compress.ts, shared with the cache (decision 0051).
 */

/** Below this, compression saves less than the header costs. */
export const MIN_COMPRESS_BYTES = 1024;

const COMPRESSIBLE =
  /^\s*(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|x-javascript|x-script|manifest\+json)|image\/svg\+xml)/i;

export function isCompressible(contentType: string | undefined | null): boolean {
  return COMPRESSIBLE.test(contentType ?? '');
}

/**
 * The encoding to answer with: brotli if the client takes it, else gzip, else none (RFC 9110 12.5.3:
 * q-values, `q=0` refuses, `*` stands for any encoding not named).
 */
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!header) return null;
  // Browsers send a handful of distinct headers: each is read once.
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const chosen = chooseEncoding(header);
  if (negotiated.size >= 64) negotiated.clear();
  negotiated.set(header, chosen);
  return chosen;
}

const negotiated = new Map<string, Encoding | null>();

function chooseEncoding(header: string): Encoding | null {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (Number.isFinite(weight)) q.set(name.trim(), weight);
  }
  const weight = (name: string) =>
    q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/** Adds `Accept-Encoding` to a Vary header value. */
export function varyOnEncoding(vary: string | undefined | null): string {
  const names = (vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (names.some((v) => v === '*' || v.toLowerCase() === 'accept-encoding')) return names.join(', ');
  return [...names, 'Accept-Encoding'].join(', ');
}

/** Whether a response of this status and method has a body worth compressing. */
export function hasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && status !== 204 && status !== 304 && !(status >= 100 && status < 200);
}

const header = (value: unknown): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);

/**
 * Every answer Fastify sends itself (the JSON API, feeds, OAI, sitemap, exports, error pages): a text body of
 * 1 KB or more goes out compressed when the client takes it. Streams (files) and answers already encoded
 * are left as they are.
 */
export function addCompression(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!hasBody(request.method, reply.statusCode) || reply.hasHeader('content-encoding')) return payload;
    if (!isCompressible(header(reply.getHeader('content-type')))) return payload;
    reply.header('vary', varyOnEncoding(header(reply.getHeader('vary'))));
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < MIN_COMPRESS_BYTES) return payload;
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed = await compress(body, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
