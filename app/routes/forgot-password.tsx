import { Form, Link } from 'react-router';
import { RESET_REQUESTED_MESSAGE, passwordResetRequestSchema } from '../../common/account.ts';
import { LIMITS } from '../../common/limits.ts';
import { FormAlert, FormStatus } from '../components/FormAlert.tsx';
import { TextField } from '../components/FormField.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { retryAfterHeaders } from '../lib/headers.ts';
import { pageTitle } from '../lib/meta.ts';
import { replyDone, replyRefused } from '../lib/reply.server.ts';
import type { Route } from './+types/forgot-password';
import { useSubmittingTo } from '../lib/journal-href.ts';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Forgot your password?') },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return { signedInAs: context.auth?.user.username ?? null };
}

/** The answer is the same whether or not an account matches (the e-mail goes out after it, if at all). */
const FORM = 'forgot-password';

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const identifier = read.form.text('identifier');
  const values = { identifier };
  if (!read.ok) return replyRefused(FORM, read.refusal, values);
  const parsed = validateForm(passwordResetRequestSchema, values);
  if (!parsed.ok) return replyRefused(FORM, parsed.refusal, values);
  try {
    await context.services.passwordReset.request(parsed.data.identifier, { ip: context.clientIp });
    return replyDone(FORM, RESET_REQUESTED_MESSAGE, { status: 202 });
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(FORM, refused, values);
  }
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const submitting =
    useSubmittingTo('/forgot-password');
  const failure = actionData && !actionData.ok ? actionData : null;

  return (
    <div className="page page--narrow">
      <div className="form-card">
        <h1>Forgot your password?</h1>
        {actionData?.ok ? (
          <>
            <FormStatus>
              <p>{actionData.message}</p>
            </FormStatus>
            <p className="form-card__footer">
              <Link to="/login">Back to log in</Link>
            </p>
          </>
        ) : (
          <>
            <p className="form-card__intro">
              Type your username or the email address of your account. We will email you a link to choose a
              new password.
            </p>
            {loaderData.signedInAs ? (
              <p className="alert alert--info">
                You are signed in as <strong>{loaderData.signedInAs}</strong>: you can change your password on{' '}
                <Link to="/account">your account page</Link>.
              </p>
            ) : null}
            {failure ? <FormAlert attempt={failure} message={failure.message} /> : null}
            <Form method="post" className="form">
              <TextField
                name="identifier"
                label="Username or email"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                required
                maxLength={LIMITS.email}
                defaultValue={failure?.values.identifier ?? ''}
                error={failure?.errors.identifier}
              />
              <button type="submit" className="button button--primary button--block" disabled={submitting}>
                {submitting ? 'Sending…' : 'Email me a link'}
              </button>
            </Form>
            <p className="form-card__footer">
              Remembered it? <Link to="/login">Log in</Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
