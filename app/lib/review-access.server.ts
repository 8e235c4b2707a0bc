import { parseCookie, stringifySetCookie } from 'cookie';
import { can } from '../../common/roles.ts';
import type { ReviewerAccess } from '../../server/review/service.ts';
import type { WebContext } from '../../server/web-context.ts';

/**
 * How a reviewer's pages know who is asking (decision 0023's link, decision 0025 for the pages). The
 * invitation link `/reviews/{id}?token=…` is opened once per click: the page checks the token, puts it in an
 * httpOnly cookie named for that assignment (`colophon_review_{id}`, `Path=/reviews` under the journal's path
 * prefix, `/{path}/reviews`, for a journal reached by its path (decision 0056), SameSite=Lax: the page's data
 * requests are `/reviews/{id}.data`, so the path cannot be narrower), and sends the browser on
 * to `/reviews/{id}` — so the token leaves the address bar, the history and every Referer at once, no page
 * outside `/reviews` ever receives it, and each assignment's page reads only its own cookie. The cookie lasts a working day and is renewed on
 * each visit; when it is gone the link in the e-mail works again, every time, until the assignment closes.
 * A reviewer with an account may instead come signed in.
 */
const cookieName = (id: number) => `colophon_review_${id}`;
const COOKIE_SECONDS = 12 * 60 * 60;
/** Tokens are `<id>.<base64url HMAC>`: anything else is not looked at. */
const TOKEN_SHAPE = /^\d{1,10}\.[A-Za-z0-9_-]{16,90}$/;

export const reviewPath = (id: number) => `/reviews/${id}`;

export function isTokenShaped(token: string | null | undefined): token is string {
  return typeof token === 'string' && TOKEN_SHAPE.test(token);
}

/** The journal's path prefix the request was reached under ('' at a root or a domain). */
export const prefixOf = (context: WebContext) => context.journal?.prefix ?? '';

/** The browser's path of the reviewer's pages: under the journal's prefix ('' at a root, `/{path}` by path). */
const cookiePath = (prefix: string) => `${prefix}/reviews`;

/**
 * The cookie that carries an assignment's link token to that assignment's pages (and no others); `prefix` is
 * the journal's path prefix the page was reached under (`context.journal.prefix`).
 */
export function reviewLinkCookie(id: number, token: string, secure: boolean, prefix: string): string {
  return stringifySetCookie({
    name: cookieName(id),
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: cookiePath(prefix),
    maxAge: COOKIE_SECONDS,
  });
}

export function clearReviewLinkCookie(id: number, secure: boolean, prefix: string): string {
  return stringifySetCookie({
    name: cookieName(id),
    value: '',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: cookiePath(prefix),
    maxAge: 0,
  });
}

/** The link token the browser holds for this assignment, if any. */
export function linkTokenOf(request: Request, id: number): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  const token = parseCookie(header)[cookieName(id)];
  return isTokenShaped(token) ? token : null;
}

/**
 * Who opens the assignment: the link's token when the browser holds one for it (it opens exactly that
 * assignment), else the signed-in account (a suspended or rejected one reaches nothing), else nobody.
 */
export function reviewerAccess(request: Request, context: WebContext, id: number): ReviewerAccess | null {
  const token = linkTokenOf(request, id);
  if (token) return { token };
  const auth = context.auth;
  if (auth && can('signedIn', auth.user)) return { user: auth.user };
  return null;
}
