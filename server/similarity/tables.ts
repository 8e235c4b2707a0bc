import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { journalId, journals } from '../journals/tables.ts';

/** Raw bytes: node-postgres gives a Buffer, PGlite a Uint8Array; both are returned as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** What an indexed document stands for. */
export const SOURCE_KINDS = ['article', 'submission_version'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * The corpus: one row per indexed text (a published article's PDF, one version of a submitted manuscript).
 * The normalised text is kept so matched passages can be shown; the word hashes so a candidate can be
 * aligned without tokenising it again.
 */
export const similarityDocuments = pgTable(
  'similarity_documents',
  {
    id: serial('id').primaryKey(),
    /**
     * The journal of its source (decision 0058). The corpus is the site's (no row-level security: a check in
     * one journal finds a manuscript sent to another); this says whose it is, for the report's privacy rule
     * and for the journal's own upkeep of its documents. Null: a document of no journal (benchmarks).
     */
    journalId: integer('journal_id').references(() => journals.id, { onDelete: 'cascade' }),
    sourceKind: text('source_kind', { enum: SOURCE_KINDS }).notNull(),
    /** articles.id, or submission_files.id for a submission version. */
    sourceId: integer('source_id').notNull(),
    /**
     * Texts that are versions of one work share a group ("submission:12" for every version of submission 12
     * and the article published from it): a check of one version leaves the others out.
     */
    groupKey: text('group_key').notNull(),
    title: text('title').notNull(),
    published: boolean('published').notNull().default(false),
    wordCount: integer('word_count').notNull(),
    fingerprintCount: integer('fingerprint_count').notNull(),
    /** The normalised text (see text.ts); word offsets are recomputed from it when passages are shown. */
    text: text('text').notNull(),
    /** One 32-bit FNV-1a hash per word, little-endian: what the alignment compares. */
    wordHashes: bytea('word_hashes').notNull(),
    /** SHA-256 of the file the text came from: re-indexing an unchanged file is skipped. */
    contentSha256: text('content_sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('similarity_documents_source_unique').on(t.sourceKind, t.sourceId),
    index('similarity_documents_group_idx').on(t.groupKey),
    index('similarity_documents_journal_idx').on(t.journalId),
  ],
);

/**
 * The inverted index: the winnowed k-gram hashes of every document (signed int4: the unsigned 32-bit hash
 * reinterpreted). Looked up by hash; the (hash, document_id) index answers the candidate query from the
 * index alone. The primary key serves re-indexing and deletion by document.
 */
export const similarityFingerprints = pgTable(
  'similarity_fingerprints',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => similarityDocuments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    hash: integer('hash').notNull(),
  },
  (t) => [
    primaryKey({ name: 'similarity_fingerprints_pk', columns: [t.documentId, t.position] }),
    index('similarity_fingerprints_hash_idx').on(t.hash, t.documentId),
  ],
);

/**
 * Words the journal's own corpus uses, with the number of documents using each: spelling issues on words
 * used by at least a few documents (technical terms, names) are not counted against a manuscript.
 */
export const similarityVocabulary = pgTable('similarity_vocabulary', {
  word: text('word').primaryKey(),
  documents: integer('documents').notNull().default(0),
});

/**
 * The report of the check made when a manuscript version arrived (default settings, editor's view), so the
 * desk shows the score without running the check again. One row per submission version; a failed check
 * (a scanned PDF) keeps its reason in `error` and no percentages.
 */
export const similarityChecks = pgTable(
  'similarity_checks',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    /** submission_files.id of the checked manuscript version. */
    submissionFileId: integer('submission_file_id').primaryKey(),
    submissionId: integer('submission_id').notNull(),
    plagiarismPercentage: doublePrecision('plagiarism_percentage'),
    grammarQualityPercentage: doublePrecision('grammar_quality_percentage'),
    /** The editor's report (SimilarityReport) as JSON; null when the check failed. */
    report: jsonb('report'),
    error: text('error'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('similarity_checks_submission_idx').on(t.submissionId)],
);

/**
 * Sources whose file has no text the checker can read (a scanned PDF): tried, and not in the corpus. The
 * corpus counts them apart from the work still to do, so that it can say it is complete (decision 0037).
 * Cleared when the source is indexed (a new file with text).
 */
export const similarityUnreadable = pgTable(
  'similarity_unreadable',
  {
    sourceKind: text('source_kind', { enum: SOURCE_KINDS }).notNull(),
    sourceId: integer('source_id').notNull(),
    /** The file that could not be read: a new file is tried again. */
    contentSha256: text('content_sha256').notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'similarity_unreadable_pk', columns: [t.sourceKind, t.sourceId] })],
);
