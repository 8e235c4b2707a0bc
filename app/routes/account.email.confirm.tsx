import { Form, Link, useNavigation } from 'react-router';
import { LINK_PROBLEMS, type LinkProblem, linkTokenSchema } from '../../common/account.ts';
import { FormAlert, FormStatus } from '../components/FormAlert.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { replyDone, replyRefused } from '../lib/reply.server.ts';
import accountCss from '../styles/account.css?url';
import type { Route } from './+types/account.email.confirm';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Confirm your new email address') },
  { name: 'robots', content: 'noindex' },
];

/**
 * The link sent to a new address. Opening it shows a button (mail scanners open links too); pressing it
 * confirms. No sign-in needed: the link itself proves the address.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (!token) return { ok: false as const, problem: 'unknown' as LinkProblem };
  const state = await context.services.myAccount.checkEmailLink(token);
  if (!state.ok) return { ok: false as const, problem: state.problem };
  return { ok: true as const, token, email: state.email, username: state.username };
}

const FORM = 'confirm-email';

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return replyRefused(FORM, read.refusal);
  const parsed = validateForm(linkTokenSchema, { token: read.form.text('token') });
  if (!parsed.ok) return replyRefused(FORM, parsed.refusal, {}, LINK_PROBLEMS.unknown);
  try {
    const { email } = await context.services.myAccount.confirmEmail(parsed.data.token);
    return replyDone(FORM, `Your account's email address is now ${email}.`);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(FORM, refused);
  }
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting';

  if (actionData?.ok) {
    return (
      <div className="page page--narrow">
        <div className="form-card">
          <h1>Email address confirmed</h1>
          <FormStatus>
            <p>{actionData.message}</p>
          </FormStatus>
          <p className="form-card__footer">
            <Link to="/account">Go to your account</Link>
          </p>
        </div>
      </div>
    );
  }

  if (!loaderData.ok) {
    return (
      <div className="page page--narrow notice-page">
        <h1>This link cannot be used</h1>
        <p className="lead">{LINK_PROBLEMS[loaderData.problem]}</p>
        <p>
          Links that confirm a new email address work once, for a day. Ask again from your account page: the
          account keeps its current address until a link is opened.
        </p>
        <div className="notice-page__actions">
          <Link to="/account#email" className="button button--primary">
            Ask again from your account
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="page page--narrow">
      <div className="form-card">
        <h1>Confirm your new email address</h1>
        <p className="form-card__intro">
          The account <strong>{loaderData.username}</strong> will use{' '}
          <strong className="account-email">{loaderData.email}</strong> from now on; the old address is told.
        </p>
        {actionData ? <FormAlert attempt={actionData} message={actionData.message} /> : null}
        <Form method="post" className="form">
          <input type="hidden" name="token" value={loaderData.token} />
          <button type="submit" className="button button--primary button--block" disabled={submitting}>
            {submitting ? 'Confirming…' : 'Confirm this address'}
          </button>
        </Form>
      </div>
    </div>
  );
}
