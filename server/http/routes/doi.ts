import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  doiDepositInput,
  doiListQuery,
  doiRowResponse,
  doiSettingsInputSchema,
  doiSettingsResponse,
} from '../../../common/doi.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'No such article', schema: messageResponse },
  409: {
    description: 'Nothing can be deposited (no ISSN, no credentials, no article published with a DOI)',
    schema: messageResponse,
  },
};

/**
 * DOI registration (decision 0064): each article's DOI state, deposits and redeposits by hand (one or many),
 * and the journal's DOI settings, whose Crossref password and DOAJ key are written, never read back.
 */
export function doiRoutes(api: Api, services: Services) {
  const { doi } = services;
  api.route({
    method: 'GET',
    path: '/api/editor/dois',
    tag: 'Editorial',
    summary:
      "Every article's DOI and where it stands with Crossref and DOAJ, optionally only those in one state",
    auth: 'editorial',
    query: doiListQuery,
    responses: {
      200: { description: 'The articles', schema: z.object({ articles: z.array(doiRowResponse) }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ query }) => ({ articles: await doi.list(query.state) }),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/dois/:id',
    tag: 'Editorial',
    summary: "One article's DOI state",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The article', schema: z.object({ article: doiRowResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
    },
    handler: async ({ params }) => ({ article: await doi.ofArticle(params.id) }),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/dois/deposit',
    tag: 'Editorial',
    summary:
      'Deposit (or redeposit) the chosen articles with Crossref (and DOAJ when it is on): queued, sent by a job',
    auth: 'editorial',
    body: doiDepositInput,
    responses: {
      202: {
        description: 'Queued; the articles that could not be, with why',
        schema: messageResponse.extend({
          queued: z.array(z.number()),
          skipped: z.array(z.object({ articleId: z.number(), reason: z.string() })),
        }),
      },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      409: errors[409],
    },
    handler: async ({ auth, body, reply }) => {
      const result = await doi.depositMany(auth!.user, body.article_ids);
      reply.status(202);
      const n = result.queued.length;
      return { message: `${n} ${n === 1 ? 'DOI is' : 'DOIs are'} queued for deposit.`, ...result };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/admin/doi-settings',
    tag: 'Administration',
    summary:
      "The journal's DOI settings (whether a Crossref password and a DOAJ key are set, never what they are)",
    auth: 'editorial',
    responses: {
      200: { description: 'The settings', schema: z.object({ settings: doiSettingsResponse }) },
      401: errors[401],
      403: errors[403],
    },
    handler: async () => ({ settings: await doi.settingsView() }),
  });

  api.route({
    method: 'PUT',
    path: '/api/admin/doi-settings',
    tag: 'Administration',
    summary:
      "Set the journal's DOI pattern, Crossref account and service (test or production), automatic deposit, and DOAJ",
    auth: 'admin',
    body: doiSettingsInputSchema,
    responses: {
      200: { description: 'Saved', schema: messageResponse.extend({ settings: doiSettingsResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ auth, body }) => ({
      message: 'The DOI settings are saved.',
      settings: await doi.saveSettings(auth!.user, body),
    }),
  });
}
