import { useEffect, useRef, useState } from 'react';
import { Link, redirect } from 'react-router';
import { MESSAGES } from '../../common/messages.ts';
import { can } from '../../common/roles.ts';
import {
  SubmissionForm,
  type SubmissionFormState,
  type Submitted,
} from '../components/submission/SubmissionForm.tsx';
import type { UploadLimits } from '../../common/upload-rules.ts';
import {
  type AuthorDraft,
  authorsFromForm,
  blankAuthor,
  checkFields,
  editAuthors,
  parseIntent,
  valuesFromForm,
} from '../components/submission/draft.ts';
import type { FormResult } from '../lib/form-result.ts';
import { asClientError, readForm } from '../lib/forms.server.ts';
import { journalNameFrom, pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import submissionCss from '../styles/submission.css?url';
import type { Route } from './+types/submission';
import { checkedManuscriptFiles, manuscriptFormOptions, uploadLimits } from './submission.server.ts';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: submissionCss }];

export const meta: Route.MetaFunction = ({ matches }) => {
  const journal = journalNameFrom(matches) ?? 'the journal';
  return [
    { title: pageTitle(matches, 'Submit a manuscript') },
    {
      name: 'description',
      content: `Submit a manuscript to ${journal}: research articles, review articles and novel data collection articles, as Word or PDF, with optional supplementary files.`,
    },
  ];
};

/** Signed out: to the login page, which says why, and back here afterwards (spec section 6). */
const LOGIN_FOR_SUBMISSION = `/login?${new URLSearchParams({ redirectTo: '/submission', reason: 'author' })}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = context.auth;
  if (!auth) throw redirect(LOGIN_FOR_SUBMISSION);
  const { user } = auth;
  if (!can('submit', user)) {
    return { allowed: false as const, username: user.username, role: user.role, status: user.status };
  }
  // After a form post without JavaScript, the page is shown again (post/redirect/get) with the reference.
  const submittedId = Number(new URL(request.url).searchParams.get('submitted'));
  let submitted: Submitted | null = null;
  if (Number.isInteger(submittedId) && submittedId > 0) {
    const mine = await context.services.submissions.forUser(user.id);
    const found = mine.find((s) => s.id === submittedId);
    if (found) submitted = { id: found.id, reference: found.reference };
  }
  // Author 1 starts as the signed-in account (issue 22): the author edits it if someone else leads the paper.
  const [profile, journal] = await Promise.all([
    context.services.myAccount.profile(user.id),
    context.services.settings.journal(),
  ]);
  return {
    allowed: true as const,
    limits: uploadLimits(context),
    submitted,
    firstAuthor: {
      name: profile.fullName,
      email: profile.email,
      affiliation: profile.institution,
      superscript: '',
      orcid: profile.orcid ?? '',
    },
    copyrightRequired: journal.copyrightFormRequired,
  };
}

const FORM = 'submission';

/** The form as posted: its text fields and its list of authors (the files have to be chosen again). */
type PostedSubmission = SubmissionFormState['values'] & Pick<SubmissionFormState, 'authors'>;

/** The answer drawn again by a browser without JavaScript: a refusal, or the author list edited. */
function formState(result: FormResult<PostedSubmission> | undefined): SubmissionFormState | null {
  if (!result?.values) return null;
  const { authors, ...values } = result.values;
  if (result.ok) return { values, authors, errors: {} };
  return { values, authors, errors: result.errors, message: result.message };
}

/**
 * The form posted without JavaScript: an edit of the author list (URL-encoded, files not sent), or the
 * submission itself (multipart), checked with the same schema and file rules as the API.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const limits = uploadLimits(context);
  const read = await readForm(request, manuscriptFormOptions(limits));
  const { form } = read;
  const values = valuesFromForm(form);
  const authors = authorsFromForm(form);
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(FORM, clientError(status, message, errors), { ...values, authors });
  if (!read.ok) {
    const { status, message, errors } = read.refusal;
    // Files over the limit: refused, with what was typed kept (the files have to be chosen again).
    if (status === 413) {
      return fail(status, `${message} Choose smaller files; the rest of the form is kept.`, {
        submissionFile: message,
      });
    }
    return fail(status, message, errors);
  }

  const edit = parseIntent(form.text('intent'));
  if (edit)
    return replyDone(FORM, 'The list of authors is changed; the manuscript is not sent yet.', {
      values: { ...values, authors: editAuthors(authors, edit, blankAuthor) },
    });

  const auth = context.auth;
  if (!auth || !can('submit', auth.user)) return fail(auth ? 403 : 401, MESSAGES.mustBeAuthor);

  const checked = checkFields(values, authors);
  const errors: Record<string, string> = checked.ok ? {} : { ...checked.errors };
  let files: Awaited<ReturnType<typeof checkedManuscriptFiles>> | null = null;
  let status = 400;
  try {
    files = await checkedManuscriptFiles(form, limits);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    Object.assign(errors, refused.errors);
    if (!Object.keys(refused.errors).length) errors.submissionFile = refused.message;
    if (checked.ok) status = refused.status;
  }
  if (!checked.ok || !files) return fail(status, Object.values(errors)[0] ?? 'Invalid request.', errors);

  try {
    const created = await context.services.submissions.submit(
      auth.user,
      checked.data,
      files.manuscript,
      files.additional,
      files.copyrightForm,
    );
    return redirect(`/submission?submitted=${created.id}`);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
}

export default function Submission({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.allowed) return <NeedsAuthorAccount {...loaderData} />;
  return (
    <SubmissionPage
      limits={loaderData.limits}
      submitted={loaderData.submitted}
      actionData={formState(actionData)}
      firstAuthor={loaderData.firstAuthor}
      copyrightRequired={loaderData.copyrightRequired}
    />
  );
}

function SubmissionPage({
  limits,
  submitted: submittedByPost,
  actionData,
  firstAuthor,
  copyrightRequired,
}: {
  limits: UploadLimits;
  submitted: Submitted | null;
  actionData: SubmissionFormState | null;
  firstAuthor: AuthorDraft;
  copyrightRequired: boolean;
}) {
  const [submitted, setSubmitted] = useState<Submitted | null>(submittedByPost);
  // A new key after each submission: the form starts again empty.
  const [formKey, setFormKey] = useState(0);
  useEffect(() => setSubmitted(submittedByPost), [submittedByPost]);

  return (
    <div className="page submission-page">
      <header className="submission-page__header">
        <p className="eyebrow">For authors</p>
        <h1>Submit a manuscript</h1>
        <p className="lead">
          Send your manuscript to the editorial board for peer review. Please read the{' '}
          <Link to="/instructions">instructions for authors</Link> first, and complete the{' '}
          <Link to="/copyright">copyright form</Link>: attach it, signed, as a PDF under Files. Every manuscript is checked for similarity on arrival;
          you can <Link to="/plagiarism">check yours for similarity and grammar</Link> before you send it.
        </p>
      </header>
      {submitted ? <SubmissionSuccess key={submitted.id} submitted={submitted} /> : null}
      <SubmissionForm
        key={formKey}
        limits={limits}
        initial={formKey === 0 ? actionData : null}
        firstAuthor={firstAuthor}
        copyrightRequired={copyrightRequired}
        onSubmitted={(created) => {
          setSubmitted(created);
          setFormKey((k) => k + 1);
        }}
      />
    </div>
  );
}

function SubmissionSuccess({ submitted }: { submitted: Submitted }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.scrollIntoView({ block: 'center' });
  }, []);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="alert alert--success submission-success">
      <p className="submission-success__message">{MESSAGES.submissionSuccess}</p>
      <p>
        Your manuscript's reference number is <strong className="reference">{submitted.reference}</strong>.
        Please quote it in any message about this manuscript; an acknowledgement is on its way to your email.
      </p>
      <p>
        <Link to={`/my-submissions/${submitted.id}`}>Follow it in My submissions</Link>
      </p>
    </div>
  );
}

function NeedsAuthorAccount({
  username,
  role,
  status,
}: { username: string; role: string | null; status: string | null }) {
  const blocked = status === 'rejected' || status === 'suspended';
  return (
    <div className="page page--narrow submission-page">
      <h1>Submit a manuscript</h1>
      <div className="alert alert--info" role="alert">
        {blocked ? (
          <p>
            Your account <strong>{username}</strong>{' '}
            {status === 'rejected' ? 'was not approved' : 'is suspended'} and cannot submit manuscripts.
            Please <Link to="/contact">contact the editorial office</Link>.
          </p>
        ) : (
          <p>
            Submitting a manuscript needs an <strong>author</strong> account. You are signed in as{' '}
            <strong>{username}</strong>,{' '}
            {role ? (
              `a ${role} account.`
            ) : (
              <>
                not a member of this journal: <Link to="/account#join">join it as an author</Link> from your
                account page.
              </>
            )}
          </p>
        )}
      </div>
      {/* A member of another journal of the site joins this one: registering again is not the way. */}
      {blocked || !role ? null : (
        <>
          <h2>How to get an author account</h2>
          <ul className="submission-options">
            <li>
              <Link to="/contact">Contact the editorial office</Link> and ask for your account to be changed
              to an author account; or
            </li>
            <li>
              log out and <Link to="/regist">register an author account</Link>: authors can submit right away,
              before the editorial board approves the account.
            </li>
          </ul>
        </>
      )}
    </div>
  );
}
