import { useEffect, useRef } from 'react';
import { Form, Link, useRouteLoaderData } from 'react-router';
import {
  ASSIGNMENT_STATUS_LABELS,
  DECLINE_REASONS,
  DECLINE_REASON_LABELS,
  REVIEW_MODE_LABELS,
} from '../../../common/review.ts';
import type { FormResult } from '../../lib/form-result.ts';
import type { loader as rootLoader } from '../../root.tsx';
import type { ReviewLoaderData } from '../../routes/reviews.$id.tsx';
import { ChoiceField, TextAreaField, TextField } from '../FormField.tsx';
import { DueDates } from './DueDates.tsx';
import { ReviewForm, ReviewReadOnly } from './ReviewForm.tsx';

type View = Extract<ReviewLoaderData, { kind: 'view' }>['view'];

/** The reviewer's page of one assignment: the invitation, the answer, the files, the review. */
export function AssignmentPage({ data, result }: { data: ReviewLoaderData; result: FormResult | null }) {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>('root')?.user);
  if (data.kind === 'sign-in') {
    return (
      <div className="page page--narrow review-page">
        <h1>Review invitation</h1>
        <div className="alert alert--info">
          <p>
            Open the link from your invitation e-mail again, or{' '}
            <Link to={`/login?${new URLSearchParams({ redirectTo: `/reviews/${data.id}` })}`}>sign in</Link>{' '}
            with the account the invitation was sent to.
          </p>
        </div>
      </div>
    );
  }
  if (data.kind === 'closed') {
    return (
      <div className="page page--narrow review-page">
        <h1>Review invitation</h1>
        {result?.ok ? (
          <>
            {/* Just answered here (a decline closes the link): one message, then what follows from it. */}
            <ResultAlert result={result} />
            <p>
              {result.intent === 'decline'
                ? 'You declined this invitation: nothing more is needed from you, and its link no longer opens it.'
                : data.message}
            </p>
          </>
        ) : (
          <div className="alert alert--error">
            <p>{data.message}</p>
          </div>
        )}
        <p>
          {/* The list of one's reviews is an account's page: not offered to a reviewer who came by the link. */}
          {signedIn ? (
            <>
              <Link to="/reviews">Your reviews</Link> ·{' '}
            </>
          ) : null}
          <Link to="/contact">Contact the editorial office</Link>
        </p>
      </div>
    );
  }
  return <Assignment view={data.view} limits={data.limits} result={result} />;
}

function Assignment({
  view,
  limits,
  result,
}: {
  view: View;
  limits: { attachment: number };
  result: FormResult | null;
}) {
  const m = view.manuscript;
  const working = view.state === 'accepted' || view.state === 'submitted';
  const editable = view.state === 'accepted' && !view.roundDecided;
  // The list of one's reviews is an account's page: a reviewer who came by the link alone is not sent there.
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>('root')?.user);
  return (
    <div className="page review-page">
      {signedIn ? (
        <p className="breadcrumb">
          <Link to="/reviews">
            <span aria-hidden="true">← </span>Reviews
          </Link>
        </p>
      ) : null}
      <header className="submission-detail__header">
        <p className="reference">
          {m.reference} · review round {view.round}
        </p>
        <h1 className="submission-detail__title">{m.title}</h1>
        <p className="submission-detail__status">
          Status:{' '}
          <span className={`review-status review-status--${view.status}`}>
            {view.roundDecided && (view.state === 'invited' || view.state === 'accepted')
              ? 'Closed: the editors have decided'
              : ASSIGNMENT_STATUS_LABELS[view.status]}
          </span>
        </p>
      </header>

      {result ? <ResultAlert result={result} /> : null}

      <div className="review-layout">
        <section className="panel" aria-labelledby="manuscript-title">
          <h2 id="manuscript-title">The manuscript</h2>
          <dl className="details-list">
            <div>
              <dt>Article type</dt>
              <dd>{m.articleType}</dd>
            </div>
            <div>
              <dt>Keywords</dt>
              <dd>{m.keywords}</dd>
            </div>
            <div>
              <dt>Review mode</dt>
              <dd>{REVIEW_MODE_LABELS[view.mode]}</dd>
            </div>
            {m.authors ? (
              <div>
                <dt>Authors</dt>
                <dd>
                  <ul className="plain-list">
                    {m.authors.map((a) => (
                      <li key={`${a.name}|${a.affiliation}`}>
                        {a.name}, {a.affiliation}
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Abstract</dt>
              <dd className="prose-text">{m.abstract}</dd>
            </div>
          </dl>
        </section>

        <aside className="panel review-aside" aria-labelledby="dates-title">
          <h2 id="dates-title">Due dates</h2>
          <DueDates
            state={view.state}
            status={view.status}
            responseDue={view.responseDue}
            reviewDue={view.reviewDue}
            timeZone={view.timeZone}
          />
          {working ? <Files view={view} /> : null}
        </aside>
      </div>

      {view.authorResponse ? (
        <section className="panel" aria-labelledby="response-title">
          <h2 id="response-title">The authors' response to the reviewers</h2>
          <p className="muted">Written with the revised manuscript, for this round's reviewers.</p>
          <blockquote className="editor-message__text prose-text">{view.authorResponse}</blockquote>
        </section>
      ) : null}

      {view.state === 'invited' && !view.roundDecided ? <Answer result={result} /> : null}
      {editable ? <ReviewForm view={view} limits={limits} result={result} /> : null}
      {view.state === 'submitted' || (view.state === 'accepted' && view.roundDecided) ? (
        <ReviewReadOnly view={view} />
      ) : null}
      {view.state === 'declined' ? (
        <p className="alert alert--info">You declined this invitation. Thank you for answering.</p>
      ) : null}
      {view.state === 'cancelled' ? (
        <p className="alert alert--info">
          The editors have cancelled this assignment: nothing more is needed.
        </p>
      ) : null}
    </div>
  );
}

function Files({ view }: { view: View }) {
  const files = view.files ?? [];
  return (
    <section aria-labelledby="files-title" className="review-files">
      <h2 id="files-title">Files</h2>
      {files.length === 0 ? (
        <p className="muted">The editors have not made any file available yet.</p>
      ) : (
        <ul className="file-list">
          {files.map((f) => (
            <li key={f.id}>
              <Link reloadDocument to={`/reviews/${view.id}/files/${f.id}`} download={f.name}>
                {f.name}
              </Link>{' '}
              <span className="muted">({formatSize(f.size)})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Accept, or decline with a reason (and perhaps someone else to ask). */
function Answer({ result }: { result: FormResult | null }) {
  const declined = result && !result.ok && result.intent === 'decline' ? result : null;
  return (
    <section className="panel panel--action" aria-labelledby="answer-title">
      <h2 id="answer-title">Will you review this manuscript?</h2>
      <p>
        If you accept, you can download the manuscript and its files at once, and write your review here by{' '}
        the review due date. The files are shown only after you accept.
      </p>
      <Form method="post" className="review-answer">
        <input type="hidden" name="intent" value="accept" />
        <button type="submit" className="button button--primary">
          Accept the invitation
        </button>
      </Form>
      <details className="review-decline" open={declined ? true : undefined}>
        <summary>Decline the invitation</summary>
        <Form method="post" noValidate className="form">
          <input type="hidden" name="intent" value="decline" />
          <ChoiceField
            name="reason"
            legend="Why are you declining?"
            options={DECLINE_REASONS.map((r) => ({ value: r, label: DECLINE_REASON_LABELS[r] }))}
            value={declined?.values.reason}
            error={declined?.errors.reason}
            required
            marks
          />
          <TextAreaField
            name="comment"
            label="Anything to add"
            rows={3}
            defaultValue={declined?.values.comment}
            error={declined?.errors.comment}
            marks
          />
          <TextField
            name="suggestion"
            label="Suggest another reviewer"
            hint="A name and an e-mail address or institution, if you know someone suited. The editors see it."
            defaultValue={declined?.values.suggestion}
            error={declined?.errors.suggestion}
            marks
          />
          <button type="submit" className="button button--danger">
            Decline
          </button>
        </Form>
      </details>
    </section>
  );
}

export function ResultAlert({ result }: { result: FormResult }) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new answer (its `at`) takes focus.
  useEffect(() => ref.current?.focus(), [result.at]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={result.ok ? 'status' : 'alert'}
      className={result.ok ? 'alert alert--success' : 'alert alert--error'}
    >
      {/* The alert's message style is the error's red: a success is said in the ink's colour. */}
      <p className={result.ok ? 'alert__done' : 'alert__message'}>{result.message}</p>
    </div>
  );
}
