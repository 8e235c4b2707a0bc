import type {
  DeclineInput,
  InviteInput,
  ReviewDraft,
  ReviewerProfileInput,
  ReviewFilter,
  ReviewFormInput,
} from '../../common/review.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { Actor } from '../audit/service.ts';
import { MINUTE } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { ReviewHooks } from '../submissions/service.ts';
import { accept, decline } from './answer.ts';
import { articleReviews, authorAttachment, forAuthor, publishedReviews } from './author-views.ts';
import {
  linkFor,
  type ReviewContext,
  type ReviewDeps,
  type ReviewerAccess,
  type RoundRow,
  reviewContext,
} from './context.ts';
import { onDecision, onRevision } from './decision.ts';
import { deskCondition } from './desk-filters.ts';
import { cancel, markRead, rate, reinstate, setDueDates, thank } from './editor-actions.ts';
import { editorAttachment, editorView } from './editor-view.ts';
import { createForm, forms, updateForm } from './forms.ts';
import { invite } from './invite.ts';
import { pool, sitePool } from './pool.ts';
import { profile, saveProfile } from './profiles.ts';
import { remindNow } from './remind-now.ts';
import { REMINDER_PASS, reminderPass } from './reminders.ts';
import { attachment, file, mine, reviewing, view } from './reviewer-access.ts';
import { fileProperties, withoutNamesForReviewers } from './reviewer-files.ts';
import { openRound, setMode, setReviewerFiles } from './rounds.ts';
import { shareLater } from './share-later.ts';
import { removeAttachment, saveDraft, submit } from './write-review.ts';

export type { ReviewDeps, ReviewerAccess };

/**
 * Peer review, as the rest of the journal calls it (`services.review.invite(...)`): a thin facade over one
 * file per use case (decision 0043). Each method hands the shared context to its use case and returns what
 * it returns; the rules, queries and e-mails live in the use case's file:
 *
 * - rounds.ts, reviewer-files.ts — rounds, their mode and the files reviewers get (and their properties)
 * - invite.ts — invitations; answer.ts — accepting or declining; write-review.ts — drafts and submitting
 * - reviewer-access.ts — how a reviewer reaches an assignment, and what they see; profiles.ts
 * - editor-view.ts, editor-actions.ts, remind-now.ts — the editor's side; pool.ts; forms.ts
 * - author-views.ts, author-attachment.ts — authors and the public
 * - decision.ts, share-later.ts — the desk's decisions; reminders.ts; desk-filters.ts
 * - context.ts — the context and the readers they share; notices.ts — the e-mails several of them send
 */
export class ReviewService implements ReviewHooks {
  private readonly ctx: ReviewContext;

  constructor(db: Db, deps: ReviewDeps) {
    this.ctx = reviewContext(db, deps);
    deps.jobs?.recurring(REMINDER_PASS, { every: MINUTE, firstAfter: 0, perJournal: true }, async () => {
      await this.reminderPass();
    });
  }

  /** The invitation link of an assignment (its token is a secret: pass it in `secrets` when mailing). */
  linkFor(a: { id: number; linkNonce: string }) {
    return linkFor(this.ctx, a);
  }

  // ---- Rounds
  openRound(tx: Tx, submissionId: number) {
    return openRound(this.ctx, tx, submissionId);
  }
  setMode(actor: Actor, submissionId: number, mode: RoundRow['mode']) {
    return setMode(this.ctx, actor, submissionId, mode);
  }
  setReviewerFiles(actor: Actor, submissionId: number, fileIds: number[]) {
    return setReviewerFiles(this.ctx, actor, submissionId, fileIds);
  }
  fileProperties(submissionId: number) {
    return fileProperties(this.ctx, submissionId);
  }
  withoutNamesForReviewers(actor: Actor, submissionId: number) {
    return withoutNamesForReviewers(this.ctx, actor, submissionId);
  }

  // ---- Invitations
  invite(actor: Actor, submissionId: number, input: InviteInput) {
    return invite(this.ctx, actor, submissionId, input);
  }

  // ---- The reviewer's side
  view(access: ReviewerAccess, id: number) {
    return view(this.ctx, access, id);
  }
  file(access: ReviewerAccess, id: number, fileId: number) {
    return file(this.ctx, access, id, fileId);
  }
  mine(user: SessionUser) {
    return mine(this.ctx, user);
  }
  reviewing(userId: number) {
    return reviewing(this.ctx, userId);
  }
  accept(access: ReviewerAccess, id: number) {
    return accept(this.ctx, access, id);
  }
  decline(access: ReviewerAccess, id: number, input: DeclineInput) {
    return decline(this.ctx, access, id, input);
  }
  saveDraft(access: ReviewerAccess, id: number, draft: ReviewDraft, upload?: CheckedUpload) {
    return saveDraft(this.ctx, access, id, draft, upload);
  }
  submit(access: ReviewerAccess, id: number, draft: ReviewDraft) {
    return submit(this.ctx, access, id, draft);
  }
  removeAttachment(access: ReviewerAccess, id: number) {
    return removeAttachment(this.ctx, access, id);
  }
  attachment(access: ReviewerAccess, id: number) {
    return attachment(this.ctx, access, id);
  }

  // ---- Reviewer profiles
  profile(user: SessionUser) {
    return profile(this.ctx, user);
  }
  saveProfile(user: SessionUser, input: ReviewerProfileInput) {
    return saveProfile(this.ctx, user, input);
  }

  // ---- The editor's side
  editorView(submissionId: number) {
    return editorView(this.ctx, submissionId);
  }
  cancel(actor: Actor, id: number) {
    return cancel(this.ctx, actor, id);
  }
  reinstate(actor: Actor, id: number) {
    return reinstate(this.ctx, actor, id);
  }
  setDueDates(actor: Actor, id: number, input: { responseDue?: string; reviewDue?: string }) {
    return setDueDates(this.ctx, actor, id, input);
  }
  remindNow(actor: Actor, id: number) {
    return remindNow(this.ctx, actor, id);
  }
  markRead(actor: Actor, id: number) {
    return markRead(this.ctx, actor, id);
  }
  thank(actor: Actor, id: number) {
    return thank(this.ctx, actor, id);
  }
  rate(actor: Actor, id: number, rating: number) {
    return rate(this.ctx, actor, id, rating);
  }
  editorAttachment(id: number) {
    return editorAttachment(this.ctx, id);
  }

  // ---- The reviewer pool and review forms
  pool(q?: string) {
    return pool(this.ctx, q);
  }
  /** The reviewers of every journal of the site, for an editor who asks (decision 0058). */
  sitePool(q?: string) {
    return sitePool(this.ctx, q);
  }
  forms() {
    return forms(this.ctx);
  }
  createForm(actor: Actor, input: ReviewFormInput) {
    return createForm(this.ctx, actor, input);
  }
  updateForm(actor: Actor, id: number, input: ReviewFormInput) {
    return updateForm(this.ctx, actor, id, input);
  }

  // ---- Authors and the public
  forAuthor(user: SessionUser, submissionId: number) {
    return forAuthor(this.ctx, user, submissionId);
  }
  authorAttachment(user: SessionUser, submissionId: number, assignmentId: number) {
    return authorAttachment(this.ctx, user, submissionId, assignmentId);
  }
  articleReviews(articleId: number) {
    return articleReviews(this.ctx, articleId);
  }
  publishedReviews(submissionId: number) {
    return publishedReviews(this.ctx, submissionId);
  }

  // ---- Decisions (called by the desk, in its transaction)
  onDecision(tx: Tx, o: Parameters<ReviewHooks['onDecision']>[1]) {
    return onDecision(this.ctx, tx, o);
  }
  onRevision(tx: Tx, submissionId: number, responseToReviewers: string) {
    return onRevision(this.ctx, tx, submissionId, responseToReviewers);
  }
  shareLater(actor: Actor, submissionId: number, assignmentIds: number[]) {
    return shareLater(this.ctx, actor, submissionId, assignmentIds);
  }

  // ---- Reminders and the desk list's filters
  reminderPass(now?: Date) {
    return reminderPass(this.ctx, now);
  }
  deskCondition(filter: ReviewFilter) {
    return deskCondition(this.ctx, filter);
  }
}
