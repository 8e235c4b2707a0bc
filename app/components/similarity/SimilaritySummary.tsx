import { Link } from 'react-router';
import type { SimilaritySummary as Summary } from '../../../server/similarity/service.ts';
import { percent } from './SimilarityReport.tsx';

/**
 * The similarity score on a submission's desk page: what the arrival check stored for the latest version
 * (`services.similarity.summaryForSubmission(id)` in the loader), the largest sources, and a link to the
 * full report. Shows "being checked" while the background check runs, and the reason when it failed.
 */
export function SimilaritySummary({
  summary,
  submissionId,
  headingLevel = 2,
}: {
  summary: Summary | null;
  submissionId: number;
  headingLevel?: 2 | 3;
}) {
  const H = `h${headingLevel}` as 'h2' | 'h3';
  const report = `/editor-dashboard/submissions/${submissionId}/similarity`;
  return (
    <section aria-labelledby="similarity-summary-title" className="sim-summary">
      <H id="similarity-summary-title">Similarity</H>
      {!summary ? (
        <p>No manuscript to check.</p>
      ) : summary.status === 'pending' ? (
        <p>
          Version {summary.version} is being checked in the background. <Link to={report}>Open the report</Link> to check
          it now.
        </p>
      ) : summary.status === 'failed' ? (
        <p>
          Version {summary.version} could not be checked: {summary.error}
        </p>
      ) : (
        <>
          <p>
            Version {summary.version}: <strong>{percent(summary.plagiarismPercentage ?? 0)}</strong> similar
            {summary.grammarQualityPercentage !== null
              ? `, grammar quality ${percent(summary.grammarQualityPercentage)}`
              : ''}
            . <Link to={report}>Full report</Link>
          </p>
          {summary.sources.length ? (
            <ul className="sim-summary__sources">
              {summary.sources.slice(0, 3).map((s) => (
                <li key={`${s.label}-${s.sharePercentage}`}>
                  {s.articleId !== null ? <Link reloadDocument to={`/article/${s.articleId}`}>{s.label}</Link> : s.label}:{' '}
                  {percent(s.sharePercentage)}
                </li>
              ))}
              {summary.sources.length > 3 ? <li>and {summary.sources.length - 3} more</li> : null}
            </ul>
          ) : (
            <p>No matching source.</p>
          )}
        </>
      )}
    </section>
  );
}
