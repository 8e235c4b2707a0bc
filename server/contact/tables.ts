import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { journalId } from '../journals/tables.ts';

export const contactMessages = pgTable('contact_messages', {
  /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
  journalId: journalId(),
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  handledAt: timestamp('handled_at', { withTimezone: true }),
});
