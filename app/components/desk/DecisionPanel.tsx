import { Form } from 'react-router';
import { formatDay } from '../../../common/dates.ts';
import {
  CONFIRMATION_NEEDED,
  DECISION_CONFIRMATIONS,
  RECOMMENDATION_LABELS,
} from '../../../common/review.ts';
import type { SubmissionStatus } from '../../../common/submissions.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { FieldError, RequiredMark, SelectField, TextAreaField, TextField } from '../FormField.tsx';
import type { DeskReviewData } from '../review/desk-review.server.ts';
import { StatusBadge } from '../submission/StatusBadge.tsx';
import { DECIDE_CONFIRM } from './decision.ts';
import type { DeskSubmission } from './desk-loader.server.ts';

/** What each possible move means, under its status name. */
const MOVE_HINTS: Record<SubmissionStatus, string> = {
  submitted: '',
  under_review: 'Send it to peer review: opens a new review round (round 1 first, then one per revision).',
  revisions_requested: 'Ask the author for a revised manuscript; the earlier versions are kept.',
  revised: '',
  accepted: 'Accept it for publication. It can then be published into an issue.',
  rejected: 'Decline it. This is final.',
};

/** The decision form (intent `decide`, and the confirm step's `decide:…` after a refusal that asks for it). */
export function DecisionPanel({
  submission: s,
  review,
  result,
  round,
}: {
  submission: DeskSubmission;
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
