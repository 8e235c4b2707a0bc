import type { SQL } from 'drizzle-orm';
import type { DecisionConfirmation, ReviewFilter, RevisionKind } from '../../common/review.ts';
import type { SubmissionFields } from '../../common/schemas.ts';
import type { DecisionInput, SubmissionStatus } from '../../common/submissions.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Db, Tx } from '../db/client.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { SubmissionsContext, SubmissionsDeps } from './context.ts';
import { decide } from './decide.ts';
import { assertPublishable, publish, publishWarnings, setFinalPdf } from './publish.ts';
import {
  attentionCount,
  listSubmissions,
  ownFile,
  type SubmissionFilter,
  submissionDetail,
  submissionFile,
  submissionsOf,
} from './read.ts';
import { revise } from './revise.ts';
import { submit } from './submit.ts';

/**
 * The submissions' service: one object for the routes, pages and jobs to call, each method one use case in
 * its own file (submit.ts, read.ts, decide.ts, revise.ts, publish.ts), sharing the context of context.ts.
 */

/** Peer review's part of the desk's moves (server/review), wired in server/services.ts. */
export interface ReviewHooks {
  onDecision(
    tx: Tx,
    o: {
      submissionId: number;
      from: SubmissionStatus;
      to: SubmissionStatus;
      revisions?: RevisionKind;
      shareReviews?: number[];
      authorDue?: string;
      confirm?: DecisionConfirmation[];
    },
  ): Promise<{ mailAppendix: string; label: string; note: string }>;
  onRevision(tx: Tx, submissionId: number, responseToReviewers: string): Promise<void>;
  deskCondition(filter: ReviewFilter): Promise<SQL>;
}

/** The article processing charge's part (server/apc, decision 0063), wired in server/services.ts. */
export interface ApcHooks {
  /** In the transaction that accepts a submission: its invoice, e-mailed to the author. */
  onAccepted(tx: Tx, actor: SessionUser, submissionId: number): Promise<{ note: string }>;
  /** Before publishing: refuses an unpaid charge when the journal blocks it (`enforce`), else its warnings. */
  publishCheck(submissionId: number, opts: { enforce: boolean }): Promise<string[]>;
}

export class SubmissionsService implements SubmissionsContext {
  /** Peer review's hooks (set once by server/services.ts). */
  reviewHooks?: ReviewHooks;
  /** The article processing charge's hooks (set once by server/services.ts). */
  apcHooks?: ApcHooks;

  constructor(
    readonly db: Db,
    readonly deps: SubmissionsDeps,
  ) {}

  /**
   * Stores a submission with its authors and files in one go (all or nothing), then acknowledges it to
   * the submitting author and the editorial office.
   */
  submit(
    user: SessionUser,
    fields: SubmissionFields,
    manuscript: CheckedUpload,
    additional?: CheckedUpload,
    copyrightForm?: CheckedUpload,
  ): Promise<{ id: number; reference: string }> {
    return submit(this, user, fields, manuscript, additional, copyrightForm);
  }

  // ---- Reading (read.ts) ----------------------------------------------------------------------------

  /** The editors' desk: every submission, filtered and searched, newest first. */
  list(filter: SubmissionFilter) {
    return listSubmissions(this, filter);
  }

  /** How many submissions wait for an editor's move (decision 0039). */
  attentionCount(): Promise<number> {
    return attentionCount(this);
  }

  /** One submission with its authors, files (every version), history and article; for its author or editors. */
  detail(id: number, viewer: SessionUser) {
    return submissionDetail(this, id, viewer);
  }

  /** The signed copyright form of a submission (its author, or editors), or the final PDF (editors). */
  ownFile(id: number, which: 'copyright' | 'final', viewer: SessionUser) {
    return ownFile(this, id, which, viewer);
  }

  /** An author's own submissions, newest first, with the latest message from the editors. */
  forUser(userId: number) {
    return submissionsOf(this, userId);
  }

  /** A stored file of a submission, for its author or editors. */
  file(id: number, fileId: number, viewer: SessionUser) {
    return submissionFile(this, id, fileId, viewer);
  }

  // ---- The editorial road (decide.ts, revise.ts, publish.ts) ----------------------------------------

  /** An editor moves a submission on, with a message the author sees and receives by e-mail. */
  decide(actor: SessionUser, id: number, input: DecisionInput) {
    return decide(this, actor, id, input);
  }

  /** The author uploads a revised manuscript while revisions are requested. */
  revise(
    user: SessionUser,
    id: number,
    note: string,
    manuscript: CheckedUpload,
    additional?: CheckedUpload,
    responseToReviewers = '',
  ) {
    return revise(this, user, id, note, manuscript, additional, responseToReviewers);
  }

  /** Before publishing (decision 0035): the final PDF, kept with the accepted submission. */
  setFinalPdf(actor: SessionUser, id: number, pdf: CheckedUpload): Promise<void> {
    return setFinalPdf(this, actor, id, pdf);
  }

  /** Only an accepted submission, not yet published, is prepared and published. */
  assertPublishable(detail: { status: SubmissionStatus; articleId: number | null }) {
    assertPublishable(detail);
  }

  /** What publishing should warn about (it does not refuse). */
  publishWarnings(detail: { copyrightForm: unknown }): string[] {
    return publishWarnings(detail);
  }

  /** Publishes an accepted submission as an article of an issue in one step. */
  publish(
    actor: SessionUser,
    id: number,
    input: { issue_id: number; pages: string; doi: string | null },
    finalPdf: CheckedUpload | undefined,
    catalog: CatalogService,
    fullText?: { attach: (tx: Tx, submissionId: number, articleId: number) => Promise<void> },
  ): Promise<number> {
    return publish(this, actor, id, input, finalPdf, catalog, fullText);
  }
}
