import { doiUrl } from '../../common/citation.ts';
import { formatDay } from '../../common/dates.ts';

/**
 * What a table-of-contents entry shows, and no more (no abstract, no e-mail addresses), as a tuple: a long
 * issue sends hundreds of these in its route data, where a tuple costs a third less than an object.
 */
export type ListedArticle = readonly [
  id: number,
  title: string,
  articleType: string,
  /** "A. Author, B. Author" */
  authors: string,
  /** "1–10" */
  pages: string,
  doi: string | null,
  /** YYYY-MM-DD */
  date: string,
];

/**
 * One article in an issue's table of contents: title (to the article page), authors, pages, date, DOI.
 * Cheap to render hundreds of times: no hooks, plain links (the list hands their clicks to the router,
 * see `TocList`), and a date formatted without Intl.
 */
export function ArticleListItem({ article, prefix = '' }: { article: ListedArticle; prefix?: string }) {
  const [id, title, articleType, authors, pages, doi, date] = article;
  const titleId = `toc-article-${id}`;
  return (
    <article className="toc-entry" aria-labelledby={titleId}>
      <p className="toc-entry__type">{articleType}</p>
      <h3 className="toc-entry__title" id={titleId}>
        <a href={`${prefix}/article/${id}`}>{title}</a>
      </h3>
      <p className="toc-entry__authors">{authors}</p>
      <dl className="toc-entry__facts">
        <div>
          <dt>Pages</dt>
          <dd>{pages}</dd>
        </div>
        <div>
          <dt>Published</dt>
          <dd>
            <time dateTime={date}>{formatDay(date)}</time>
          </dd>
        </div>
        {doi ? (
          <div className="toc-entry__doi">
            <dt>DOI</dt>
            <dd>
              <a href={doiUrl(doi)}>{doiUrl(doi)}</a>
            </dd>
          </div>
        ) : null}
      </dl>
    </article>
  );
}
