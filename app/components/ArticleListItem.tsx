import { Link } from 'react-router';
import { doiUrl } from '../../common/citation.ts';

/** What a table-of-contents entry shows; the loader sends no more than this (no e-mail addresses). */
export interface ListedArticle {
  id: number;
  title: string;
  articleType: string;
  authors: string[];
  /** "1–10" */
  pages: string;
  doi: string | null;
  /** YYYY-MM-DD */
  date: string;
  /** "1 March 2025" */
  dateLabel: string;
}

/** One article in an issue's table of contents: title (to the article page), authors, pages, date, DOI. */
export function ArticleListItem({ article }: { article: ListedArticle }) {
  const titleId = `toc-article-${article.id}`;
  return (
    <article className="toc-entry" aria-labelledby={titleId}>
      <p className="toc-entry__type">{article.articleType}</p>
      <h3 className="toc-entry__title" id={titleId}>
        <Link to={`/article/${article.id}`}>{article.title}</Link>
      </h3>
      <p className="toc-entry__authors">{article.authors.join(', ')}</p>
      <dl className="toc-entry__facts">
        <div>
          <dt>Pages</dt>
          <dd>{article.pages}</dd>
        </div>
        <div>
          <dt>Published</dt>
          <dd>
            <time dateTime={article.date}>{article.dateLabel}</time>
          </dd>
        </div>
        {article.doi ? (
          <div className="toc-entry__doi">
            <dt>DOI</dt>
            <dd>
              <a href={doiUrl(article.doi)}>{doiUrl(article.doi)}</a>
            </dd>
          </div>
        ) : null}
      </dl>
    </article>
  );
}
