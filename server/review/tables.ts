import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  ASSIGNMENT_STATES,
  DECLINE_REASONS,
  type Question,
  RECOMMENDATIONS,
  REMINDER_KINDS,
  REVIEW_MODES,
} from '../../common/review.ts';
import { users } from '../accounts/tables.ts';
import { storedFiles } from '../files/tables.ts';
import { submissions } from '../submissions/tables.ts';
import { journalId } from '../journals/tables.ts';

/**
 * Peer review's tables (decision 0023). Reviewing is an assignment, not a role: a reviewer profile exists for
 * every person ever invited (with an account or only a name and e-mail until they accept).
 */
export const reviewerProfiles = pgTable(
  'reviewer_profiles',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    /** Null until a person invited by name and e-mail accepts (their account is created then). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    affiliation: text('affiliation').notNull().default(''),
    /** From the journal's areas. */
    interests: jsonb('interests').$type<string[]>().notNull().default([]),
    orcid: text('orcid'),
    /** Set by the reviewer: the editor sees it in the pool before inviting. */
    unavailableUntil: date('unavailable_until', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reviewer_profiles_email_idx').on(t.journalId, sql`lower(${t.email})`),
    uniqueIndex('reviewer_profiles_user_idx').on(t.journalId, t.userId),
  ],
);

/**
 * A review form: the questions reviewers answer. A version is never changed once a round uses it: an edit
 * then makes a new row (`previousId` pointing back) and the old one is `retired` (decision 0023).
 */
export const reviewForms = pgTable('review_forms', {
  /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
  journalId: journalId(),
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  questions: jsonb('questions').$type<Question[]>().notNull(),
  previousId: integer('previous_id'),
  retired: boolean('retired').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One round of review of one manuscript version. */
export const reviewRounds = pgTable(
  'review_rounds',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    /** The manuscript version under review (submission_files.version). */
    version: integer('version').notNull(),
    mode: text('mode', { enum: REVIEW_MODES }).notNull(),
    formId: integer('form_id').references(() => reviewForms.id, { onDelete: 'restrict' }),
    /**
     * What reviewers may download once they accept: stored file ids (the version's manuscript and additional
     * files; the editor may replace one with a copy whose document properties are removed).
     */
    reviewerFileIds: jsonb('reviewer_file_ids').$type<number[]>().notNull(),
    /** The author's response to the previous round's reviewers, written with this round's version. */
    authorResponse: text('author_response').notNull().default(''),
    /** The decision that closed the round (accepted, rejected, minor or major revisions). */
    decision: text('decision'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** When revisions are requested: the author's due day. */
    revisionDue: date('revision_due', { mode: 'string' }),
    /** Set when the author's revision arrives (stops the revision reminders). */
    revisedAt: timestamp('revised_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('review_rounds_number_unique').on(t.submissionId, t.number)],
);

export const reviewAssignments = pgTable(
  'review_assignments',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    roundId: integer('round_id')
      .notNull()
      .references(() => reviewRounds.id, { onDelete: 'cascade' }),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    profileId: integer('profile_id')
      .notNull()
      .references(() => reviewerProfiles.id, { onDelete: 'restrict' }),
    state: text('state', { enum: ASSIGNMENT_STATES }).notNull().default('invited'),
    /** For reinstating: the state a cancelled assignment had. */
    cancelledFrom: text('cancelled_from', { enum: ASSIGNMENT_STATES }),
    responseDue: date('response_due', { mode: 'string' }).notNull(),
    reviewDue: date('review_due', { mode: 'string' }).notNull(),
    /** Only the link's nonce: the token is an HMAC of it and the id, recomputed to check a link. */
    linkNonce: text('link_nonce').notNull(),
    /** The conflict-of-interest warning given at invitation (shared institution), if any. */
    warning: text('warning'),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    declineReason: text('decline_reason', { enum: DECLINE_REASONS }),
    declineComment: text('decline_comment'),
    suggestedReviewer: text('suggested_reviewer'),
    readAt: timestamp('read_at', { withTimezone: true }),
    thankedAt: timestamp('thanked_at', { withTimezone: true }),
    /** The editors' private rating of this review, 1-5. */
    rating: smallint('rating'),
    // The review itself, a draft until submittedAt.
    recommendation: text('recommendation', { enum: RECOMMENDATIONS }),
    commentsForAuthor: text('comments_for_author').notNull().default(''),
    confidentialComments: text('confidential_comments').notNull().default(''),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    attachmentFileId: integer('attachment_file_id').references(() => storedFiles.id, {
      onDelete: 'restrict',
    }),
    /**
     * Where authors do not see reviewers: the copy of the attached file without the properties that name the
     * reviewer, made when the author first downloads it (decision 0034). Null until then, and when the file
     * names no one (the author gets it as it is).
     */
    attachmentAuthorFileId: integer('attachment_author_file_id').references(() => storedFiles.id, {
      onDelete: 'restrict',
    }),
    /** Open review: the reviewer agrees that their review is published with the article. */
    publishAgreed: boolean('publish_agreed').notNull().default(false),
    /** Shared with the author in a decision (as "Reviewer N"). */
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    draftSavedAt: timestamp('draft_saved_at', { withTimezone: true }),
  },
  (t) => [
    index('review_assignments_round_idx').on(t.roundId),
    index('review_assignments_profile_idx').on(t.profileId),
    index('review_assignments_submission_idx').on(t.submissionId),
    index('review_assignments_open_idx').on(t.state),
  ],
);

/**
 * A reminder claimed: one row per (kind, subject, offset) — the subject is an assignment for response and
 * review reminders, a round for revision reminders. Inserted in the transaction that queues the mail, so a
 * reminder goes out exactly once across restarts and processes.
 */
export const reviewReminders = pgTable(
  'review_reminders',
  {
    /** The journal it belongs to (decision 0053): set from the scope, shown only to it. */
    journalId: journalId(),
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
    subjectId: integer('subject_id').notNull(),
    /** Days from the due day's end (negative before); null for an editor's "remind now". */
    offsetDays: integer('offset_days'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** False for an earlier reminder found due together with a later one after downtime: only the later goes. */
    mailed: boolean('mailed').notNull().default(true),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique('review_reminders_claim_unique').on(t.kind, t.subjectId, t.offsetDays)],
);
