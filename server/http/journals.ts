import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Scope } from '../db/scope.ts';
import type { Destination, JournalDirectory, JournalEntry } from '../journals/directory.ts';

const DESTINATION = Symbol('colophon.destination');
type Routed = IncomingMessage & { [DESTINATION]?: Destination };

/**
 * Fastify's `rewriteUrl` (decision 0053): finds which journal a request is for, by its host or the first part
 * of its path, before any route is matched; a journal reached by its path then sees the address without it
 * (`/{path}/volumes` → `/volumes`), so every route of the spec serves every journal unchanged.
 */
export function journalRewrite(journals: JournalDirectory) {
  return (req: IncomingMessage): string => {
    const url = req.url ?? '/';
    const destination = journals.resolve(req.headers.host, url);
    (req as Routed)[DESTINATION] = destination;
    return destination.kind === 'redirect' ? url : destination.url;
  };
}

/** Where the request was sent by `journalRewrite`. */
export function destinationOf(request: FastifyRequest): Destination | undefined {
  return (request.raw as Routed)[DESTINATION];
}

/** The journal a request is for (undefined for the site's own pages, or an app built without journals). */
export function journalOf(request: FastifyRequest): JournalEntry | undefined {
  const destination = destinationOf(request);
  return destination?.kind === 'journal' ? destination.journal : undefined;
}

/** The path prefix the journal was reached under ('' at a root): pages and links are made under it. */
export function prefixOf(request: FastifyRequest): string {
  const destination = destinationOf(request);
  return destination?.kind === 'journal' ? destination.prefix : '';
}

/** The scope a request's work runs in: its journal's, or the site's for the site's own pages. */
export function scopeOf(request: FastifyRequest): Scope | undefined {
  const destination = destinationOf(request);
  if (!destination || destination.kind === 'redirect') return undefined;
  return destination.kind === 'journal'
    ? { kind: 'journal', journalId: destination.journal.id }
    : { kind: 'site' };
}

/**
 * The first parts of the pages the site answers itself when no journal is at its root (decision 0056): its
 * home (''), and the account's pages (accounts are the site's) and the site admin's. Any other page on the
 * site's host is a 404 there: no journal's page (and no journal's loader) runs outside a journal.
 */
export const SITE_PAGES: ReadonlySet<string> = new Set([
  '',
  // The home's second address (where an expired session is sent).
  'home',
  'login',
  'logout',
  'regist',
  'forgot-password',
  'reset-password',
  'account',
  'admin',
  // The site's search, across its journals (decision 0057).
  'search',
]);

/**
 * Whose copy of a kept answer a request may get (decision 0053): its journal's (`j3`), the site's own pages'
 * (`site`). With the address the journal sees, it names one page of one journal.
 */
export function cacheSite(request: FastifyRequest): string {
  const destination = destinationOf(request);
  // A page's links are made under the prefix it was reached at: a journal reached both by its domain and by a
  // path keeps one copy of each.
  if (destination?.kind === 'journal') return `j${destination.journal.id}${destination.prefix}`;
  return destination?.kind === 'site' ? 'site' : 'j1';
}
