import type {
  AssignmentState,
  AssignmentStatus,
  Question,
  Recommendation,
  ReviewMode,
} from '../../common/review.ts';

/**
 * The one projection of peer review (decision 0023): what a reviewer, an author and the public may see of
 * a round, decided here and nowhere else. In double-anonymous review nothing given to a reviewer carries
 * an author's name, e-mail or affiliation, and in double-anonymous and anonymous review nothing given to an
 * author carries a reviewer's identity. Editors see everything (they get the rows as they are).
 */

export interface SubmissionFacts {
  id: number;
  reference: string;
  title: string;
  abstract: string;
  articleType: string;
  keywords: string;
  authors: { name: string; email: string; affiliation: string }[];
}

export interface AssignmentFacts {
  id: number;
  state: AssignmentState;
  status: AssignmentStatus;
  responseDue: string;
  reviewDue: string;
  invitedAt: Date;
  respondedAt: Date | null;
  submittedAt: Date | null;
  recommendation: Recommendation | null;
  commentsForAuthor: string;
  confidentialComments: string;
  answers: Record<string, unknown>;
  attachmentFileId: number | null;
  publishAgreed: boolean;
  draftSavedAt: Date | null;
  sharedAt: Date | null;
  reviewer: { name: string; affiliation: string; orcid: string | null };
}

export interface RoundFacts {
  id: number;
  number: number;
  version: number;
  mode: ReviewMode;
  authorResponse: string;
  decision: string | null;
  decidedAt: Date | null;
  /** With a revision request: the day the author's revision is due (end of that day in the journal's zone). */
  revisionDue: string | null;
  questions: Question[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Whether reviewers see who wrote the manuscript. */
export const reviewersSeeAuthors = (mode: ReviewMode) => mode !== 'double-anonymous';
/** Whether authors see who reviewed it. */
export const authorsSeeReviewers = (mode: ReviewMode) => mode === 'open';

/**
 * The reviewer's view of their assignment: the invitation (title, abstract, type, keywords, due dates,
 * mode), the authors only when the mode allows, the files only once accepted, their own review, and the
 * authors' response to the previous round.
 */
export function reviewerView(
  s: SubmissionFacts,
  r: RoundFacts,
  a: AssignmentFacts,
  files: { id: number; name: string; size: number; mediaType: string }[],
  timeZone: string,
) {
  const working = a.state === 'accepted' || a.state === 'submitted';
  return {
    id: a.id,
    status: a.status,
    state: a.state,
    responseDue: a.responseDue,
    reviewDue: a.reviewDue,
    timeZone,
    invitedAt: a.invitedAt.toISOString(),
    round: r.number,
    mode: r.mode,
    manuscript: {
      reference: s.reference,
      title: s.title,
      abstract: s.abstract,
      articleType: s.articleType,
      keywords: s.keywords,
      authors: reviewersSeeAuthors(r.mode)
        ? s.authors.map((x) => ({ name: x.name, affiliation: x.affiliation }))
        : null,
    },
    authorResponse: r.number > 1 ? r.authorResponse : '',
    files: working ? files : null,
    questions: r.questions,
    review: working
      ? {
          recommendation: a.recommendation,
          commentsForAuthor: a.commentsForAuthor,
          confidentialComments: a.confidentialComments,
          answers: a.answers,
          hasAttachment: a.attachmentFileId !== null,
          publishAgreed: a.publishAgreed,
          draftSavedAt: iso(a.draftSavedAt),
          submittedAt: iso(a.submittedAt),
        }
      : null,
    roundDecided: r.decidedAt !== null,
  };
}
export type ReviewerView = ReturnType<typeof reviewerView>;

/**
 * The author's view of their submission's review: each round's progress (counts, never names outside open
 * review) and the reviews shared with a decision or after it, as "Reviewer 1", "Reviewer 2" (in the order
 * they were shared, then of invitation), with the name only in open review.
 */
export function authorView(rounds: { round: RoundFacts; assignments: AssignmentFacts[] }[]) {
  return rounds.map(({ round, assignments }) => {
    const counted = assignments.filter((a) => a.state !== 'cancelled');
    // Numbered in the order they were shared (with the decision, then later), so a review shared after the
    // decision takes the next number and none already mailed to the author changes its label.
    const shared = assignments
      .filter((a) => a.state === 'submitted' && a.sharedAt)
      .sort((x, y) => x.sharedAt!.getTime() - y.sharedAt!.getTime() || x.id - y.id)
      .map((a, i) => ({
        label: `Reviewer ${i + 1}`,
        assignmentId: a.id,
        reviewer: authorsSeeReviewers(round.mode) ? a.reviewer.name : null,
        recommendation: a.recommendation,
        comments: a.commentsForAuthor,
        hasAttachment: a.attachmentFileId !== null,
        submittedAt: iso(a.submittedAt),
      }));
    return {
      round: round.number,
      version: round.version,
      mode: round.mode,
      decision: round.decision,
      decidedAt: iso(round.decidedAt),
      revisionDue: round.revisionDue,
      progress: {
        invited: counted.filter((a) => a.state === 'invited').length,
        reviewing: counted.filter((a) => a.state === 'accepted').length,
        declined: counted.filter((a) => a.state === 'declined').length,
        submitted: counted.filter((a) => a.state === 'submitted').length,
      },
      reviews: shared,
    };
  });
}
export type AuthorView = ReturnType<typeof authorView>;

/** An agreed open review of a published article, for its public page. */
export function publicReview(a: AssignmentFacts, round: RoundFacts) {
  return {
    round: round.number,
    reviewer: a.reviewer.name,
    orcid: a.reviewer.orcid,
    recommendation: a.recommendation,
    comments: a.commentsForAuthor,
    submittedAt: iso(a.submittedAt)!,
  };
}
