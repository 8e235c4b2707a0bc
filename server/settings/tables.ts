import { jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { journalId } from '../journals/tables.ts';

/** The journal's own settings and words, one JSON value per key, editable without a deploy. */
export const settings = pgTable(
  'settings',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.journalId, t.key] })],
);
