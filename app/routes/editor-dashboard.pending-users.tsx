import { Form, useLocation } from 'react-router';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { pageOf, requireEditor } from '../components/dashboard/guard.server.ts';
import { parseId } from '../../common/schemas.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { asClientError } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/editor-dashboard.pending-users';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Pending users · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const PAGE_SIZE = 50;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { page, limit, offset } = pageOf(new URL(request.url), PAGE_SIZE);
  const { users, total } = await context.services.accounts.pendingUsersPage({ limit, offset });
  return { pending: users, total, page, size: PAGE_SIZE };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const id = parseId(form.text('id'));
  if (id === null) return replyRefused(intent, clientError(400, 'No such user.'));
  if (intent !== 'approve' && intent !== 'reject') return replyRefused(intent, clientError(400, 'Unknown action.'));
  try {
    const user = await context.services.accounts.decide(
      auth.user,
      id,
      intent === 'approve' ? 'approved' : 'rejected',
    );
    return replyDone(
      intent,
      `${user.username} was ${intent === 'approve' ? 'approved' : 'rejected'}; an e-mail tells them so.`,
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused);
  }
}

export default function PendingUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { pending, total, page, size } = loaderData;
  const location = useLocation();
  return (
    <section aria-labelledby="pending-title">
      <h1 id="pending-title">Pending users</h1>
      <ActionResult result={actionData} />
      {pending.length === 0 ? (
        <p>No accounts are waiting for approval.</p>
      ) : (
        <TableScroll labelledBy="pending-caption">
          <table className="dash-table">
            <caption id="pending-caption">Accounts waiting for approval ({total}), oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {pending.map((u) => (
                <tr key={u.id}>
                  <td>{u.id}</td>
                  <th scope="row">{u.username}</th>
                  <td>{u.email}</td>
                  <td>{u.role}</td>
                  <td>
                    <Form method="post" className="dash-inline-form">
                      <input type="hidden" name="id" value={u.id} />
                      <button type="submit" name="intent" value="approve" className="button button--small">
                        Approve<span className="visually-hidden"> {u.username}</span>
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value="reject"
                        className="button button--small button--secondary"
                      >
                        Reject<span className="visually-hidden"> {u.username}</span>
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination page={page} total={total} size={size} search={location.search} label="Pending user pages" />
    </section>
  );
}
