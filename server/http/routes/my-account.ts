import { z } from 'zod';
import {
  emailChangeSchema,
  linkTokenSchema,
  passwordChangeSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  profilePatchSchema,
  RESET_DONE_MESSAGE,
  RESET_REQUESTED_MESSAGE,
  sessionIdParamSchema,
} from '../../../common/account.ts';
import { accountResponse, accountSessionResponse, messageResponse } from '../../../common/api.ts';
import { clearSessionCookie } from '../../accounts/cookie.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { isSecure, requestMeta } from '../context.ts';

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  429: { description: 'Too many attempts: wait for Retry-After seconds', schema: messageResponse },
};

/** Forgotten passwords (no account needed) and the signed-in account's own page. */
export function myAccountRoutes(api: Api, services: Services) {
  const { passwordReset, myAccount } = services;

  api.route({
    method: 'POST',
    path: '/api/auth/password-reset',
    tag: 'Accounts',
    summary:
      'Forgotten password: e-mail a one-hour, single-use link to the account with this username or e-mail',
    description:
      'The answer is the same, and as fast, whether or not an account matches. At most RATE_LIMIT_PASSWORD_RESET requests per address, and three e-mails per account an hour.',
    auth: 'none',
    body: passwordResetRequestSchema,
    responses: {
      202: { description: 'Accepted; the same message whatever was typed', schema: messageResponse },
      400: errors[400],
      429: errors[429],
    },
    handler: async ({ body, request, reply }) => {
      await passwordReset.request(body.identifier, requestMeta(request));
      reply.code(202);
      return { message: RESET_REQUESTED_MESSAGE };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/auth/password-reset/confirm',
    tag: 'Accounts',
    summary: "Set a new password with a reset link's token; every session of the account ends",
    auth: 'none',
    body: passwordResetSchema,
    responses: {
      200: { description: 'Changed: sign in with the new password', schema: messageResponse },
      400: {
        description: 'Invalid password, or the link is unknown, expired or used',
        schema: messageResponse,
      },
    },
    handler: async ({ body }) => {
      await passwordReset.complete(body.token, body.password);
      return { message: RESET_DONE_MESSAGE };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/account',
    tag: 'Accounts',
    summary: "The signed-in account's own details, with a new e-mail address waiting for confirmation",
    auth: 'signedIn',
    responses: {
      200: { description: 'The account', schema: accountResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: ({ auth }) => myAccount.profile(auth!.user.id),
  });

  api.route({
    method: 'PATCH',
    path: '/api/account',
    tag: 'Accounts',
    summary: 'Change your name, institution, contact number or ORCID iD (null or "" removes the ORCID iD)',
    auth: 'signedIn',
    body: profilePatchSchema,
    responses: {
      200: { description: 'The account as changed', schema: accountResponse },
      400: errors[400],
      401: errors[401],
      403: errors[403],
    },
    handler: ({ auth, body }) => myAccount.updateProfile(auth!, body),
  });

  api.route({
    method: 'POST',
    path: '/api/account/password',
    tag: 'Accounts',
    summary: "Change your password (the current one required); the account's other sessions end",
    auth: 'signedIn',
    body: passwordChangeSchema,
    responses: {
      200: {
        description: 'Changed; how many other sessions ended',
        schema: messageResponse.extend({ endedSessions: z.number() }),
      },
      400: { description: 'Invalid input, or the current password is wrong', schema: messageResponse },
      401: errors[401],
      403: errors[403],
      429: errors[429],
    },
    handler: async ({ auth, body, request }) => {
      const { endedSessions } = await myAccount.changePassword(auth!, body, requestMeta(request));
      return { message: 'Your password has been changed.', endedSessions };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/account/email',
    tag: 'Accounts',
    summary:
      'Ask to change your e-mail address: a link goes to the new address; nothing changes until it is opened',
    auth: 'signedIn',
    body: emailChangeSchema,
    responses: {
      202: {
        description: 'The link is sent; the current address is told',
        schema: messageResponse.extend({
          pendingEmail: z.object({ email: z.string(), expiresAt: z.string() }),
        }),
      },
      400: { description: 'Invalid input, or the password is wrong', schema: messageResponse },
      401: errors[401],
      403: errors[403],
      409: { description: 'Another account has that address', schema: messageResponse },
      429: errors[429],
    },
    handler: async ({ auth, body, request, reply }) => {
      const pendingEmail = await myAccount.requestEmailChange(auth!, body, requestMeta(request));
      reply.code(202);
      return {
        message: `We have sent a link to ${pendingEmail.email}. Your address changes when you open it.`,
        pendingEmail,
      };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/account/email/confirm',
    tag: 'Accounts',
    summary: 'Confirm a new e-mail address with the token from the link sent to it (no sign-in needed)',
    auth: 'none',
    body: linkTokenSchema,
    responses: {
      200: { description: 'The account uses the new address; the old one is told', schema: messageResponse },
      400: { description: 'The link is unknown, expired or used', schema: messageResponse },
      409: { description: 'Another account has taken that address meanwhile', schema: messageResponse },
    },
    handler: async ({ body }) => {
      const { email } = await myAccount.confirmEmail(body.token);
      return { message: `Your account's e-mail address is now ${email}.` };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/account/sessions',
    tag: 'Accounts',
    summary: "Your account's open sessions: this one first (`current`), then newest first",
    auth: 'signedIn',
    responses: {
      200: { description: 'Open sessions', schema: z.array(accountSessionResponse) },
      401: errors[401],
      403: errors[403],
    },
    handler: ({ auth }) => myAccount.sessions(auth!),
  });

  api.route({
    method: 'POST',
    path: '/api/account/sessions/end-others',
    tag: 'Accounts',
    summary: 'Sign out everywhere else: every session of your account but this one ends',
    auth: 'signedIn',
    responses: {
      200: { description: 'How many ended', schema: messageResponse.extend({ ended: z.number() }) },
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ auth }) => {
      const ended = await myAccount.endOtherSessions(auth!);
      return { message: ended === 1 ? 'One other session ended.' : `${ended} other sessions ended.`, ended };
    },
  });

  api.route({
    method: 'DELETE',
    path: '/api/account/sessions/:id',
    tag: 'Accounts',
    summary: 'End one of your sessions (your current one signs you out)',
    auth: 'signedIn',
    params: sessionIdParamSchema,
    responses: {
      200: { description: 'Ended', schema: messageResponse },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: { description: 'No such open session of yours', schema: messageResponse },
    },
    handler: async ({ auth, params, request, reply }) => {
      const { current } = await myAccount.endSession(auth!, params.id);
      if (current) reply.header('set-cookie', clearSessionCookie(isSecure(services, request)));
      return { message: current ? 'This session has ended: you are signed out.' : 'The session has ended.' };
    },
  });
}
