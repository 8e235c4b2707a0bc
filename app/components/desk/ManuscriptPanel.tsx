import type { DeskSubmission } from './desk-loader.server.ts';

/** What the author typed about the manuscript: type, keywords, abstract and the three statements. */
export function ManuscriptPanel({ submission: s }: { submission: DeskSubmission }) {
  return (
    <section className="panel" aria-labelledby="manuscript-title">
      <h2 id="manuscript-title">Manuscript</h2>
      <dl className="details-list">
        <div>
          <dt>Article type</dt>
          <dd>{s.articleType}</dd>
        </div>
        <div>
          <dt>Keywords</dt>
          <dd>{s.keywords}</dd>
        </div>
        <div>
          <dt>Abstract</dt>
          <dd className="prose-text">{s.abstract}</dd>
        </div>
        {(
          [
            ['Conflict of interest', s.conflictOfInterest],
            ['Funding statement', s.fundingStatement],
            ['Data availability statement', s.dataAvailabilityStatement],
          ] as const
        ).map(([term, text]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd className="prose-text">{text || <span className="muted">None given.</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
