import { Form, Link, data, redirect, useNavigation } from 'react-router';
import { formatDay } from '../../common/dates.ts';
import { reviewerProfileSchema } from '../../common/review.ts';
import { can } from '../../common/roles.ts';
import { dayIn } from '../../server/review/rules.ts';
import { FormAlert, FormStatus } from '../components/FormAlert.tsx';
import { CheckField, ChoiceField, TextField } from '../components/FormField.tsx';
import { OrcidField } from '../components/account/OrcidField.tsx';
import type { FormResult } from '../lib/form-result.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { replyDone, replyRefused, readIntentForm } from '../lib/reply.server.ts';
import { pageTitle } from '../lib/meta.ts';
import reviewCss from '../styles/review.css?url';
import submissionCss from '../styles/submission.css?url';
import type { Route } from './+types/reviews.profile';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: reviewCss },
];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Your reviewer profile') },
  { name: 'robots', content: 'noindex' },
];

/** The fields in the order the page shows them (the refusal's list of links follows it). */
const FIELDS = ['name', 'affiliation', 'interests', 'orcid', 'unavailableUntil'] as const;

function signedIn(context: Route.LoaderArgs['context']) {
  const auth = context.auth;
  if (!auth) throw redirect(`/login?${new URLSearchParams({ redirectTo: '/reviews/profile' })}`);
  // A rejected or suspended account has no profile to change (as on My account).
  if (!can('signedIn', auth.user)) throw data(null, { status: 403 });
  return auth;
}

/**
 * The reviewer's profile (issue 14): name, affiliation, areas of interest from the journal's areas, ORCID iD
 * and "unavailable until", which the editors see in the reviewer pool and when inviting. Any account has one:
 * reviewing is an assignment, not a role (decision 0023).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const auth = signedIn(context);
  const { review, settings, clock } = context.services;
  const [profile, journal] = await Promise.all([review.profile(auth.user), settings.journal()]);
  return {
    profile,
    areas: journal.areas,
    today: dayIn(clock.now(), journal.review.timeZone),
    // The site's pool is there only when the site has other journals (decision 0058).
    otherJournals: context.services.journals.list().length > 1,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = signedIn(context);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form } = read;
  const intent = 'profile';
  const values = {
    name: form.text('name'),
    affiliation: form.text('affiliation'),
    interests: form.all('interests').join('\n'),
    orcid: form.text('orcid'),
    unavailableUntil: form.text('unavailableUntil'),
    listedAcrossSite: form.text('listedAcrossSite'),
  };
  const parsed = validateForm(reviewerProfileSchema, {
    ...values,
    interests: form.all('interests'),
    unavailableUntil: values.unavailableUntil.trim() || null,
    // A box left unticked sends nothing: the hidden field says the box was on the page.
    listedAcrossSite: form.text('siteListing') === 'shown' ? values.listedAcrossSite === 'on' : undefined,
  });
  if (!parsed.ok) return replyRefused(intent, oneMessagePerField(parsed.refusal), values);
  try {
    await context.services.review.saveProfile(auth.user, parsed.data);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, oneMessagePerField(refused), values);
  }
  return replyDone(intent, 'Your reviewer profile is saved. The editors see it when they choose reviewers.');
}

/** An area's own refusal ("interests.2") is said beside the group of areas. */
function oneMessagePerField<R extends { errors: Record<string, string> }>(refusal: R): R {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(refusal.errors)) errors[key.split('.')[0]] ??= message;
  return { ...refusal, errors };
}

export default function ReviewerProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, areas, today, otherJournals } = loaderData;
  const result = actionData as FormResult | undefined;
  const refused = result && !result.ok ? result : undefined;
  const typed = refused?.values;
  const errors = refused?.errors ?? {};
  const busy = useNavigation().state === 'submitting';
  const chosen = typed ? typed.interests.split('\n').filter(Boolean) : profile.interests;
  // Areas the journal no longer lists stay visible while the profile still names them.
  const options = [...areas, ...profile.interests.filter((i) => !areas.includes(i))];
  const away =
    profile.unavailableUntil && profile.unavailableUntil >= today ? profile.unavailableUntil : null;
  return (
    <div className="page page--narrow reviewer-profile">
      <p className="breadcrumb">
        <Link to="/reviews">
          <span aria-hidden="true">← </span>Reviews
        </Link>
      </p>
      <header>
        <p className="eyebrow">For reviewers</p>
        <h1 id="profile-title">Your reviewer profile</h1>
        <p className="lead">
          What the editors see when they choose reviewers for a manuscript. Invitations go to{' '}
          <strong className="reviewer-profile__email">{profile.email}</strong>, your account's address (
          <Link to="/account#email">change it on My account</Link>).
        </p>
      </header>
      {result?.ok ? (
        <FormStatus>
          <p>{result.message}</p>
        </FormStatus>
      ) : null}
      {refused ? (
        <FormAlert
          attempt={refused.at}
          message={refused.message}
          fieldLinks={FIELDS.filter((f) => errors[f]).map((f) => ({ id: `field-${f}`, message: errors[f] }))}
        />
      ) : null}
      {away ? (
        <p className="alert alert--info">
          The editors see that you are unavailable until {formatDay(away)}: they are warned if they invite you
          before then.
        </p>
      ) : null}
      <Form
        method="post"
        noValidate
        className="form"
        aria-labelledby="profile-title"
        key={result ? `profile-${result.at}` : 'profile'}
      >
        <input type="hidden" name="intent" value="profile" />
        <TextField
          name="name"
          label="Your name"
          hint="As the editors see it, and the authors in open review."
          autoComplete="name"
          required
          marks
          maxLength={200}
          defaultValue={typed?.name ?? profile.name}
          error={errors.name}
        />
        <TextField
          name="affiliation"
          label="Affiliation"
          hint="Your institution. The editors are warned when it is an author's."
          autoComplete="organization"
          marks
          maxLength={300}
          defaultValue={typed?.affiliation ?? profile.affiliation}
          error={errors.affiliation}
        />
        <ChoiceField
          name="interests"
          legend="Areas of interest"
          hint="The journal's areas you would review in: the editors search the reviewer pool by them."
          multiple
          marks
          options={options.map((a) => ({ value: a, label: a }))}
          value={chosen}
          error={errors.interests}
        />
        <OrcidField marks defaultValue={typed?.orcid ?? profile.orcid ?? ''} error={errors.orcid} />
        <TextField
          name="unavailableUntil"
          type="date"
          label="Unavailable until"
          hint="Until this day, included, you cannot take on new reviews: the editors see it. Leave it empty when you are available."
          marks
          min={today}
          defaultValue={typed?.unavailableUntil ?? profile.unavailableUntil ?? ''}
          error={errors.unavailableUntil}
        />
        {otherJournals ? (
          <div className="field">
            <input type="hidden" name="siteListing" value="shown" />
            <CheckField
              // Made anew when the saved choice changes: the revalidated profile may come after the answer.
              key={`listed-${profile.listedAcrossSite}`}
              id="field-listedAcrossSite"
              name="listedAcrossSite"
              value="on"
              label="Editors of the publisher's other journals may find me in the site's reviewer pool"
              defaultChecked={typed ? typed.listedAcrossSite === 'on' : profile.listedAcrossSite}
              aria-describedby="field-listedAcrossSite-hint"
            />
            <p id="field-listedAcrossSite-hint" className="field__hint">
              They would see your name, affiliation, interests and how many reviews you have open and done,
              never your e-mail address or your reviews. Unticked, only the journals you already review for
              see you.
            </p>
          </div>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save your reviewer profile'}
        </button>
      </Form>
    </div>
  );
}
