import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { journalId } from '../journals/tables.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    contactNumber: text('contact_number').notNull(),
    institution: text('institution').notNull(),
    /** ORCID iD, bare (0000-0002-1825-0097), check digit verified; optional. */
    orcid: text('orcid'),
    /**
     * Suspended by the site admin: signed out and refused in every journal (decision 0054). A journal's own
     * suspension is its membership's status.
     */
    suspended: boolean('suspended').notNull().default(false),
    /** Runs the site: makes journals, closes and archives them, manages every account (decision 0053). */
    siteAdmin: boolean('site_admin').notNull().default(false),
    /**
     * Editors of the site's other journals may find this person in the site's reviewer pool (decision 0058);
     * the reviewer turns it off on their profile (decision 0062).
     */
    listedInSitePool: boolean('listed_in_site_pool').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Usernames and e-mail addresses are unique whatever case people type them in.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

/**
 * An account's role and standing in one journal (decision 0053): accounts are the site's, roles the journal's.
 * A person may be an author in one journal, a reviewer in a second and an editor in a third; approval to
 * download is given per journal. The only place an account's role and status are kept (decision 0054:
 * `users` has neither).
 */
export const journalMemberships = pgTable(
  'journal_memberships',
  {
    journalId: journalId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['researcher', 'author', 'editor', 'admin'] }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'suspended'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.journalId, t.userId] }),
    index('journal_memberships_user_idx').on(t.userId),
    index('journal_memberships_status_idx').on(t.journalId, t.status),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Refreshed at most every few minutes while the session is used (not on every request). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A forgotten-password link. Only the SHA-256 of its secret is kept, so a copy of the database opens no
 * account; it works once (`usedAt`) and until `expiresAt`.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('password_resets_token_idx').on(t.tokenHash),
    index('password_resets_user_idx').on(t.userId),
  ],
);

/**
 * A change of e-mail address waiting for the link sent to the new address. Nothing changes on the account
 * until it is confirmed; only the SHA-256 of the link's secret is kept.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_changes_token_idx').on(t.tokenHash),
    index('email_changes_user_idx').on(t.userId),
  ],
);

/**
 * Messages sent at most once a day (the editors' digest of accounts waiting for approval): the row is
 * claimed with one UPDATE before sending, so two processes or a restart never send a day's digest twice.
 */
export const dailyDigests = pgTable(
  'daily_digests',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    name: text('name').notNull(),
    /** The UTC day of the last digest sent. */
    sentOn: date('sent_on', { mode: 'string' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The newest account the last digest listed: only accounts after it make a new digest worth sending. */
    lastUserId: integer('last_user_id').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.journalId, t.name] })],
);
