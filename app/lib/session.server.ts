import {
  clearSessionCookie,
  sessionCookie,
  sessionTokenFromCookieHeader,
} from '../../server/accounts/cookie.ts';
import { credentialSource, isCrossSiteWrite } from '../../server/http/auth.ts';

/** The Set-Cookie header that opens a browser session; the token lives only in this httpOnly cookie. */
export function openSessionHeaders(session: { token: string; expiresAt: number }, secure: boolean): Headers {
  return new Headers({ 'Set-Cookie': sessionCookie(session.token, session.expiresAt, secure) });
}

export function closeSessionHeaders(secure: boolean): Headers {
  return new Headers({ 'Set-Cookie': clearSessionCookie(secure) });
}

/**
 * A form post that may come from another site (server/http/auth.ts says how that is told). SameSite=Lax keeps
 * the session cookie off such posts, but a foreign page could still sign a visitor into an account of its
 * choosing, or out of theirs, or post as them from a sandboxed frame: refuse all of those.
 */
export function isCrossSite(request: Request): boolean {
  const src = credentialSource(request.method, (name) => request.headers.get(name), false);
  return isCrossSiteWrite(src, Boolean(sessionTokenFromCookieHeader(src.cookie ?? undefined)));
}
