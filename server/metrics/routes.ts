import { z } from 'zod';
import { messageResponse } from '../../common/api.ts';
import { idParamSchema } from '../../common/schemas.ts';
import type { Api } from '../http/api.ts';
import type { Services } from '../services.ts';

const totals = z.object({
  views: z.number().int().describe('Article page views'),
  downloads: z.number().int().describe('PDF downloads'),
});

export const articleMetricsResponse = z.object({
  articleId: z.number().int(),
  totals,
  months: z.array(totals.extend({ month: z.string().describe('YYYY-MM (UTC)') })),
});

/** The public usage counts of a published article. */
export function metricsRoutes(api: Api, services: Services) {
  const { catalog, metrics } = services;

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
