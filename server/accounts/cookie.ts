import { parseCookie, stringifySetCookie } from 'cookie';

export const SESSION_COOKIE = 'colophon_session';

/** httpOnly (never readable by scripts), SameSite=Lax, Secure when the site is served over HTTPS. */
export function sessionCookie(token: string, expiresAt: number, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    expires: new Date(expiresAt * 1000),
  });
}

export function clearSessionCookie(secure: boolean): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: '', httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 });
}

export function sessionTokenFromCookieHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return parseCookie(header)[SESSION_COOKIE] || undefined;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}
