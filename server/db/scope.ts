import { requestContext } from '../request-context.ts';

/**
 * Which journal's data the work at hand may see (decision 0053): the one mechanism that scopes every query.
 *
 * A request answers for one journal (found from its host or path: server/journals/directory.ts), and so does
 * a job (the journal of the request that queued it). That journal is kept in the request's context; each
 * database connection is put in it when it is handed out (`scopeConnection`, server/db/client.ts): it works
 * as the role `colophon_journal` with `colophon.journal` set to the journal's id, and PostgreSQL's row-level
 * security then shows and accepts only that journal's rows, in every table of a journal's data, whatever
 * the query says (and a new row's `journal_id` defaults to it). No query names the journal itself.
 *
 * - `journal`: one journal's data (everything a journal's pages, API and jobs do);
 * - `site`: every journal's (the site admin, the site's home and search, the corpus and chores that pass
 *   over all journals), as the role `colophon_site`;
 * - `owner`: the database's own account (maintenance: VACUUM, moving the database).
 *
 * Work outside any request or job (start-up, the command line, tests calling services) is for the first
 * journal, which is all a one-journal installation has.
 */
export type Scope = { kind: 'journal'; journalId: number } | { kind: 'site' } | { kind: 'owner' };

export const FIRST_JOURNAL = 1;

const DEFAULT_SCOPE: Scope = { kind: 'journal', journalId: FIRST_JOURNAL };

export function currentScope(): Scope {
  return requestContext.getStore()?.scope ?? DEFAULT_SCOPE;
}

/** The journal the work at hand is for; null in the site's or owner's scope. */
export function currentJournalId(): number | null {
  const scope = currentScope();
  return scope.kind === 'journal' ? scope.journalId : null;
}

/** The journal the work at hand is for; throws in the site's scope, where no one journal is meant. */
export function requireJournalId(): number {
  const id = currentJournalId();
  if (id === null) throw new Error('This needs a journal, and runs in the site scope');
  return id;
}

function within<T>(scope: Scope, fn: () => T): T {
  const store = requestContext.getStore();
  return requestContext.run({ ...store, scope }, () => {
    const result = fn();
    // A query builder runs when it is awaited: started here, so that it runs in this scope, not the caller's.
    if (result && typeof (result as { then?: unknown }).then === 'function' && !(result instanceof Promise))
      return Promise.resolve(result) as T;
    return result;
  });
}

/** Runs `fn` (and everything it starts) for one journal. */
export function withJournal<T>(journalId: number, fn: () => T): T {
  if (!Number.isSafeInteger(journalId) || journalId < 1) throw new Error(`Not a journal id: ${journalId}`);
  return within({ kind: 'journal', journalId }, fn);
}

/** Runs `fn` over every journal's data (the site admin's, the site's home, chores over all journals). */
export function asSite<T>(fn: () => T): T {
  return within({ kind: 'site' }, fn);
}

/** Runs `fn` as the database's owner (maintenance only: VACUUM). */
export function asOwner<T>(fn: () => T): T {
  return within({ kind: 'owner' }, fn);
}

/** A scope as one short string: what a connection was last put in. */
export function scopeKey(scope: Scope): string {
  return scope.kind === 'journal' ? `j${scope.journalId}` : scope.kind;
}

/** The statements that put a connection in a scope (one round trip: the simple query protocol). */
export function scopeStatements(scope: Scope): string {
  switch (scope.kind) {
    case 'journal':
      return `SET ROLE colophon_journal; SET colophon.journal = '${Math.trunc(scope.journalId)}'`;
    case 'site':
      return `SET ROLE colophon_site; SET colophon.journal = '0'`;
    case 'owner':
      return `RESET ROLE; SET colophon.journal = '0'`;
  }
}
