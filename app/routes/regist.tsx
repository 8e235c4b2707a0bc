import { useEffect, useRef } from 'react';
import { Form, Link } from 'react-router';
import { LIMITS } from '../../common/limits.ts';
import { MESSAGES } from '../../common/messages.ts';
import { registerSchema } from '../../common/schemas.ts';
import { registrationNotice } from '../../server/accounts/notices.ts';
import { FormAlert, FormStatus } from '../components/FormAlert.tsx';
import { ChoiceField, TextField } from '../components/FormField.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { retryAfterHeaders } from '../lib/headers.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import type { Route } from './+types/regist';
import { useSubmittingTo } from '../lib/journal-href.ts';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Register') },
  {
    name: 'description',
    content: 'Register as a researcher or an author to submit manuscripts and download articles.',
  },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return { signedInAs: context.auth?.user.username ?? null };
}

/** Everything the form sends back after a failure: all it was given except the password. */
const KEPT_FIELDS = ['username', 'email', 'fullName', 'contactNumber', 'institution', 'role'] as const;
type KeptValues = Record<(typeof KEPT_FIELDS)[number], string>;

const ROLE_OPTIONS = [
  { value: 'researcher', label: 'Researcher', hint: 'Read and download published articles.' },
  { value: 'author', label: 'Author', hint: 'Submit manuscripts to the journal.' },
] as const;

const FORM = 'register';

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const values = Object.fromEntries(KEPT_FIELDS.map((name) => [name, read.form.text(name)])) as KeptValues;
  if (!read.ok) return replyRefused(FORM, read.refusal, values);
  const parsed = validateForm(registerSchema, {
    ...values,
    password: read.form.text('password'),
    role: values.role || undefined,
  });
  if (!parsed.ok) return replyRefused(FORM, parsed.refusal, values);
  try {
    await context.services.accounts.register(parsed.data, { ip: context.clientIp });
    return replyDone(FORM, registrationNotice(parsed.data.role), { status: 201 });
  } catch (err) {
    const refused = asClientError(err);
    if (refused) return replyRefused(FORM, refused, values, refused.message || MESSAGES.registrationFailed);
    context.services.log.error({ err }, 'registration failed');
    return replyRefused(FORM, clientError(500, MESSAGES.registrationFailed), values);
  }
}

/** The error summary lists the problems in the order the fields appear on the form. */
const FORM_ORDER = ['username', 'password', 'fullName', 'email', 'contactNumber', 'institution', 'role'];

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useSubmittingTo('/regist');
  const passwordRef = useRef<HTMLInputElement>(null);
  const failure = actionData && !actionData.ok ? actionData : null;

  useEffect(() => {
    if (failure && passwordRef.current) passwordRef.current.value = '';
  }, [failure]);

  if (actionData?.ok) {
    return (
      <div className="page page--narrow">
        <div className="form-card">
          <h1>Register</h1>
          <FormStatus>
            <p>{actionData.message}</p>
          </FormStatus>
          <p>
            <Link to="/login" className="button button--primary">
              Log in
            </Link>
          </p>
        </div>
      </div>
    );
  }

  const errors: Record<string, string> = failure?.errors ?? {};
  const typed = failure?.values;
  return (
    <div className="page page--narrow">
      <div className="form-card form-card--wide">
        <h1>Register</h1>
        <p className="form-card__intro">
          Create an account to submit manuscripts or to download published articles. All fields are required.
        </p>
        {loaderData.signedInAs ? (
          <p className="alert alert--info">
            You are already signed in as <strong>{loaderData.signedInAs}</strong>.
          </p>
        ) : null}
        {failure ? (
          <FormAlert
            attempt={failure}
            message={failure.message}
            fieldLinks={FORM_ORDER.filter((name) => errors[name]).map((name) => ({
              id: `field-${name}`,
              message: errors[name] as string,
            }))}
          />
        ) : null}
        <Form method="post" className="form">
          <TextField
            name="username"
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            minLength={LIMITS.username.min}
            maxLength={LIMITS.username.max}
            hint={`${LIMITS.username.min} to ${LIMITS.username.max} letters, digits, dots, hyphens or underscores.`}
            defaultValue={typed?.username}
            error={errors.username}
          />
          <TextField
            name="password"
            label="Password"
            type="password"
            autoComplete="new-password"
            required
            minLength={LIMITS.password.min}
            maxLength={LIMITS.password.max}
            hint={`At least ${LIMITS.password.min} characters.`}
            inputRef={passwordRef}
            error={errors.password}
          />
          <TextField
            name="fullName"
            label="Full name"
            autoComplete="name"
            required
            maxLength={LIMITS.name}
            defaultValue={typed?.fullName}
            error={errors.fullName}
          />
          <TextField
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            spellCheck={false}
            required
            maxLength={LIMITS.email}
            defaultValue={typed?.email}
            error={errors.email}
          />
          <TextField
            name="contactNumber"
            label="Contact number"
            type="tel"
            autoComplete="tel"
            required
            maxLength={LIMITS.phone}
            defaultValue={typed?.contactNumber}
            error={errors.contactNumber}
          />
          <TextField
            name="institution"
            label="Institution"
            autoComplete="organization"
            required
            maxLength={LIMITS.institution}
            defaultValue={typed?.institution}
            error={errors.institution}
          />
          <ChoiceField
            name="role"
            legend="Register as"
            options={ROLE_OPTIONS}
            value={typed?.role}
            required
            error={errors.role}
          />
          <button type="submit" className="button button--primary button--block" disabled={submitting}>
            {submitting ? 'Registering…' : 'Register'}
          </button>
        </Form>
        <p className="form-card__footer">
          Already registered? <Link to="/login">Log in</Link>
        </p>
      </div>
    </div>
  );
}
