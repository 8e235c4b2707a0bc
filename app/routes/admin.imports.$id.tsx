import { Link } from 'react-router';
import { ImportProgress, ImportReport, filesLine, useLiveRun } from '../components/admin/ImportRun.tsx';
import { requireSiteAdmin } from '../components/admin/guard.server.ts';
import { orNotFound } from '../lib/not-found.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { idParam } from '../lib/route-params.ts';
import dashboardCss from '../styles/dashboard.css?url';
import siteAdminCss from '../styles/site-admin.css?url';
import type { Route } from './+types/admin.imports.$id';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: dashboardCss },
  { rel: 'stylesheet', href: siteAdminCss },
];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      `${loaderData?.run.dryRun ? 'Dry run' : 'Import'} ${loaderData?.run.id ?? ''} · Site admin`,
    ),
  },
  { name: 'robots', content: 'noindex' },
];

/** One OJS import (decision 0069): its progress while it runs, then its report. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  await requireSiteAdmin(context, request);
  const run = await orNotFound(context.services.ojsImports.get(idParam(params.id)));
  return { run };
}

export default function SiteImport({ loaderData }: Route.ComponentProps) {
  const run = useLiveRun(loaderData.run);
  const live = run.status === 'queued' || run.status === 'running';
  return (
    <div className="page site-admin import-run">
      {/* Without JavaScript, the page reloads itself while the run goes on. */}
      {live ? (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      ) : null}
      <p className="dashboard__eyebrow">
        <Link to="/admin/imports">Import from OJS</Link>
      </p>
      <h1>
        {run.dryRun ? 'Dry run' : 'Import'} {run.id} into {run.journal.title}
      </h1>
      <dl className="site-admin__facts">
        <div>
          <dt>Files</dt>
          <dd>{filesLine(run)}</dd>
        </div>
        {run.oldPath ? (
          <div>
            <dt>Path on the OJS site</dt>
            <dd>{run.oldPath}</dd>
          </div>
        ) : null}
      </dl>
      <ImportProgress run={run} />
      <ImportReport run={run} />
      {run.status === 'done' || run.status === 'failed' ? (
        <section className="import-run__next" aria-labelledby="import-next-title">
          <h2 id="import-next-title">Next</h2>
          {run.dryRun && run.status === 'done' ? (
            run.filesKept ? (
              <form method="post" action={`/api/admin/imports/${run.id}/run`} encType="multipart/form-data">
                <p>Nothing was written. Run the same files for real:</p>
                <button type="submit" className="button button--primary">
                  Run it for real
                </button>
              </form>
            ) : (
              <p>
                The files of this dry run are no longer on the server:{' '}
                <Link to="/admin/imports">upload them again</Link>, without “dry run”.
              </p>
            )
          ) : null}
          <ul className="import-run__links">
            {run.journal.url ? (
              <>
                <li>
                  <a href={run.journal.url}>The journal’s site</a>
                </li>
                <li>
                  <a href={`${run.journal.url}/volumes`}>Its volumes and issues</a>
                </li>
              </>
            ) : null}
            <li>
              <Link to="/admin/imports">Another import</Link>
            </li>
          </ul>
        </section>
      ) : null}
    </div>
  );
}
