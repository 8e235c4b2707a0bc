import { NavLink, Outlet, isRouteErrorResponse, useRouteError } from 'react-router';
import { MESSAGES } from '../../common/messages.ts';
import { can } from '../../common/roles.ts';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { pageTitle } from '../lib/meta.ts';
import dashboardCss from '../styles/dashboard.css?url';
import type { Route } from './+types/editor-dashboard';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: dashboardCss }];

export const meta: Route.MetaFunction = ({ matches, error }) => [
  { title: pageTitle(matches, error ? MESSAGES.unauthorizedAccess : 'Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireEditor(context, request);
  return {
    isAdmin: can('admin', auth.user),
    username: auth.user.username,
    // Shown on the links to the pending list and the desk, so new work is seen from any section.
    pending: await context.services.accounts.pendingCount(),
    attention: await context.services.submissions.attentionCount(),
  };
}

/** The sections, in order; `count` names the loader's figure shown beside the link. */
const SECTIONS: { to: string; label: string; admin?: boolean; count?: 'attention' | 'pending' }[] = [
  { to: '/editor-dashboard/submissions', label: 'Submissions', count: 'attention' },
  { to: '/editor-dashboard/pending-users', label: 'Pending users', count: 'pending' },
  { to: '/editor-dashboard/reviewers', label: 'Reviewers' },
  { to: '/editor-dashboard/volumes', label: 'Volumes & issues' },
  { to: '/editor-dashboard/articles', label: 'Articles' },
  { to: '/editor-dashboard/dois', label: 'DOIs' },
  { to: '/editor-dashboard/messages', label: 'Messages' },
  { to: '/editor-dashboard/apc', label: 'APC ledger' },
  { to: '/editor-dashboard/content', label: 'Journal content' },
  { to: '/editor-dashboard/review-form', label: 'Review form' },
  { to: '/editor-dashboard/users', label: 'Users', admin: true },
  { to: '/editor-dashboard/settings', label: 'Journal settings', admin: true },
  { to: '/editor-dashboard/archive', label: 'Preservation' },
  { to: '/editor-dashboard/audit', label: 'Audit log' },
];

export default function EditorDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page dashboard">
      <header className="dashboard__header">
        <p className="dashboard__eyebrow">Editorial dashboard</p>
        <p className="muted">Signed in as {loaderData.username}</p>
      </header>
      <nav className="dashboard__nav" aria-label="Dashboard sections">
        <ul>
          {SECTIONS.filter((s) => !s.admin || loaderData.isAdmin).map((s) => (
            <li key={s.to}>
              <NavLink to={s.to}>
                {s.label}
                {s.count && loaderData[s.count] > 0 ? (
                  <span className="nav-count">
                    {loaderData[s.count]}
                    <span className="visually-hidden">
                      {s.count === 'pending' ? ' waiting' : ' need your attention'}
                    </span>
                  </span>
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="dashboard__body">
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <div className="page page--narrow notice-page">
        <h1>{MESSAGES.unauthorizedAccess}</h1>
        <p className="lead">
          The editorial dashboard is for the journal's approved editors and administrators.
        </p>
      </div>
    );
  }
  throw error;
}
