import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The journal's own settings and words, one JSON value per key, editable without a deploy. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
