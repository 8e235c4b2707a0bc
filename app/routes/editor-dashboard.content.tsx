import { Link } from 'react-router';
import { PAGE_SLUGS } from '../../common/content.ts';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { pageTitle } from '../lib/meta.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import type { Route } from './+types/editor-dashboard.content';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Journal content · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

/** Journal content: the reader site's pages, editorial board and special issues, each with its editor. */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { content } = context.services;
  const [pages, board, calls] = await Promise.all([
    Promise.all(
      PAGE_SLUGS.map(async (slug) => {
        const page = await content.page(slug);
        return { slug, title: page?.title ?? null };
      }),
    ),
    content.boardMembers(),
    content.specialIssuesSource(),
  ]);
  return { pages, boardCount: board.length, callCount: calls.length };
}

export default function JournalContent({ loaderData }: Route.ComponentProps) {
  const { pages, boardCount, callCount } = loaderData;
  return (
    <section aria-labelledby="content-title">
      <h1 id="content-title">Journal content</h1>
      <p className="user-admin__intro">
        The words of the reader site, kept in the database: a change shows on the site as soon as it is saved, and
        the audit log records who made it. Pages are Markdown, with a preview before saving.
      </p>
      <TableScroll labelledBy="content-pages-caption">
        <table className="dash-table">
          <caption id="content-pages-caption">Pages ({pages.length})</caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Address</th>
              <th scope="col">Edit</th>
            </tr>
          </thead>
          <tbody>
            {pages.map((p) => (
              <tr key={p.slug}>
                <th scope="row">{p.title ?? <em>Not published</em>}</th>
                <td>
                  <Link reloadDocument to={`/${p.slug}`}>/{p.slug}</Link>
                </td>
                <td>
                  <Link to={`/editor-dashboard/content/${p.slug}`}>
                    Edit<span className="visually-hidden"> {p.title ?? p.slug}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <TableScroll labelledBy="content-lists-caption">
        <table className="dash-table">
          <caption id="content-lists-caption">Lists</caption>
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Entries</th>
              <th scope="col">Address</th>
              <th scope="col">Edit</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Editorial board</th>
              <td>{boardCount} members</td>
              <td>
                <Link reloadDocument to="/editorial-board">/editorial-board</Link>
              </td>
              <td>
                <Link to="/editor-dashboard/content/editorial-board">
                  Edit<span className="visually-hidden"> the editorial board</span>
                </Link>
              </td>
            </tr>
            <tr>
              <th scope="row">Special issues</th>
              <td>{callCount} calls for papers</td>
              <td>
                <Link reloadDocument to="/special-issues">/special-issues</Link>
              </td>
              <td>
                <Link to="/editor-dashboard/content/special-issues">
                  Edit<span className="visually-hidden"> the special issues</span>
                </Link>
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
