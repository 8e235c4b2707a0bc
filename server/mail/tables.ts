import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { submissions } from '../submissions/tables.ts';
import { optionalJournalId } from '../journals/tables.ts';

export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Every e-mail the journal sends, as it was sent and what became of it: the communication log of a
 * submission is its rows with `submission_id`. The body is stored with every link that carries a secret
 * (a reset, confirmation or unsubscribe token) replaced by "[link removed]": the log never holds a token.
 */
export const mailLog = pgTable(
  'mail_log',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: optionalJournalId(),
    id: serial('id').primaryKey(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The recipients, comma-separated as in the To: header. */
    recipients: text('recipients').notNull(),
    subject: text('subject').notNull(),
    /** The plain-text body, secrets' links removed. */
    body: text('body').notNull(),
    submissionId: integer('submission_id').references(() => submissions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The job that sends it (none for a message sent at once, in the request). */
    jobId: integer('job_id'),
  },
  (t) => [
    index('mail_log_submission_idx').on(t.submissionId, t.queuedAt),
    uniqueIndex('mail_log_job_idx').on(t.jobId),
  ],
);
