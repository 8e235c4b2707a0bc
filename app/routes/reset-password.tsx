import { useEffect, useRef } from 'react';
import { Form, Link, redirect, useNavigation } from 'react-router';
import { LINK_PROBLEMS, type LinkProblem, passwordResetSchema } from '../../common/account.ts';
import { LIMITS } from '../../common/limits.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { TextField } from '../components/FormField.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { replyRefused } from '../lib/reply.server.ts';
import { closeSessionHeaders } from '../lib/session.server.ts';
import type { Route } from './+types/reset-password';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Choose a new password') },
  { name: 'robots', content: 'noindex' },
];

/** The link from the e-mail: opening it only shows the form (mail scanners open links too); the post uses it. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (!token) return { ok: false as const, problem: 'unknown' as LinkProblem };
  const state = await context.services.passwordReset.check(token);
  if (!state.ok) return { ok: false as const, problem: state.problem };
  return { ok: true as const, token, username: state.username };
}

const FORM = 'reset-password';

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const token = read.form.text('token');
  // What was typed is the password alone: it is never sent back.
  if (!read.ok) return replyRefused(FORM, read.refusal);
  const parsed = validateForm(passwordResetSchema, { token, password: read.form.text('password') });
  if (!parsed.ok) return replyRefused(FORM, parsed.refusal);
  try {
    await context.services.passwordReset.complete(parsed.data.token, parsed.data.password);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(FORM, refused);
  }
  // Every session has ended, this browser's too: sign in with the new password (see decision 0014).
  return redirect('/login?reset=done', { headers: closeSessionHeaders(context.secure) });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting';
  const passwordRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (actionData && passwordRef.current) passwordRef.current.value = '';
  }, [actionData]);

  // The link was fine when the page opened but not when it was used (used meanwhile, or expired).
  const linkRefused = actionData?.errors.token;
  if (!loaderData.ok || linkRefused) {
    const message = linkRefused ?? LINK_PROBLEMS[loaderData.ok ? 'unknown' : loaderData.problem];
    return (
      <div className="page page--narrow notice-page">
        <h1>This link cannot be used</h1>
        <p className="lead">{message}</p>
        <p>
          Links to choose a new password work once, for one hour after they are sent. Ask for a new one: it
          takes a minute.
        </p>
        <div className="notice-page__actions">
          <Link to="/forgot-password" className="button button--primary">
            Ask for a new link
          </Link>
          <Link to="/login" className="button button--secondary">
            Log in
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="page page--narrow">
      <div className="form-card">
        <h1>Choose a new password</h1>
        <p className="form-card__intro">
          For the account <strong>{loaderData.username}</strong>. Choosing it signs the account out
          everywhere; then you log in with the new password.
        </p>
        {actionData ? <FormAlert attempt={actionData} message={actionData.message} /> : null}
        <Form method="post" className="form">
          <input type="hidden" name="token" value={loaderData.token} />
          {/* Lets password managers file the new password under the right account. */}
          <input
            type="text"
            name="username"
            value={loaderData.username}
            autoComplete="username"
            readOnly
            hidden
          />
          <TextField
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={LIMITS.password.min}
            maxLength={LIMITS.password.max}
            hint={`At least ${LIMITS.password.min} characters.`}
            inputRef={passwordRef}
            error={actionData?.errors.password}
          />
          <button type="submit" className="button button--primary button--block" disabled={submitting}>
            {submitting ? 'Saving…' : 'Set the new password'}
          </button>
        </Form>
      </div>
    </div>
  );
}
