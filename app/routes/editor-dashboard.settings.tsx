import { Form } from 'react-router';
import {
  type DOWNLOAD_POLICIES,
  JOURNAL_FACT_FIELDS,
  JOURNAL_SETTINGS_FIELDS,
  type JournalSettings,
  LICENCES,
  logoHref,
  type JournalSettingsEdit,
  journalSettingsEditSchema,
} from '../../common/journal.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { CheckField, ChoiceField, SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import { FileField } from '../components/FileField.tsx';
import { JOURNAL_LOGO_MAX_BYTES, JOURNAL_LOGO_RULE, fileLimit } from '../../common/upload-rules.ts';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { type PostedForm, asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import {
  REVIEW_SETTING_FIELDS,
  reviewFieldErrors,
  reviewSettingsFromForm,
  reviewSettingsToForm,
} from '../lib/review-settings-form.ts';
import { REVIEW_MODES, REVIEW_MODE_LABELS, REVIEW_SETTINGS_DEFAULTS } from '../../common/review.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import type { Route } from './+types/editor-dashboard.settings';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Journal settings · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request, 'admin');
  const [{ settings, version }, logo] = await Promise.all([
    context.services.content.journalSettingsForEdit(),
    context.services.content.logo(),
  ]);
  // Peer review's defaults are a group of their own, as form fields (review-settings-form.ts).
  const { pendingAccountsDigest, copyrightFormRequired, review, ...text } = settings;
  const { description, areas, frequency, issuesPerYear, startYear, language, license, ...single } = text;
  return {
    values: {
      ...single,
      // The journal's facts as the form writes them (factsFromForm reads them back).
      description: description ?? '',
      areas: (areas ?? []).join('\n'),
      frequency: frequency ?? '',
      issuesPerYear: String(issuesPerYear ?? ''),
      startYear: String(startYear ?? ''),
      language: language ?? '',
      license: license?.url ?? '',
      pendingAccountsDigest: pendingAccountsDigest ? 'on' : '',
      copyrightFormRequired: copyrightFormRequired ? 'on' : '',
      ...reviewSettingsToForm(review ?? REVIEW_SETTINGS_DEFAULTS),
    },
    base: version,
    // A licence set through the API that the page does not offer stays choosable.
    licences: licenceChoices(license),
    logo: logo
      ? { href: logoHref(context.journal?.prefix ?? '', logo), width: logo.width, height: logo.height }
      : null,
  };
}

function licenceChoices(current: JournalSettings['license'] | undefined) {
  const known = LICENCES.map((l) => ({ value: l.url, label: l.name }));
  return current && !LICENCES.some((l) => l.url === current.url)
    ? [...known, { value: current.url, label: current.name }]
    : known;
}

/** The journal's facts from the page's fields: the areas one per line, the numbers as numbers, the licence by its address. */
function factsFromForm(text: (name: string) => string, current: JournalSettings) {
  const whole = (v: string) => (/^\s*\d+\s*$/.test(v) ? Number(v) : v);
  const licenceUrl = text('license');
  const licence =
    LICENCES.find((l) => l.url === licenceUrl) ??
    (current.license.url === licenceUrl
      ? current.license
      : licenceUrl
        ? { name: '', url: licenceUrl }
        : undefined);
  return {
    description: text('description'),
    areas: text('areas')
      .split(/\r?\n/)
      .map((a) => a.trim())
      .filter(Boolean),
    frequency: text('frequency'),
    issuesPerYear: whole(text('issuesPerYear')),
    startYear: whole(text('startYear')),
    language: text('language'),
    license: licence ? { ...licence } : undefined,
  };
}

/** The settings that are checkboxes: checked sends "on", unchecked sends nothing. */
const DIGEST = 'pendingAccountsDigest';
const COPYRIGHT = 'copyrightFormRequired';

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request, 'admin');
  const read = await readIntentForm(request, {
    files: { logo: fileLimit(JOURNAL_LOGO_RULE, JOURNAL_LOGO_MAX_BYTES) },
  });
  if (!read.ok) return read.answer;
  const { form } = read;
  if (read.intent === 'logo' || read.intent === 'remove-logo')
    return logoAction(context, auth, read.intent, form);
  const values = Object.fromEntries(
    [...JOURNAL_SETTINGS_FIELDS, ...JOURNAL_FACT_FIELDS, ...REVIEW_SETTING_FIELDS].map((k) => [
      k,
      form.text(k),
    ]),
  );
  const input = {
    ...Object.fromEntries(JOURNAL_SETTINGS_FIELDS.map((k) => [k, values[k]])),
    ...factsFromForm((name) => values[name] ?? '', await context.services.settings.journal()),
    [DIGEST]: values[DIGEST] === 'on',
    [COPYRIGHT]: values[COPYRIGHT] === 'on',
    review: reviewSettingsFromForm((name) => form.text(name)),
  };
  const base = form.text('base');
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused('save', clientError(status, message, errors), { ...values, base });
  const parsed = validateForm(journalSettingsEditSchema, input);
  if (!parsed.ok) {
    // An area's own refusal ("areas.2") and the licence's ("license.url") are said at their field.
    const errors = factFieldErrors(reviewFieldErrors(parsed.refusal.errors));
    const count = Object.keys(errors).length;
    return fail(
      400,
      count === 1
        ? 'One setting needs correcting: see below.'
        : `${count} settings need correcting: see below.`,
      errors,
    );
  }
  try {
    const changed = await context.services.content.editJournalSettings(
      auth.user,
      parsed.data,
      base || undefined,
    );
    return replyDone(
      'save',
      changed.length
        ? `Saved: ${changed.map((k) => LABELS[k as keyof JournalSettingsEdit]).join(', ')}.`
        : 'Nothing changed.',
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
}

/** The logo's two forms (decision 0062): upload one (a PNG or JPEG), or remove it. */
async function logoAction(
  context: Route.ActionArgs['context'],
  auth: ReturnType<typeof requireEditor>,
  intent: 'logo' | 'remove-logo',
  form: PostedForm,
) {
  try {
    if (intent === 'remove-logo') {
      await context.services.content.removeLogo(auth.user);
      return replyDone(intent, 'The logo is removed: the journal’s pages show the site’s mark again.');
    }
    const file = form.file('logo');
    if (!file)
      return replyRefused(
        intent,
        clientError(400, 'Choose the logo: a PNG or JPEG image.', { logo: 'Choose an image.' }),
        {},
      );
    await context.services.content.setLogo(auth.user, {
      field: 'logo',
      filename: file.filename,
      data: file.data,
    });
    return replyDone(
      intent,
      'The logo is saved: the journal’s pages and its card on the site’s home show it.',
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, {});
  }
}

function factFieldErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const field = /^(areas|license)\./.exec(key)?.[1] ?? key;
    out[field] ??= message;
  }
  return out;
}

const LABELS: Record<keyof JournalSettingsEdit, string> = {
  name: 'Journal title',
  abbreviation: 'Abbreviation',
  issnOnline: 'Online ISSN',
  description: 'Description',
  areas: 'Areas',
  frequency: 'Frequency',
  issuesPerYear: 'Issues a year',
  startYear: 'First year of publication',
  language: 'Language of the articles',
  license: 'Licence',
  publisher: 'Publisher',
  publisherAddress: "Publisher's address",
  email: 'Journal e-mail',
  phone: 'Phone',
  doiPrefix: 'DOI prefix',
  depositorName: 'Depositor name',
  depositorEmail: 'Depositor e-mail',
  downloads: 'Who may download articles',
  pendingAccountsDigest: 'Daily digest of accounts waiting for approval',
  copyrightFormRequired: 'Copyright form required with a submission',
  review: 'Peer review defaults',
};

const DOWNLOAD_CHOICES: { value: (typeof DOWNLOAD_POLICIES)[number]; label: string; hint: string }[] = [
  {
    value: 'approved-accounts',
    label: 'Approved accounts',
    hint: 'Readers register and are approved by the editorial board before they download.',
  },
  { value: 'open', label: 'Anyone', hint: 'Published PDFs open without an account.' },
];

export default function JournalSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  // The settings form's own refusal (the logo's forms answer for themselves).
  const refused = actionData && !actionData.ok && actionData.intent === 'save' ? actionData : null;
  const logoError =
    actionData && !actionData.ok && actionData.intent === 'logo'
      ? (actionData.errors.logo ?? actionData.message)
      : undefined;
  // After a refusal the form shows what was typed; after a save, the stored values (the loader ran again).
  const values: Record<string, string> = refused
    ? refused.values
    : { ...loaderData.values, base: loaderData.base };
  const errors = refused?.errors ?? {};
  // A new key after each answer and each new stored version: the fields take the values above instead of
  // keeping their own.
  const key = `${actionData ? actionData.at : 'loaded'}-${loaderData.base}`;
  const field = (
    name: Exclude<keyof JournalSettingsEdit, typeof DIGEST | 'areas' | 'license'>,
    extra: { type?: string; hint?: string; autoComplete?: string } = {},
  ) => (
    <TextField
      id={`js-${name}`}
      name={name}
      label={LABELS[name]}
      marks
      required
      defaultValue={values[name]}
      error={errors[name]}
      {...extra}
    />
  );
  return (
    <section aria-labelledby="settings-title" className="journal-settings">
      <h1 id="settings-title">Journal settings</h1>
      <p className="lead">
        What the site, its metadata and its exports say about the journal. Changes show at once on every page,
        in Google Scholar's tags, in the OAI-PMH, Crossref and DOAJ records and in the feeds.
      </p>
      <ActionResult result={actionData} />
      <LogoForms logo={loaderData.logo} error={logoError} />
      <Form method="post" key={key} aria-labelledby="settings-title" noValidate>
        <input type="hidden" name="base" value={values.base ?? ''} />
        <fieldset>
          <legend>The journal</legend>
          {field('name')}
          {field('abbreviation', { hint: 'The short title, as in citations (citation_journal_abbrev).' })}
          <TextField
            id="js-issnOnline"
            name="issnOnline"
            label={LABELS.issnOnline}
            marks
            defaultValue={values.issnOnline}
            error={errors.issnOnline}
            hint="As the ISSN centre assigned it, such as 2049-3630. Leave it empty until one is assigned: the pages and exports then name none."
          />
          <TextAreaField
            id="js-description"
            name="description"
            label={LABELS.description}
            marks
            required
            rows={5}
            defaultValue={values.description}
            error={errors.description}
            hint="A paragraph on the journal's scope: the home page and the site's list of journals show it."
          />
          <TextAreaField
            id="js-areas"
            name="areas"
            label={LABELS.areas}
            marks
            rows={6}
            defaultValue={values.areas}
            error={errors.areas}
            hint="One per line. Reviewers choose their interests from them, and editors search the reviewer pool by them."
          />
        </fieldset>
        <fieldset>
          <legend>Publishing</legend>
          {field('frequency', { hint: 'As the home page says it, such as Quarterly.' })}
          {field('issuesPerYear', { type: 'number', hint: 'A whole number, such as 4.' })}
          {field('startYear', { type: 'number', hint: 'The year of the first issue, such as 2025.' })}
          {field('language', { hint: 'Its ISO 639-1 code, such as en for English.' })}
          <SelectField
            id="js-license"
            name="license"
            label={LABELS.license}
            marks
            required
            options={loaderData.licences}
            defaultValue={values.license}
            error={errors.license}
            hint="Every article is published under it: the pages, the PDFs' metadata and the exports name it."
          />
        </fieldset>
        <fieldset>
          <legend>Publisher and contact</legend>
          {field('publisher')}
          <TextAreaField
            id="js-publisherAddress"
            name="publisherAddress"
            label={LABELS.publisherAddress}
            marks
            required
            rows={3}
            defaultValue={values.publisherAddress}
            error={errors.publisherAddress}
          />
          {field('email', { type: 'email', autoComplete: 'email' })}
          {field('phone', { type: 'tel' })}
        </fieldset>
        <fieldset>
          <legend>DOI registration (Crossref)</legend>
          {field('doiPrefix', {
            hint: 'Your Crossref prefix, such as 10.12345 (10.5555 is Crossref’s test prefix).',
          })}
          {field('depositorName', { hint: 'Named in each Crossref deposit file as the depositor.' })}
          {field('depositorEmail', {
            type: 'email',
            hint: 'Crossref writes to this address about each deposit.',
          })}
        </fieldset>
        <ChoiceField
          id="js-downloads"
          name="downloads"
          legend="Who may download articles"
          required
          marks
          options={DOWNLOAD_CHOICES}
          value={values.downloads}
          error={errors.downloads}
          hint="DOAJ lists only journals whose articles can be read without registering, and Google Scholar indexes the full text only when its crawler can fetch the PDF: both need “Anyone”."
        />
        <fieldset>
          <legend>Accounts waiting for approval</legend>
          <div className="field">
            <CheckField
              id="js-pendingAccountsDigest"
              name={DIGEST}
              value="on"
              label="E-mail editors a daily digest of accounts waiting for approval"
              defaultChecked={values[DIGEST] === 'on'}
              aria-describedby="js-pendingAccountsDigest-hint"
            />
            <p id="js-pendingAccountsDigest-hint" className="field__hint">
              At most one e-mail a day to every approved editor and administrator, listing the accounts
              waiting, and only on days when new ones have registered.
            </p>
          </div>
        </fieldset>
        <fieldset>
          <legend>Submissions</legend>
          <div className="field">
            <CheckField
              id="js-copyrightFormRequired"
              name={COPYRIGHT}
              value="on"
              label="A submission must include the signed copyright form"
              defaultChecked={values[COPYRIGHT] === 'on'}
              aria-describedby="js-copyrightFormRequired-hint"
            />
            <p id="js-copyrightFormRequired-hint" className="field__hint">
              The submission form then refuses a manuscript sent without the form (a PDF). Either way, editors
              are warned when they publish an article whose submission has none.
            </p>
          </div>
        </fieldset>
        <ReviewDefaults values={values} errors={errors} />
        <button type="submit" className="button button--primary">
          Save the settings
        </button>
      </Form>
    </section>
  );
}

/** The journal's logo: the one it has (if any), a new one to upload, and removing it. */
function LogoForms({
  logo,
  error,
}: {
  logo: { href: string; width: number; height: number } | null;
  error: string | undefined;
}) {
  return (
    <section className="journal-settings__logo" aria-labelledby="logo-title">
      <h2 id="logo-title">Logo</h2>
      {logo ? (
        <p className="journal-settings__logo-now">
          <img src={logo.href} alt="The journal’s logo now" width={96} height={96} />
          <span>
            {logo.width} × {logo.height} pixels. The journal’s pages show it beside its name, and the site’s
            home on its card.
          </span>
        </p>
      ) : (
        <p>None yet: the journal’s pages show the site’s mark.</p>
      )}
      <Form method="post" encType="multipart/form-data" aria-labelledby="logo-title">
        <input type="hidden" name="intent" value="logo" />
        <FileField
          rule={JOURNAL_LOGO_RULE}
          maxBytes={JOURNAL_LOGO_MAX_BYTES}
          label={logo ? 'A new logo' : 'The logo'}
          id="js-logo"
          required
          hint="A PNG or JPEG of at most 1 MB, square, 64 to 4,000 pixels a side (400 is ideal)."
          error={error}
        />
        <button type="submit" className="button button--secondary">
          Upload the logo
        </button>
      </Form>
      {logo ? (
        <Form method="post">
          <input type="hidden" name="intent" value="remove-logo" />
          <button type="submit" className="button button--secondary">
            Remove the logo
          </button>
        </Form>
      ) : null}
    </section>
  );
}

const REMINDER_FIELDS = [
  {
    kind: 'response',
    label: 'Reminders of an unanswered invitation',
    hint: 'Days around the answer-by date: negative before, positive after. Default: -2, 1.',
  },
  {
    kind: 'review',
    label: 'Reminders of a review not submitted',
    hint: 'Days around the review due date. Default: -3, 1, 7.',
  },
  {
    kind: 'revision',
    label: "Reminders of an author's revision not uploaded",
    hint: "Days around the author's due date. Default: -7, 1.",
  },
] as const;

/** Peer review's journal-wide defaults (decision 0023), a group of the settings form. */
function ReviewDefaults({
  values,
  errors,
}: {
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  const days = (name: string, label: string, hint: string) => (
    <TextField
      id={`js-${name.replace(/\./g, '-')}`}
      name={name}
      label={label}
      hint={hint}
      marks
      required
      inputMode="numeric"
      fieldClassName="field--short"
      defaultValue={values[name]}
      error={errors[name]}
    />
  );
  return (
    <fieldset>
      <legend>Peer review</legend>
      {days(
        'review.respondDays',
        'Days to answer an invitation',
        'The answer-by date of a new invitation. Default: 7.',
      )}
      {days('review.reviewDays', 'Days to review', 'After the answer-by date. Default: 28.')}
      {days(
        'review.revisionDays',
        'Days for a revision',
        "The author's due date when revisions are requested. Default: 30.",
      )}
      <ChoiceField
        id="js-review-defaultMode"
        name="review.defaultMode"
        legend="Review mode of new manuscripts"
        required
        marks
        options={REVIEW_MODES.map((m) => ({ value: m, label: REVIEW_MODE_LABELS[m] }))}
        value={values['review.defaultMode']}
        error={errors['review.defaultMode']}
      />
      {REMINDER_FIELDS.map((r) => (
        <TextField
          key={r.kind}
          id={`js-review-reminders-${r.kind}`}
          name={`review.reminders.${r.kind}`}
          label={r.label}
          hint={`${r.hint} Leave empty for none.`}
          marks
          defaultValue={values[`review.reminders.${r.kind}`]}
          error={errors[`review.reminders.${r.kind}`]}
        />
      ))}
      <TextField
        id="js-review-timeZone"
        name="review.timeZone"
        label="Time zone of the due dates"
        hint="A due date ends at midnight in this zone: UTC, or a name such as Europe/Berlin or Asia/Kolkata."
        marks
        required
        defaultValue={values['review.timeZone']}
        error={errors['review.timeZone']}
      />
      <div className="field">
        <CheckField
          id="js-review-tellReviewersDecision"
          name="review.tellReviewersDecision"
          value="on"
          label="Tell the reviewers the final decision"
          defaultChecked={values['review.tellReviewersDecision'] === 'on'}
        />
      </div>
    </fieldset>
  );
}
