import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ZodType, z } from 'zod';
import { PERMISSIONS, type PermissionName, allows } from '../../common/roles.ts';
import type { AuthContext } from '../accounts/service.ts';
import { forbidden, parseInput, unauthorized } from './errors.ts';

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
  ) {}

  route<B extends ZodType = ZodType, Q extends ZodType = ZodType, P extends ZodType = ZodType>(
    def: RouteDef<B, Q, P>,
    /** An encapsulated Fastify scope to register in (e.g. one with other body parsers). */
    on: FastifyInstance = this.app,
  ): void {
    this.routes.push(def as unknown as AnyRoute);
    const url = def.path;
    on.route({
      method: def.method,
      url,
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
        const result = await def.handler({
          request,
          reply,
          auth,
          body: body as never,
          query,
          params,
        });
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
        requestBody = { required: true, content: { 'application/json': { schema: toSchema(r.body, 'input') } } };
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
        r.auth === 'none' ? [] : r.auth === 'optional' ? [{}, { bearer: [] }, { cookie: [] }] : [{ bearer: [] }, { cookie: [] }];
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
