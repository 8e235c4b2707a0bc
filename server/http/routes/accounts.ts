import { z } from 'zod';
import {
  loginResponse,
  meResponse,
  messageResponse,
  pendingUserResponse,
  userResponse,
} from '../../../common/api.ts';
import { MEMBERSHIP_MESSAGES, joinSchema, siteSuspensionSchema } from '../../../common/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ROLES, STATUSES } from '../../../common/roles.ts';
import { countField, idParamSchema, loginSchema, registerSchema } from '../../../common/schemas.ts';
import { clearSessionCookie, sessionCookie } from '../../accounts/cookie.ts';
import { registrationNotice } from '../../accounts/notices.ts';
import type { SessionUser } from '../../accounts/service.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { isSecure, requestMeta } from '../context.ts';
import { myAccountRoutes } from './my-account.ts';

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
};

export function accountRoutes(api: Api, services: Services) {
  const { accounts } = services;

  api.route({
    method: 'POST',
    path: '/api/auth/register',
    tag: 'Accounts',
    summary: 'Register a researcher or author account (pending until the editorial board approves it)',
    auth: 'none',
    body: registerSchema,
    responses: {
      201: { description: 'Registered; the message is the approval notice', schema: messageResponse },
      400: errors[400],
      409: { description: 'Username or e-mail already registered', schema: messageResponse },
      429: { description: 'Too many registrations from this address', schema: messageResponse },
    },
    handler: async ({ body, request, reply }) => {
      await accounts.register(body, requestMeta(request));
      reply.code(201);
      return { message: registrationNotice(body.role) };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/auth/login',
    tag: 'Accounts',
    summary: 'Sign in: returns a signed token and also sets it as an httpOnly session cookie',
    auth: 'none',
    body: loginSchema,
    responses: {
      200: { description: 'Signed in', schema: loginResponse },
      400: errors[400],
      401: { description: MESSAGES.invalidLogin, schema: messageResponse },
      403: { description: 'Account suspended', schema: messageResponse },
      429: { description: 'Too many attempts', schema: messageResponse },
    },
    handler: async ({ body, request, reply }) => {
      const session = await accounts.login(body, requestMeta(request));
      reply.header(
        'set-cookie',
        sessionCookie(session.token, session.expiresAt, isSecure(services, request)),
      );
      return { token: session.token, ...(session.message ? { message: session.message } : {}) };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/auth/logout',
    tag: 'Accounts',
    summary: 'Sign out: the session (cookie or bearer token) is revoked on the server at once',
    auth: 'optional',
    responses: { 200: { description: 'Signed out', schema: messageResponse } },
    handler: async ({ auth, request, reply }) => {
      if (auth) await accounts.logout(auth.sessionId);
      reply.header('set-cookie', clearSessionCookie(isSecure(services, request)));
      return { message: 'You have been logged out.' };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/auth/me',
    tag: 'Accounts',
    summary: "The signed-in account's current role, status and session expiry",
    auth: 'signedIn',
    responses: {
      200: { description: 'The account', schema: meResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ auth }) => ({ ...auth!.user, expiresAt: auth!.expiresAt }),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/pending-users',
    tag: 'Editorial',
    summary: 'Accounts waiting for approval, oldest first',
    auth: 'editorial',
    responses: {
      200: { description: 'Pending users', schema: z.array(pendingUserResponse) },
      401: errors[401],
      403: errors[403],
    },
    handler: () => accounts.pendingUsers(),
  });

  const decide = async (actor: SessionUser, id: number, status: 'approved' | 'rejected') => {
    const user = await accounts.decide(actor, id, status);
    return { message: `${user.username} is ${status} and has been notified by e-mail.`, user };
  };
  const decisionResponses = {
    200: {
      description: 'Done; the account holder is e-mailed',
      schema: messageResponse.extend({ user: userResponse }),
    },
    401: errors[401],
    403: errors[403],
    404: { description: 'No such user', schema: messageResponse },
    409: { description: 'The account is not waiting for approval', schema: messageResponse },
  };

  api.route({
    method: 'POST',
    path: '/api/editor/approve-user/:id',
    tag: 'Editorial',
    summary: 'Approve a pending account (it may then download articles)',
    auth: 'editorial',
    params: idParamSchema,
    responses: decisionResponses,
    handler: ({ auth, params }) => decide(auth!.user, params.id, 'approved'),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/reject-user/:id',
    tag: 'Editorial',
    summary: 'Reject a pending account',
    auth: 'editorial',
    params: idParamSchema,
    responses: decisionResponses,
    handler: ({ auth, params }) => decide(auth!.user, params.id, 'rejected'),
  });

  api.route({
    method: 'GET',
    path: '/api/admin/users',
    tag: 'Administration',
    summary: 'Search accounts by name, username or e-mail, filtered by role and status',
    auth: 'admin',
    query: z.object({
      q: z.string().trim().max(200).optional(),
      role: z.enum(ROLES).optional(),
      status: z.enum(STATUSES).optional(),
      limit: countField('limit', 1, 200, 50),
      offset: countField('offset', 0, 1_000_000, 0),
    }),
    responses: {
      200: {
        description: 'A page of accounts',
        schema: z.object({ users: z.array(userResponse), total: z.number() }),
      },
      401: errors[401],
      403: errors[403],
    },
    handler: ({ query }) => accounts.listUsers(query),
  });

  api.route({
    method: 'PATCH',
    path: '/api/admin/users/:id',
    tag: 'Administration',
    summary: "Change an account's role (researcher, author, editor, admin) and/or status",
    auth: 'admin',
    params: idParamSchema,
    body: z
      .object({ role: z.enum(ROLES).optional(), status: z.enum(STATUSES).optional() })
      .refine((v) => v.role || v.status, 'Give a role or a status to change.'),
    responses: {
      200: { description: 'The updated account', schema: userResponse },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: { description: 'No such user', schema: messageResponse },
      409: { description: 'Admins cannot demote or suspend themselves', schema: messageResponse },
    },
    handler: ({ auth, params, body }) => accounts.update(auth!.user, params.id, body),
  });

  api.route({
    method: 'POST',
    path: '/api/auth/join',
    tag: 'Accounts',
    summary:
      "Ask to join this journal as a researcher or author (the site's account, signed in): pending until its editors approve",
    auth: 'signedIn',
    body: joinSchema,
    responses: {
      201: {
        description: 'Asked; the message says what happens next',
        schema: messageResponse.extend({ user: userResponse }),
      },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      409: { description: 'Already a member of this journal', schema: messageResponse },
    },
    handler: async ({ auth, body, reply }) => {
      const user = await accounts.join(auth!.user, body.role);
      reply.code(201);
      return { message: MEMBERSHIP_MESSAGES.joined, user };
    },
  });

  api.route({
    method: 'PATCH',
    path: '/api/site/users/:id',
    tag: 'Administration',
    summary:
      'The site admin suspends an account everywhere on the site, or lifts it (no journal role needed)',
    auth: 'signedIn',
    params: idParamSchema,
    body: siteSuspensionSchema,
    responses: {
      200: {
        description: 'Done',
        schema: z.object({ id: z.number(), username: z.string(), suspended: z.boolean() }),
      },
      400: errors[400],
      401: errors[401],
      403: { description: 'Not the site admin', schema: messageResponse },
      404: { description: 'No such account', schema: messageResponse },
      409: { description: 'The site admin cannot suspend their own account', schema: messageResponse },
    },
    handler: ({ auth, params, body }) => accounts.setSuspended(auth!.user, params.id, body.suspended),
  });

  myAccountRoutes(api, services);
}
