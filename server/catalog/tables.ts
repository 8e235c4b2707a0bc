import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { storedFiles } from '../files/tables.ts';
import { journalId } from '../journals/tables.ts';

export const volumes = pgTable(
  'volumes',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    volumeNumber: integer('volume_number').notNull(),
    year: integer('year').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      // Every ORM update moves it: OAI-PMH datestamps, sitemap lastmod and feeds read it.
      .$onUpdate(() => new Date()),
  },
  (t) => [unique('volumes_journal_number_unique').on(t.journalId, t.volumeNumber)],
);

export const issues = pgTable(
  'issues',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    volumeId: integer('volume_id')
      .notNull()
      .references(() => volumes.id, { onDelete: 'restrict' }),
    issueNumber: integer('issue_number').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** The issue's date of publication; articles without their own date fall back to it. */
    publicationDate: date('publication_date'),
    /**
     * The issue's month (1–12) in its volume's year, as readers and citations name it ("March 2026"); null
     * for an issue dated by its year alone (decision 0039).
     */
    publicationMonth: smallint('publication_month'),
    /** The issue's cover image, when it has one (OJS's issue covers, issue 26). */
    coverFileId: integer('cover_file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      // Every ORM update moves it: OAI-PMH datestamps, sitemap lastmod and feeds read it.
      .$onUpdate(() => new Date()),
  },
  (t) => [
    unique('issues_volume_number_unique').on(t.volumeId, t.issueNumber),
    check('issues_publication_month_check', sql`${t.publicationMonth} between 1 and 12`),
  ],
);

export const articles = pgTable(
  'articles',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    /** A subtitle, shown under the title and cited after it ("Title: Subtitle"); '' for none. */
    subtitle: text('subtitle').notNull().default(''),
    abstract: text('abstract').notNull(),
    keywords: text('keywords').notNull(),
    firstPage: integer('first_page'),
    lastPage: integer('last_page'),
    doi: text('doi'),
    articleType: text('article_type').notNull().default('Research Article'),
    /** The journal section it appeared in, as the journal named it (an imported OJS section); '' for none. */
    section: text('section').notNull().default(''),
    /** The article's language (BCP 47, `en`); '' for the journal's own. */
    language: text('language').notNull().default(''),
    /** The licence it is published under (a Creative Commons URL), the copyright holder and year; '' for the journal's. */
    licenseUrl: text('license_url').notNull().default(''),
    copyrightHolder: text('copyright_holder').notNull().default(''),
    copyrightYear: integer('copyright_year'),
    /** The reference list as plain citations, in order (OJS's `<citations>`); the full text's, when it has one, is richer. */
    references: jsonb('references').$type<string[]>().notNull().default([]),
    pdfFileId: integer('pdf_file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['published', 'unpublished'] })
      .notNull()
      .default('published'),
    publicationDate: date('publication_date'),
    submissionId: integer('submission_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      // Every ORM update moves it: OAI-PMH datestamps, sitemap lastmod and feeds read it.
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('articles_issue_idx').on(t.issueId),
    uniqueIndex('articles_doi_lower_idx').on(sql`lower(${t.doi})`),
    index('articles_status_date_idx').on(t.status, t.publicationDate),
    // A submission becomes at most one article, even when two editors publish it at once.
    uniqueIndex('articles_submission_idx').on(t.submissionId),
  ],
);

export const articleAuthors = pgTable(
  'article_authors',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    affiliation: text('affiliation').notNull(),
    superscript: text('superscript').notNull().default(''),
    /** The author's ORCID iD, bare (0000-0002-1825-0097), checked by `orcidField`; null when not given. */
    orcid: text('orcid'),
    /** The author's country (ISO 3166-1 alpha-2, `DE`); '' when not given. */
    country: text('country').notNull().default(''),
    /** The affiliation's ROR id as its link (`https://ror.org/02crff812`); null when not given. */
    ror: text('ror'),
    /** The author readers write to (OJS's primary contact); at most one per article, by the writer's care. */
    primaryContact: boolean('primary_contact').notNull().default(false),
  },
  (t) => [unique('article_authors_position_unique').on(t.articleId, t.position)],
);

/**
 * An article's files beyond its PDF (issue 26): OJS's other galleys (HTML, EPUB, data, a second language's PDF),
 * each a stored file shown on the article page with its label, or a link elsewhere (a remote galley).
 */
export const articleFiles = pgTable(
  'article_files',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    /** The language of the file (`fr`), '' when the article's own. */
    locale: text('locale').notNull().default(''),
    fileId: integer('file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    /** A link elsewhere instead of a stored file. */
    url: text('url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('article_files_position_unique').on(t.articleId, t.position),
    check('article_files_file_or_url_check', sql`(${t.fileId} is null) <> (${t.url} is null)`),
  ],
);
