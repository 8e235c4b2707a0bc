import { type AppLoadContext, data, redirect } from 'react-router';
import { MESSAGES } from '../../../common/messages.ts';
import { can } from '../../../common/roles.ts';
import type { AuthContext } from '../../../server/accounts/service.ts';

/**
 * The site admin's pages' guard (decision 0055), run by every loader and action: signed-out visitors go to the
 * login page (and back here afterwards); anyone but a site admin (`users.site_admin`, read from the account's
 * row: a session carries a journal's role, not the site's) gets `Unauthorized Access` (403).
 */
export async function requireSiteAdmin(context: AppLoadContext, request: Request): Promise<AuthContext> {
  const auth = context.auth;
  if (!auth) {
    const url = new URL(request.url);
    throw redirect(`/login?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`);
  }
  const siteAdmin = await context.services.journalAdmin.isSiteAdmin(auth.user.id);
  if (!can('siteAdmin', { ...auth.user, siteAdmin }))
    throw data(MESSAGES.unauthorizedAccess, { status: 403 });
  return auth;
}
