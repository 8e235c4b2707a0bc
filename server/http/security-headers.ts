import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { bearerToken, sessionTokenFromCookieHeader } from '../accounts/cookie.ts';
import type { Services } from '../services.ts';
import { isSecure } from './context.ts';

/**
 * The security headers every response carries, decided in one place for the Fastify hook (API, feeds, static
 * files, errors, 404s) and for the page bridge (server/http/ssr.ts, whose hijacked replies skip Fastify's
 * hooks). Decision 0015 says why each value is what it is.
 */

/** Browser features the site never uses, denied to it and to anything it might ever embed. */
export const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'compute-pressure',
  'display-capture',
  'encrypted-media',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'interest-cohort',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'window-management',
  'xr-spatial-tracking',
] as const;

export const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(', ');
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
/** One year; no includeSubDomains or preload: those bind other hosts of the operator's domain. */
export const HSTS = 'max-age=31536000';
export const PRIVATE_NO_STORE = 'private, no-store';
/** For anything that is not one of our HTML pages: nothing may load, nothing may frame it. */
export const MINIMAL_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The pages (and everything under them) that are always `private, no-store`, signed in or not. */
export const ACCOUNT_PAGES = [
  '/login',
  '/regist',
  '/logout',
  '/account',
  '/my-submissions',
  '/submission',
  '/plagiarism',
  '/editor-dashboard',
] as const;

/** A nonce for one page response's scripts: 128 random bits, base64. */
export type Nonce = string;

/**
 * The Content-Security-Policy of an HTML page rendered by React Router. Scripts run only with this response's
 * nonce; `'strict-dynamic'` lets those scripts load the route modules and modulepreload links React Router adds
 * after hydration (they carry no nonce). In development Vite's client needs inline styles and its websocket.
 *
 * A page kept in the cache (decision 0018) is sent to many readers, so a nonce would no longer be a secret
 * of one response: its policy allows instead exactly the inline scripts it holds, by their hashes, and the
 * site's own script files (`'self'`, which also covers the modulepreload links).
 */
export function pageCsp(
  scripts: Nonce | { hashes: string[] },
  mode: 'production' | 'development' = 'production',
): string {
  const dev = mode === 'development';
  const scriptSrc =
    typeof scripts === 'string'
      ? `script-src 'nonce-${scripts}' 'strict-dynamic'`
      : `script-src 'self' ${scripts.hashes.join(' ')}`.trimEnd();
  return [
    "default-src 'self'",
    scriptSrc,
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    // Journal pages written in Markdown may show images from other https sites (the sanitiser allows them).
    "img-src 'self' https:",
    "font-src 'self'",
    dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The hashes (`'sha256-…'`) of the inline scripts of an HTML document, in order, each once. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(m[1])) continue;
    hashes.add(cspHash(m[2]));
  }
  return [...hashes];
}

/** `'sha256-…'` of an inline `<style>` or `<script>` body, for a policy that allows exactly that text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * A script-free HTML document of our own (e.g. /api/docs): nothing but its own inline styles, allowed by
 * their hashes, and images from the site.
 */
export function staticDocumentCsp(styles: string[]): string {
  return [
    "default-src 'none'",
    `style-src ${styles.map(cspHash).join(' ')}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Whether a path is one of the account pages (or under one), including React Router's `.data` requests. */
export function isAccountPage(pathname: string): boolean {
  let p = pathname.split('?')[0];
  try {
    p = decodeURIComponent(p);
  } catch {
    // Left as it is: React Router would not match a malformed escape either.
  }
  p = p
    .toLowerCase()
    .replace(/\.data$/, '')
    .replace(/\/+$/, '');
  return ACCOUNT_PAGES.some((page) => p === page || p.startsWith(`${page}/`));
}

/** Whether a request carries credentials: a bearer token or the session cookie (valid or not). */
export function hasCredentials(headers: { authorization?: string; cookie?: string }): boolean {
  return Boolean(bearerToken(headers.authorization) || sessionTokenFromCookieHeader(headers.cookie));
}

export interface ResponseFacts {
  /** The response's Content-Type, if any. */
  contentType?: string;
  /** The Cache-Control the route set, if any. */
  cacheControl?: string;
  /** Whether the route set a Content-Security-Policy of its own (kept as it is). */
  hasCsp: boolean;
  /** Whether the response sets a cookie. */
  setsCookie: boolean;
}

export interface RequestFacts {
  /** https, directly or behind a trusted proxy, or PUBLIC_URL says https (server/http/context.ts isSecure). */
  secure: boolean;
  /** The request carried a bearer token or the session cookie. */
  credentials: boolean;
  /** One of ACCOUNT_PAGES (pages only). */
  accountPage?: boolean;
  /** For an HTML page rendered by React Router: its script nonce and the server's mode. */
  page?: { nonce: Nonce; mode: 'production' | 'development' };
}

const isHtml = (contentType: string | undefined) => /^\s*text\/html\b/i.test(contentType ?? '');

/**
 * The headers to set (overriding what the response has) for one response. The same for every response:
 * nosniff, Referrer-Policy, Permissions-Policy, X-Frame-Options, HSTS on https. Content-Security-Policy: the
 * page policy for our React Router HTML, the route's own if it set one, else the minimal one. Cache-Control:
 * `private, no-store` for a response that sets a cookie, an account page, and an answer to a request with
 * credentials, except that a non-HTML answer whose route declared it public (a citation file, a feed, a static
 * asset: the same bytes for every reader) or already `no-store` keeps its policy. Anonymous answers keep
 * whatever caching the route chose.
 */
export function securityHeaders(request: RequestFacts, response: ResponseFacts): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
    'permissions-policy': PERMISSIONS_POLICY,
    'x-frame-options': 'DENY',
  };
  if (request.secure) headers['strict-transport-security'] = HSTS;

  const html = isHtml(response.contentType);
  if (request.page && html)
    headers['content-security-policy'] = pageCsp(request.page.nonce, request.page.mode);
  else if (!response.hasCsp) headers['content-security-policy'] = MINIMAL_CSP;

  if (mustBePrivate(request, response, html)) headers['cache-control'] = PRIVATE_NO_STORE;
  return headers;
}

function mustBePrivate(request: RequestFacts, response: ResponseFacts, html: boolean): boolean {
  if (response.setsCookie || request.accountPage) return true;
  if (!request.credentials) return false;
  const declared = (response.cacheControl ?? '').toLowerCase();
  if (/\bno-store\b/.test(declared)) return false;
  // A page rendered for a signed-in reader is never shared, whatever a route's headers() said.
  if (!html && /\bpublic\b/.test(declared)) return false;
  return true;
}

const headerText = (value: unknown): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);

/**
 * Every answer Fastify sends itself (the JSON API, errors, 404s, downloads, feeds, OAI, static files) gets its
 * security headers as it goes out. Pages are answered by the page bridge, which applies the same rules.
 */
export function addSecurityHeaders(app: FastifyInstance, services: Services) {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(
      securityHeaders(
        { secure: isSecure(services, request), credentials: hasCredentials(request.headers) },
        {
          contentType: headerText(reply.getHeader('content-type')),
          cacheControl: headerText(reply.getHeader('cache-control')),
          hasCsp: reply.hasHeader('content-security-policy'),
          setsCookie: reply.hasHeader('set-cookie'),
        },
      ),
    );
    return payload;
  });
}
