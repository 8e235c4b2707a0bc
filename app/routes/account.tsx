import { Link, redirect } from 'react-router';
import {
  MEMBERSHIP_MESSAGES,
  emailChangeSchema,
  joinSchema,
  passwordChangeSchema,
  profileSchema,
  sessionIdParamSchema,
} from '../../common/account.ts';
import { can } from '../../common/roles.ts';
import {
  EmailSection,
  JoinSection,
  PasswordSection,
  ProfileSection,
  SessionsSection,
} from '../components/account/AccountSections.tsx';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { retryAfterHeaders } from '../lib/headers.ts';
import { pageTitle } from '../lib/meta.ts';
import { closeSessionHeaders } from '../lib/session.server.ts';
import accountCss from '../styles/account.css?url';
import type { Route } from './+types/account';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'My account') },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

function signedIn(context: Route.LoaderArgs['context']) {
  const auth = context.auth;
  if (!auth) throw redirect(`/login?${new URLSearchParams({ redirectTo: '/account' })}`);
  return auth;
}

export async function loader({ context }: Route.LoaderArgs) {
  const auth = signedIn(context);
  if (!can('signedIn', auth.user)) {
    return { allowed: false as const, username: auth.user.username, status: auth.user.status };
  }
  const [profile, sessions] = await Promise.all([
    context.services.myAccount.profile(auth.user.id),
    context.services.myAccount.sessions(auth),
  ]);
  // The site's own pages (no journal at the site's root): the account, which is the site's, and no journal's
  // membership, reviews or joining (decision 0054).
  return { allowed: true as const, profile, sessions, onSite: !context.journal };
}

const PROFILE_FIELDS = ['fullName', 'institution', 'contactNumber', 'orcid'] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const auth = signedIn(context);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const fail = (
    status: number,
    message: string,
    errors: Record<string, string> = {},
    values: Record<string, string> = {},
  ) => replyRefused(intent, clientError(status, message, errors), values);
  const done = (message: string) => replyDone(intent, message);

  if (!can('signedIn', auth.user)) return fail(403, 'This account cannot be changed.');
  const { myAccount } = context.services;
  const meta = { ip: context.clientIp };
  let values: Record<string, string> = {};
  try {
    switch (intent) {
      case 'profile': {
        values = Object.fromEntries(PROFILE_FIELDS.map((name) => [name, form.text(name)]));
        const parsed = validateForm(profileSchema, values);
        if (!parsed.ok) return fail(400, parsed.refusal.message, parsed.refusal.errors, values);
        await myAccount.updateProfile(auth, parsed.data);
        return done('Your details are saved.');
      }
      case 'email': {
        values = { email: form.text('email') };
        const parsed = validateForm(emailChangeSchema, { ...values, password: form.text('password') });
        if (!parsed.ok) return fail(400, parsed.refusal.message, parsed.refusal.errors, values);
        const pending = await myAccount.requestEmailChange(auth, parsed.data, meta);
        return done(
          `We have sent a link to ${pending.email}. Your address changes when you open it; until then we keep writing to ${auth.user.email}.`,
        );
      }
      case 'password': {
        const parsed = validateForm(passwordChangeSchema, {
          currentPassword: form.text('currentPassword'),
          newPassword: form.text('newPassword'),
        });
        if (!parsed.ok) return fail(400, parsed.refusal.message, parsed.refusal.errors);
        const { endedSessions } = await myAccount.changePassword(auth, parsed.data, meta);
        return done(
          endedSessions === 0
            ? 'Your password has been changed.'
            : `Your password has been changed, and ${endedSessions === 1 ? 'your other session has' : `your ${endedSessions} other sessions have`} been signed out.`,
        );
      }
      case 'end-session': {
        const parsed = validateForm(sessionIdParamSchema, { id: form.text('session') });
        if (!parsed.ok) return fail(400, 'No such session.');
        const { current } = await myAccount.endSession(auth, parsed.data.id);
        if (current) return redirect('/', { headers: closeSessionHeaders(context.secure) });
        return done('The session has ended: that browser is signed out.');
      }
      case 'join': {
        values = { role: form.text('role') };
        const parsed = validateForm(joinSchema, values);
        if (!parsed.ok) return fail(400, parsed.refusal.message, parsed.refusal.errors, values);
        await context.services.accounts.join(auth.user, parsed.data.role);
        return done(MEMBERSHIP_MESSAGES.joined);
      }
      case 'end-others': {
        const ended = await myAccount.endOtherSessions(auth);
        return done(
          ended === 0
            ? 'There were no other sessions to end.'
            : `${ended === 1 ? 'One other session has' : `${ended} other sessions have`} ended.`,
        );
      }
      default:
        return fail(400, 'Unknown action.');
    }
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, values);
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.allowed) {
    return (
      <div className="page page--narrow notice-page">
        <h1>My account</h1>
        <p className="lead">
          You are signed in as <strong>{loaderData.username}</strong>, whose registration was not approved by
          the editorial board, so its details cannot be changed here.
        </p>
        <p>
          If you think this is a mistake, <Link to="/contact">write to the editorial office</Link>.
        </p>
      </div>
    );
  }
  const { profile, sessions, onSite } = loaderData;
  return (
    <div className="page account">
      <header className="account__header">
        <p className="eyebrow">Your account</p>
        <h1>My account</h1>
        {onSite ? (
          <>
            <p className="lead">
              Signed in as <strong>{profile.username}</strong>. Your account is one for every journal of this
              site; what you may do in each is that journal's.
            </p>
            <p>
              Your submissions, reviews and editorial work are on each journal's own pages:{' '}
              <Link to="/">the journals of this site</Link>.
            </p>
          </>
        ) : (
          <>
            <p className="lead">
              Signed in as <strong>{profile.username}</strong>,{' '}
              {profile.role
                ? `${profile.role} account (${profile.status}).`
                : 'not a member of this journal.'}
            </p>
            {/* Reviewing is an assignment, not a role: any account may be invited, so any has a reviewer profile. */}
            <p>
              Reviewing for the journal: <Link to="/reviews/profile">your reviewer profile</Link> (areas of
              interest, days you are unavailable) and <Link to="/reviews">your reviews</Link>.
            </p>
          </>
        )}
      </header>
      <nav className="account__nav" aria-label="On this page">
        <ul>
          <li>
            <a href="#details">Your details</a>
          </li>
          <li>
            <a href="#email">Email address</a>
          </li>
          <li>
            <a href="#password">Password</a>
          </li>
          <li>
            <a href="#sessions">Where you are signed in</a>
          </li>
        </ul>
      </nav>
      {!onSite && (profile.role === null || actionData?.intent === 'join') ? (
        <JoinSection result={actionData} />
      ) : null}
      <ProfileSection profile={profile} result={actionData} />
      <EmailSection profile={profile} result={actionData} />
      <PasswordSection username={profile.username} result={actionData} />
      <SessionsSection sessions={sessions} result={actionData} />
    </div>
  );
}
