import { redirect } from 'react-router';
import { readForm } from '../lib/forms.server.ts';
import { closeSessionHeaders } from '../lib/session.server.ts';
import type { Route } from './+types/logout';

/** Logging out changes state, so it is a POST (the header's Logout button); a visit just goes home. */
export function loader() {
  return redirect('/');
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return redirect('/');
  if (context.auth) await context.services.accounts.logout(context.auth.sessionId);
  return redirect('/', { headers: closeSessionHeaders(context.secure) });
}
