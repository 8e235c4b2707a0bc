import { cacheSite } from './journals.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ZodType, z } from 'zod';
import { PERMISSIONS, type PermissionName, allows } from '../../common/roles.ts';
import { messageResponse } from '../../common/api.ts';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import type { AuthContext } from '../accounts/service.ts';
import { type ResponseCache, type StoredAnswer, etagHeader, matchesEtag } from '../cache/response-cache.ts';
import { negotiateEncoding } from './compression.ts';
import { parseInput } from '../errors.ts';
import { forbidden, unauthorized } from './errors.ts';

export type Auth = PermissionName | 'optional' | 'none';

export interface FileFieldDoc {
  name: string;
  description: string;
  required: boolean;
}

export interface RouteDef<B extends ZodType, Q extends ZodType, P extends ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Full path, Fastify style (`/api/articles/:id`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  /** Messages for refusals where the spec has its own words. */
  authMessages?: { unauthenticated?: string; forbidden?: string };
  body?: B;
  query?: Q;
  params?: P;
  /** Multipart routes: `body` then describes the text fields, this the file fields. */
  multipart?: FileFieldDoc[];
  /** The handler reads and validates the body itself; `body` only documents it. */
  manualBody?: boolean;
  /**
   * `public`: a GET whose answer is the same for everyone (auth `none`) and is made only from services that
   * name what they read: kept compressed with an ETag, dropped when that changes (decision 0018).
   */
  cache?: 'public';
  responses: Record<number, { description: string; schema?: ZodType; binary?: string }>;
  handler: (ctx: {
    request: FastifyRequest;
    reply: FastifyReply;
    auth: AuthContext | null;
    body: z.output<B>;
    query: z.output<Q>;
    params: z.output<P>;
  }) => Promise<unknown>;
}

type AnyRoute = RouteDef<ZodType, ZodType, ZodType>;

/**
 * Registers JSON API routes and keeps their descriptions, so that the OpenAPI document is generated
 * from the same Zod schemas that validate the requests.
 */
export class Api {
  readonly routes: AnyRoute[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly authenticate: (request: FastifyRequest) => Promise<AuthContext | null>,
    /**
     * Tests: every answer is checked against the response its route declares (its status must be declared,
     * and a JSON body must match the declared schema); a mismatch turns the answer into a 500 that says what
     * differs, so the schemas that feed the OpenAPI document cannot drift from what the handlers return.
     */
    private readonly checkResponses = false,
    /** Where `cache: 'public'` answers are kept. */
    private readonly cache?: ResponseCache,
  ) {}

  route<B extends ZodType = ZodType, Q extends ZodType = ZodType, P extends ZodType = ZodType>(
    def: RouteDef<B, Q, P>,
    /** An encapsulated Fastify scope to register in (e.g. one with other body parsers). */
    on: FastifyInstance = this.app,
  ): void {
    if (def.cache && (def.method !== 'GET' || def.auth !== 'none'))
      throw new Error(`${def.method} ${def.path}: only a GET for everyone (auth none) can be kept`);
    def = { ...def, responses: { ...impliedResponses(def as unknown as AnyRoute), ...def.responses } };
    this.routes.push(def as unknown as AnyRoute);
    const url = def.path;
    on.route({
      method: def.method,
      url,
      ...(this.checkResponses ? { onSend: responseChecker(def) } : {}),
      handler: async (request, reply) => {
        const auth = def.auth === 'none' ? null : await this.authenticate(request);
        if (def.auth !== 'none' && def.auth !== 'optional') {
          if (!auth) throw unauthorized(def.authMessages?.unauthenticated);
          if (!allows(PERMISSIONS[def.auth], auth.user)) throw forbidden(def.authMessages?.forbidden);
        }
        const parse = <T extends ZodType>(schema: T | undefined, value: unknown): z.output<T> =>
          schema ? parseInput(schema, value ?? {}) : (undefined as z.output<T>);
        const params = parse(def.params, request.params);
        const query = parse(def.query, request.query);
        const body = def.multipart || def.manualBody ? undefined : parse(def.body, request.body);
        const run = () => def.handler({ request, reply, auth, body: body as never, query, params });
        if (def.cache && this.cache?.enabled) {
          const served = await this.cache.serve(`api ${cacheSite(request)} ${request.url}`, async () => {
            const result = await run();
            if (reply.sent || reply.statusCode !== 200) return { pass: result };
            const json = Buffer.from(JSON.stringify(result));
            return {
              keep: {
                status: 200,
                headers: [['content-type', 'application/json; charset=utf-8']],
                body: json,
              },
            };
          });
          if ('answer' in served) return sendKept(request, reply, served.answer, this.cache);
          if (reply.sent) return reply;
          return served.pass;
        }
        const result = await run();
        if (reply.sent) return reply;
        return result;
      },
    });
  }

  openApi(info: { title: string; version: string; description: string; serverUrl: string }) {
    const toSchema = (schema: ZodType, io: 'input' | 'output') =>
      z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const openPath = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const parameters: unknown[] = [];
      for (const [where, schema] of [
        ['path', r.params],
        ['query', r.query],
      ] as const) {
        if (!schema) continue;
        const js = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
        for (const [name, prop] of Object.entries(js.properties ?? {})) {
          parameters.push({
            name,
            in: where,
            required: where === 'path' || (js.required ?? []).includes(name),
            schema: prop,
          });
        }
      }
      let requestBody: unknown;
      if (r.multipart) {
        const js = (r.body ? toSchema(r.body, 'input') : { type: 'object', properties: {} }) as {
          properties: Record<string, unknown>;
          required?: string[];
        };
        for (const f of r.multipart) {
          js.properties[f.name] = { type: 'string', format: 'binary', description: f.description };
          if (f.required) js.required = [...(js.required ?? []), f.name];
        }
        requestBody = { required: true, content: { 'multipart/form-data': { schema: js } } };
      } else if (r.body) {
        requestBody = {
          required: true,
          content: { 'application/json': { schema: toSchema(r.body, 'input') } },
        };
      }
      const responses: Record<string, unknown> = {};
      for (const [status, res] of Object.entries(r.responses)) {
        responses[status] = {
          description: res.description,
          ...(res.schema
            ? { content: { 'application/json': { schema: toSchema(res.schema, 'output') } } }
            : res.binary
              ? { content: { [res.binary]: { schema: { type: 'string', format: 'binary' } } } }
              : {}),
        };
      }
      const security =
        r.auth === 'none'
          ? []
          : r.auth === 'optional'
            ? [{}, { bearer: [] }, { cookie: [] }]
            : [{ bearer: [] }, { cookie: [] }];
      paths[openPath] ??= {};
      paths[openPath][r.method.toLowerCase()] = {
        summary: r.summary,
        ...(r.description ? { description: r.description } : {}),
        tags: [r.tag],
        operationId: `${r.method.toLowerCase()}${openPath.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string) => (c ?? '').toUpperCase())}`,
        ...(parameters.length ? { parameters } : {}),
        ...(requestBody ? { requestBody } : {}),
        responses,
        security,
        ...(r.auth !== 'none' && r.auth !== 'optional'
          ? { 'x-permission': { name: r.auth, ...PERMISSIONS[r.auth] } }
          : {}),
      };
    }
    return {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.serverUrl }],
      paths,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'colophon_session' },
        },
      },
    };
  }
}

/**
 * The refusals every route of a kind can give, whether or not it names them: invalid input (400), not signed
 * in or not allowed (401/403; a cookie-authenticated write from another site is 403 too), a body that is too
 * large or of the wrong type (413/415), a database or file store that cannot take more (503). A route's own entries
 * (with its own words) take precedence.
 */
/** How long browsers and CDNs may reuse a kept public answer (the server drops its copy on a change). */
export const PUBLIC_ANSWER_CACHE = 'public, max-age=60, stale-while-revalidate=600';

/** A kept answer: 304 when `If-None-Match` names it, else its bytes in the best encoding the client takes. */
async function sendKept(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: StoredAnswer,
  cache: ResponseCache,
) {
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  for (const [key, value] of answer.headers) reply.header(key, value);
  reply.header('cache-control', PUBLIC_ANSWER_CACHE);
  reply.header('vary', 'Accept-Encoding');
  reply.header('etag', etagHeader(answer.etag, encoding));
  if (matchesEtag(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(answer.status).send(await cache.bodyOf(answer, encoding));
}

function impliedResponses(def: AnyRoute): AnyRoute['responses'] {
  const refusal = (description: string) => ({ description, schema: messageResponse });
  const implied: AnyRoute['responses'] = {};
  if (def.cache)
    implied[304] = { description: "Not modified: the ETag sent in If-None-Match is still this answer's" };
  const takesBody = def.method !== 'GET' && def.method !== 'DELETE';
  if (def.params || def.query || takesBody) {
    implied[400] = refusal("Invalid input: the first problem, and each field's message in `errors`");
  }
  if (def.auth !== 'none') {
    if (def.auth !== 'optional') implied[401] = refusal('Not signed in');
    if (def.auth !== 'optional' || takesBody) implied[403] = refusal('Not allowed (or a cross-site request)');
  }
  // Any body is read (and refused when it is not what the route takes), even on routes that need none.
  if (takesBody) {
    implied[413] = refusal('The request body is too large');
    implied[415] = refusal(def.multipart ? 'Not sent as multipart/form-data' : 'Not sent as JSON');
  }
  // Any route may meet a database out of space or connections (server/app.ts); uploads a full file store too.
  implied[503] = refusal(
    def.multipart
      ? 'The server could not store the file, or the database is briefly unavailable: try again later'
      : 'The database is briefly unavailable: try again in a minute (Retry-After)',
  );
  return implied;
}

/** The `onSend` hook that holds a route's answers to what it declares (see `checkResponses`). */
function responseChecker(def: AnyRoute) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const status = reply.statusCode;
    const declared = def.responses[status];
    const where = `${def.method} ${def.path} answered ${status}`;
    let problem: string | null = null;
    if (!declared) {
      problem = `${where}, which the route does not declare (declared: ${Object.keys(def.responses).join(', ')})`;
    } else if (declared.schema) {
      const type = String(reply.getHeader('content-type') ?? '');
      if (!type.includes('json')) problem = `${where} with ${type || 'no content type'}, not JSON`;
      else {
        const encoding = String(reply.getHeader('content-encoding') ?? '');
        const bytes =
          typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
        const plain =
          bytes && encoding === 'br'
            ? brotliDecompressSync(bytes)
            : bytes && encoding === 'gzip'
              ? gunzipSync(bytes)
              : bytes;
        const text = plain ? plain.toString('utf8') : null;
        if (text !== null) {
          const result = declared.schema.safeParse(JSON.parse(text));
          if (!result.success) {
            problem = `${where} with a body that does not match its schema: ${result.error.issues
              .slice(0, 5)
              .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
              .join('; ')}`;
          }
        }
      }
    }
    if (!problem) return payload;
    request.log.error({ problem }, 'response does not match its declaration');
    reply.code(500).header('content-type', 'application/json; charset=utf-8').removeHeader('content-length');
    return JSON.stringify({ message: `Response check failed: ${problem}` });
  };
}
