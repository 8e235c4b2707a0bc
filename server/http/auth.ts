import type { FastifyRequest } from 'fastify';
import { bearerToken, sessionTokenFromCookieHeader } from '../accounts/cookie.ts';
import type { AccountsService, AuthContext } from '../accounts/service.ts';
import { forbidden } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CredentialSource {
  method: string;
  authorization?: string | null;
  cookie?: string | null;
  origin?: string | null;
  host?: string | null;
  referer?: string | null;
  /** The browser's Sec-Fetch-Site header. */
  fetchSite?: string | null;
}

export const CROSS_SITE = 'Cross-site requests are not allowed.';

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * Whether a state-changing request may have been sent by another site. Browsers say where a request comes
 * from (Origin on every POST, Sec-Fetch-Site, Referer); a foreign or opaque ("null", from a sandboxed frame
 * or a data: page) origin is refused. A request with no such signal at all comes from a program, not a
 * browser page: it is let through unless it carries the browser's session cookie, which only a browser
 * holds (programs sign in with a bearer token).
 */
export function isCrossSiteWrite(src: CredentialSource, hasSessionCookie: boolean): boolean {
  if (SAFE_METHODS.has(src.method.toUpperCase())) return false;
  if (src.origin) return src.origin === 'null' || hostOf(src.origin) !== src.host;
  if (src.fetchSite) return src.fetchSite !== 'same-origin' && src.fetchSite !== 'none';
  if (src.referer) return hostOf(src.referer) !== src.host;
  return hasSessionCookie;
}

/**
 * Reads the bearer token (API clients) or the session cookie (the browser). A cookie-authenticated write
 * that may come from another site is refused (`isCrossSiteWrite`): SameSite=Lax stops most of those, this
 * stops the rest.
 */
export async function authenticate(accounts: AccountsService, src: CredentialSource): Promise<AuthContext | null> {
  const bearer = bearerToken(src.authorization ?? undefined);
  if (bearer) return accounts.authenticate(bearer);
  const cookie = sessionTokenFromCookieHeader(src.cookie ?? undefined);
  if (!cookie) return null;
  if (isCrossSiteWrite(src, true)) throw forbidden(CROSS_SITE);
  return accounts.authenticate(cookie);
}

/** The parts of a request's headers `authenticate` reads. */
export function credentialSource(
  method: string,
  header: (name: string) => string | null | undefined,
  withBearer: boolean,
): CredentialSource {
  return {
    method,
    authorization: withBearer ? header('authorization') : null,
    cookie: header('cookie'),
    origin: header('origin'),
    host: header('host'),
    referer: header('referer'),
    fetchSite: header('sec-fetch-site'),
  };
}

const cache = new WeakMap<FastifyRequest, Promise<AuthContext | null>>();

/** Authenticates a Fastify request once, however many times it is asked. */
export function requestAuth(accounts: AccountsService, request: FastifyRequest): Promise<AuthContext | null> {
  let found = cache.get(request);
  if (!found) {
    found = authenticate(accounts, fastifyCredentials(request, true));
    cache.set(request, found);
  }
  return found;
}

/** `credentialSource` of a Fastify request (a repeated header counts by its first value). */
export function fastifyCredentials(request: FastifyRequest, withBearer: boolean): CredentialSource {
  return credentialSource(
    request.method,
    (name) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
    withBearer,
  );
}
