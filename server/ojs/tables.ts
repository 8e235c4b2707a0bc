import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { journalId, journals } from '../journals/tables.ts';

/**
 * Moving in from OJS (issue 26, decision 0066). An import is a run of a job over uploaded export files, with
 * its progress and its report; every record it made keeps the OJS id it came from (so a second run of the same
 * export changes nothing, a corrected export updates what changed, and OJS's old addresses find their pages);
 * and each journal's path on the OJS site answers 301s from the site's root.
 */

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export const importRuns = pgTable(
  'import_runs',
  {
    journalId: journalId(),
    id: serial('id').primaryKey(),
    source: text('source').notNull().default('ojs'),
    status: text('status', { enum: IMPORT_STATES }).notNull().default('queued'),
    dryRun: boolean('dry_run').notNull().default(false),
    /** The export files: where the job reads them (the import's own folder) and their names as uploaded. */
    files: jsonb('files').$type<Array<{ path: string; name: string; size: number }>>().notNull(),
    /** The journal's path on the OJS site (`/index.php/{oldPath}/…`), for the redirects. */
    oldPath: text('old_path'),
    /** Send "set your password" links to imported accounts that need one. */
    sendPasswordLinks: boolean('send_password_links').notNull().default(false),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    current: text('current').notNull().default(''),
    /** What was created, updated, left alone and refused, and every warning with its place. */
    report: jsonb('report').$type<ImportReport>(),
    error: text('error'),
    startedBy: integer('started_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('import_runs_journal_idx').on(t.journalId, t.createdAt)],
);

export type ImportCounts = { created: number; updated: number; unchanged: number; refused: number };

export type ImportReport = {
  issues: ImportCounts;
  articles: ImportCounts;
  users: ImportCounts;
  /** Each refusal or warning: which file, which element, which line, and why. */
  notices: Array<{ file: string; path: string; line: number; message: string; level: 'refused' | 'warning' }>;
  /** OJS roles and groups that mean nothing here, with how many accounts had them. */
  unmappedGroups: Record<string, number>;
};

export const IMPORTED_KINDS = ['issue', 'article', 'galley', 'file', 'user', 'section'] as const;
export type ImportedKind = (typeof IMPORTED_KINDS)[number];

/** The fingerprint of the galley record that became its article's PDF. */
export const PDF_GALLEY = 'pdf';

export const importedRecords = pgTable(
  'imported_records',
  {
    journalId: journalId(),
    id: serial('id').primaryKey(),
    source: text('source').notNull().default('ojs'),
    kind: text('kind', { enum: IMPORTED_KINDS }).notNull(),
    /** The id the record had in OJS (a galley's and a file's too, for their old addresses). */
    sourceId: text('source_id').notNull(),
    /** What it became here: an article's, an issue's, a user's id; a galley's article. */
    localId: integer('local_id').notNull(),
    /**
     * A hash of what was imported: the same export again changes nothing, a corrected one updates. A galley's
     * says what it became: PDF_GALLEY for the article's PDF, else '' (one of the files its page lists).
     */
    fingerprint: text('fingerprint').notNull().default(''),
    runId: integer('run_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('imported_records_source_unique').on(t.journalId, t.source, t.kind, t.sourceId),
    index('imported_records_local_idx').on(t.journalId, t.kind, t.localId),
  ],
);

/**
 * A journal's path on the site it moved from (`/index.php/{path}/…` and `/{path}/…`): the site's, like
 * journal_aliases (decision 0053), read by the directory before a request is routed.
 */
export const legacyPaths = pgTable(
  'legacy_paths',
  {
    path: text('path').primaryKey(),
    journalId: integer('journal_id')
      .notNull()
      .references(() => journals.id, { onDelete: 'cascade' }),
    source: text('source').notNull().default('ojs'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('legacy_paths_journal_idx').on(t.journalId),
    check('legacy_paths_lower_check', sql`${t.path} = lower(${t.path})`),
  ],
);
