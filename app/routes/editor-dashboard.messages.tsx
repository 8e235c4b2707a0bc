import { Form, Link, useLocation } from 'react-router';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { pageOf, requireEditor } from '../components/dashboard/guard.server.ts';
import { parseId } from '../../common/schemas.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { asClientError } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/editor-dashboard.messages';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Messages · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const PAGE_SIZE = 25;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { page, limit, offset } = pageOf(new URL(request.url), PAGE_SIZE);
  return { ...(await context.services.contact.list({ limit, offset })), page, size: PAGE_SIZE };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const id = parseId(form.text('id'));
  if (id === null) return replyRefused(intent, clientError(400, 'No such message.'));
  if (intent !== 'handled' && intent !== 'reopen') return replyRefused(intent, clientError(400, 'Unknown action.'));
  try {
    await context.services.contact.setHandled(auth.user, id, intent === 'handled');
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused);
  }
  return replyDone(intent, intent === 'handled' ? `Message ${id} marked as handled.` : `Message ${id} reopened.`);
}

const when = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ');

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, total, page, size } = loaderData;
  const location = useLocation();
  return (
    <section aria-labelledby="messages-title">
      <h1 id="messages-title">Messages</h1>
      <ActionResult result={actionData} />
      {messages.length === 0 ? (
        <div className="dash-empty">
          <h2 className="dash-empty__title">No messages yet</h2>
          <p>
            This is where the messages readers send with the journal's <Link to="/contact">contact form</Link>{' '}
            arrive: questions about submissions, subscriptions or the site, newest first. Each one is also sent to
            the editorial e-mail address; mark it as handled here once it has been answered.
          </p>
        </div>
      ) : (
        <TableScroll labelledBy="messages-caption">
          <table className="dash-table">
            <caption id="messages-caption">Contact messages, newest first ({total})</caption>
            <thead>
              <tr>
                <th scope="col">Received (UTC)</th>
                <th scope="col">From</th>
                <th scope="col">Message</th>
                <th scope="col">Status</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id}>
                  <td>
                    <time dateTime={m.createdAt}>{when(m.createdAt)}</time>
                  </td>
                  <th scope="row">
                    {m.name}
                    <br />
                    <a href={`mailto:${m.email}`}>{m.email}</a>
                  </th>
                  <td className="dash-table__wrap">{m.message}</td>
                  <td>{m.handledAt ? `Handled ${when(m.handledAt)}` : 'Open'}</td>
                  <td>
                    <Form method="post" action={`${location.pathname}${location.search}`}>
                      <input type="hidden" name="id" value={m.id} />
                      <button
                        type="submit"
                        name="intent"
                        value={m.handledAt ? 'reopen' : 'handled'}
                        className="button button--small"
                      >
                        {m.handledAt ? 'Reopen' : 'Mark as handled'}
                        <span className="visually-hidden">
                          {' '}
                          (message {m.id} from {m.name})
                        </span>
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination page={page} total={total} size={size} search={location.search} label="Message pages" />
    </section>
  );
}
