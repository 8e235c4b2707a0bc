import { Form } from 'react-router';
import {
  ASSIGNMENT_STATUS_LABELS,
  type AssignmentStatus,
  DECLINE_REASON_LABELS,
  RECOMMENDATION_LABELS,
  REVIEW_MODES,
  REVIEW_MODE_LABELS,
  ROUND_DECISION_LABELS,
  type ReviewMode,
} from '../../../common/review.ts';
import { formatDay } from '../../../common/dates.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { FieldError, SelectField, TextAreaField, TextField } from '../FormField.tsx';
import { DateText } from '../submission/DateText.tsx';
import type { DeskReviewData } from './desk-review.server.ts';
import { FilePropertiesWarning } from './FilePropertiesWarning.tsx';

type Round = DeskReviewData['review']['rounds'][number];
type Assignment = Round['assignments'][number];
type Candidate = NonNullable<DeskReviewData['candidates']>[number];

const MODE_NAMES: Record<ReviewMode, string> = {
  'double-anonymous': 'Double-anonymous',
  anonymous: 'Anonymous',
  open: 'Open',
};

/** The errors and typed values of a refusal of `intent` for one assignment's form only. */
function refusalOf(result: FormResult | undefined, intent: string, assignmentId?: number) {
  const refused = refusalFor(result, intent);
  if (assignmentId !== undefined && refused.values.assignment !== String(assignmentId))
    return { errors: {} as Record<string, string>, values: {} as Record<string, string> };
  return refused;
}

/** The "Peer review" panel of the submission's desk page: rounds, reviewers, invitations, reviews. */
export function ReviewPanel({
  data,
  result,
  canInvite,
  canOpen,
}: {
  data: DeskReviewData;
  result: FormResult | undefined;
  /** The submission is under review: its open round takes invitations. */
  canInvite: boolean;
  /** The desk can still move it to "Under review" (which opens a round). */
  canOpen: boolean;
}) {
  const rounds = data.review.rounds;
  const current = rounds.at(-1);
  const earlier = rounds.slice(0, -1).reverse();
  const open = current && !current.decidedAt ? current : null;
  return (
    <section className="panel review-panel" aria-labelledby="review-title">
      <h2 id="review-title">Peer review</h2>
      {!current ? (
        <p>
          {canOpen
            ? 'No review round yet. Move the submission to “Under review” (below) to open round 1 and invite reviewers.'
            : 'This submission was not sent to peer review.'}
        </p>
      ) : (
        <RoundView
          round={current}
          result={result}
          zone={data.review.timeZone}
          current={Boolean(open)}
          properties={open ? data.properties : null}
        />
      )}
      {open && canInvite ? <InviteForm data={data} round={open} result={result} /> : null}
      {earlier.map((r) => (
        <details key={r.id} className="review-round--earlier">
          <summary>
            Round {r.number} (manuscript version {r.version}
            {r.decision ? `, ${ROUND_DECISION_LABELS[r.decision] ?? r.decision}` : ''})
          </summary>
          <RoundView round={r} result={result} zone={data.review.timeZone} current={false} />
        </details>
      ))}
    </section>
  );
}

function RoundView({
  round,
  result,
  zone,
  current,
  properties = null,
}: {
  round: Round;
  result: FormResult | undefined;
  zone: string;
  current: boolean;
  /** The open round's reviewer files checked for names in their properties (double-anonymous only). */
  properties?: DeskReviewData['properties'];
}) {
  const submitted = round.assignments.filter((a) => a.state === 'submitted');
  const headingId = `round-${round.id}-title`;
  return (
    <section className="review-round" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Round {round.number}
        {current ? ' (current)' : ''}
      </h3>
      <dl className="meta-list review-round__facts">
        <div>
          <dt>Review mode</dt>
          <dd>{MODE_NAMES[round.mode]}</dd>
        </div>
        <div>
          <dt>Manuscript version</dt>
          <dd>{round.version}</dd>
        </div>
        <div>
          <dt>Decision</dt>
          <dd>
            {round.decision ? (
              <>
                {ROUND_DECISION_LABELS[round.decision] ?? round.decision}
                {round.decidedAt ? (
                  <>
                    {' '}
                    on <DateText iso={round.decidedAt} />
                  </>
                ) : null}
                {round.revisionDue ? `; revision due ${formatDay(round.revisionDue)}` : ''}
              </>
            ) : (
              'Not yet decided'
            )}
          </dd>
        </div>
        <div>
          <dt>Due dates</dt>
          <dd>End of the day, {zone}</dd>
        </div>
      </dl>
      {round.authorResponse ? (
        <>
          <p className="editor-message__from">The authors’ response to the previous round’s reviewers:</p>
          <blockquote className="editor-message__text">{round.authorResponse}</blockquote>
        </>
      ) : null}
      {properties ? <FilePropertiesWarning properties={properties} /> : null}
      {current && round.assignments.length === 0 ? <ModeForm round={round} result={result} /> : null}
      {round.assignments.length === 0 ? (
        <p className="muted">No reviewer has been invited in this round yet.</p>
      ) : (
        <ul className="reviewer-list" aria-label={`Reviewers of round ${round.number}`}>
          {round.assignments.map((a) => (
            <ReviewerItem key={a.id} a={a} result={result} open={current} />
          ))}
        </ul>
      )}
      {submitted.length ? (
        <section className="reviews" aria-labelledby={`${headingId}-reviews`}>
          <h4 id={`${headingId}-reviews`}>
            Reviews of round {round.number} ({submitted.length})
          </h4>
          <div className="reviews__grid">
            {submitted.map((a) => (
              <ReviewCard key={a.id} a={a} round={round} result={result} />
            ))}
          </div>
        </section>
      ) : null}
    </section>
  );
}

function ModeForm({ round, result }: { round: Round; result: FormResult | undefined }) {
  const refused = refusalOf(result, 'mode');
  return (
    <Form method="post" noValidate className="dash-inline-form review-mode" aria-label="Review mode">
      <SelectField
        id="review-mode"
        name="mode"
        label="Review mode of this round"
        hint="It can be changed until the first reviewer is invited."
        defaultValue={refused.values.mode ?? round.mode}
        error={refused.errors.mode}
        options={REVIEW_MODES.map((m) => ({ value: m, label: REVIEW_MODE_LABELS[m] }))}
      />
      <button type="submit" name="intent" value="mode" className="button button--secondary button--small">
        Change the mode
      </button>
    </Form>
  );
}

function StatusLabel({ status }: { status: AssignmentStatus }) {
  return <span className={`review-status review-status--${status}`}>{ASSIGNMENT_STATUS_LABELS[status]}</span>;
}

/** One reviewer of a round: who, status, due dates, what they said when declining, and the editor's moves. */
function ReviewerItem({ a, result, open }: { a: Assignment; result: FormResult | undefined; open: boolean }) {
  const label = `${a.reviewer.name}`;
  const active = a.state === 'invited' || a.state === 'accepted';
  const dates = refusalOf(result, 'dates', a.id);
  const datesRefused = Object.keys(dates.values).length > 0;
  return (
    <li className="reviewer">
      <div className="reviewer__head">
        <p className="reviewer__name">
          <strong>{a.reviewer.name}</strong>{' '}
          <a href={`mailto:${a.reviewer.email}`} className="reviewer__email">
            {a.reviewer.email}
          </a>
          {a.reviewer.affiliation ? <span className="muted">, {a.reviewer.affiliation}</span> : null}
        </p>
        <StatusLabel status={a.status} />
      </div>
      <dl className="reviewer__dates">
        <div>
          <dt>Invited</dt>
          <dd>
            <DateText iso={a.invitedAt} />
          </dd>
        </div>
        {a.state === 'invited' || a.status === 'response-overdue' ? (
          <div>
            <dt>Response due</dt>
            <dd>{formatDay(a.responseDue)}</dd>
          </div>
        ) : null}
        {a.state !== 'declined' ? (
          <div>
            <dt>Review due</dt>
            <dd>{formatDay(a.reviewDue)}</dd>
          </div>
        ) : null}
        {a.respondedAt ? (
          <div>
            <dt>{a.state === 'declined' ? 'Declined' : 'Accepted'}</dt>
            <dd>
              <DateText iso={a.respondedAt} />
            </dd>
          </div>
        ) : null}
        {a.submittedAt ? (
          <div>
            <dt>Submitted</dt>
            <dd>
              <DateText iso={a.submittedAt} />
            </dd>
          </div>
        ) : null}
      </dl>
      {a.warning ? (
        <p className="review-warning">
          <strong>Warning:</strong> {a.warning}
        </p>
      ) : null}
      {a.state === 'declined' ? (
        <div className="reviewer__decline">
          <p>
            <strong>Reason:</strong> {a.declineReason ? DECLINE_REASON_LABELS[a.declineReason] : 'None given'}
            {a.declineComment ? ` — “${a.declineComment}”` : ''}
          </p>
          {a.suggestedReviewer ? (
            <p>
              <strong>Suggested reviewer:</strong> {a.suggestedReviewer}
            </p>
          ) : null}
        </div>
      ) : null}
      {open ? (
        <div className="reviewer__actions">
          {active ? (
            <>
              <AssignmentButton id={a.id} intent="remind" label="Remind now" who={label} />
              <AssignmentButton id={a.id} intent="cancel" label="Cancel" who={label} danger />
            </>
          ) : null}
          {a.state === 'cancelled' ? (
            <AssignmentButton id={a.id} intent="reinstate" label="Reinstate" who={label} />
          ) : null}
          {a.state === 'declined' ? (
            <AssignmentButton id={a.id} intent="reinvite" label="Invite again" who={label} />
          ) : null}
        </div>
      ) : null}
      {open && active ? (
        <details className="reviewer__dates-form" open={datesRefused || undefined}>
          <summary>Change the due dates</summary>
          <Form
            method="post"
            noValidate
            aria-label={`Due dates of ${label}`}
            key={`dates-${a.id}-${a.responseDue}-${a.reviewDue}-${result?.at ?? 0}`}
          >
            <input type="hidden" name="assignment" value={a.id} />
            <div className="dash-forms">
              {a.state === 'invited' ? (
                <TextField
                  id={`dates-${a.id}-response`}
                  name="responseDue"
                  type="date"
                  label="Response due"
                  defaultValue={dates.values.responseDue ?? a.responseDue}
                  error={dates.errors.responseDue}
                />
              ) : null}
              <TextField
                id={`dates-${a.id}-review`}
                name="reviewDue"
                type="date"
                label="Review due"
                defaultValue={dates.values.reviewDue ?? a.reviewDue}
                error={dates.errors.reviewDue}
              />
            </div>
            <button
              type="submit"
              name="intent"
              value="dates"
              className="button button--secondary button--small"
            >
              Save the due dates and tell the reviewer
            </button>
          </Form>
        </details>
      ) : null}
    </li>
  );
}

/** A one-button form acting on an assignment, named for screen readers by what it does and to whom. */
function AssignmentButton({
  id,
  intent,
  label,
  who,
  danger,
}: {
  id: number;
  intent: string;
  label: string;
  who: string;
  danger?: boolean;
}) {
  return (
    <Form method="post" className="dash-inline-form">
      <input type="hidden" name="assignment" value={id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={`${label}: ${who}`}
        className={`button button--small ${danger ? 'button--danger' : 'button--secondary'}`}
      >
        {label}
      </button>
    </Form>
  );
}

function answerText(value: unknown): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  if (value === null || value === undefined || value === '') return '—';
  return String(value);
}

/** A submitted review, beside the others: recommendation, answers, comments, attachment; read, thank, rate. */
function ReviewCard({ a, round, result }: { a: Assignment; round: Round; result: FormResult | undefined }) {
  const rate = refusalOf(result, 'rate', a.id);
  const cardId = `review-${a.id}`;
  return (
    <article className="review-card" aria-labelledby={`${cardId}-title`}>
      <header className="review-card__head">
        <h5 id={`${cardId}-title`}>Review by {a.reviewer.name}</h5>
        <p className="review-card__recommendation">
          Recommendation:{' '}
          <strong>{a.recommendation ? RECOMMENDATION_LABELS[a.recommendation] : 'None given'}</strong>
        </p>
        <p className="muted">
          Submitted {a.submittedAt ? <DateText iso={a.submittedAt} time /> : null}
          {a.readAt ? (
            <>
              {' '}
              · read <DateText iso={a.readAt} />
            </>
          ) : (
            <> · not read yet</>
          )}
          {a.sharedAt ? ' · shared with the author' : round.decidedAt ? ' · withheld from the author' : ''}
        </p>
      </header>
      {round.questions.length ? (
        <dl className="review-card__answers">
          {round.questions.map((q) => (
            <div key={q.id}>
              <dt>{q.label}</dt>
              <dd className="prose-text">{answerText(a.answers?.[q.id])}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <h6>Comments for the author</h6>
      <p className="prose-text review-card__text">
        {a.commentsForAuthor || <span className="muted">None.</span>}
      </p>
      <h6>Confidential comments for the editor</h6>
      <p className="prose-text review-card__text">
        {a.confidentialComments || <span className="muted">None.</span>}
      </p>
      {a.hasAttachment ? (
        <p>
          <a href={`/api/editor/review-assignments/${a.id}/attachment`} download>
            Download the reviewer’s attached file
          </a>
        </p>
      ) : null}
      {a.attachmentProperties ? (
        <div className="alert file-properties" role="note" aria-labelledby={`${cardId}-attachment-names`}>
          <p id={`${cardId}-attachment-names`}>
            <strong>
              {a.attachmentProperties.properties.length
                ? 'The attached file names the reviewer in its own properties:'
                : 'The attached file could not be checked for the reviewer’s name.'}
            </strong>
          </p>
          {a.attachmentProperties.properties.length ? (
            <ul>
              {a.attachmentProperties.properties.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
          {a.attachmentProperties.problem ? <p>{a.attachmentProperties.problem}</p> : null}
          <p>
            {a.attachmentProperties.forAuthor === 'copy'
              ? 'The author receives a copy without these properties; you see the file as the reviewer sent it.'
              : 'The author will not receive this file. Please ask the reviewer for a copy without these properties, or share its content in your decision.'}
          </p>
        </div>
      ) : null}
      {round.mode === 'open' ? (
        <p className="muted">
          {a.publishAgreed
            ? 'The reviewer agreed to publish this review with the article.'
            : 'The reviewer did not agree to publish this review.'}
        </p>
      ) : null}
      <div className="reviewer__actions">
        {round.decidedAt && !a.sharedAt ? (
          // Withheld with the decision: it can still go to the author (issue 22).
          <AssignmentButton id={a.id} intent="share" label="Share with the author" who={a.reviewer.name} />
        ) : null}
        {a.readAt ? null : (
          <AssignmentButton id={a.id} intent="read" label="Mark as read" who={a.reviewer.name} />
        )}
        {a.thankedAt ? (
          <p className="muted review-card__thanked">
            Thanked <DateText iso={a.thankedAt} />
          </p>
        ) : (
          <AssignmentButton id={a.id} intent="thank" label="Thank the reviewer" who={a.reviewer.name} />
        )}
      </div>
      <Form
        method="post"
        noValidate
        className="dash-inline-form review-card__rating"
        aria-label={`Rating of ${a.reviewer.name}'s review`}
        key={`rate-${a.id}-${a.rating}-${result?.at ?? 0}`}
      >
        <input type="hidden" name="assignment" value={a.id} />
        <SelectField
          id={`rate-${a.id}`}
          name="rating"
          label="Your rating (private, 1-5)"
          placeholder="Not rated"
          defaultValue={rate.values.rating ?? (a.rating ? String(a.rating) : '')}
          error={rate.errors.rating}
          options={[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `${n} of 5` }))}
        />
        <button type="submit" name="intent" value="rate" className="button button--secondary button--small">
          Save the rating
        </button>
      </Form>
    </article>
  );
}

/** Invite a reviewer: search the pool (and accounts), pick one, or type a name and e-mail. */
function InviteForm({
  data,
  round,
  result,
}: {
  data: DeskReviewData;
  round: Round;
  result: FormResult | undefined;
}) {
  const refused = refusalOf(result, 'invite');
  const kept = result && !result.ok && result.intent === 'invite';
  const candidates = data.candidates;
  const pickError = refused.errors.reviewer;
  return (
    <section className="review-invite" aria-labelledby="invite-title" id="invite">
      <h3 id="invite-title">Invite a reviewer to round {round.number}</h3>
      <Form method="get" role="search" aria-label="Find a reviewer" className="dash-inline-form review-find">
        <TextField
          id="invite-find"
          name="find"
          type="search"
          label="Find a reviewer"
          hint="Name, e-mail, affiliation or area of interest: the reviewer pool and the journal’s accounts."
          defaultValue={data.find}
          maxLength={200}
        />
        <button type="submit" className="button button--secondary">
          Search
        </button>
      </Form>
      <Form
        method="post"
        noValidate
        aria-labelledby="invite-title"
        key={kept ? `invite-kept-${result.at}` : `invite-${result?.at ?? 0}`}
      >
        <input type="hidden" name="find" value={data.find} />
        {candidates ? (
          <fieldset
            className={pickError ? 'field field--invalid review-candidates' : 'field review-candidates'}
            aria-describedby={pickError ? 'invite-reviewer-error' : undefined}
          >
            <legend className="field__label">
              {candidates.length
                ? `Reviewers matching “${data.find}”`
                : `Nobody matches “${data.find}”: type the name and e-mail below.`}
            </legend>
            {pickError ? <FieldError id="invite-reviewer-error" message={pickError} /> : null}
            {candidates.map((c) => (
              <CandidateOption key={c.pick} c={c} checked={refused.values.reviewer === c.pick} />
            ))}
            {candidates.length ? (
              <div className="review-candidate">
                <input
                  type="radio"
                  id="invite-pick-none"
                  name="reviewer"
                  value=""
                  defaultChecked={!refused.values.reviewer}
                />
                <label htmlFor="invite-pick-none">Someone else: type the name and e-mail below</label>
              </div>
            ) : null}
          </fieldset>
        ) : pickError ? (
          <p className="field__error" id="invite-reviewer-error">
            <span className="visually-hidden">Error: </span>
            {pickError}
          </p>
        ) : null}
        <p className="review-invite__or">
          {candidates?.length ? 'Or someone' : 'Someone'} by name and e-mail: they get an account only if they
          accept.
        </p>
        <div className="dash-forms">
          <TextField
            id="invite-name"
            name="name"
            label="Name"
            autoComplete="off"
            defaultValue={refused.values.name}
            error={refused.errors.name}
            maxLength={200}
          />
          <TextField
            id="invite-email"
            name="email"
            type="email"
            label="E-mail address"
            autoComplete="off"
            defaultValue={refused.values.email}
            error={refused.errors.email}
            maxLength={254}
          />
          <TextField
            id="invite-affiliation"
            name="affiliation"
            label="Affiliation"
            hint="Optional."
            defaultValue={refused.values.affiliation}
            error={refused.errors.affiliation}
            maxLength={300}
          />
        </div>
        <div className="dash-forms">
          <TextField
            id="invite-response-due"
            name="responseDue"
            type="date"
            label="Response due"
            hint={`Default ${formatDay(data.responseDueDefault)}.`}
            defaultValue={refused.values.responseDue ?? data.responseDueDefault}
            error={refused.errors.responseDue}
          />
          <TextField
            id="invite-review-due"
            name="reviewDue"
            type="date"
            label="Review due"
            hint={`Default ${formatDay(data.reviewDueDefault)}.`}
            defaultValue={refused.values.reviewDue ?? data.reviewDueDefault}
            error={refused.errors.reviewDue}
          />
        </div>
        <TextAreaField
          id="invite-message"
          name="message"
          label="A personal note in the invitation"
          hint="Optional. The invitation already gives the title, the abstract, the due dates and the link."
          rows={3}
          defaultValue={refused.values.message}
          error={refused.errors.message}
        />
        <button type="submit" name="intent" value="invite" className="button button--primary">
          Send the invitation
        </button>
      </Form>
    </section>
  );
}

function CandidateOption({ c, checked }: { c: Candidate; checked: boolean }) {
  const id = `invite-pick-${c.pick.replace(':', '-')}`;
  const facts = [
    c.affiliation,
    c.openAssignments !== null
      ? `${c.openAssignments} open, ${c.completedReviews} completed`
      : 'not in the pool yet',
    c.interests.length ? `interests: ${c.interests.join(', ')}` : '',
    c.averageRating !== null ? `rated ${c.averageRating} of 5` : '',
  ].filter(Boolean);
  return (
    <div className="review-candidate">
      <input
        type="radio"
        id={id}
        name="reviewer"
        value={c.pick}
        defaultChecked={checked}
        aria-describedby={`${id}-facts`}
      />
      <label htmlFor={id}>
        <strong>{c.name}</strong> &lt;{c.email}&gt;
        <span id={`${id}-facts`} className="review-candidate__facts">
          {facts.join(' · ')}
          {c.unavailableUntil ? (
            <span className="review-warning--inline">
              {' '}
              · Unavailable until {formatDay(c.unavailableUntil)}
            </span>
          ) : null}
        </span>
      </label>
    </div>
  );
}
