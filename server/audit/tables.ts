import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables.ts';
import { optionalJournalId } from '../journals/tables.ts';

export const auditLog = pgTable(
  'audit_log',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: optionalJournalId(),
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as text as well, so the record still says who it was if the account is removed. */
    actorUsername: text('actor_username').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);
