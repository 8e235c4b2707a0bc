import { renderToStaticMarkup } from 'react-dom/server';
import { formatDay } from '../../../common/dates.ts';
import { RECOMMENDATION_LABELS, type Recommendation } from '../../../common/review.ts';
import { OrcidLink } from '../OrcidLink.tsx';

/** An agreed open review of a published article (server/review/present.ts `publicReview`). */
export interface OpenReview {
  round: number;
  reviewer: string;
  orcid: string | null;
  recommendation: Recommendation | null;
  comments: string;
  submittedAt: string;
}

function OpenReviews({ reviews }: { reviews: OpenReview[] }) {
  return (
    <section aria-labelledby="open-reviews-title" className="article-section article-reviews">
      <h2 id="open-reviews-title">Open peer review</h2>
      <p className="article-reviews__intro">
        This article was reviewed in open review. These reviewers agreed to publish their reports.
      </p>
      {reviews.map((r, i) => (
        <article
          // biome-ignore lint/suspicious/noArrayIndexKey: the reviews keep their order (round, then invitation).
          key={i}
          className="article-review"
          aria-labelledby={`open-review-${i + 1}`}
        >
          <h3 id={`open-review-${i + 1}`} className="article-review__title">
            Review by {r.reviewer}
            {r.orcid ? (
              <>
                {' '}
                <OrcidLink orcid={r.orcid} name={r.reviewer} />
              </>
            ) : null}
          </h3>
          <p className="article-review__meta">
            Round {r.round} · <time dateTime={r.submittedAt}>{formatDay(r.submittedAt.slice(0, 10))}</time>
            {r.recommendation ? ` · Recommendation: ${RECOMMENDATION_LABELS[r.recommendation]}` : null}
          </p>
          <div className="article-review__text">
            {r.comments
              .split(/\n\s*\n/)
              .map((p) => p.trim())
              .filter(Boolean)
              .map((p, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity but their order.
                <p key={j}>{p}</p>
              ))}
          </div>
        </article>
      ))}
    </section>
  );
}

/**
 * The article page's open reviews as HTML, made on the server only: the page's scripts stay as they are
 * (its JavaScript budget, decision 0011) and the reviews are plain, readable markup. Empty when none.
 */
export function openReviewsHtml(reviews: OpenReview[]): string {
  return reviews.length ? renderToStaticMarkup(<OpenReviews reviews={reviews} />) : '';
}
