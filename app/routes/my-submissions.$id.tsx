import { useEffect, useRef, useState } from 'react';
import { Link, redirect, useRevalidator } from 'react-router';
import { can } from '../../common/roles.ts';
import { STATUS_LABELS } from '../../common/submissions.ts';
import { revisionFieldsSchema } from '../../common/submissions.ts';
import { isApcIntent, apcAction } from '../components/apc/apc-action.server.ts';
import { AuthorInvoice } from '../components/apc/Invoice.tsx';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { AuthorReview, dueText } from '../components/review/AuthorReview.tsx';
import { DateText } from '../components/submission/DateText.tsx';
import { CopyrightFormFile } from '../components/submission/CopyrightFormFile.tsx';
import { FilesByVersion } from '../components/submission/FilesByVersion.tsx';
import { RevisionForm, type RevisionFormState } from '../components/submission/RevisionForm.tsx';
import { StatusBadge } from '../components/submission/StatusBadge.tsx';
import type { FormRefusal } from '../lib/form-result.ts';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { orNotFound } from '../lib/not-found.server.ts';
import { clientError, replyRefused } from '../lib/reply.server.ts';
import { idParam, notFound } from '../lib/route-params.ts';
import reviewAuthorCss from '../styles/review-author.css?url';
import { SubmissionMetadata } from '../components/SubmissionMetadata.tsx';
import submissionCss from '../styles/submission.css?url';
import apcCss from '../styles/apc.css?url';
import type { Route } from './+types/my-submissions.$id';
import { checkedManuscriptFiles, manuscriptFormOptions, uploadLimits } from './submission.server.ts';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: apcCss },
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: reviewAuthorCss },
];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      loaderData ? `${loaderData.submission.reference}: ${loaderData.submission.title}` : 'Submission',
    ),
  },
  {
    name: 'description',
    content: loaderData
      ? `Status, history and files of manuscript ${loaderData.submission.reference}.`
      : 'A submitted manuscript: its status, history and files.',
  },
  { name: 'robots', content: 'noindex' },
];

/** The author's own submission; anyone else's (even for an editor, who has the desk) is "not found". */
async function ownSubmission(context: Route.LoaderArgs['context'], id: number) {
  const auth = context.auth!;
  const detail = await orNotFound(context.services.submissions.detail(id, auth.user));
  if (detail.submitter.username !== auth.user.username) notFound();
  return detail;
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const id = idParam(params.id);
  if (!context.auth) throw redirect(`/login?${new URLSearchParams({ redirectTo: `/my-submissions/${id}` })}`);
  if (!can('submit', context.auth.user)) throw redirect('/my-submissions');
  const detail = await ownSubmission(context, id);
  const { nextStatuses: _editorsOnly, submitter: _me, ...submission } = detail;
  // Peer review as the author may see it (server/review/present.ts decides what that is).
  const review = await context.services.review.forAuthor(context.auth.user, id);
  // The article processing charge's invoice, once accepted (decision 0063).
  const invoice = await context.services.apc.forSubmission(context.auth.user, id);
  return {
    submission,
    review,
    invoice,
    username: context.auth.user.username,
    limits: uploadLimits(context),
    revised: new URL(request.url).searchParams.get('revised') === '1',
  };
}

const FORM = 'revision';
/** An answer to one of the invoice's forms, not the revision's. */
const isApcAnswer = (answer: { intent: string }) => answer.intent.startsWith('apc-');

/** A refused revision as its form shows it again (an accepted one redirects). */
function revisionState(
  result: FormRefusal<{ note: string; response: string }> | undefined,
): RevisionFormState | null {
  return result ? { ...result.values, errors: result.errors, message: result.message } : null;
}

/** The revision form posted without JavaScript. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const id = idParam(params.id);
  const limits = uploadLimits(context);
  const read = await readForm(request, manuscriptFormOptions(limits));
  const note = read.form.text('message');
  const response = read.form.text('responseToReviewers');
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(FORM, clientError(status, message, errors), { note, response });
  if (!read.ok) {
    const { status, message, errors } = read.refusal;
    return fail(status, message, status === 413 ? { submissionFile: message } : errors);
  }
  const { form } = read;
  const auth = context.auth;
  // The invoice's forms: a waiver request, a voucher (decision 0063).
  const intent = form.text('intent');
  if (isApcIntent(intent)) {
    if (!auth || !can('apcAuthor', auth.user))
      return replyRefused(intent, clientError(401, 'Please log in again.'), {});
    return apcAction(context.services, auth.user, intent, form, id);
  }
  if (!auth || !can('submit', auth.user)) return fail(401, 'Please log in again to upload the revision.');
  const fields = validateForm(revisionFieldsSchema, { message: note, responseToReviewers: response });
  if (!fields.ok) return fail(400, fields.refusal.message, fields.refusal.errors);
  try {
    const { manuscript, additional } = await checkedManuscriptFiles(form, limits);
    await context.services.submissions.revise(
      auth.user,
      id,
      fields.data.message,
      manuscript,
      additional,
      fields.data.responseToReviewers,
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
  return redirect(`/my-submissions/${id}?revised=1`);
}

export default function MySubmission({ loaderData, actionData }: Route.ComponentProps) {
  const { submission: s, username, limits, review } = loaderData;
  const dueRound = review.rounds.findLast((r) => r.revisionDue);
  const revalidator = useRevalidator();
  const [revisedHere, setRevisedHere] = useState(false);
  const latestVersion = Math.max(0, ...s.files.map((f) => f.version));
  const request = s.history.findLast((e) => e.to === 'revisions_requested');

  return (
    <div className="page submission-detail">
      <p className="breadcrumb">
        <Link to="/my-submissions">
          <span aria-hidden="true">← </span>My submissions
        </Link>
      </p>
      <header className="submission-detail__header">
        <p className="reference">{s.reference}</p>
        <h1 className="submission-detail__title">{s.title}</h1>
        <p className="submission-detail__status">
          Status: <StatusBadge status={s.status} published={s.articleId !== null} />
          <span className="muted">
            {' '}
            · last update <DateText iso={s.updatedAt} />
          </span>
        </p>
      </header>

      {s.articleId ? (
        <section className="panel panel--done" aria-labelledby="published-title">
          <h2 id="published-title">Published</h2>
          <p>
            Your manuscript is published: <Link to={`/article/${s.articleId}`}>read the article</Link>.
          </p>
        </section>
      ) : null}

      {loaderData.invoice ? (
        <>
          {actionData && isApcAnswer(actionData) ? <ActionResult result={actionData} /> : null}
          <AuthorInvoice
            invoice={loaderData.invoice}
            result={actionData && isApcAnswer(actionData) ? actionData : undefined}
          />
        </>
      ) : null}

      {loaderData.revised || revisedHere ? <RevisionReceived version={latestVersion} /> : null}

      {/* The reviews first: the revision's response answers them. */}
      <AuthorReview submissionId={s.id} rounds={review.rounds} />

      {s.status === 'revisions_requested' ? (
        <section id="revision" className="panel panel--action" aria-labelledby="revision-title">
          <h2 id="revision-title">Upload a revised manuscript</h2>
          <p>
            The editors have asked for revisions. Upload the revised manuscript; the earlier versions are
            kept, and the editors are told at once.
          </p>
          {dueRound?.revisionDue ? (
            <p className="revision-due">
              Please upload it by <strong>{dueText(dueRound.revisionDue, review.timeZone)}</strong>.
            </p>
          ) : null}
          {request?.message ? (
            <>
              <p className="editor-message__from">
                The editors' request, <DateText iso={request.at} />:
              </p>
              <blockquote className="editor-message__text">{request.message}</blockquote>
            </>
          ) : null}
          <RevisionForm
            submissionId={s.id}
            limits={limits}
            initial={revisionState(
              actionData && !actionData.ok && actionData.intent === FORM
                ? (actionData as FormRefusal<{ note: string; response: string }>)
                : undefined,
            )}
            // A response is asked for only to reviews the author can read (issue 22).
            reviewed={(review.rounds.at(-1)?.reviews.length ?? 0) > 0}
            onRevised={() => {
              setRevisedHere(true);
              void revalidator.revalidate();
            }}
          />
        </section>
      ) : null}

      <div className="submission-detail__grid">
        <section className="panel" aria-labelledby="history-title">
          <h2 id="history-title">History</h2>
          <ol className="timeline">
            {[...s.history].reverse().map((event) => (
              <li key={`${event.at}-${event.to}`} className="timeline__item">
                <p className="timeline__head">
                  <StatusBadge status={event.to} />{' '}
                  <span className="timeline__when">
                    <DateText iso={event.at} time />
                  </span>
                </p>
                <p className="timeline__what">
                  {event.from === null
                    ? 'You submitted the manuscript.'
                    : event.by === username && event.from === 'revisions_requested'
                      ? `You uploaded a revised manuscript (${STATUS_LABELS[event.from].toLowerCase()} → ${STATUS_LABELS[event.to].toLowerCase()}).`
                      : event.by === username
                        ? // An editor who is also the author (a journal's first editor, say) decided it.
                          `You moved it from ${STATUS_LABELS[event.from].toLowerCase()} to ${STATUS_LABELS[event.to].toLowerCase()}.`
                        : `The editorial office moved it from ${STATUS_LABELS[event.from].toLowerCase()} to ${STATUS_LABELS[event.to].toLowerCase()}.`}
                </p>
                {event.message ? (
                  <blockquote className="editor-message__text">
                    <p className="visually-hidden">
                      {event.by === username ? 'Your note:' : 'Message from the editors:'}
                    </p>
                    {event.message}
                  </blockquote>
                ) : null}
              </li>
            ))}
          </ol>
        </section>

        <section className="panel" aria-labelledby="files-title">
          <h2 id="files-title">Files</h2>
          <FilesByVersion submissionId={s.id} files={s.files} />
          <CopyrightFormFile submissionId={s.id} form={s.copyrightForm} />
        </section>
      </div>

      <SubmissionMetadata submission={s} reader="author" />
    </div>
  );
}

function RevisionReceived({ version }: { version: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="alert alert--success">
      <p>
        <strong>Your revised manuscript has been received</strong> (version {version}). The editors have been
        told, and an acknowledgement is on its way to your email.
      </p>
    </div>
  );
}
