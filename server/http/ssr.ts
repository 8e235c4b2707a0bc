import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type RequestHandler, type ServerBuild } from 'react-router';
import { sessionTokenFromCookieHeader } from '../accounts/cookie.ts';
import type { AuthContext } from '../accounts/service.ts';
import { etagHeader, matchesEtag, type ResponseCache, type StoredAnswer } from '../cache/response-cache.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { FIRST_JOURNAL } from '../db/scope.ts';
import type { Services } from '../services.ts';
import type { WebContext } from '../web-context.ts';
import { authenticate, fastifyCredentials } from './auth.ts';
import { compressStream } from '../compress.ts';
import { hasBody, isCompressible, negotiateEncoding, varyOnEncoding } from './compression.ts';
import { isSecure } from './context.ts';
import { asHttpError } from './errors.ts';
import { SITE_PAGES, cacheSite, destinationOf } from './journals.ts';
import { pullStream } from './form-body.ts';
import {
  hasCredentials,
  inlineScriptHashes,
  isAccountPage,
  pageCsp,
  securityHeaders,
} from './security-headers.ts';

export type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

export const buildDir = path.resolve('build');

/**
 * The build a page request is handed to (decision 0056). A journal reached by its path gets the build with
 * that path as React Router's `basename`: its routes match below it, and every `<Link>`, `<Form>`, redirect
 * and navigation in the browser (the basename goes to the browser with the page) stays under it. The site's
 * own pages (no journal at the root) get a build with only the site's routes: the home, the account's and the
 * site admin's pages, and the not-found page for any other address, so no journal's page runs there.
 */
export function buildVariant(source: BuildSource, variant: { basename: string } | 'site'): BuildSource {
  const make = (build: ServerBuild): ServerBuild =>
    variant === 'site' ? siteBuild(build) : { ...build, basename: variant.basename || build.basename };
  if (typeof source !== 'function') return make(source);
  // Development: each request's build is fresh (Vite), and so is its variant.
  return async () => make(await source());
}

/** The build with only the routes the site answers itself (`SITE_PAGES`, their children, the not-found page). */
function siteBuild(build: ServerBuild): ServerBuild {
  const kept = new Set<string>();
  const keep = (id: string): boolean => {
    if (kept.has(id)) return true;
    const route = build.routes[id];
    if (!route) return false;
    const parent = route.parentId;
    const ok =
      id === 'root' ||
      (parent === 'root'
        ? Boolean(route.index) || route.path === '*' || SITE_PAGES.has((route.path ?? '').split('/')[0])
        : parent !== undefined && keep(parent));
    if (ok) kept.add(id);
    return ok;
  };
  for (const id of Object.keys(build.routes)) keep(id);
  const pick = <T>(all: Record<string, T>) =>
    Object.fromEntries(Object.entries(all).filter(([id]) => kept.has(id))) as Record<string, T>;
  return {
    ...build,
    routes: pick(build.routes) as ServerBuild['routes'],
    // The browser's route manifest too: it finds the same routes the server did (hydration, lazy discovery).
    assets: { ...build.assets, routes: pick(build.assets.routes) as ServerBuild['assets']['routes'] },
  };
}

export async function loadProductionBuild(dir = buildDir): Promise<ServerBuild> {
  const entry = path.join(dir, 'server', 'index.js');
  if (!existsSync(entry)) {
    throw new Error(`The site is not built (${entry} is missing). Run "npm run build" or "npm start".`);
  }
  return (await import(pathToFileURL(entry).href)) as ServerBuild;
}

/** The load context for one page request: the services, who is signed in, and facts about the request. */
export async function webContext(
  services: Services,
  request: FastifyRequest,
  auth?: AuthContext | null,
): Promise<WebContext> {
  if (auth === undefined) auth = await pageAuth(services, request);
  const destination = destinationOf(request);
  return {
    services,
    auth,
    journal:
      destination?.kind === 'site'
        ? null
        : destination?.kind === 'journal'
          ? { id: destination.journal.id, prefix: destination.prefix }
          : { id: FIRST_JOURNAL, prefix: '' },
    // Fastify's view of the request: behind a trusted proxy, the forwarded address and protocol.
    clientIp: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
    secure: isSecure(services, request),
    nonce: randomBytes(16).toString('base64'),
    documentHtml: new URL(request.url, 'http://page').pathname.endsWith('.data') ? null : new Map(),
  };
}

/** Who is signed in, for a page: the cookie only; a cross-site write runs as if signed out. */
async function pageAuth(services: Services, request: FastifyRequest): Promise<AuthContext | null> {
  try {
    return await authenticate(services.accounts, fastifyCredentials(request, false));
  } catch (err) {
    if (!asHttpError(err)) throw err;
    return null;
  }
}

/**
 * The page request as the Fetch API `Request` React Router expects. Its body is pulled from the socket only
 * as fast as the action reads it (never buffered ahead), so a body no action reads costs nothing, and a form
 * reader that stops at its size limit has read no more than that.
 */
export function toFetchRequest(
  request: FastifyRequest,
  signal: AbortSignal,
  method = request.method,
): Request {
  const raw = request.raw;
  const headers = new Headers();
  for (let i = 0; i < raw.rawHeaders.length; i += 2) headers.append(raw.rawHeaders[i], raw.rawHeaders[i + 1]);
  // The address as the browser asked for it: a journal's path included (its routes' `basename`).
  const url = new URL(
    request.originalUrl ?? raw.url ?? '/',
    `${request.protocol}://${request.host || 'localhost'}`,
  );
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    init.body = pullStream(raw);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * Writes a Fetch `Response` to Node's response as it streams, compressed when it is text the client may
 * take compressed (flushed chunk by chunk, so a streamed page still arrives in pieces). `extra` (lower-case
 * names) replaces the response's own headers of those names.
 */
async function sendResponse(
  request: FastifyRequest,
  res: ServerResponse,
  response: Response,
  extra: Record<string, string>,
  requestId: string,
): Promise<void> {
  const contentType = response.headers.get('content-type');
  const encoding =
    response.body &&
    hasBody(request.method, response.status) &&
    isCompressible(contentType) &&
    !response.headers.has('content-encoding')
      ? negotiateEncoding(request.headers['accept-encoding'])
      : null;
  const rawHeaders: string[] = ['x-request-id', requestId];
  for (const [key, value] of response.headers) {
    if (key in extra || key === 'vary' || key === 'x-request-id' || (encoding && key === 'content-length'))
      continue;
    rawHeaders.push(key, value);
  }
  for (const [key, value] of Object.entries(extra)) rawHeaders.push(key, value);
  const vary = response.headers.get('vary');
  if (isCompressible(contentType)) rawHeaders.push('vary', varyOnEncoding(vary));
  else if (vary) rawHeaders.push('vary', vary);
  if (encoding) rawHeaders.push('content-encoding', encoding);
  // A request body left unread (a refused upload) is not drained for keep-alive: the connection ends.
  if (!request.raw.complete && request.method !== 'GET' && request.method !== 'HEAD')
    rawHeaders.push('connection', 'close');
  res.writeHead(response.status, rawHeaders);
  if (!response.body || request.method === 'HEAD') {
    // A HEAD answered by rendering the GET: the page's stream is let go.
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const source = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  await (encoding ? pipeline(source, compressStream(encoding), res) : pipeline(source, res));
}

/**
 * Sends a kept answer (server/cache): 304 when the client's `If-None-Match` names it, else its bytes in the
 * best encoding the client takes, with a strong ETag for that encoding. The header lines of each kind of
 * request (encoding, https, credentials) are put together once per answer and reused: an answer costs one
 * `writeHead` with a prepared list and the request's id. Synchronous when the bytes are in memory (always for
 * brotli and gzip): a kept page is answered without a promise (decision 0040).
 */
function sendStored(
  request: FastifyRequest,
  res: ServerResponse,
  answer: StoredAnswer,
  extraFor: () => Record<string, string>,
  kind: string,
  cache: ResponseCache,
): void | Promise<void> {
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  const memo = `${kind} ${encoding}`;
  let lines = answer.sendHeaders.get(memo);
  if (!lines) {
    const extra = extraFor();
    const headers: string[] = [];
    for (const [key, value] of answer.headers) if (!(key in extra)) headers.push(key, value);
    for (const [key, value] of Object.entries(extra)) headers.push(key, value);
    headers.push('vary', 'Accept-Encoding, Cookie', 'etag', etagHeader(answer.etag, encoding));
    const length = String(encoding ? answer[encoding].length : answer.length);
    lines = {
      notModified: headers,
      full: encoding
        ? [...headers, 'content-encoding', encoding, 'content-length', length]
        : [...headers, 'content-length', length],
    };
    answer.sendHeaders.set(memo, lines);
  }
  if (matchesEtag(request.headers['if-none-match'], answer.etag)) {
    res.writeHead(304, ['x-request-id', request.id, ...lines.notModified]);
    res.end();
    return;
  }
  const full = lines.full;
  const write = (body: Buffer) => {
    res.writeHead(answer.status, ['x-request-id', request.id, ...full]);
    res.end(request.method === 'HEAD' ? undefined : body);
  };
  const body = cache.bodyOf(answer, encoding);
  if (Buffer.isBuffer(body)) write(body);
  else return body.then(write);
}

/**
 * Which cached copy of a page a request may have: the one for anonymous readers, or one made for this very
 * session with the account as it is now (its name, role and status are in the key: a change of role makes
 * another key). A signed-in reader never gets a copy made for anyone else.
 */
export function pageCacheKey(site: string, url: string, auth: AuthContext | null): string {
  if (!auth) return `page ${site} ${url}`;
  const { user } = auth;
  return `session ${JSON.stringify([auth.sessionId, auth.expiresAt, user.id, user.username, user.role, user.status])} ${site} ${url}`;
}

/**
 * Whether a rendered page may be kept: a 200 HTML page (or its navigation data) whose route says it is the
 * same for everyone who is signed out (`Cache-Control: public`, see app/lib/cache.ts), setting no cookie.
 */
/**
 * A page whose loader or action met the database briefly unavailable (app/entry.server.tsx `handleError`
 * marks the context): 503 with Retry-After, as the API answers, instead of the error page's 500.
 */
function unavailable(response: Response, context: WebContext): Response {
  if (response.status < 500 || !context.databaseUnavailable) return response;
  const headers = new Headers(response.headers);
  headers.set('retry-after', '30');
  return new Response(response.body, { status: 503, headers });
}

function keepable(response: Response): boolean {
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    /\bpublic\b/i.test(response.headers.get('cache-control') ?? '') &&
    /^\s*(text\/html|text\/x-script)\b/i.test(response.headers.get('content-type') ?? '')
  );
}

/** The headers of a kept page: its own, less those of one transfer, with the policy its scripts need. */
function keptHeaders(
  response: Response,
  body: Buffer,
  mode: 'production' | 'development',
): [string, string][] {
  const skip = new Set([
    'content-length',
    'content-encoding',
    'transfer-encoding',
    'connection',
    'date',
    'etag',
    'vary',
  ]);
  const headers: [string, string][] = [];
  for (const [key, value] of response.headers) if (!skip.has(key)) headers.push([key, value]);
  if (/^\s*text\/html\b/i.test(response.headers.get('content-type') ?? ''))
    headers.push([
      'content-security-policy',
      pageCsp({ hashes: inlineScriptHashes(body.toString('utf8')) }, mode),
    ]);
  return headers;
}

function badAddress(): Response {
  return new Response('The address contains a character that is not allowed (a NUL character).', {
    status: 400,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

/**
 * Hosts the React Router request handler for every page, in its own scope: bodies are left unread there,
 * so page actions read them (through `readForm`, with their limits). `extra` registers routes that share
 * this scope (e.g. POST /contact, which serves both the JSON API and the page's form).
 */
export async function registerPages(
  app: FastifyInstance,
  services: Services,
  opts: {
    build: BuildSource;
    mode: 'production' | 'development';
    clientDir?: string;
    /** Development: Vite's middleware runs first (assets, HMR). */
    devMiddleware?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
    extra?: (
      scope: FastifyInstance,
      handOver: (request: FastifyRequest, reply: FastifyReply) => void,
    ) => Promise<void>;
  },
) {
  // One handler per journal prefix ('' for a journal at a root), and one for the site's own pages.
  const handlers = new Map<string, RequestHandler>();
  const handle = (fetchRequest: Request, context: WebContext): Promise<Response> => {
    const key = context.journal ? context.journal.prefix : 'site';
    let handler = handlers.get(key);
    if (!handler) {
      handler = createRequestHandler(
        buildVariant(opts.build, key === 'site' ? 'site' : { basename: key }),
        opts.mode,
      );
      handlers.set(key, handler);
    }
    return handler(fetchRequest, context as never);
  };

  // Fastify's hooks do not run for these hijacked replies: the security headers are added here (decision 0015).
  const headersFor = (request: FastifyRequest, response: Response | null, nonce?: string) =>
    securityHeaders(
      {
        secure: isSecure(services, request),
        credentials: hasCredentials(request.headers),
        accountPage: isAccountPage(request.url),
        page: nonce ? { nonce, mode: opts.mode } : undefined,
      },
      {
        contentType: response?.headers.get('content-type') ?? undefined,
        cacheControl: response?.headers.get('cache-control') ?? undefined,
        hasCsp: Boolean(response?.headers.has('content-security-policy')),
        setsCookie: Boolean(response?.headers.has('set-cookie')),
      },
    );
  const storedHeaders = (answer: StoredAnswer, secure: boolean, credentials: boolean) => () => {
    const own = new Map(answer.headers);
    return securityHeaders(
      { secure, credentials, accountPage: false },
      {
        contentType: own.get('content-type'),
        cacheControl: own.get('cache-control'),
        hasCsp: own.has('content-security-policy'),
        setsCookie: false,
      },
    );
  };
  // Pages are kept in production only (development serves Vite's modules, which change under it).
  const { cache } = services;
  const caching = opts.mode === 'production' && cache.enabled;

  if (opts.clientDir && existsSync(opts.clientDir)) {
    await app.register(fastifyStatic, {
      root: opts.clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (scripts/precompress.ts): sent as they are.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  /**
   * A page kept for readers who are not signed in, answered at once if there is one (true): no promise, no
   * lookup beyond the cache's map, the header lines prepared when it was first sent (decision 0040). A request
   * with a session cookie, or for a page not kept, goes on to `render`.
   */
  const sendKeptPage = (request: FastifyRequest, res: ServerResponse): boolean => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const cookie = request.headers.cookie;
    if (cookie && sessionTokenFromCookieHeader(cookie)) return false;
    // Only an address that is not an account page (nor has a NUL) is ever kept under this key.
    const kept = cache.get(pageCacheKey(cacheSite(request), request.url, null));
    if (!kept) return false;
    cache.stats.hits++;
    const secure = isSecure(services, request);
    const credentials = hasCredentials(request.headers);
    const kind = `${secure ? 's' : '-'}${credentials ? 'c' : '-'}`;
    try {
      const sent = sendStored(request, res, kept, storedHeaders(kept, secure, credentials), kind, cache);
      if (sent) sent.catch((err) => answerFailed(request, res, err));
    } catch (err) {
      answerFailed(request, res, err);
    }
    return true;
  };

  const answerFailed = (request: FastifyRequest, res: ServerResponse, err: unknown) => {
    if (!res.destroyed) request.log.warn({ err }, 'page response interrupted');
    res.destroy();
  };

  const render = async (request: FastifyRequest, reply: FastifyReply) => {
    const res = reply.raw;
    let response: Response;
    // A NUL in the address cannot be anything a page reads (nor stored): refuse it before any loader runs.
    if (/%00|\0/i.test(request.raw.url ?? '')) {
      const refused = badAddress();
      await sendResponse(request, res, refused, headersFor(request, refused), request.id);
      return;
    }
    // A render stops when the client goes away.
    const controller = new AbortController();
    const abandon = () => {
      if (!res.writableFinished) controller.abort();
    };
    let nonce: string | undefined;
    try {
      const auth = await pageAuth(services, request);
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (caching && read && !isAccountPage(request.url)) {
        const key = pageCacheKey(cacheSite(request), request.url, auth);
        const secure = isSecure(services, request);
        const credentials = hasCredentials(request.headers);
        const kind = `${secure ? 's' : '-'}${credentials ? 'c' : '-'}`;
        // Kept: sent at once, nothing rendered.
        const kept = cache.get(key);
        if (kept) {
          cache.stats.hits++;
          await sendStored(request, res, kept, storedHeaders(kept, secure, credentials), kind, cache);
          return;
        }
        res.once('close', abandon);
        const context = await webContext(services, request, auth);
        nonce = context.nonce;
        // A HEAD is answered from the GET's page; the page is rendered whole, then kept compressed.
        const served = await cache.serve<Response>(key, async () => {
          const fresh = unavailable(
            await handle(toFetchRequest(request, controller.signal, 'GET'), context),
            context,
          );
          if (!keepable(fresh)) return { pass: fresh };
          const body = Buffer.from(await fresh.arrayBuffer());
          return { keep: { status: fresh.status, headers: keptHeaders(fresh, body, opts.mode), body } };
        });
        if ('answer' in served) {
          await sendStored(
            request,
            res,
            served.answer,
            storedHeaders(served.answer, secure, credentials),
            kind,
            cache,
          );
          return;
        }
        response = served.pass;
      } else {
        res.once('close', abandon);
        const context = await webContext(services, request, auth);
        nonce = context.nonce;
        response = unavailable(await handle(toFetchRequest(request, controller.signal), context), context);
      }
    } catch (err) {
      // The database briefly unavailable (a restart, a fail-over, a full disk): 503 and Retry-After, as the API.
      const down = isDatabaseUnavailable(err);
      request.log.error({ err }, down ? 'database unavailable' : 'page request failed');
      response = down
        ? new Response('The service is briefly unavailable; please try again in a minute.', {
            status: 503,
            headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30' },
          })
        : new Response('Something went wrong on our side. Please try again later.', {
            status: 500,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
          });
    }
    try {
      await sendResponse(request, res, response, headersFor(request, response, nonce), request.id);
    } catch (err) {
      answerFailed(request, res, err);
    }
  };

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Leave every body unread: page actions read the raw request themselves.
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    const handOver = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      if (opts.devMiddleware) {
        // Development: what Vite serves itself (modules, HMR client) gets the headers of a static file; a
        // request Vite passes on gets its own from render (set again there, so none are left on `raw`).
        const assetHeaders = { 'x-request-id': request.id, ...headersFor(request, null) };
        for (const [key, value] of Object.entries(assetHeaders)) reply.raw.setHeader(key, value);
        opts.devMiddleware(request.raw, reply.raw, () => {
          for (const key of Object.keys(assetHeaders)) reply.raw.removeHeader(key);
          void render(request, reply);
        });
      } else if (!(caching && sendKeptPage(request, reply.raw))) void render(request, reply);
    };
    scope.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: handOver });
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: handOver });
    if (opts.extra) await opts.extra(scope, handOver);
  });
}
