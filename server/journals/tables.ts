import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The journals this installation hosts (decision 0053). The first one (id 1) is the journal a one-journal
 * installation has always been: it answers at `/` unless it is given a path or a domain of its own. Each
 * other journal answers at `/{path}/…` on the site's address, or at the root of its own `domain`.
 */
export const journals = pgTable(
  'journals',
  {
    id: serial('id').primaryKey(),
    /** The journal's path on the site (`/{path}/volumes`); null for the journal at the site's root. */
    path: text('path'),
    /** Its own host name (`journal-a.example.org`), served at that host's root; null when by path. */
    domain: text('domain'),
    /** Its title as the site's home lists it (the journal's settings hold the rest). */
    title: text('title').notNull(),
    /** open (everything works), closed (reading only: no submissions), archived (hidden from the site's home). */
    status: text('status', { enum: ['open', 'closed', 'archived'] })
      .notNull()
      .default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('journals_path_idx').on(sql`lower(${t.path})`),
    uniqueIndex('journals_domain_idx').on(sql`lower(${t.domain})`),
  ],
);

/** An old address of a journal (a path or a domain it had before): answered with a 301 to the new one. */
export const journalAliases = pgTable(
  'journal_aliases',
  {
    id: serial('id').primaryKey(),
    journalId: integer('journal_id')
      .notNull()
      .references(() => journals.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['path', 'domain'] }).notNull(),
    value: text('value').notNull(),
    /** An alias made when the journal moved: dropped if the journal moves back to it. */
    automatic: boolean('automatic').notNull().default(false),
  },
  (t) => [
    uniqueIndex('journal_aliases_value_idx').on(t.kind, sql`lower(${t.value})`),
    index('journal_aliases_journal_idx').on(t.journalId),
  ],
);

/**
 * The journal a row belongs to, on every table of a journal's own data (decision 0053). It is never written
 * by hand: it defaults to the journal of the connection's scope (`colophon.journal`, set by server/db/scope.ts
 * for the request or job at hand), and row-level security shows a connection only its journal's rows.
 */
export const journalId = () =>
  integer('journal_id')
    .notNull()
    .default(sql`current_setting('colophon.journal')::int`)
    .references(() => journals.id, { onDelete: 'cascade' });

/** The same for the logs that may also hold a site-wide entry (no journal: an account's own e-mail). */
export const optionalJournalId = () =>
  integer('journal_id')
    .default(sql`nullif(current_setting('colophon.journal'), '0')::int`)
    .references(() => journals.id, { onDelete: 'cascade' });
