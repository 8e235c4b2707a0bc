import { Form, useNavigation } from 'react-router';
import { LIMITS } from '../../../common/limits.ts';
import type { AccountProfile, AccountSession } from '../../../server/accounts/my-account.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import { FormAlert, FormStatus } from '../FormAlert.tsx';
import { ChoiceField, TextField } from '../FormField.tsx';
import { OrcidField } from './OrcidField.tsx';
import { DateText } from '../submission/DateText.tsx';

/** The answer for this form only, with its field errors in the order the fields appear. */
function resultFor(result: FormResult | undefined, intent: string) {
  return result && result.intent === intent ? result : undefined;
}

function Outcome({ result, order }: { result: FormResult | undefined; order: readonly string[] }) {
  if (!result) return null;
  if (result.ok) {
    return (
      <FormStatus>
        <p>{result.message}</p>
      </FormStatus>
    );
  }
  const links = order
    .filter((name) => result.errors[name])
    .map((name) => ({ id: `field-${name}`, message: result.errors[name] as string }));
  return <FormAlert attempt={result.at} message={result.message} fieldLinks={links} />;
}

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

const PROFILE_ORDER = ['fullName', 'institution', 'contactNumber', 'orcid'] as const;

export function ProfileSection({ profile, result }: { profile: AccountProfile; result?: FormResult }) {
  const mine = resultFor(result, 'profile');
  const refused = mine && !mine.ok ? mine : undefined;
  const value = (name: (typeof PROFILE_ORDER)[number]) =>
    refused ? refused.values[name] : name === 'orcid' ? (profile.orcid ?? '') : profile[name];
  const busy = useBusy('profile');
  return (
    <section id="details" aria-labelledby="details-title" className="account-section">
      <h2 id="details-title">Your details</h2>
      <dl className="account-facts">
        <div>
          <dt>Username</dt>
          <dd>{profile.username}</dd>
        </div>
        <div>
          <dt>Registered</dt>
          <dd>
            <DateText iso={profile.createdAt} />
          </dd>
        </div>
      </dl>
      <Outcome result={mine} order={PROFILE_ORDER} />
      <Form method="post" className="form" key={mine ? `profile-${mine.at}` : 'profile'}>
        <input type="hidden" name="intent" value="profile" />
        <TextField
          name="fullName"
          label="Full name"
          autoComplete="name"
          required
          maxLength={LIMITS.name}
          defaultValue={value('fullName')}
          error={refused?.errors.fullName}
        />
        <TextField
          name="institution"
          label="Institution"
          autoComplete="organization"
          required
          maxLength={LIMITS.institution}
          defaultValue={value('institution')}
          error={refused?.errors.institution}
        />
        <TextField
          name="contactNumber"
          label="Contact number"
          type="tel"
          autoComplete="tel"
          required
          maxLength={LIMITS.phone}
          defaultValue={value('contactNumber')}
          error={refused?.errors.contactNumber}
        />
        <OrcidField defaultValue={value('orcid')} error={refused?.errors.orcid} />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save your details'}
        </button>
      </Form>
    </section>
  );
}

export function EmailSection({ profile, result }: { profile: AccountProfile; result?: FormResult }) {
  const mine = resultFor(result, 'email');
  const refused = mine && !mine.ok ? mine : undefined;
  const busy = useBusy('email');
  return (
    <section id="email" aria-labelledby="email-title" className="account-section">
      <h2 id="email-title">Email address</h2>
      <p>
        The journal writes to <strong className="account-email">{profile.email}</strong>.
      </p>
      {profile.pendingEmail && !mine?.ok ? (
        <p className="alert alert--info">
          Waiting for confirmation: <strong className="account-email">{profile.pendingEmail.email}</strong>.
          Open the link we sent there (it works until <DateText iso={profile.pendingEmail.expiresAt} time />)
          to start using it.
        </p>
      ) : null}
      <Outcome result={mine} order={['email', 'password']} />
      <Form method="post" className="form" key={mine ? `email-${mine.at}` : 'email'}>
        <input type="hidden" name="intent" value="email" />
        <TextField
          name="email"
          label="New email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          required
          maxLength={LIMITS.email}
          hint="We send a link to the new address; nothing changes until you open it."
          defaultValue={refused?.values.email ?? ''}
          error={refused?.errors.email}
        />
        <TextField
          name="password"
          label="Your current password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={LIMITS.password.max}
          error={refused?.errors.password}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send a confirmation link'}
        </button>
      </Form>
    </section>
  );
}

export function PasswordSection({ username, result }: { username: string; result?: FormResult }) {
  const mine = resultFor(result, 'password');
  const refused = mine && !mine.ok ? mine : undefined;
  const busy = useBusy('password');
  return (
    <section id="password" aria-labelledby="password-title" className="account-section">
      <h2 id="password-title">Password</h2>
      <p>Changing your password signs your account out everywhere else; this browser stays signed in.</p>
      <Outcome result={mine} order={['currentPassword', 'newPassword']} />
      <Form method="post" className="form" key={mine ? `password-${mine.at}` : 'password'}>
        <input type="hidden" name="intent" value="password" />
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
        <TextField
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={LIMITS.password.max}
          error={refused?.errors.currentPassword}
        />
        <TextField
          name="newPassword"
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={LIMITS.password.min}
          maxLength={LIMITS.password.max}
          hint={`At least ${LIMITS.password.min} characters.`}
          error={refused?.errors.newPassword}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </Form>
    </section>
  );
}

const sameMinute = (a: string, b: string) => a.slice(0, 16) === b.slice(0, 16);

export function SessionsSection({ sessions, result }: { sessions: AccountSession[]; result?: FormResult }) {
  const mine =
    result && (result.intent === 'end-session' || result.intent === 'end-others') ? result : undefined;
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section id="sessions" aria-labelledby="sessions-title" className="account-section">
      <h2 id="sessions-title">Where you are signed in</h2>
      <p>
        Each sign-in is a session. End any you do not recognise, or that you left open on a shared computer:
        that browser is signed out at once.
      </p>
      <Outcome result={mine} order={[]} />
      <ul className="session-list">
        {sessions.map((s) => (
          <li key={s.id} className={s.current ? 'session session--current' : 'session'}>
            <div className="session__what">
              <p className="session__device">
                {describeUserAgent(s.userAgent)}
                {s.current ? <span className="session__badge">This browser</span> : null}
              </p>
              <p className="session__when">
                Signed in on <DateText iso={s.createdAt} time />
                {s.ip ? <> from {s.ip}</> : null}
              </p>
              {s.lastSeenAt && sameMinute(s.lastSeenAt, s.createdAt) === false ? (
                <p className="session__when">
                  Last used <DateText iso={s.lastSeenAt} time />
                </p>
              ) : null}
            </div>
            {s.current ? (
              <Form method="post" action="/logout" className="session__action">
                <button type="submit" className="button button--small button--secondary">
                  Log out
                </button>
              </Form>
            ) : (
              <Form method="post" className="session__action">
                <input type="hidden" name="intent" value="end-session" />
                <input type="hidden" name="session" value={s.id} />
                <button type="submit" className="button button--small button--secondary">
                  End this session
                  <span className="visually-hidden">
                    : {describeUserAgent(s.userAgent)}, signed in on <DateText iso={s.createdAt} time />
                  </span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post">
          <input type="hidden" name="intent" value="end-others" />
          <button type="submit" className="button button--secondary">
            Sign out everywhere else ({others === 1 ? 'one other session' : `${others} other sessions`})
          </button>
        </Form>
      ) : (
        <p className="muted">You are signed in nowhere else.</p>
      )}
    </section>
  );
}

const JOIN_OPTIONS = [
  { value: 'researcher', label: 'Researcher', hint: 'Read and download its published articles.' },
  { value: 'author', label: 'Author', hint: 'Submit manuscripts to it.' },
] as const;

/**
 * An account of the site signed in at a journal it is not a member of (decision 0054): it reads the journal,
 * and asks here to join it as a researcher or an author; the journal's editors approve it.
 */
export function JoinSection({ result }: { result?: FormResult }) {
  const mine = resultFor(result, 'join');
  const busy = useBusy('join');
  if (mine?.ok) {
    return (
      <section id="join" aria-labelledby="join-title" className="account-section">
        <h2 id="join-title">Join this journal</h2>
        <Outcome result={mine} order={['role']} />
      </section>
    );
  }
  return (
    <section id="join" aria-labelledby="join-title" className="account-section">
      <h2 id="join-title">Join this journal</h2>
      <p>
        Your account is one for every journal of this site, but you are not a member of this one yet. Ask to
        join it: its editorial board approves new members.
      </p>
      <Outcome result={mine} order={['role']} />
      <Form method="post" className="form" key={mine ? `join-${mine.at}` : 'join'}>
        <input type="hidden" name="intent" value="join" />
        <ChoiceField
          name="role"
          legend="Join as"
          options={JOIN_OPTIONS}
          value={mine && !mine.ok ? mine.values.role : undefined}
          required
          error={mine && !mine.ok ? mine.errors.role : undefined}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Asking…' : 'Ask to join'}
        </button>
      </Form>
    </section>
  );
}
