import { messageResponse, subscriptionResponse } from '../../common/api.ts';
import type { Api } from '../http/api.ts';
import type { Services } from '../services.ts';

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
      200: { description: 'Subscribed', schema: subscriptionResponse.extend({ message: messageResponse.shape.message }) },
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
      200: { description: 'Unsubscribed', schema: subscriptionResponse.extend({ message: messageResponse.shape.message }) },
      ...refusals,
    },
    handler: async ({ auth }) => {
      await subscriptions.unsubscribe(auth!.user.id);
      return { isSubscribed: false, message: 'You will no longer receive new-issue alerts.' };
    },
  });
}
