import { OrcidLink } from './OrcidLink.tsx';
import { DateText } from './submission/DateText.tsx';

/** What a submission says about itself, as its detail (`submissions.detail`) gives it to both pages. */
export interface SubmissionMetadataFields {
  articleType: string;
  keywords: string;
  abstract: string;
  conflictOfInterest: string | null;
  fundingStatement: string | null;
  dataAvailabilityStatement: string | null;
  createdAt: string;
  authors: {
    name: string;
    email: string;
    affiliation: string;
    superscript: string | null;
    orcid: string | null;
  }[];
}

/**
 * The submission's metadata, written once for the editorial desk and for its author. The desk shows it in two
 * panels (the manuscript, then the authors with a mail link each, as editors write to them); the author sees
 * one panel, "the manuscript as submitted", with the day it was sent and the authors among the terms.
 */
export function SubmissionMetadata({
  submission: s,
  reader,
}: {
  submission: SubmissionMetadataFields;
  reader: 'editor' | 'author';
}) {
  const terms = (extra: { submitted?: boolean; authors?: boolean }) => (
    <dl className="details-list">
      <div>
        <dt>Article type</dt>
        <dd>{s.articleType}</dd>
      </div>
      {extra.submitted ? (
        <div>
          <dt>Submitted</dt>
          <dd>
            <DateText iso={s.createdAt} time />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Keywords</dt>
        <dd>{s.keywords}</dd>
      </div>
      {extra.authors ? (
        <div>
          <dt>Authors</dt>
          <dd>
            <AuthorList authors={s.authors} reader="author" />
          </dd>
        </div>
      ) : null}
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
  );

  if (reader === 'author') {
    return (
      <section className="panel" aria-labelledby="details-title">
        <h2 id="details-title">The manuscript as submitted</h2>
        {terms({ submitted: true, authors: true })}
      </section>
    );
  }
  return (
    <>
      <section className="panel" aria-labelledby="manuscript-title">
        <h2 id="manuscript-title">Manuscript</h2>
        {terms({})}
      </section>
      <section className="panel" aria-labelledby="authors-title">
        <h2 id="authors-title">Authors</h2>
        <AuthorList authors={s.authors} reader="editor" />
      </section>
    </>
  );
}

/** The authors in order; editors get each address as a mail link on a line of its own. */
function AuthorList({
  authors,
  reader,
}: {
  authors: SubmissionMetadataFields['authors'];
  reader: 'editor' | 'author';
}) {
  const editor = reader === 'editor';
  return (
    <ol className={editor ? 'author-list desk-authors' : 'author-list'}>
      {authors.map((a) => (
        <li key={`${a.email}|${a.name}|${a.affiliation}`}>
          <strong>{a.name}</strong>
          {a.superscript ? <sup>{a.superscript}</sup> : null}, {a.affiliation}
          {editor ? (
            <>
              <br />
              <a href={`mailto:${a.email}`}>{a.email}</a>
            </>
          ) : (
            <>
              {' '}
              <span className="muted">({a.email})</span>
            </>
          )}
          {a.orcid ? (
            <>
              {editor ? <br /> : ' '}
              <OrcidLink orcid={a.orcid} name={a.name} />
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
