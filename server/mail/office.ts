import { editorsHere } from '../accounts/membership.ts';
import type { Tx } from '../db/client.ts';
import { FIRST_JOURNAL, currentJournalId } from '../db/scope.ts';

/**
 * Where the journal at hand's office notices go: new submissions, revisions, reviewers' answers and contact
 * messages (decision 0060). Null when the journal has nobody to tell (the notice is not sent; the desk and the
 * messages list still have it).
 */
export type OfficeAddress = (tx: Tx) => Promise<string | string[] | null>;

/**
 * The first journal's office is the installation's EDITORIAL_EMAIL, as it always was. Another journal's is the
 * e-mail address in its own settings once its office has set one; until then (a new journal's settings start
 * with the installation's address, which is the first journal's office) its approved editors and admins. The
 * installation's address is never another journal's office: it would put B's manuscripts, authors and
 * reviewers' answers in A's inbox.
 */
export function officeAddress(deps: {
  editorialEmail: string;
  /** The e-mail address of the journal at hand's settings. */
  journalEmail: () => Promise<string>;
}): OfficeAddress {
  const installation = deps.editorialEmail.toLowerCase();
  return async (tx) => {
    const journal = currentJournalId() ?? FIRST_JOURNAL;
    if (journal === FIRST_JOURNAL) return deps.editorialEmail;
    const own = await deps.journalEmail();
    if (own.toLowerCase() !== installation) return own;
    const editors = await editorsHere(tx);
    return editors.length ? editors.map((e) => e.email) : null;
  };
}
