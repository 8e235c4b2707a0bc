import { index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { SUBMISSION_STATUSES } from '../../common/submissions.ts';
import { users } from '../accounts/tables.ts';
import { storedFiles } from '../files/tables.ts';
import { journalId } from '../journals/tables.ts';

export const submissions = pgTable(
  'submissions',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    /** Human reference quoted in e-mails, e.g. COL-2026-0007. */
    reference: text('reference').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    articleType: text('article_type').notNull(),
    keywords: text('keywords').notNull(),
    abstract: text('abstract').notNull(),
    conflictOfInterest: text('conflict_of_interest').notNull().default(''),
    fundingStatement: text('funding_statement').notNull().default(''),
    dataAvailabilityStatement: text('data_availability_statement').notNull().default(''),
    /**
     * The author's signed copyright form (a PDF), given with the submission (issue 22); editors only. Kept apart
     * from the manuscript's versions: reviewers never get it (it names the authors).
     */
    copyrightFileId: integer('copyright_file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    /**
     * The final PDF the editor gave when preparing the publication (decision 0035): nothing is live until the
     * editor publishes from the preview.
     */
    finalPdfFileId: integer('final_pdf_file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('submitted'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('submissions_journal_reference_unique').on(t.journalId, t.reference),
    index('submissions_user_idx').on(t.userId),
    index('submissions_status_idx').on(t.status),
    index('submissions_created_idx').on(t.createdAt),
  ],
);

export const submissionAuthors = pgTable(
  'submission_authors',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    affiliation: text('affiliation').notNull(),
    superscript: text('superscript').notNull().default(''),
    /** The author's ORCID iD, bare (0000-0002-1825-0097), checked by `orcidField`; null when not given. */
    orcid: text('orcid'),
  },
  (t) => [unique('submission_authors_position_unique').on(t.submissionId, t.position)],
);

export const submissionFiles = pgTable(
  'submission_files',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['manuscript', 'additional'] }).notNull(),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_files_submission_idx').on(t.submissionId)],
);

/** The history of a submission: every status change, with the editor's message to the author. */
export const submissionEvents = pgTable(
  'submission_events',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorUsername: text('actor_username').notNull(),
    /** Null for the arrival itself. */
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    message: text('message').notNull().default(''),
    /**
     * For editors only: what the decision did that the journal would otherwise not do (accepted without any
     * review, reviews withheld from the author), confirmed by the editor (issue 22).
     */
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_events_submission_idx').on(t.submissionId)],
);
