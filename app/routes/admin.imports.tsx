import { Link } from 'react-router';
import { ImportForm } from '../components/admin/ImportForm.tsx';
import { filesLine } from '../components/admin/ImportRun.tsx';
import { requireSiteAdmin } from '../components/admin/guard.server.ts';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { pageTitle } from '../lib/meta.ts';
import dashboardCss from '../styles/dashboard.css?url';
import siteAdminCss from '../styles/site-admin.css?url';
import type { Route } from './+types/admin.imports';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: dashboardCss },
  { rel: 'stylesheet', href: siteAdminCss },
];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Import from OJS · Site admin') },
  { name: 'robots', content: 'noindex' },
];

/** The site admin's OJS imports (issue 26, decision 0069): the upload form, then every run. */
export async function loader({ context, request }: Route.LoaderArgs) {
  await requireSiteAdmin(context, request);
  const [journals, runs] = await Promise.all([
    context.services.journalAdmin.list(),
    context.services.ojsImports.list(),
  ]);
  const refused = new URL(request.url).searchParams.get('refused');
  return {
    journals: journals
      .filter((j) => j.status !== 'archived')
      .map((j) => ({
        value: j.path ?? j.domain ?? String(j.id),
        title: j.title,
        where: j.path ? `/${j.path}` : (j.domain ?? 'the site’s root'),
      })),
    runs,
    maxBytes: context.services.config.IMPORT_MAX_BYTES,
    refused: refused ? refused.slice(0, 500) : null,
  };
}

const STATE: Record<string, string> = {
  queued: 'Waiting',
  running: 'Importing',
  done: 'Done',
  failed: 'Failed',
};

export default function SiteImports({ loaderData }: Route.ComponentProps) {
  const { runs } = loaderData;
  return (
    <div className="page site-admin">
      <p className="dashboard__eyebrow">Site admin</p>
      <h1>Import from OJS</h1>
      <p className="site-admin__nav">
        <Link to="/admin/journals">Journals</Link>
      </p>
      <ImportForm
        journals={loaderData.journals}
        maxBytes={loaderData.maxBytes}
        refused={loaderData.refused}
      />
      <section aria-labelledby="import-runs-title" className="import-runs">
        <h2 id="import-runs-title">Imports</h2>
        {runs.length === 0 ? (
          <p className="muted">No imports yet.</p>
        ) : (
          <TableScroll labelledBy="import-runs-caption">
            <table className="dash-table">
              <caption id="import-runs-caption">Every import, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Import</th>
                  <th scope="col">Journal</th>
                  <th scope="col">State</th>
                  <th scope="col">Items</th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.id}>
                    <th scope="row">
                      <Link to={`/admin/imports/${run.id}`}>
                        {run.dryRun ? 'Dry run' : 'Import'} {run.id}
                      </Link>
                      <span className="dash-table__sub">{filesLine(run)}</span>
                    </th>
                    <td>{run.journal.title}</td>
                    <td>{STATE[run.status]}</td>
                    <td>
                      {run.done} / {run.total}
                    </td>
                    <td>
                      <time dateTime={run.createdAt}>{run.createdAt.slice(0, 16).replace('T', ' ')} UTC</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}
