import { Link } from 'react-router';
import { DoiState } from '../doi/DoiState.tsx';
import type { DeskLoaderData } from './desk-loader.server.ts';

/** Once published: where the article is, and links to it and to its editing in Articles. */
export function PublishedPanel({ article }: { article: NonNullable<DeskLoaderData['article']> }) {
  return (
    <section className="panel panel--action" aria-labelledby="published-title">
      <h2 id="published-title">Published</h2>
      <p>
        Published as an article in volume {article.volume_number}, issue {article.issue_number}
        {article.pages ? `, pages ${article.pages}` : ''}
        {article.doi ? `, DOI ${article.doi}` : ''}
        {article.status === 'published' ? '.' : ' (now unpublished).'}
      </p>
      {article.doi && article.doiState ? (
        <p>
          Crossref: <DoiState state={article.doiState.state} message={article.doiState.message} />{' '}
          <Link to="/editor-dashboard/dois">DOIs</Link>
        </p>
      ) : null}
      <p className="dash-inline-form">
        {article.status === 'published' ? (
          <Link to={`/article/${article.id}`} className="button button--primary button--small">
            View the article
          </Link>
        ) : null}
        <Link
          to={`/editor-dashboard/articles?edit=${article.id}`}
          className="button button--secondary button--small"
        >
          Edit it in Articles
        </Link>
      </p>
    </section>
  );
}
