import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  createJournalSchema,
  journalStatusSchema,
  journalSummaryResponse,
  moveJournalSchema,
} from '../../../common/journals.ts';
import { can } from '../../../common/roles.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import type { AuthContext } from '../../accounts/service.ts';
import { forbidden } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const NOT_SITE_ADMIN = 'Only a site admin manages the site’s journals.';

/**
 * The site admin's journals (decision 0055): list, create, state, move. Signed in is checked by the registry;
 * being the site's admin (`users.site_admin`, the `siteAdmin` permission) here, from the account's row, since
 * a session carries a journal's role, not the site's.
 */
export function journalAdminRoutes(api: Api, services: Services) {
  const admin = services.journalAdmin;
  const requireSiteAdmin = async (auth: AuthContext | null) => {
    const siteAdmin = auth ? await admin.isSiteAdmin(auth.user.id) : false;
    if (!auth || !can('siteAdmin', { ...auth.user, siteAdmin })) throw forbidden(NOT_SITE_ADMIN);
  };
  const refusals = {
    401: { description: 'Not signed in', schema: messageResponse },
    403: { description: 'Not a site admin', schema: messageResponse },
  };
  const journalAnswer = messageResponse.extend({ journal: journalSummaryResponse });

  api.route({
    method: 'GET',
    path: '/api/admin/journals',
    tag: 'Site',
    summary: 'Every journal of the site: address, state, old addresses, articles and submissions',
    description: 'For site admins only.',
    auth: 'signedIn',
    responses: {
      200: {
        description: 'The journals, oldest first',
        schema: z.object({ journals: z.array(journalSummaryResponse) }),
      },
      ...refusals,
    },
    handler: async ({ auth }) => {
      await requireSiteAdmin(auth);
      return { journals: await admin.list() };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/admin/journals',
    tag: 'Site',
    summary: 'Make a journal at a path or a domain, with its first editor (an existing account)',
    description:
      'For site admins only. The journal gets the settings and pages a new installation has, named by its title, and no articles.',
    auth: 'signedIn',
    body: createJournalSchema,
    responses: {
      201: { description: 'Made', schema: journalAnswer },
      400: {
        description: 'A field is missing or malformed, a reserved path, or no such account',
        schema: messageResponse,
      },
      ...refusals,
      409: { description: 'The address is, or was, another journal’s', schema: messageResponse },
    },
    handler: async ({ auth, body, reply }) => {
      await requireSiteAdmin(auth);
      const journal = await admin.create(body, auth!.user);
      reply.code(201);
      return { message: `The journal “${journal.title}” answers at ${journal.url}.`, journal };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/admin/journals/:id/status',
    tag: 'Site',
    summary: 'Open, close (reading only) or archive (hidden from the site’s home) a journal',
    description: 'For site admins only.',
    auth: 'signedIn',
    params: idParamSchema,
    body: journalStatusSchema,
    responses: {
      200: { description: 'Done', schema: journalAnswer },
      ...refusals,
      404: { description: 'No such journal', schema: messageResponse },
    },
    handler: async ({ auth, params, body }) => {
      await requireSiteAdmin(auth);
      const journal = await admin.setStatus(params.id, body, auth!.user);
      return { message: `The journal “${journal.title}” is ${journal.status}.`, journal };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/admin/journals/:id/move',
    tag: 'Site',
    summary: 'Move a journal to another path or domain; its old address answers a 301 to the new one',
    description: 'For site admins only. Send `path` or `domain`.',
    auth: 'signedIn',
    params: idParamSchema,
    body: moveJournalSchema,
    responses: {
      200: { description: 'Moved', schema: journalAnswer },
      ...refusals,
      404: { description: 'No such journal', schema: messageResponse },
      409: { description: 'The address is, or was, another journal’s', schema: messageResponse },
    },
    handler: async ({ auth, params, body }) => {
      await requireSiteAdmin(auth);
      const journal =
        body.path !== undefined
          ? await admin.moveToPath(params.id, body.path, auth!.user)
          : await admin.moveToDomain(params.id, body.domain!, auth!.user);
      return { message: `The journal “${journal.title}” answers at ${journal.url}.`, journal };
    },
  });
}
