import { index, integer, jsonb, pgTable, serial, timestamp } from 'drizzle-orm/pg-core';
import { articles } from '../catalog/tables.ts';
import { storedFiles } from '../files/tables.ts';
import { submissions } from '../submissions/tables.ts';
import type { FullTextDocument } from './document.ts';
import { journalId } from '../journals/tables.ts';

/**
 * An article's full text converted from its Word file (issue 16, decision 0028): the structured document,
 * the Word file it was made from, and (inside the document) the stored figures. Before publishing it belongs
 * to the accepted submission (the editor's preview); publishing gives it its article. One per article and one
 * per submission, and one pending per article; another Word file for an article becomes its pending one.
 */
export const fullTexts = pgTable(
  'full_texts',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .unique()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    articleId: integer('article_id')
      .unique()
      .references(() => articles.id, { onDelete: 'cascade' }),
    /**
     * A replacement for a published article's full text, waiting for the editor's preview (decision 0035): the
     * live one (`articleId`) stays until the editor publishes this one.
     */
    pendingArticleId: integer('pending_article_id')
      .unique()
      .references(() => articles.id, { onDelete: 'cascade' }),
    sourceFileId: integer('source_file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    document: jsonb('document').$type<FullTextDocument>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [index('full_texts_source_idx').on(t.sourceFileId)],
);
