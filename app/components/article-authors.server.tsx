import { renderToStaticMarkup } from 'react-dom/server';
import { numberAffiliations } from '../../common/citation.ts';
import { countryName } from '../../common/countries.ts';
import { OrcidLink } from './OrcidLink.tsx';

/** An article's author as its page shows them (the catalog's author, without what the page leaves out). */
export interface PageAuthor {
  name: string;
  affiliation: string;
  orcid?: string | null;
  /** ISO 3166-1 alpha-2; shown after the affiliation by its English name. */
  country?: string;
  /** The affiliation's ROR link (https://ror.org/…): the affiliation links to it. */
  ror?: string | null;
  /** The corresponding author: marked, with their e-mail (as the page's Scholar tags give it). */
  primary_contact?: boolean;
  email?: string;
}

/**
 * The article page's by-line: each author's name with the number of their affiliation and, when the
 * journal knows it, their ORCID iD (the green iD mark linked to orcid.org), then the numbered affiliations.
 * Made on the server as HTML (like the open reviews): none of it, the numbering included, is in the page's
 * script, which has no room to spare (decision 0029).
 */
function ArticleAuthors({ authors: list }: { authors: readonly PageAuthor[] }) {
  const { authors, affiliations } = numberAffiliations(list);
  // An affiliation's ROR link and country: the first author's under it that gives them.
  const placeOf = (text: string) => ({
    ror: list.find((a) => a.affiliation.trim() === text && a.ror)?.ror ?? null,
    country: list.find((a) => a.affiliation.trim() === text && a.country)?.country ?? '',
  });
  const contact = list.find((a) => a.primary_contact);
  return (
    <>
      <ul className="article-authors__names">
        {authors.map((author, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: authors keep their order; two may share a name.
          <li key={i}>
            {author.name}
            {author.primary_contact ? (
              <>
                <span aria-hidden="true">*</span>
                <span className="visually-hidden"> (corresponding author)</span>
              </>
            ) : null}
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
        {affiliations.map((a) => {
          const { ror, country } = placeOf(a.text);
          return (
            <li key={a.mark}>
              <sup>{a.mark}</sup> {ror ? <a href={ror}>{a.text}</a> : a.text}
              {country ? `, ${countryName(country)}` : null}
            </li>
          );
        })}
      </ol>
      {contact ? (
        <p className="article-authors__contact">
          <span aria-hidden="true">* </span>Corresponding author: {contact.name}
          {contact.email ? (
            <>
              , <a href={`mailto:${contact.email}`}>{contact.email}</a>
            </>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

/** The inside of the page's `<section aria-label="Authors">`, as HTML. */
export function articleAuthorsHtml(authors: readonly PageAuthor[]): string {
  return renderToStaticMarkup(<ArticleAuthors authors={authors} />);
}
