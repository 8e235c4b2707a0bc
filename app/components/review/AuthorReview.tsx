import { Link } from 'react-router';
import {
  RECOMMENDATION_LABELS,
  ROUND_DECISION_LABELS,
  type Recommendation,
  type ReviewMode,
} from '../../../common/review.ts';
import { formatDay } from '../../../common/dates.ts';
import { DateText } from '../submission/DateText.tsx';

/** One round as the author sees it: the projection of server/review/present.ts (`authorView`), as sent. */
export interface AuthorRound {
  round: number;
  version: number;
  mode: ReviewMode;
  decision: string | null;
  decidedAt: string | null;
  revisionDue: string | null;
  progress: { invited: number; reviewing: number; declined: number; submitted: number };
  reviews: {
    label: string;
    assignmentId: number;
    reviewer: string | null;
    recommendation: Recommendation | null;
    comments: string;
    hasAttachment: boolean;
    submittedAt: string | null;
  }[];
}

const MODE_WORDS: Record<ReviewMode, string> = {
  'double-anonymous':
    'Double-anonymous review: the reviewers do not see your names, and you do not see theirs.',
  anonymous: 'Anonymous review: the reviewers see the authors; their names are not shown to you.',
  open: 'Open review: you and the reviewers see each other’s names.',
};

/** "Due by 24 December 2026 (end of the day, UTC time)": a due day ends at midnight in the journal's zone. */
export function dueText(day: string, zone: string) {
  return `${formatDay(day)} (end of the day, ${zone} time)`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the reviewers are doing, in counts: never who (decision 0023). */
function progressLine(p: AuthorRound['progress']): string {
  const parts = [
    p.invited ? `${plural(p.invited, 'invitation', 'invitations')} awaiting an answer` : '',
    p.reviewing ? `${plural(p.reviewing, 'reviewer', 'reviewers')} at work` : '',
    p.submitted ? `${plural(p.submitted, 'review', 'reviews')} received` : '',
  ].filter(Boolean);
  return parts.length ? `${parts.join(', ')}.` : 'The editors are choosing reviewers.';
}

/**
 * The peer review of the author's own submission: each round (newest first) with its progress while open,
 * its decision once made, and the reviews the editors shared with it, as "Reviewer 1", "Reviewer 2" (with the
 * name only in open review: the projection decides).
 */
export function AuthorReview({ submissionId, rounds }: { submissionId: number; rounds: AuthorRound[] }) {
  if (!rounds.length) return null;
  return (
    <section className="panel author-review" aria-labelledby="review-title">
      <h2 id="review-title">Peer review</h2>
      <ol className="author-review__rounds">
        {[...rounds].reverse().map((r) => (
          <li key={r.round} className="author-review__round">
            <h3 id={`round-${r.round}`}>
              Round {r.round} <span className="author-review__version">(version {r.version})</span>
            </h3>
            <p className="muted author-review__mode">{MODE_WORDS[r.mode]}</p>
            {r.decision ? (
              <p>
                <strong>{ROUND_DECISION_LABELS[r.decision] ?? r.decision}</strong>
                {r.decidedAt ? (
                  <>
                    , <DateText iso={r.decidedAt} />
                  </>
                ) : null}
                .
              </p>
            ) : (
              <p>
                <strong>In review.</strong> {progressLine(r.progress)}
              </p>
            )}
            {r.decision && !r.reviews.length && r.progress.submitted ? (
              <p className="muted">The editors have not shared this round’s reviews with you.</p>
            ) : null}
            {r.reviews.length ? (
              <ol className="shared-reviews" aria-label={`Reviews shared with you in round ${r.round}`}>
                {r.reviews.map((review) => (
                  <li key={review.assignmentId} className="shared-review">
                    <article aria-labelledby={`shared-${review.assignmentId}`}>
                      <h4 id={`shared-${review.assignmentId}`} className="shared-review__label">
                        {review.label}
                        {review.reviewer ? (
                          <span className="shared-review__name"> — {review.reviewer}</span>
                        ) : null}
                      </h4>
                      {review.recommendation ? (
                        <p className="shared-review__recommendation">
                          Recommendation: <strong>{RECOMMENDATION_LABELS[review.recommendation]}</strong>
                        </p>
                      ) : null}
                      <div className="prose-text shared-review__comments">{review.comments}</div>
                      {review.hasAttachment ? (
                        <p>
                          <Link
                            reloadDocument to={`/api/submissions/${submissionId}/reviews/${review.assignmentId}/attachment`}
                            download
                          >
                            Download the file attached by {review.label}
                          </Link>
                        </p>
                      ) : null}
                    </article>
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
