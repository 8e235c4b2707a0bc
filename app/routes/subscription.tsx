import { Form, Link, redirect } from 'react-router';
import { can } from '../../common/roles.ts';
import { FormAlert, FormStatus } from '../components/FormAlert.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { readForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import { readerLinks } from '../lib/reader-page.ts';
import type { Route } from './+types/subscription';
import { useSubmittingTo } from '../lib/journal-href.ts';
import { useJournalHref } from '../lib/journal-href.ts';

export const links: Route.LinksFunction = readerLinks;

const SUBSCRIBED = 'You are subscribed to new-issue alerts.';
const UNSUBSCRIBED = 'You will no longer receive new-issue alerts.';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'New-issue alerts') },
  {
    name: 'description',
    content:
      'Subscribe to e-mail alerts when a new issue of the journal is published, and find the papers published so far.',
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.auth?.user;
  if (!user) return { state: 'signed-out' as const };
  if (!can('signedIn', user)) return { state: 'not-allowed' as const, username: user.username };
  const { subscriptions, catalog, settings } = context.services;
  const [subscribed, journal] = await Promise.all([subscriptions.isSubscribed(user.id), settings.journal()]);
  // Alerts go only to approved accounts (decision 0009): say so to the others.
  const waiting = user.status !== 'approved';
  if (!subscribed)
    return { state: 'not-subscribed' as const, username: user.username, email: user.email, waiting };
  const canDownload = journal.downloads === 'open' || can('download', user);
  const papers = await catalog.papers();
  return {
    state: 'subscribed' as const,
    username: user.username,
    email: user.email,
    waiting,
    canDownload,
    papers: papers.map((p) => ({
      id: p.id,
      title: p.title,
      // Accounts that may not download yet get the download page, which says why.
      pdfHref: canDownload ? p.pdfPath : `/download/${p.id}`,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.auth?.user;
  if (!user) throw redirect('/login?redirectTo=%2Fsubscription');
  const read = await readForm(request);
  const intent = read.form.text('intent');
  if (!read.ok) return replyRefused(intent, read.refusal);
  if (!can('signedIn', user)) {
    return replyRefused(intent, clientError(403, 'This account cannot subscribe to alerts.'));
  }
  const { subscriptions } = context.services;
  if (intent === 'subscribe') {
    await subscriptions.subscribe(user.id);
    return replyDone(intent, SUBSCRIBED);
  }
  if (intent === 'unsubscribe') {
    await subscriptions.unsubscribe(user.id);
    return replyDone(intent, UNSUBSCRIBED);
  }
  return replyRefused(intent, clientError(400, 'Choose to subscribe or to unsubscribe.'));
}

export default function Subscription({ loaderData, actionData }: Route.ComponentProps) {
  const journalHref = useJournalHref();
  const busy = useSubmittingTo('/subscription');
  const outcome = actionData ? (
    actionData.ok ? (
      <FormStatus>
        <p>{actionData.message}</p>
      </FormStatus>
    ) : (
      <FormAlert attempt={actionData} message={actionData.message} />
    )
  ) : null;

  return (
    <JournalPageLayout
      title="New-issue alerts"
      lead="Get an e-mail when a new issue is published, and keep the list of published papers at hand."
      className="subscription-page"
    >
      {outcome}
      {loaderData.state === 'signed-out' ? (
        <div className="subscription-box">
          <p>Alerts are sent to your account’s e-mail address, so please sign in first.</p>
          <p className="subscription-box__actions">
            <Link to="/login?redirectTo=%2Fsubscription" className="button button--primary">
              Log in to subscribe
            </Link>
            <Link to="/regist" className="button button--secondary">
              Register
            </Link>
          </p>
        </div>
      ) : null}

      {loaderData.state === 'not-allowed' ? (
        <p className="alert alert--info">
          The account <strong>{loaderData.username}</strong> cannot subscribe to alerts. Please{' '}
          <Link to="/contact">contact the editorial office</Link>.
        </p>
      ) : null}

      {loaderData.state === 'not-subscribed' ? (
        <div className="subscription-box">
          <p>
            You are not subscribed. Subscribe to receive an e-mail at <strong>{loaderData.email}</strong> when
            a new issue is published. You can unsubscribe at any time.
          </p>
          {loaderData.waiting ? <WaitingNote /> : null}
          <Form method="post">
            <input type="hidden" name="intent" value="subscribe" />
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Subscribing…' : 'Subscribe to new-issue alerts'}
            </button>
          </Form>
        </div>
      ) : null}

      {loaderData.state === 'subscribed' ? (
        <>
          <div className="subscription-box">
            <p>
              You are subscribed: alerts go to <strong>{loaderData.email}</strong>.
            </p>
            {loaderData.waiting ? <WaitingNote /> : null}
            <Form method="post">
              <input type="hidden" name="intent" value="unsubscribe" />
              <button type="submit" className="button button--secondary" disabled={busy}>
                {busy ? 'Unsubscribing…' : 'Unsubscribe'}
              </button>
            </Form>
          </div>
          <section aria-labelledby="papers-title" className="papers">
            <h2 id="papers-title">Published papers</h2>
            {loaderData.papers.length ? (
              <ol className="papers__list">
                {loaderData.papers.map((p) => (
                  <li key={p.id} className="papers__item">
                    <Link to={`/article/${p.id}`} className="papers__title">
                      {p.title}
                    </Link>
                    <a href={journalHref(p.pdfHref)} className="papers__pdf" aria-label={`PDF: ${p.title}`}>
                      PDF
                    </a>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">No papers have been published yet.</p>
            )}
          </section>
        </>
      ) : null}
    </JournalPageLayout>
  );
}

function WaitingNote() {
  return (
    <p className="muted">
      Alerts start once the editorial board has approved your account: until then none are sent to it.
    </p>
  );
}
