import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables.ts';
import { issues } from '../catalog/tables.ts';
import { journalId } from '../journals/tables.ts';

/** A signed-in reader's request for new-issue e-mail alerts: one row per subscribed account. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The secret of the unsubscribe link in every alert: it works without signing in. */
    unsubscribeToken: uuid('unsubscribe_token').notNull().default(sql`gen_random_uuid()`),
  },
  (t) => [
    primaryKey({ columns: [t.journalId, t.userId] }),
    uniqueIndex('subscriptions_unsubscribe_token_idx').on(t.unsubscribeToken),
  ],
);

/**
 * The new-issue alert of one issue: at most one per issue (the primary key is what makes "send once" hold,
 * even for two editors pressing the button at the same moment). Delivery runs after the request, in the
 * background; `finishedAt` is set when every subscriber has been handled.
 */
export const issueAlerts = pgTable('issue_alerts', {
  /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
  journalId: journalId(),
  issueId: integer('issue_id')
    .primaryKey()
    .references(() => issues.id, { onDelete: 'cascade' }),
  requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
  requestedByUsername: text('requested_by_username').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  /** Subscribers when the alert was requested (the delivery rows are the record of who got it). */
  recipients: integer('recipients').notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * One subscriber's copy of one alert. The row is written in the transaction that queues the message, so a
 * subscriber never gets the same alert twice, whatever restarts or retries happen. Rows from before the
 * job queue (no `mail_id`) were claimed, then sent, and say so in `status`.
 */
export const issueAlertDeliveries = pgTable(
  'issue_alert_deliveries',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issueAlerts.issueId, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    status: text('status', { enum: ['sending', 'sent', 'failed'] }).notNull(),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The queued message (mail_log): its status is the delivery's from then on. */
    mailId: integer('mail_id'),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.userId] }),
    index('issue_alert_deliveries_status_idx').on(t.issueId, t.status),
  ],
);
