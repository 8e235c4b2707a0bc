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
}

/**
 * Reads the bearer token (API clients) or the session cookie (the browser). A cookie-authenticated write
 * whose Origin is another site is refused: SameSite=Lax already stops most of those, this stops the rest.
 */
export async function authenticate(accounts: AccountsService, src: CredentialSource): Promise<AuthContext | null> {
  const bearer = bearerToken(src.authorization ?? undefined);
  if (bearer) return accounts.authenticate(bearer);
  const cookie = sessionTokenFromCookieHeader(src.cookie ?? undefined);
  if (!cookie) return null;
  if (!SAFE_METHODS.has(src.method) && src.origin && src.origin !== 'null' && src.host) {
    let originHost: string | null = null;
    try {
      originHost = new URL(src.origin).host;
    } catch {
      /* unparseable origin: treat as foreign */
    }
    if (originHost !== src.host) throw forbidden('Cross-site requests are not allowed.');
  }
  return accounts.authenticate(cookie);
}

const cache = new WeakMap<FastifyRequest, Promise<AuthContext | null>>();

/** Authenticates a Fastify request once, however many times it is asked. */
export function requestAuth(accounts: AccountsService, request: FastifyRequest): Promise<AuthContext | null> {
  let found = cache.get(request);
  if (!found) {
    found = authenticate(accounts, {
      method: request.method,
      authorization: request.headers.authorization,
      cookie: request.headers.cookie,
      origin: request.headers.origin,
      host: request.headers.host,
    });
    cache.set(request, found);
  }
  return found;
}
