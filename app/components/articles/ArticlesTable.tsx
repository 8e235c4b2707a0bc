import { Form, Link, useLocation } from 'react-router';
import { Pagination } from '../dashboard/Pagination.tsx';
import { TableScroll } from '../dashboard/TableScroll.tsx';

export interface ArticleRow {
  id: number;
  title: string;
  status: string;
  doi: string | null;
  volume_number: number;
  issue_number: number;
  pages: string | null;
  /** Views and downloads; null when the counts could not be read. */
  usage: { views: number; downloads: number } | null;
}

/** The articles, newest first, a page at a time: each with its counts, Edit, (un)publish and Crossref export. */
export function ArticlesTable({
  articles,
  total,
  page,
  size,
}: {
  articles: readonly ArticleRow[];
  total: number;
  page: number;
  size: number;
}) {
  const location = useLocation();
  return (
    <>
      <TableScroll labelledBy="articles-caption">
        <table className="dash-table dash-articles">
          <caption id="articles-caption">
            Articles, newest first ({total}){total > size ? `, page ${page}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Title and DOI</th>
              <th scope="col">Volume / issue, pages</th>
              <th scope="col">Status</th>
              <th scope="col" className="dash-table__number">
                Views
              </th>
              <th scope="col" className="dash-table__number">
                Downloads
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {articles.map((a) => (
              <tr key={a.id}>
                <td>{a.id}</td>
                <th scope="row" className="dash-articles__title">
                  {a.status === 'published' ? <Link to={`/article/${a.id}`}>{a.title}</Link> : a.title}
                  {a.doi ? <span className="dash-table__sub">{a.doi}</span> : null}
                </th>
                <td>
                  {a.volume_number} / {a.issue_number}
                  {a.pages ? <span className="dash-table__sub">pp. {a.pages}</span> : null}
                </td>
                <td>{a.status === 'published' ? 'Published' : 'Unpublished'}</td>
                <td className="dash-table__number">
                  {a.usage ? a.usage.views.toLocaleString('en-GB') : '–'}
                </td>
                <td className="dash-table__number">
                  {a.usage ? a.usage.downloads.toLocaleString('en-GB') : '–'}
                </td>
                <td>
                  <div className="dash-actions">
                    <Link
                      className="button button--small button--secondary"
                      to={`?${new URLSearchParams({ ...(page > 1 ? { page: String(page) } : {}), edit: String(a.id) })}`}
                    >
                      Edit<span className="visually-hidden"> “{a.title}”</span>
                    </Link>
                    <Form method="post" action={`${location.pathname}${location.search}`}>
                      <input type="hidden" name="id" value={a.id} />
                      <button
                        type="submit"
                        name="intent"
                        value={a.status === 'published' ? 'unpublish' : 'republish'}
                        className="button button--small"
                      >
                        {a.status === 'published' ? 'Unpublish' : 'Republish'}
                        <span className="visually-hidden"> “{a.title}”</span>
                      </button>
                    </Form>
                    {a.status === 'published' && a.doi ? (
                      <Link
                        reloadDocument
                        to={`/api/editor/export/crossref/article/${a.id}`}
                        download
                        className="button button--small button--secondary"
                      >
                        Crossref XML<span className="visually-hidden"> of “{a.title}”</span>
                      </Link>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pagination page={page} total={total} size={size} search={location.search} label="Article pages" />
    </>
  );
}
