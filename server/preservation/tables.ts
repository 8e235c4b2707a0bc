import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { issues } from '../catalog/tables.ts';
import { storedFiles } from '../files/tables.ts';
import { journalId } from '../journals/tables.ts';

/**
 * The latest archive package (a BagIt bag, as a ZIP in the blob store) of each issue (decision 0065): one row
 * per issue, replaced when the bag is made again; the row goes with its issue.
 */
export const preservationBags = pgTable(
  'preservation_bags',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    issueId: integer('issue_id')
      .primaryKey()
      .references(() => issues.id, { onDelete: 'cascade' }),
    /** The bag's ZIP. */
    fileId: integer('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    madeAt: timestamp('made_at', { withTimezone: true }).notNull(),
    /** Payload files (the ZIP's size is its stored file's). */
    files: integer('files').notNull(),
    payloadOxum: text('payload_oxum').notNull(),
    /** The articles it holds: a change to one of them (or its leaving the issue) makes the bag again. */
    articleIds: jsonb('article_ids').$type<number[]>().notNull(),
  },
  (t) => [index('preservation_bags_journal_idx').on(t.journalId)],
);
