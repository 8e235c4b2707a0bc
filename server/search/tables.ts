import { customType, index, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { articles } from '../catalog/tables.ts';

/** PostgreSQL's `tsvector`, read back as its text form (only ever used inside SQL). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The full-text index of the articles, one row per article (published or not: the query keeps to the
 * published ones). Kept by the database itself (migration `search`): triggers on `articles` and
 * `article_authors` rewrite `metadata` (and `document`); a trigger on `similarity_documents` rewrites
 * `body` (and `document`) whenever the similarity engine (re)indexes an article's PDF. See
 * server/search/README.md.
 */
export const searchDocuments = pgTable(
  'search_documents',
  {
    articleId: integer('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    /** Title (weight A), keywords and authors (B), abstract (C), English configuration. */
    metadata: tsvector('metadata').notNull(),
    /** The PDF's text (weight D), as the similarity engine extracted and normalised it; empty without one. */
    body: tsvector('body').notNull(),
    /** `metadata || body`, kept by the same triggers: what the GIN index and the ranking read. */
    document: tsvector('document').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('search_documents_document_idx').using('gin', t.document)],
);
