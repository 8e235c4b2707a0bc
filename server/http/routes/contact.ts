import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { contactMessageResponse, messageResponse } from '../../../common/api.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { contactSchema, countField, idParamSchema } from '../../../common/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { parseInput } from '../../errors.ts';
import { badRequest } from '../errors.ts';

/**
 * POST /contact sits at the site's origin (not under /api), where the contact page also posts its form.
 * JSON bodies are the API; anything else is the page's form, handed to React Router.
 */
export async function contactRoute(
  api: Api,
  services: Services,
  scope: FastifyInstance,
  handOver: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  await scope.register(async (jsonScope) => {
    jsonScope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, text, done) => {
        try {
          done(null, { json: JSON.parse(text as string) });
        } catch {
          done(badRequest('The request body is not valid JSON.'), undefined);
        }
      },
    );
    api.route(
      {
        method: 'POST',
        path: '/contact',
        tag: 'Contact',
        summary: 'Send a message to the editorial office (stored, and e-mailed to the editorial address)',
        description:
          'Also accepts the contact page form (application/x-www-form-urlencoded), which answers with the page.',
        auth: 'none',
        body: contactSchema,
        manualBody: true,
        responses: {
          200: { description: MESSAGES.contactSuccess, schema: messageResponse },
          400: { description: 'Missing or invalid field', schema: messageResponse },
          429: { description: 'Too many messages from this address', schema: messageResponse },
        },
        handler: async ({ request, reply }) => {
          const body = request.body as { json: unknown } | undefined;
          if (!body || typeof body !== 'object' || !('json' in body)) {
            handOver(request, reply);
            return reply;
          }
          const parsed = parseInput(contactSchema, body.json ?? {});
          await services.contact.send(parsed, { ip: request.ip });
          return { message: MESSAGES.contactSuccess };
        },
      },
      jsonScope,
    );
  });
}

const refusals = {
  401: { description: 'Not signed in', schema: messageResponse },
  403: { description: 'Not an editor', schema: messageResponse },
};

/** The editorial office's inbox of contact messages. */
export function contactInboxRoutes(api: Api, services: Services) {
  api.route({
    method: 'GET',
    path: '/api/editor/messages',
    tag: 'Editorial',
    summary: 'Contact-form messages, newest first; filter by handled or not',
    auth: 'editorial',
    query: z.object({
      handled: z
        .enum(['true', 'false'])
        .transform((v) => v === 'true')
        .optional(),
      limit: countField('limit', 1, 200, 50),
      offset: countField('offset', 0, 10_000_000, 0),
    }),
    responses: {
      200: {
        description: 'Messages',
        schema: z.object({ messages: z.array(contactMessageResponse), total: z.number() }),
      },
      400: { description: 'Invalid filter', schema: messageResponse },
      ...refusals,
    },
    handler: ({ query }) => services.contact.list(query),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/messages/:id/handled',
    tag: 'Editorial',
    summary: 'Mark a contact message as handled (or, with {"handled": false}, as not handled)',
    auth: 'editorial',
    params: idParamSchema,
    body: z.object({ handled: z.boolean().default(true) }).default({ handled: true }),
    responses: {
      200: { description: 'Done', schema: z.object({ id: z.number(), handledAt: z.string().nullable() }) },
      400: { description: 'Invalid input', schema: messageResponse },
      ...refusals,
      404: { description: 'No such message', schema: messageResponse },
    },
    handler: ({ auth, params, body }) => services.contact.setHandled(auth!.user, params.id, body.handled),
  });
}
