import { Form, useLocation } from 'react-router';
import { z } from 'zod';
import { ROLES, type Role, STATUSES, type Status } from '../../common/roles.ts';
import { idField } from '../../common/schemas.ts';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import { SelectField, TextField } from '../components/FormField.tsx';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { pageOf, requireEditor } from '../components/dashboard/guard.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import type { Route } from './+types/editor-dashboard.users';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Users · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const PAGE_SIZE = 25;
const SEARCH_MAX = 200;

const ROLE_LABELS: Record<Role, string> = {
  researcher: 'Researcher',
  author: 'Author',
  editor: 'Editor',
  admin: 'Admin',
};
const STATUS_LABELS: Record<Status, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  suspended: 'Suspended',
};

const filterSchema = z.object({
  q: z.string().trim().max(SEARCH_MAX, `Search for at most ${SEARCH_MAX} characters.`).optional(),
  role: z.enum(ROLES, 'Choose a role from the list.').optional(),
  status: z.enum(STATUSES, 'Choose a status from the list.').optional(),
});

const changeSchema = z.object({
  id: idField('User', { required: 'No such user.', invalid: 'No such user.' }),
  role: z.enum(ROLES, 'Choose a role from the list.'),
  status: z.enum(STATUSES, 'Choose a status from the list.'),
});

/** Users (admins only): search, filter, and change an account's role and status. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireEditor(context, request, 'admin');
  const url = new URL(request.url);
  const raw = {
    q: url.searchParams.get('q') ?? '',
    role: url.searchParams.get('role') ?? '',
    status: url.searchParams.get('status') ?? '',
  };
  const parsed = validateForm(
    filterSchema,
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v.trim() !== '')),
  );
  const filterErrors = parsed.ok ? {} : parsed.refusal.errors;
  const filter = parsed.ok ? parsed.data : {};
  const { page, limit, offset } = pageOf(url, PAGE_SIZE);
  const { users, total } = await context.services.accounts.listUsers({ ...filter, limit, offset });
  return { users, total, page, size: PAGE_SIZE, filter: raw, filterErrors, me: auth.user.id };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request, 'admin');
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values = { id: form.text('id'), role: form.text('role'), status: form.text('status') };
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);
  if (intent !== 'update-user') return fail(400, 'Unknown action.');
  const parsed = validateForm(changeSchema, values);
  if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
  const { id, role, status } = parsed.data;
  const accounts = context.services.accounts;
  try {
    const before = await accounts.getUser(id);
    if (before.role === role && before.status === status) {
      return fail(400, `Nothing to save: ${before.username} is already ${roleAndStatus(role, status)}.`, {
        role: 'Choose another role or status.',
      });
    }
    if (id === auth.user.id) {
      // The service refuses it too; said here in the page's words, next to the fields.
      return fail(409, 'You cannot change your own role or suspend your own account.', {
        role: 'Another admin must change your account.',
      });
    }
    const change: { role?: Role; status?: Status } = {};
    if (role !== before.role) change.role = role;
    if (status !== before.status) change.status = status;
    const user = await accounts.update(auth.user, id, change);
    const mailed =
      change.status === 'approved' || change.status === 'rejected' ? ' An e-mail tells them so.' : '';
    const signedOut =
      change.status === 'suspended' || change.status === 'rejected' ? ' Their open sessions were ended.' : '';
    return replyDone(
      intent,
      `Saved: ${user.username} is now ${roleAndStatus(user.role, user.status)}.${mailed}${signedOut}`,
      // A save also says what the account is now: its form is drawn from that, not from a list still reloading.
      { payload: { saved: { id: user.id, role: user.role, status: user.status } } },
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
}

function roleAndStatus(role: Role, status: Status): string {
  const article = role === 'admin' || role === 'author' || role === 'editor' ? 'an' : 'a';
  return `${article} ${role} (${status})`;
}

const when = (iso: string) => iso.slice(0, 10);

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { users, total, page, size, filter, filterErrors, me } = loaderData;
  const location = useLocation();
  const refused = refusalFor(actionData, 'update-user');
  const round = actionData?.at ?? 0;
  const saved = actionData?.ok && 'saved' in actionData ? actionData.saved : undefined;
  const filtered = Boolean(filter.q || filter.role || filter.status);
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <p className="user-admin__intro">
        Every member of this journal, newest first (accounts are the site's; their roles and approval are each
        journal's own). An admin may give any member another role or status in this journal; the change takes
        effect on the account's next request, and is written to the audit log. Approving or rejecting an
        account e-mails its holder; suspending or rejecting one signs it out everywhere. Nobody can change
        their own role or suspend their own account: another admin must do it.
      </p>
      <ActionResult result={actionData} />

      <Form
        method="get"
        className="panel dash-filters user-admin__filters"
        role="search"
        aria-label="Find users"
      >
        <TextField
          id="users-q"
          name="q"
          type="search"
          label="Search"
          hint="Username, name or e-mail."
          maxLength={SEARCH_MAX}
          defaultValue={filter.q}
          error={filterErrors.q}
        />
        <SelectField
          id="users-role"
          name="role"
          label="Role"
          placeholder="Any role"
          defaultValue={filter.role}
          error={filterErrors.role}
          options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
        />
        <SelectField
          id="users-status"
          name="status"
          label="Status"
          placeholder="Any status"
          defaultValue={filter.status}
          error={filterErrors.status}
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
        <div className="user-admin__filter-actions">
          <button type="submit" className="button button--primary">
            Search
          </button>
          {filtered ? (
            <a href={location.pathname} className="button button--secondary">
              Clear
            </a>
          ) : null}
        </div>
      </Form>

      {users.length === 0 ? (
        <p role="status">{filtered ? 'No account matches this search.' : 'No accounts yet.'}</p>
      ) : (
        <TableScroll labelledBy="users-caption">
          <table className="dash-table user-admin__table">
            <caption id="users-caption">
              {filtered ? 'Accounts found' : 'Accounts'} ({total}){total > size ? `, page ${page}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Registered</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => {
                const mine = refused.values.id === String(u.id);
                const now = saved?.id === u.id ? saved : u;
                const errors: Record<string, string> = mine ? refused.errors : {};
                const p = `user-${u.id}`;
                return (
                  <tr key={u.id}>
                    <th scope="row">
                      {u.username}
                      <span className="user-admin__name">{u.fullName}</span>
                      <a href={`mailto:${u.email}`} className="user-admin__email">
                        {u.email}
                      </a>
                    </th>
                    <td data-label="Role">{ROLE_LABELS[u.role]}</td>
                    <td data-label="Status">
                      <span className={`user-admin__status user-admin__status--${u.status}`}>
                        {STATUS_LABELS[u.status]}
                      </span>
                    </td>
                    <td data-label="Registered">
                      <time dateTime={u.createdAt}>{when(u.createdAt)}</time>
                    </td>
                    <td>
                      {u.id === me ? (
                        <p className="user-admin__self">Your account: another admin must change it.</p>
                      ) : (
                        <Form
                          method="post"
                          action={`${location.pathname}${location.search}`}
                          className="user-admin__change"
                          aria-label={`Change ${u.username}`}
                          key={`${p}-${round}`}
                        >
                          <input type="hidden" name="id" value={u.id} />
                          <SelectField
                            id={`${p}-role`}
                            name="role"
                            label="Role"
                            defaultValue={mine ? refused.values.role : now.role}
                            error={errors.role}
                            options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
                          />
                          <SelectField
                            id={`${p}-status`}
                            name="status"
                            label="Status"
                            defaultValue={mine ? refused.values.status : now.status}
                            error={errors.status}
                            options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
                          />
                          <button
                            type="submit"
                            name="intent"
                            value="update-user"
                            className="button button--small"
                          >
                            Save<span className="visually-hidden"> {u.username}</span>
                          </button>
                        </Form>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination page={page} total={total} size={size} search={location.search} label="User pages" />
    </section>
  );
}
