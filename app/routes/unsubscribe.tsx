import { Form, Link, data } from 'react-router';
import { FormStatus } from '../components/FormAlert.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { readForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import { readerLinks } from '../lib/reader-page.ts';
import type { Route } from './+types/unsubscribe';

export const links: Route.LinksFunction = readerLinks;

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Unsubscribe from new-issue alerts') },
  { name: 'robots', content: 'noindex' },
];

const INVALID =
  'This unsubscribe link is not valid any more: the subscription has already ended, or the link is incomplete.';

/** Hides most of an address: "a•••@example.org". */
function masked(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : '•••';
}

/**
 * The link at the foot of every new-issue alert. Opening it only asks (mail scanners open links too); the
 * button, or a mail client's one-click POST (RFC 8058), ends the subscription. No sign-in needed: the token
 * in the link is the proof.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const found = await context.services.subscriptions.subscriptionByToken(token);
  if (!found) return data({ state: 'invalid' as const, token: '' }, { status: 404 });
  return { state: 'ask' as const, token, email: masked(found.email) };
}

const FORM = 'unsubscribe';

export async function action({ context, request }: Route.ActionArgs) {
  const url = new URL(request.url);
  // The token in the form (or the link) is the proof: a one-click POST from a mail service is welcome.
  const read = await readForm(request, { anyOrigin: true });
  if (!read.ok) return replyRefused(FORM, read.refusal);
  const token = read.form.text('token') || (url.searchParams.get('token') ?? '');
  const email = await context.services.subscriptions.unsubscribeByToken(token);
  // No such token: the page says so in its own words (INVALID), as when the link is opened.
  if (!email) return replyRefused(FORM, clientError(404, INVALID));
  const shown = masked(email);
  return replyDone(FORM, `You are unsubscribed: ${shown} will receive no more new-issue alerts.`, {
    payload: { email: shown },
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <JournalPageLayout title="Unsubscribe from new-issue alerts" className="subscription-page">
      {actionData?.ok ? (
        <FormStatus>
          <p>
            You are unsubscribed: {actionData.email} will receive no more new-issue alerts. Changed your mind?
            Subscribe again on the <Link to="/subscription">new-issue alerts</Link> page.
          </p>
        </FormStatus>
      ) : actionData && actionData.status !== 404 ? (
        <p className="alert alert--error" role="alert">
          {actionData.message}
        </p>
      ) : actionData || loaderData.state === 'invalid' ? (
        <p className="alert alert--info">
          {INVALID} You can manage alerts on the <Link to="/subscription">new-issue alerts</Link> page after
          signing in.
        </p>
      ) : (
        <div className="subscription-box">
          <p>
            Stop the new-issue alerts sent to <strong>{loaderData.email}</strong>?
          </p>
          <Form method="post">
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" className="button button--primary">
              Unsubscribe
            </button>
          </Form>
        </div>
      )}
    </JournalPageLayout>
  );
}
