import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables.ts';

/** A signed-in reader's request for new-issue e-mail alerts: one row per subscribed account. */
export const subscriptions = pgTable('subscriptions', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
