import { z } from 'zod';
import { auditEntryResponse, messageResponse } from '../../../common/api.ts';
import { countField } from '../../../common/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

export function auditRoutes(api: Api, services: Services) {
  api.route({
    method: 'GET',
    path: '/api/editor/audit',
    tag: 'Editorial',
    summary: 'The audit log of privileged actions (who, what, when), newest first',
    auth: 'editorial',
    query: z.object({
      limit: countField('limit', 1, 200, 50),
      offset: countField('offset', 0, 10_000_000, 0),
    }),
    responses: {
      200: {
        description: 'Entries',
        schema: z.object({ entries: z.array(auditEntryResponse), total: z.number() }),
      },
      400: { description: 'Invalid paging', schema: messageResponse },
      401: { description: 'Not signed in', schema: messageResponse },
      403: { description: 'Not an editor', schema: messageResponse },
    },
    handler: ({ query }) => services.audit.page(query.limit, query.offset),
  });
}
