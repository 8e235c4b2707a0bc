import { type AppLoadContext, data, redirect } from 'react-router';
import type { AuthContext } from '../../../server/accounts/service.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { can } from '../../../common/roles.ts';

/**
 * The dashboard's guard, run by every dashboard loader and action: signed-out visitors go to the login page
 * (and back here afterwards); anyone else but an approved editor or an admin gets `Unauthorized Access` (403).
 */
export function requireEditor(
  context: AppLoadContext,
  request: Request,
  permission: 'editorial' | 'admin' = 'editorial',
): AuthContext {
  const auth = context.auth;
  if (!auth) {
    const url = new URL(request.url);
    throw redirect(`/login?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`);
  }
  // A write that may come from another site never gets here signed in: the load context treats it as signed
  // out (server/http/auth.ts isCrossSiteWrite), and the form reader refuses it too.
  if (!can(permission, auth.user)) throw data(MESSAGES.unauthorizedAccess, { status: 403 });
  return auth;
}

/** Reads `?page=` (1-based) into a limit/offset pair. */
export function pageOf(url: URL, size: number) {
  const raw = Number(url.searchParams.get('page') ?? '1');
  const page = Number.isInteger(raw) && raw >= 1 && raw <= 100_000 ? raw : 1;
  return { page, limit: size, offset: (page - 1) * size };
}
