import { Form, Link, type ShouldRevalidateFunction, data } from 'react-router';
import { STATUS_LABELS, type SubmissionStatus, decisionSchema } from '../../common/submissions.ts';
import { PublishPanel } from '../components/desk/PublishPanel.tsx';
import { SimilaritySummary } from '../components/similarity/SimilaritySummary.tsx';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import type { FormResult } from '../lib/form-result.ts';
import { FieldError, RequiredMark, SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { DateText } from '../components/submission/DateText.tsx';
import { CopyrightFormFile } from '../components/submission/CopyrightFormFile.tsx';
import { FilesByVersion } from '../components/submission/FilesByVersion.tsx';
import { StatusBadge } from '../components/submission/StatusBadge.tsx';
import { intentDone, intentRefused, readIntentForm } from '../lib/intent-form.server.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import submissionCss from '../styles/submission.css?url';
import reviewDeskCss from '../styles/review-desk.css?url';
import { ReviewPanel } from '../components/review/ReviewPanel.tsx';
import { CommunicationLog } from '../components/review/CommunicationLog.tsx';
import {
  type DeskReviewData,
  decisionReviewFields,
  deskReviewData,
  reviewAction,
} from '../components/review/desk-review.server.ts';
import { formatDay } from '../../common/dates.ts';
import {
  CONFIRMATION_NEEDED,
  DECISION_CONFIRMATIONS,
  type DecisionConfirmation,
  RECOMMENDATION_LABELS,
  revisionLabel,
} from '../../common/review.ts';
import { SubmissionMetadata } from '../components/SubmissionMetadata.tsx';
import type { Route } from './+types/editor-dashboard.submissions.$id';
import { notFound, parseId } from '../lib/route-params.ts';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: reviewDeskCss },
];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      loaderData
        ? `${loaderData.submission.reference} · Submissions · Editorial dashboard`
        : 'Submission · Editorial dashboard',
    ),
  },
  { name: 'robots', content: 'noindex' },
];

/** What each possible move means, under its status name. */
const MOVE_HINTS: Record<SubmissionStatus, string> = {
  submitted: '',
  under_review: 'Send it to peer review: opens a new review round (round 1 first, then one per revision).',
  revisions_requested: 'Ask the author for a revised manuscript; the earlier versions are kept.',
  revised: '',
  accepted: 'Accept it for publication. It can then be published into an issue.',
  rejected: 'Decline it. This is final.',
};

/** The confirm step's buttons: `decide:accept-without-review`, `decide:withhold-reviews` (issue 22). */
const DECIDE_CONFIRM = 'decide:';
const isConfirmIntent = (intent: string): intent is `decide:${DecisionConfirmation}` =>
  intent.startsWith(DECIDE_CONFIRM) &&
  (DECISION_CONFIRMATIONS as readonly string[]).includes(intent.slice(DECIDE_CONFIRM.length));

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireEditor(context, request);
  const id = parseId(params.id) ?? notFound();
  const { submissions, catalog } = context.services;
  let submission: Awaited<ReturnType<typeof submissions.detail>>;
  try {
    submission = await submissions.detail(id, auth.user);
  } catch (err) {
    if (asClientError(err)?.status === 404) throw data(null, { status: 404 });
    throw err;
  }
  const publishable = submission.status === 'accepted' && !submission.articleId;
  const find = (new URL(request.url).searchParams.get('find') ?? '').trim().slice(0, 200);
  const [article, similarity, review, fullText] = await Promise.all([
    submission.articleId
      ? catalog.article(submission.articleId, { includeUnpublished: true }).catch(() => null)
      : Promise.resolve(null),
    // What the arrival check stored for the latest version (the full report is its own page).
    context.services.similarity.summaryForSubmission(id),
    // Peer review: the rounds, the reviewer search, the communication log (issue 14).
    deskReviewData(context.services, id, find),
    // The Word file given for publishing (its preview is the publish page's: issue 22).
    publishable ? context.services.fulltext.of({ submissionId: id }) : Promise.resolve(null),
  ]);
  const latest = submission.files.find((f) => f.kind === 'manuscript');
  return {
    submission,
    similarity,
    review,
    maxPdfBytes: context.services.config.MAX_ARTICLE_PDF_SIZE,
    maxWordBytes: context.services.config.MAX_MANUSCRIPT_SIZE,
    prepared: {
      pdf: submission.finalPdf
        ? { ...submission.finalPdf, given: true }
        : latest?.mediaType === 'application/pdf'
          ? { name: latest.name, size: latest.size, given: false }
          : null,
      word: fullText?.sourceName ?? null,
    },
    article: article
      ? {
          id: article.id,
          title: article.title,
          status: article.status,
          volume_number: article.volume_number,
          issue_number: article.issue_number,
          pages: article.pages,
          doi: article.doi,
        }
      : null,
  };
}

/**
 * After every post, refused ones included, the page reads the submission again: a refusal may come from
 * another editor having moved it on meanwhile, and the page then shows where it stands now.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === 'POST' ? true : defaultShouldRevalidate;

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const id = parseId(params.id) ?? notFound();
  const { submissions } = context.services;
  // Publishing (files, preview, publish) is the publish page's action: routes/editor-dashboard.submissions.$id.publish.tsx.
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values: Record<string, string> = {};
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    intentRefused(intent, { status, message, errors }, values);

  const reviewed = await reviewAction(context.services, auth.user, id, intent, form);
  if (reviewed) return reviewed;
  try {
    if (intent === 'decide' || isConfirmIntent(intent)) {
      // "Record the decision", or the confirm step's button after a refusal that asked for it (issue 22).
      const confirm = isConfirmIntent(intent) ? [intent.slice(DECIDE_CONFIRM.length)] : [];
      values.status = form.text('status');
      values.message = form.text('message');
      const extra = decisionReviewFields(form, values.status);
      Object.assign(values, extra.values);
      const parsed = validateForm(decisionSchema, {
        status: values.status,
        message: values.message,
        ...extra.input,
        ...(confirm.length ? { confirm } : {}),
      });
      if (!parsed.ok) return intentRefused('decide', parsed.refusal, values);
      try {
        await submissions.decide(auth.user, id, parsed.data);
      } catch (err) {
        const refused = asClientError(err);
        if (!refused) throw err;
        return intentRefused('decide', refused, values);
      }
      const label =
        parsed.data.status === 'revisions_requested'
          ? revisionLabel(parsed.data.revisions)
          : STATUS_LABELS[parsed.data.status];
      const shared = extra.shared;
      return intentDone(
        'decide',
        `Decision recorded: ${label}. Your message${shared ? ` and ${shared === 1 ? 'the chosen review' : `${shared} chosen reviews`}` : ''} ${shared ? 'were' : 'was'} e-mailed to the author and ${shared ? 'are' : 'is'} shown on their My submissions page.`,
      );
    }
    return fail(400, 'Unknown action.');
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
}

type Detail = Route.ComponentProps['loaderData']['submission'];

export default function DeskSubmission({ loaderData, actionData }: Route.ComponentProps) {
  const { submission: s, article } = loaderData;
  const round = actionData?.at ?? 0;
  return (
    <article className="desk-submission" aria-labelledby="submission-title">
      <p className="breadcrumb">
        <Link to="/editor-dashboard/submissions">
          <span aria-hidden="true">← </span>All submissions
        </Link>
      </p>
      <header className="submission-detail__header desk-submission__header">
        <p className="reference">{s.reference}</p>
        <h1 id="submission-title" className="submission-detail__title">
          {s.title}
        </h1>
        <p className="submission-detail__status">
          Status: <StatusBadge status={s.status} published={s.articleId !== null} />
        </p>
        <dl className="meta-list">
          <div>
            <dt>Submitted</dt>
            <dd>
              <DateText iso={s.createdAt} time />
            </dd>
          </div>
          <div>
            <dt>Last update</dt>
            <dd>
              <DateText iso={s.updatedAt} time />
            </dd>
          </div>
          <div>
            <dt>Submitted by</dt>
            <dd>
              {s.submitter.fullName} ({s.submitter.username},{' '}
              <a href={`mailto:${s.submitter.email}`}>{s.submitter.email}</a>)
            </dd>
          </div>
        </dl>
      </header>

      <ActionResult result={actionData} />

      <div className="panel">
        <SimilaritySummary summary={loaderData.similarity} submissionId={s.id} />
      </div>
      {article ? <PublishedPanel article={article} /> : null}
      <ReviewPanel
        data={loaderData.review}
        result={actionData}
        canInvite={s.status === 'under_review'}
        canOpen={s.nextStatuses.includes('under_review')}
      />
      {s.nextStatuses.length ? (
        <DecisionPanel submission={s} review={loaderData.review} result={actionData} round={round} />
      ) : s.status === 'rejected' ? (
        <p className="panel desk-final">This submission was rejected; no further decision can be made.</p>
      ) : null}
      {s.status === 'accepted' && !s.articleId ? (
        <PublishPanel
          submissionId={s.id}
          latestManuscript={s.files.find((f) => f.kind === 'manuscript')}
          prepared={loaderData.prepared}
          maxPdfBytes={loaderData.maxPdfBytes}
          maxWordBytes={loaderData.maxWordBytes}
          result={actionData}
          round={round}
        />
      ) : null}

      <div className="submission-detail__grid">
        <div>
          <SubmissionMetadata submission={s} reader="editor" />
        </div>
        <div>
          <section className="panel" aria-labelledby="files-title">
            <h2 id="files-title">Files</h2>
            <FilesByVersion submissionId={s.id} files={s.files} />
            <CopyrightFormFile submissionId={s.id} form={s.copyrightForm} />
          </section>
          <section className="panel" aria-labelledby="history-title">
            <h2 id="history-title">History</h2>
            <History history={s.history} />
          </section>
        </div>
      </div>
      <CommunicationLog entries={loaderData.review.log} />
    </article>
  );
}

function DecisionPanel({
  submission: s,
  review,
  result,
  round,
}: {
  submission: Detail;
  review: DeskReviewData;
  result: FormResult | undefined;
  round: number;
}) {
  const current = review.review.rounds.at(-1);
  const open = current && !current.decidedAt ? current : null;
  const submitted = open ? open.assignments.filter((a) => a.state === 'submitted') : [];
  // "Accepted" with no review in any round asks the editor to confirm (issue 22): said before they choose it.
  const unreviewed = !review.review.rounds.some((r) => r.assignments.some((a) => a.state === 'submitted'));
  const canRevise = s.nextStatuses.includes('revisions_requested');
  const refused = refusalFor(result, 'decide');
  const kept = result && !result.ok && result.intent === 'decide';
  const statusError = refused.errors.status;
  const toConfirm = DECISION_CONFIRMATIONS.find((c) => refused.errors.confirm === CONFIRMATION_NEEDED[c]);
  return (
    <section className="panel panel--action" aria-labelledby="decision-title">
      <h2 id="decision-title">Decision</h2>
      <p>
        Move the submission on. Your message is stored with it, shown to the author on My submissions and sent
        to them by e-mail.
      </p>
      <Form
        method="post"
        noValidate
        aria-labelledby="decision-title"
        key={kept ? `decision-kept-${round}` : `decision-${round}`}
      >
        <fieldset
          className={statusError ? 'desk-moves field--invalid' : 'desk-moves'}
          aria-describedby={statusError ? 'decision-status-error' : undefined}
        >
          <legend className="field__label">
            New status
            <RequiredMark />
          </legend>
          {statusError ? (
            <p id="decision-status-error" className="field__error">
              <span className="visually-hidden">Error: </span>
              {statusError}
            </p>
          ) : null}
          {s.nextStatuses.map((to) => (
            <div key={to} className="desk-move">
              <input
                type="radio"
                id={`decision-${to}`}
                name="status"
                value={to}
                required
                defaultChecked={refused.values.status === to}
                aria-describedby={`decision-${to}-hint`}
              />
              <label htmlFor={`decision-${to}`}>
                <StatusBadge status={to} />
              </label>
              <span id={`decision-${to}-hint`} className="field__hint desk-move__hint">
                {MOVE_HINTS[to]}
                {to === 'accepted' && unreviewed
                  ? ' No reviewer has submitted a review in any round: you will be asked to confirm.'
                  : ''}
              </span>
            </div>
          ))}
        </fieldset>
        {submitted.length ? <ShareReviews reviews={submitted} refused={refused} /> : null}
        <TextAreaField
          id="decision-message"
          name="message"
          label="Message to the author"
          marks
          hint="E-mailed to the submitting author with the new status."
          required
          rows={6}
          defaultValue={refused.values.message}
          error={refused.errors.message}
        />
        {canRevise ? <RevisionFields refused={refused} authorDueDefault={review.authorDueDefault} /> : null}
        {toConfirm ? (
          <div className="alert alert--warning decision-confirm" role="alert">
            <p>
              <strong>Please confirm.</strong> {CONFIRMATION_NEEDED[toConfirm]}
            </p>
            <button
              type="submit"
              name="intent"
              value={`${DECIDE_CONFIRM}${toConfirm}`}
              className="button button--danger"
            >
              {toConfirm === 'accept-without-review'
                ? 'Accept without peer review'
                : 'Withhold all the reviews and record the decision'}
            </button>
          </div>
        ) : null}
        <button type="submit" name="intent" value="decide" className="button button--primary">
          Record the decision
        </button>
      </Form>
    </section>
  );
}

type Refused = ReturnType<typeof refusalFor>;

/**
 * Which submitted reviews go to the author with the decision, as "Reviewer 1", "Reviewer 2": all of them
 * unless the editor unticks one (issue 22). `shareChoice` tells the action that the choice was shown, so that
 * none ticked means "withhold them all" (which asks for a confirmation), not "not asked".
 */
function ShareReviews({
  reviews,
  refused,
}: {
  reviews: DeskReviewData['review']['rounds'][number]['assignments'];
  refused: Refused;
}) {
  const kept = refused.values.shareChoice === '1';
  const chosen = new Set((refused.values.shareReviews ?? '').split(',').filter(Boolean));
  const error = refused.errors.shareReviews;
  return (
    <fieldset
      className={error ? 'field field--invalid decision-share' : 'field decision-share'}
      aria-describedby={error ? 'decision-share-error' : 'decision-share-hint'}
    >
      <legend className="field__label">Reviews shared with the author</legend>
      <p id="decision-share-hint" className="field__hint">
        Every submitted review goes to the author with your decision: their comments for the author, as
        “Reviewer 1”, “Reviewer 2” in the order shown (names only in open review). Untick a review to withhold
        it; you can still share it later. Confidential comments are never shared.
      </p>
      {error ? <FieldError id="decision-share-error" message={error} /> : null}
      <input type="hidden" name="shareChoice" value="1" />
      {reviews.map((a) => (
        <label key={a.id} className="check">
          <input
            type="checkbox"
            name="shareReviews"
            value={a.id}
            defaultChecked={kept ? chosen.has(String(a.id)) : true}
          />
          <span>
            The review by {a.reviewer.name}
            {a.recommendation ? ` (${RECOMMENDATION_LABELS[a.recommendation]})` : ''}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** With "revisions requested": minor or major (required then), and the author's due date. */
function RevisionFields({ refused, authorDueDefault }: { refused: Refused; authorDueDefault: string }) {
  return (
    <fieldset className="decision-revisions">
      <legend>If you request revisions</legend>
      <SelectField
        id="decision-revisions"
        name="revisions"
        label="Minor or major revisions"
        hint="Required with “Revisions requested”: shown to the author with the decision, and in the e-mail's subject."
        placeholder="Choose minor or major"
        defaultValue={refused.values.revisions ?? ''}
        error={refused.errors.revisions}
        options={[
          { value: 'minor', label: 'Minor revisions' },
          { value: 'major', label: 'Major revisions' },
        ]}
      />
      <TextField
        id="decision-author-due"
        name="authorDue"
        type="date"
        label="The revised manuscript is due"
        hint={`Default ${formatDay(authorDueDefault)} (the journal's setting). The author is reminded before and after.`}
        defaultValue={refused.values.authorDue ?? authorDueDefault}
        error={refused.errors.authorDue}
      />
    </fieldset>
  );
}

function PublishedPanel({
  article,
}: {
  article: NonNullable<Route.ComponentProps['loaderData']['article']>;
}) {
  return (
    <section className="panel panel--action" aria-labelledby="published-title">
      <h2 id="published-title">Published</h2>
      <p>
        Published as an article in volume {article.volume_number}, issue {article.issue_number}
        {article.pages ? `, pages ${article.pages}` : ''}
        {article.doi ? `, DOI ${article.doi}` : ''}
        {article.status === 'published' ? '.' : ' (now unpublished).'}
      </p>
      <p className="dash-inline-form">
        {article.status === 'published' ? (
          <Link to={`/article/${article.id}`} className="button button--primary button--small">
            View the article
          </Link>
        ) : null}
        <Link
          to={`/editor-dashboard/articles?edit=${article.id}`}
          className="button button--secondary button--small"
        >
          Edit it in Articles
        </Link>
      </p>
    </section>
  );
}

function History({ history }: { history: Detail['history'] }) {
  return (
    <ol className="timeline">
      {[...history].reverse().map((event, i) => {
        const revision = event.from === 'revisions_requested' && event.to === 'revised';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows; its order is fixed.
          <li key={`${event.at}-${event.to}-${i}`} className="timeline__item">
            <p className="timeline__head">
              <StatusBadge status={event.to} />{' '}
              <span className="timeline__when">
                <DateText iso={event.at} time />
              </span>
            </p>
            <p className="timeline__what">
              {event.from === null
                ? `${event.by} submitted the manuscript.`
                : revision
                  ? `${event.by} uploaded a revised manuscript.`
                  : `${event.by} moved it from ${STATUS_LABELS[event.from].toLowerCase()} to ${STATUS_LABELS[event.to].toLowerCase()}.`}
            </p>
            {event.message ? (
              <>
                <p className="editor-message__from">
                  {revision ? 'Note from the author:' : 'Message to the author:'}
                </p>
                <blockquote className="editor-message__text">{event.message}</blockquote>
              </>
            ) : null}
            {event.note ? <p className="timeline__note">{event.note}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
