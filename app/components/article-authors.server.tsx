import { renderToStaticMarkup } from 'react-dom/server';
import { numberAffiliations } from '../../common/citation.ts';
import { OrcidLink } from './OrcidLink.tsx';

/** An article's author as its page shows them (the catalog's author, without what the page leaves out). */
export interface PageAuthor {
  name: string;
  affiliation: string;
  orcid?: string | null;
}

/**
 * The article page's by-line: each author's name with the number of their affiliation and, when the
 * journal knows it, their ORCID iD (the green iD mark linked to orcid.org), then the numbered affiliations.
 * Made on the server as HTML (like the open reviews): none of it, the numbering included, is in the page's
 * script, which has no room to spare (decision 0029).
 */
function ArticleAuthors({ authors: list }: { authors: readonly PageAuthor[] }) {
  const { authors, affiliations } = numberAffiliations(list);
  return (
    <>
      <ul className="article-authors__names">
        {authors.map((author, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: authors keep their order; two may share a name.
          <li key={i}>
            {author.name}
            <sup>
              <span className="visually-hidden"> affiliation </span>
              {author.mark}
            </sup>
            {author.orcid ? (
              <>
                {' '}
                <OrcidLink orcid={author.orcid} name={author.name} compact />
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <ol className="article-authors__affiliations" aria-label="Affiliations">
        {affiliations.map((a) => (
          <li key={a.mark}>
            <sup>{a.mark}</sup> {a.text}
          </li>
        ))}
      </ol>
    </>
  );
}

/** The inside of the page's `<section aria-label="Authors">`, as HTML. */
export function articleAuthorsHtml(authors: readonly PageAuthor[]): string {
  return renderToStaticMarkup(<ArticleAuthors authors={authors} />);
}
