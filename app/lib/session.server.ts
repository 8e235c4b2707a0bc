import { clearSessionCookie, sessionCookie } from '../../server/accounts/cookie.ts';

/** The Set-Cookie header that opens a browser session; the token lives only in this httpOnly cookie. */
export function openSessionHeaders(session: { token: string; expiresAt: number }, secure: boolean): Headers {
  return new Headers({ 'Set-Cookie': sessionCookie(session.token, session.expiresAt, secure) });
}

export function closeSessionHeaders(secure: boolean): Headers {
  return new Headers({ 'Set-Cookie': clearSessionCookie(secure) });
}

/**
 * A form post whose Origin is another site. SameSite=Lax keeps the session cookie off such posts, but a
 * foreign page could still sign a visitor into an account of its choosing, or out of theirs: refuse both.
 */
export function isCrossSite(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (!origin || origin === 'null') return false;
  const host = request.headers.get('host');
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}
