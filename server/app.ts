import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { accountRoutes } from './http/routes/accounts.ts';
import { apcRoutes } from './http/routes/apc.ts';
import { auditRoutes } from './http/routes/audit.ts';
import { citationRoutes } from './http/routes/catalog-citations.ts';
import { catalogRoutes } from './http/routes/catalog.ts';
import { contactInboxRoutes, contactRoute } from './http/routes/contact.ts';
import { journalSettingsRoutes } from './http/routes/content.ts';
import { isDatabaseUnavailable } from './db/errors.ts';
import { crawlerRoutes, type DiscoveryOptions, exportRoutes } from './http/routes/discovery.ts';
import { fullTextReaderRoutes, fullTextRoutes } from './http/routes/fulltext.ts';
import { manifestRoutes, preservationRoutes } from './http/routes/preservation.ts';
import { ojsExportRoutes } from './http/routes/ojs-export.ts';
import { importRoutes } from './http/routes/imports.ts';
import { journalAdminRoutes } from './http/routes/journals.ts';
import { Api } from './http/api.ts';
import { requestAuth } from './http/auth.ts';
import { addCompression } from './http/compression.ts';
import { asHttpError } from './http/errors.ts';
import { healthRoutes } from './http/health.ts';
import { openApiRoutes } from './http/openapi.ts';
import { reviewRoutes } from './http/routes/review.ts';
import { addSecurityHeaders } from './http/security-headers.ts';
import { type BuildSource, registerPages } from './http/ssr.ts';
import { metricsRoutes } from './http/routes/metrics.ts';
import { destinationOf, journalRewrite, scopeOf } from './http/journals.ts';
import { requestContext, requestIdOf, requestLogger } from './request-context.ts';
import { legacyLocation } from './ojs/redirects.ts';
import { searchRoutes } from './http/routes/search.ts';
import type { Services } from './services.ts';
import { similarityRoutes } from './http/routes/similarity.ts';
import { doiRoutes } from './http/routes/doi.ts';
import { submissionRoutes } from './http/routes/submissions.ts';
import { subscriptionRoutes } from './http/routes/subscriptions.ts';

export interface PagesOptions {
  build: BuildSource;
  mode: 'production' | 'development';
  clientDir?: string;
  devMiddleware?: Parameters<typeof registerPages>[2]['devMiddleware'];
}

/**
 * The HTTP application: the JSON API under /api, POST /contact, and (unless `pages` is omitted, as in API
 * tests) every page through React Router.
 */
export async function buildApp(
  services: Services,
  opts: {
    pages?: PagesOptions;
    logger?: FastifyBaseLogger;
    discovery?: DiscoveryOptions;
    /** Tests: hold every API answer to its declared status and schema (http/api.ts). */
    checkResponses?: boolean;
  } = {},
) {
  // Which journals there are, and at which addresses, before the first request is routed.
  await services.journals.load();
  // The namespace of the site's OAI-PMH identifiers, for old OJS ones translated (decision 0067).
  const oaiHost = new URL(services.baseUrl).hostname;
  const app: FastifyInstance = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    trustProxy: services.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The request id: a sane incoming X-Request-Id, else a new UUID; in every log line of the request's work.
    genReqId: requestIdOf,
    childLoggerFactory: requestLogger,
    // Which journal a request is for, by its host or path, before routing (decision 0053).
    rewriteUrl: journalRewrite(services.journals),
  });
  // The id goes back in X-Request-Id, and is carried (AsyncLocalStorage) through everything the request does,
  // a body that arrives later included (tests/api/operations.test.ts). The page bridge writes its hijacked
  // answers itself and names the request there (server/http/ssr.ts): nothing is set on the raw answer, whose
  // own headers would make every `writeHead` merge and check each line twice (decision 0040).
  // So is the journal (or the site) it is for: every query of its work sees that journal's data only.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const destination = destinationOf(request);
    if (destination?.kind === 'redirect') {
      // An old address of a journal: the same page at its address now.
      reply.code(301).header('location', destination.location).send();
      return;
    }
    const legacy = destination?.kind === 'journal' ? destination.legacy : undefined;
    if (!legacy || destination?.kind !== 'journal') {
      requestContext.run({ requestId: request.id, scope: scopeOf(request) }, done);
      return;
    }
    // An old OJS address of an imported item (decision 0067): a 301 to its page here, read in the journal's
    // scope; an old id it does not know goes on to the not-found page. A POST (OAI-PMH's) keeps its body: 308.
    const journalId = destination.journal.id;
    requestContext.run({ requestId: request.id, scope: scopeOf(request) }, () => {
      legacyLocation(services.db, journalId, legacy, oaiHost).then((location) => {
        if (location === null) return done();
        const method = request.method;
        const base = services.journals.baseUrl(journalId);
        // A journal's home by path is `/{path}`, at a root `/`.
        const href = location === '/' && new URL(base).pathname !== '/' ? base : base + location;
        reply
          .code(method === 'GET' || method === 'HEAD' ? 301 : 308)
          .header('location', href)
          .send();
      }, done);
    });
  });
  // Before anything else: while the process drains (SIGTERM), new requests are refused and the rest counted.
  services.drain.install(app);
  // First, so that it covers every route, error and 404 registered after it (pages add theirs in ssr.ts).
  addSecurityHeaders(app, services);
  // Text answers go out compressed when the client takes it (pages: in ssr.ts; kept answers: compressed once).
  addCompression(app);
  // Several processes on one PostgreSQL: a change committed through any of them before this request arrived
  // is applied to what this one keeps before anything is read (decision 0031; nothing to do on PGlite). Not
  // for built assets, nor for the health probes (/healthz touches no database: server/http/health.ts).
  // A hook only where there is something to read: on PGlite a request pays nothing for it.
  if (services.changes.shared)
    app.addHook('onRequest', (request, _reply, done) => {
      const url = request.url;
      if (url.startsWith('/assets/') || url.startsWith('/healthz') || url.startsWith('/readyz'))
        return done();
      services.changes.sync().then(() => done(), done);
    });
  app.addHook('onReady', () => services.changes.start());
  app.addHook('onClose', () => services.changes.stop());

  app.setErrorHandler((error: unknown, request, reply) => {
    // A body left unread (an upload refused part-way) is not drained to keep the connection: it closes.
    if (!request.raw.complete) reply.header('connection', 'close');
    const refusal = asHttpError(error);
    if (refusal) {
      if (refusal.headers) reply.headers(refusal.headers);
      return reply
        .code(refusal.status)
        .send({ message: refusal.message, ...(refusal.errors ? { errors: refusal.errors } : {}) });
    }
    const e = error as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      const message =
        e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        error instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request body is too large.'
            : e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Unsupported content type: send JSON (application/json).'
              : (e.message ?? 'Bad request.');
      return reply.code(e.statusCode).send({ message });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is out of space, memory or connections, or not reachable: nobody's mistake, try later.
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '30')
        .send({ message: 'The service is briefly unavailable; please try again in a minute.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again later.' });
  });

  // The API speaks JSON (and multipart for uploads); a text/plain body is refused with 415, not guessed at.
  app.removeContentTypeParser('text/plain');
  // Uploads are left unread here: the route reads them with the one form reader (http/multipart.ts), with
  // its limits, as they stream in.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  const api = new Api(
    app,
    (request) => requestAuth(services.accounts, request),
    opts.checkResponses,
    services.cache,
  );
  accountRoutes(api, services);
  catalogRoutes(api, services);
  fullTextRoutes(api, services);
  searchRoutes(api, services);
  submissionRoutes(api, services);
  apcRoutes(api, services);
  reviewRoutes(api, services);
  subscriptionRoutes(api, services);
  contactInboxRoutes(api, services);
  auditRoutes(api, services);
  exportRoutes(api, services);
  citationRoutes(api, services);
  metricsRoutes(api, services);
  journalSettingsRoutes(api, services);
  journalAdminRoutes(api, services);
  importRoutes(api, services);
  similarityRoutes(api, services);
  preservationRoutes(api, services);
  ojsExportRoutes(api, services);
  doiRoutes(api, services);
  healthRoutes(api, services);
  // The checker's worker threads end with the app (in-flight background jobs finish first).
  app.addHook('onClose', () => services.similarity.close());
  // Usage counts held in memory are written before the database closes.
  app.addHook('onClose', () => services.metrics.settled());

  // Unknown API paths answer JSON, not a page, whatever body they were sent (it is not read).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all('/api/*', async (request, reply) =>
      reply.code(404).send({ message: `No API route ${request.method} ${request.url.split('?')[0]}.` }),
    );
  });

  // OAI-PMH, sitemap, robots.txt and feeds: plain routes, before the pages' catch-all.
  await crawlerRoutes(app, services, opts.discovery);
  // The article's JATS XML and figures beside its page (issue 16).
  fullTextReaderRoutes(app, services);
  // The LOCKSS and CLOCKSS manifest pages (decision 0065).
  manifestRoutes(app, services);

  if (opts.pages) {
    await registerPages(app, services, {
      ...opts.pages,
      extra: (scope, handOver) => contactRoute(api, services, scope, handOver),
    });
  } else {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      await contactRoute(api, services, scope, (_request, reply) => {
        reply.code(415).send({ message: 'Send the contact message as JSON (application/json).' });
      });
    });
  }

  openApiRoutes(app, api, services);
  return app;
}
