import { bigint, index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per stored upload. Several rows may share a blob key: the store is content-addressed. */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mediaType: text('media_type').notNull(),
    originalName: text('original_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stored_files_key_idx').on(t.key)],
);
