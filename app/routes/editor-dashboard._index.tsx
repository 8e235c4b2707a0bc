import { Link, redirect } from 'react-router';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import type { Route } from './+types/editor-dashboard._index';

/**
 * The dashboard's front door (where editors land after signing in, spec section 5) is the submissions desk:
 * the work that waits for them (decision 0039). Pending users have their own section.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  throw redirect('/editor-dashboard/submissions');
}

/**
 * Never shown in practice (the loader redirects, or refuses): a page route, so a refusal is the dashboard's
 * 403 page, not a bare answer. Its link and the shared script chunks stay as for every other section.
 */
export default function DashboardFrontDoor() {
  return (
    <p>
      <Link to="/editor-dashboard/submissions">Go to the submissions</Link>
    </p>
  );
}
