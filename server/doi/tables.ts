import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { DOI_STATES } from '../../common/doi.ts';
import { articles } from '../catalog/tables.ts';
import { journalId } from '../journals/tables.ts';

/**
 * A journal's DOI registration settings (decision 0064): one row per journal, made on first save; a journal
 * without one has the defaults (automatic deposit on, Crossref's test service, no credentials, DOAJ off).
 * The password and the DOAJ key are write-only: the service never returns them, jobs read them here.
 */
export const doiSettings = pgTable('doi_settings', {
  journalId: journalId().primaryKey(),
  /** `{prefix}/…` with the placeholders of server/doi/pattern.ts; empty: DOIs are typed by the editors. */
  pattern: text('pattern').notNull().default(''),
  crossrefUsername: text('crossref_username').notNull().default(''),
  crossrefPassword: text('crossref_password').notNull().default(''),
  /** `test` (test.crossref.org) or `production` (api.crossref.org); an explicit URL overrides both (tests). */
  crossrefMode: text('crossref_mode', { enum: ['test', 'production'] })
    .notNull()
    .default('test'),
  crossrefEndpoint: text('crossref_endpoint').notNull().default(''),
  autoDeposit: boolean('auto_deposit').notNull().default(true),
  doajEnabled: boolean('doaj_enabled').notNull().default(false),
  doajApiKey: text('doaj_api_key').notNull().default(''),
  doajEndpoint: text('doaj_endpoint').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One article's registration: its Crossref state and last batch, its DOAJ state (one row per article). */
export const doiDeposits = pgTable(
  'doi_deposits',
  {
    journalId: journalId(),
    articleId: integer('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    state: text('state', { enum: DOI_STATES }).notNull().default('not_deposited'),
    /** Crossref's (or our) plain words on the last outcome: a failure's reason, a warning. */
    message: text('message'),
    /** The last deposit's `doi_batch_id`, and its `timestamp` (grows with each redeposit). */
    batchId: text('batch_id'),
    batchTimestamp: bigint('batch_timestamp', { mode: 'bigint' }),
    /** Crossref's submission id of the last deposit, when it said one. */
    submissionId: text('submission_id'),
    /** The metadata last sent (a digest): a change since then makes a registered DOI stale. */
    sentDigest: text('sent_digest'),
    /** The DOI as last deposited: fixed from then on. */
    depositedDoi: text('deposited_doi'),
    depositedAt: timestamp('deposited_at', { withTimezone: true }),
    registeredAt: timestamp('registered_at', { withTimezone: true }),
    doajState: text('doaj_state', { enum: DOI_STATES }).notNull().default('not_deposited'),
    doajMessage: text('doaj_message'),
    /** DOAJ's id of the article, for updates. */
    doajId: text('doaj_id'),
    doajDigest: text('doaj_digest'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('doi_deposits_state_idx').on(t.journalId, t.state)],
);
