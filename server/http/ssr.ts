import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequestListener } from '@react-router/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerBuild } from 'react-router';
import type { Services } from '../services.ts';
import type { WebContext } from '../web-context.ts';
import { authenticate } from './auth.ts';
import { HttpError } from './errors.ts';

export type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

export const buildDir = path.resolve('build');

export async function loadProductionBuild(dir = buildDir): Promise<ServerBuild> {
  const entry = path.join(dir, 'server', 'index.js');
  if (!existsSync(entry)) {
    throw new Error(`The site is not built (${entry} is missing). Run "npm run build" or "npm start".`);
  }
  return (await import(pathToFileURL(entry).href)) as ServerBuild;
}

/** The load context for one page request: the services and who is signed in. */
export function webContextFactory(services: Services) {
  return async (request: Request, client: { address: string }): Promise<WebContext> => {
    let auth = null;
    try {
      auth = await authenticate(services.accounts, {
        method: request.method,
        authorization: null, // pages use the cookie only
        cookie: request.headers.get('cookie'),
        origin: request.headers.get('origin'),
        host: request.headers.get('host'),
      });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A cross-site write to a page runs as if signed out.
    }
    const forwarded = services.config.TRUST_PROXY ? request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
    const url = new URL(request.url);
    return {
      services,
      auth,
      clientIp: forwarded || client.address,
      userAgent: request.headers.get('user-agent') ?? '',
      secure: url.protocol === 'https:' || Boolean(services.config.PUBLIC_URL?.startsWith('https:')),
    };
  };
}

/**
 * Hosts the React Router request handler for every page, in its own scope: bodies are left unread there,
 * so page actions read them raw. `extra` registers routes that share this scope (e.g. POST /contact, which
 * serves both the JSON API and the page's form).
 */
export async function registerPages(
  app: FastifyInstance,
  services: Services,
  opts: {
    build: BuildSource;
    mode: 'production' | 'development';
    clientDir?: string;
    /** Development: Vite's middleware runs first (assets, HMR). */
    devMiddleware?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void;
    extra?: (scope: FastifyInstance, handOver: (request: FastifyRequest, reply: FastifyReply) => void) => Promise<void>;
  },
) {
  const listener = createRequestListener({
    build: opts.build,
    mode: opts.mode,
    getLoadContext: webContextFactory(services) as never,
  });

  if (opts.clientDir && existsSync(opts.clientDir)) {
    await app.register(fastifyStatic, {
      root: opts.clientDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Leave every body unread: React Router's actions read the raw request themselves.
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    const handOver = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      if (opts.devMiddleware) {
        opts.devMiddleware(request.raw, reply.raw, () => listener(request.raw, reply.raw));
      } else {
        listener(request.raw, reply.raw);
      }
    };
    scope.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: handOver });
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: handOver });
    if (opts.extra) await opts.extra(scope, handOver);
  });
}
