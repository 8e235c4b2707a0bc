import { useEffect, useRef } from 'react';
import { Form, Link, redirect } from 'react-router';
import { RESET_DONE_MESSAGE } from '../../common/account.ts';
import { MESSAGES } from '../../common/messages.ts';
import { can } from '../../common/roles.ts';
import { loginSchema } from '../../common/schemas.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { TextField } from '../components/FormField.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { retryAfterHeaders } from '../lib/headers.ts';
import { pageTitle } from '../lib/meta.ts';
import { replyRefused } from '../lib/reply.server.ts';
import { safeRedirectPath } from '../lib/safe-redirect.ts';
import { openSessionHeaders } from '../lib/session.server.ts';
import type { Route } from './+types/login';
import { useSubmittingTo } from '../lib/journal-href.ts';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Log in') },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ context, request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return {
    signedInAs: context.auth?.user.username ?? null,
    redirectTo: safeRedirectPath(params.get('redirectTo')),
    // Sent here from /submission while signed out: say why (spec section 6); or after a password reset.
    notice:
      params.get('reason') === 'author'
        ? MESSAGES.mustBeAuthor
        : params.get('reset') === 'done'
          ? RESET_DONE_MESSAGE
          : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const values = { username: read.form.text('username') };
  if (!read.ok) return replyRefused('login', read.refusal, values);
  const redirectTo = safeRedirectPath(read.form.text('redirectTo'));
  const parsed = validateForm(loginSchema, { ...values, password: read.form.text('password') });
  if (!parsed.ok) return replyRefused('login', parsed.refusal, values);

  const { services } = context;
  try {
    const session = await services.accounts.login(parsed.data, {
      ip: context.clientIp,
      userAgent: context.userAgent,
    });
    // Signing in again (perhaps as someone else) ends the session this browser had.
    if (context.auth) await services.accounts.logout(context.auth.sessionId);
    // On the site's own pages (no journal at the site's root) nobody has a role: to the site's home, which
    // lists the journals. In a journal, not a member of it (an account of another of the site's): to the
    // account page, to join it.
    const landing = !context.journal
      ? '/'
      : can('editorial', session.user)
        ? '/editor-dashboard'
        : session.user.role === null
          ? '/account#join'
          : '/';
    return redirect(redirectTo ?? landing, { headers: openSessionHeaders(session, context.secure) });
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused('login', refused, values, refused.message || MESSAGES.invalidLogin);
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmittingTo('/login');
  const passwordRef = useRef<HTMLInputElement>(null);
  const failure = actionData && !actionData.ok ? actionData : null;

  // A failed attempt never leaves the password in the form.
  useEffect(() => {
    if (failure && passwordRef.current) passwordRef.current.value = '';
  }, [failure]);

  if (loaderData.signedInAs && !failure) {
    return (
      <div className="page page--narrow">
        <h1>Log in</h1>
        <p className="lead">
          You are signed in as <strong>{loaderData.signedInAs}</strong>.
        </p>
        <div className="notice-page__actions">
          <Link to="/" className="button button--primary">
            Go to the home page
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className="button button--secondary">
              Log out to switch accounts
            </button>
          </Form>
        </div>
      </div>
    );
  }

  return (
    <div className="page page--narrow">
      <div className="form-card">
        <h1>Log in</h1>
        <p className="form-card__intro">Sign in to submit manuscripts and download articles.</p>
        {loaderData.notice && !failure ? (
          <p className="alert alert--info" role="alert">
            {loaderData.notice}
          </p>
        ) : null}
        {failure ? (
          <FormAlert
            attempt={failure}
            message={failure.message}
            fieldLinks={Object.entries(failure.errors).map(([name, message]) => ({
              id: `field-${name}`,
              message,
            }))}
          />
        ) : null}
        <Form method="post" className="form">
          {loaderData.redirectTo ? (
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          ) : null}
          <TextField
            name="username"
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            defaultValue={failure?.values.username ?? ''}
            error={failure?.errors.username}
          />
          <TextField
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            inputRef={passwordRef}
            error={failure?.errors.password}
          />
          <p className="form-card__aside">
            <Link to="/forgot-password">Forgot your password?</Link>
          </p>
          <button type="submit" className="button button--primary button--block" disabled={submitting}>
            {submitting ? 'Logging in…' : 'Log in'}
          </button>
        </Form>
        <p className="form-card__footer">
          New to the journal? <Link to="/regist">Register for an account</Link>
        </p>
      </div>
    </div>
  );
}
