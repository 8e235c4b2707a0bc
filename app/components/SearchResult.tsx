import { Link } from 'react-router';

export interface Segment {
  text: string;
  match: boolean;
}

/** Highlighted text from the server: plain-text segments, the matches in <mark>. Never HTML. */
export function Highlighted({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the segments are a fixed sequence of text.
        s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>,
      )}
    </>
  );
}

/** What a result of the search API (`SearchResult` in server/search/schemas.ts) gives the page. */
export interface SearchResultRow {
  id: number;
  title: string;
  title_highlighted: Segment[];
  authors: string[];
  article_type: string;
  volume_number: number;
  issue_number: number;
  year: number;
  snippet: Segment[];
  snippet_source: 'abstract' | 'full_text';
}

/** A search result as the page shows it (the journal's search and the site's alike). */
export function searchHitOf(r: SearchResultRow): SearchHit {
  return {
    id: r.id,
    title: r.title,
    titleHighlighted: r.title_highlighted,
    authors: r.authors,
    articleType: r.article_type,
    volume: r.volume_number,
    issue: r.issue_number,
    year: r.year,
    snippet: r.snippet,
    snippetSource: r.snippet_source,
  };
}

export interface SearchHit {
  id: number;
  title: string;
  titleHighlighted: Segment[];
  authors: string[];
  articleType: string;
  volume: number;
  issue: number;
  year: number;
  snippet: Segment[];
  snippetSource: 'abstract' | 'full_text';
}

/**
 * One search result: title (to the article page), where it was published, authors, a snippet. A result of
 * the site's search (decision 0057) names its journal and links to the article at the journal's address.
 */
export function SearchResult({
  hit,
  site,
}: {
  hit: SearchHit;
  site?: { href: string; journal: { title: string; href: string } };
}) {
  const titleId = `search-result-${hit.id}`;
  const title = <Highlighted segments={hit.titleHighlighted} />;
  return (
    <article className="search-result" aria-labelledby={titleId}>
      <p className="search-result__where">
        {site ? (
          <>
            <a href={site.journal.href}>{site.journal.title}</a> ·{' '}
          </>
        ) : null}
        {hit.articleType} · Volume {hit.volume}, Issue {hit.issue} · {hit.year}
      </p>
      <h3 className="search-result__title" id={titleId}>
        {site ? <a href={site.href}>{title}</a> : <Link to={`/article/${hit.id}`}>{title}</Link>}
      </h3>
      {hit.authors.length ? <p className="search-result__authors">{hit.authors.join(', ')}</p> : null}
      {hit.snippet.length ? (
        <p className="search-result__snippet">
          <span className="search-result__source">
            {hit.snippetSource === 'full_text' ? 'Full text: ' : 'Abstract: '}
          </span>
          <Highlighted segments={hit.snippet} />
        </p>
      ) : null}
    </article>
  );
}
