import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { journalMemberships, users } from './tables.ts';

/**
 * An account's membership of the journal at hand (decision 0054), as a join condition on `users`. Row-level
 * security already shows only that journal's memberships; the journal is named here too so that a join in the
 * site's scope (which sees every journal's) finds none rather than one row per journal.
 */
export const membershipHere = and(
  eq(journalMemberships.userId, users.id),
  eq(journalMemberships.journalId, sql`current_setting('colophon.journal')::int`),
)!;

/** One account's membership of the journal at hand (for a query of `journal_memberships` alone). */
export const memberHere = (userId: number) =>
  and(
    eq(journalMemberships.userId, userId),
    eq(journalMemberships.journalId, sql`current_setting('colophon.journal')::int`),
  )!;

/**
 * Accounts in good standing in the journal at hand, as a condition on `users`: approved there, and not
 * suspended by the site. For queries of other areas that address the journal's approved accounts (alerts).
 */
export const approvedHere = and(
  eq(users.suspended, false),
  sql`exists (select 1 from ${journalMemberships} where ${membershipHere} and ${journalMemberships.status} = 'approved')`,
)!;

/**
 * The e-mail addresses of the journal at hand's approved editors and admins whose accounts are not suspended,
 * oldest account first: who gets the office's notices when the journal has no address of its own, and the
 * digest of accounts waiting for approval.
 */
export function editorsHere(tx: Tx): Promise<{ email: string }[]> {
  return tx
    .select({ email: users.email })
    .from(journalMemberships)
    .innerJoin(users, membershipHere)
    .where(
      and(
        inArray(journalMemberships.role, ['editor', 'admin']),
        eq(journalMemberships.status, 'approved'),
        eq(users.suspended, false),
      ),
    )
    .orderBy(asc(users.id));
}
