import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { fastifyCredentials, isCrossSiteWrite, requestAuth } from '../auth.ts';
import { asHttpError } from '../errors.ts';

const totals = z.object({
  views: z.number().int().describe('Article page views'),
  downloads: z.number().int().describe('PDF downloads'),
});

export const articleMetricsResponse = z.object({
  articleId: z.number().int(),
  totals,
  months: z.array(totals.extend({ month: z.string().describe('YYYY-MM (UTC)') })),
});

/**
 * Whether a request was sent by one of this site's own pages: the browser says so with `Sec-Fetch-Site:
 * same-origin` or an `Origin` of this host. The cross-site rule of cookie-authenticated writes answers it,
 * with a request that carries no such signal at all counted as foreign (a program, not our page).
 */
function fromOwnPage(request: FastifyRequest): boolean {
  return !isCrossSiteWrite(fastifyCredentials(request, false), true);
}

/** The public usage counts of a published article, and the view beacon of the article page. */
export function metricsRoutes(api: Api, services: Services) {
  const { catalog, metrics, accounts } = services;

  api.route({
    method: 'POST',
    path: '/api/articles/:id/views',
    tag: 'Articles',
    summary: 'Count a view of a published article (sent by the article page once per page view)',
    description:
      "The article page sends this request after it has loaded (`navigator.sendBeacon`), so the page itself can be cached. Send no body. A view counts only when the request comes from this site's own page: `Sec-Fetch-Site: same-origin`, or (from browsers that do not send it) an `Origin` of this site. A cross-site request, or one with neither header, is answered 204 all the same and not counted; so are robots (by user agent) and a repeat of the same visitor (session, else address and browser) within 30 seconds, as for `GET /api/articles/{id}/metrics`. Counts are written every few seconds, so they show in the metrics a few seconds later.",
    auth: 'none',
    params: idParamSchema,
    responses: {
      204: { description: 'Received (whether it counted or not)' },
      400: { description: 'Invalid id', schema: messageResponse },
      404: { description: 'No such published article', schema: messageResponse },
    },
    handler: async ({ params, request, reply }) => {
      await catalog.article(params.id);
      if (fromOwnPage(request)) {
        // The visitor is the session when signed in; a stale or refused session counts as signed out.
        const auth = await requestAuth(accounts, request).catch((err: unknown) => {
          if (asHttpError(err)) return null;
          throw err;
        });
        metrics.track('view', params.id, {
          sessionId: auth?.sessionId,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
      }
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  });

  api.route({
    method: 'GET',
    path: '/api/articles/:id/metrics',
    tag: 'Articles',
    summary: "A published article's usage: page views and PDF downloads per month and in all",
    description:
      'Counted as COUNTER does: robots (by user agent) are left out, and so is a second request of the same visitor (session, else address and browser) for the same article within 30 seconds. Months are calendar months in UTC; months without use are not listed.',
    auth: 'none',
    params: idParamSchema,
    responses: {
      200: { description: 'The counts', schema: articleMetricsResponse },
      400: { description: 'Invalid id', schema: messageResponse },
      404: { description: 'No such published article', schema: messageResponse },
    },
    handler: async ({ params, reply }) => {
      await catalog.article(params.id);
      reply.header('cache-control', 'no-cache');
      return metrics.articleMetrics(params.id);
    },
  });
}
