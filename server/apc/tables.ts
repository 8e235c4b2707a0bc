import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables.ts';
import { journalId } from '../journals/tables.ts';
import { reviewAssignments } from '../review/tables.ts';
import { submissions } from '../submissions/tables.ts';

/**
 * The article processing charge (decision 0063): one invoice per accepted submission (a 0 charge too, so the
 * ledger shows it as "nothing owed"), its payments, and the reviewers' discount vouchers. Money is integer
 * minor units; the charge's rule is copied onto the invoice when it is made, so a later change of the
 * journal's rule never changes an invoice already sent.
 */
export const apcInvoices = pgTable(
  'apc_invoices',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** APC-2026-0007: the year it was made (the journal's time zone) and its place in that year. */
    number: text('number').notNull(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    /** The day the paper first arrived (YYYY-MM-DD, journal's time zone): what the rule compared. */
    submittedOn: text('submitted_on').notNull(),
    /** The day it was made (YYYY-MM-DD, journal's time zone). */
    issuedOn: text('issued_on').notNull(),
    currency: text('currency').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    /** Why: "submitted 3 March 2026, on or after 1 June 2025: 100 USD". */
    reason: text('reason').notNull(),
    paymentInstructions: text('payment_instructions').notNull(),
    waiverState: text('waiver_state', { enum: ['requested', 'granted', 'declined'] }),
    waiverReason: text('waiver_reason').notNull().default(''),
    waiverMessage: text('waiver_message').notNull().default(''),
    waivedMinor: integer('waived_minor').notNull().default(0),
    voucherId: integer('voucher_id'),
    discountMinor: integer('discount_minor').notNull().default(0),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('apc_invoices_submission_unique').on(t.submissionId),
    unique('apc_invoices_journal_number_unique').on(t.journalId, t.number),
    index('apc_invoices_created_idx').on(t.createdAt),
  ],
);

export const apcPayments = pgTable(
  'apc_payments',
  {
    journalId: journalId(),
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => apcInvoices.id, { onDelete: 'cascade' }),
    paidOn: text('paid_on').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    method: text('method').notNull(),
    reference: text('reference').notNull(),
    recordedById: integer('recorded_by_id').references(() => users.id, { onDelete: 'set null' }),
    recordedBy: text('recorded_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One payment per reference on an invoice: the same payment recorded twice is recorded once.
  (t) => [uniqueIndex('apc_payments_invoice_reference_idx').on(t.invoiceId, sql`lower(${t.reference})`)],
);

export const apcVouchers = pgTable(
  'apc_vouchers',
  {
    journalId: journalId(),
    id: serial('id').primaryKey(),
    /** ABCD-EFGH-JKLM: unique across the site, so another journal's code is known as such. */
    code: text('code').notNull(),
    reviewerId: integer('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewerName: text('reviewer_name').notNull(),
    reviewerEmail: text('reviewer_email').notNull(),
    assignmentId: integer('assignment_id').references(() => reviewAssignments.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['percent', 'amount'] }).notNull(),
    /** A percentage (1-100) or an amount in minor units of `currency`. */
    value: integer('value').notNull(),
    currency: text('currency').notNull(),
    /** The last day it can be used (YYYY-MM-DD, the journal's time zone). */
    expiresOn: text('expires_on').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedInvoiceId: integer('used_invoice_id'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('apc_vouchers_code_idx').on(t.code),
    index('apc_vouchers_assignment_idx').on(t.assignmentId),
  ],
);
