import { z } from 'zod';
import { messageResponse, subscriptionResponse } from '../../../common/api.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import { alertStartedMessage } from '../../../common/subscriptions.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const refusals = {
  401: { description: 'Not signed in', schema: messageResponse },
  403: { description: 'Account suspended or rejected', schema: messageResponse },
};

export function subscriptionRoutes(api: Api, services: Services) {
  const { subscriptions } = services;

  api.route({
    method: 'GET',
    path: '/api/user/subscription',
    tag: 'Subscriptions',
    summary: 'Whether the signed-in account receives new-issue e-mail alerts',
    auth: 'signedIn',
    responses: { 200: { description: 'Status', schema: subscriptionResponse }, ...refusals },
    handler: async ({ auth }) => ({ isSubscribed: await subscriptions.isSubscribed(auth!.user.id) }),
  });

  api.route({
    method: 'POST',
    path: '/api/user/subscription',
    tag: 'Subscriptions',
    summary: 'Subscribe to new-issue e-mail alerts (repeating it changes nothing)',
    auth: 'signedIn',
    responses: {
      200: {
        description: 'Subscribed',
        schema: subscriptionResponse.extend({ message: messageResponse.shape.message }),
      },
      ...refusals,
    },
    handler: async ({ auth }) => {
      await subscriptions.subscribe(auth!.user.id);
      return { isSubscribed: true, message: 'You are subscribed to new-issue alerts.' };
    },
  });

  api.route({
    method: 'DELETE',
    path: '/api/user/subscription',
    tag: 'Subscriptions',
    summary: 'Unsubscribe from new-issue e-mail alerts',
    auth: 'signedIn',
    responses: {
      200: {
        description: 'Unsubscribed',
        schema: subscriptionResponse.extend({ message: messageResponse.shape.message }),
      },
      ...refusals,
    },
    handler: async ({ auth }) => {
      await subscriptions.unsubscribe(auth!.user.id);
      return { isSubscribed: false, message: 'You will no longer receive new-issue alerts.' };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/editor/issues/:id/alert',
    tag: 'Editorial',
    summary:
      "E-mail the issue's table of contents to every subscriber with an approved account, once per issue (sent in the background)",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      202: {
        description: 'Recorded; the e-mails are being sent',
        schema: messageResponse.extend({ recipients: z.number() }),
      },
      401: refusals[401],
      403: { description: 'Not an approved editor or an admin', schema: messageResponse },
      404: { description: 'No such issue', schema: messageResponse },
      409: {
        description: 'Already sent for this issue, or the issue has no published articles',
        schema: messageResponse,
      },
    },
    handler: async ({ auth, params, reply }) => {
      const { recipients, label } = await subscriptions.sendIssueAlert(auth!.user, params.id);
      reply.code(202);
      return { message: alertStartedMessage(label, recipients), recipients };
    },
  });
}
