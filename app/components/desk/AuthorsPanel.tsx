import { OrcidLink } from '../OrcidLink.tsx';
import type { DeskSubmission } from './desk-loader.server.ts';

/** The authors in their order, with affiliation, e-mail and ORCID iD. */
export function AuthorsPanel({ authors }: { authors: DeskSubmission['authors'] }) {
  return (
    <section className="panel" aria-labelledby="authors-title">
      <h2 id="authors-title">Authors</h2>
      <ol className="author-list desk-authors">
        {authors.map((a) => (
          <li key={`${a.email}|${a.name}|${a.affiliation}`}>
            <strong>{a.name}</strong>
            {a.superscript ? <sup>{a.superscript}</sup> : null}, {a.affiliation}
            <br />
            <a href={`mailto:${a.email}`}>{a.email}</a>
            {a.orcid ? (
              <>
                <br />
                <OrcidLink orcid={a.orcid} name={a.name} />
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
