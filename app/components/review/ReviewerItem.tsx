import { formatDay } from '../../../common/dates.ts';
import {
  ASSIGNMENT_STATUS_LABELS,
  type AssignmentStatus,
  DECLINE_REASON_LABELS,
} from '../../../common/review.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { DateText } from '../submission/DateText.tsx';
import { AssignmentButton } from './AssignmentButton.tsx';
import { DueDatesForm } from './DueDatesForm.tsx';
import type { Assignment } from './review-panel.ts';

function StatusLabel({ status }: { status: AssignmentStatus }) {
  return <span className={`review-status review-status--${status}`}>{ASSIGNMENT_STATUS_LABELS[status]}</span>;
}

/** One reviewer of a round: who, status, due dates, what they said when declining, and the editor's moves. */
export function ReviewerItem({
  a,
  result,
  open,
}: {
  a: Assignment;
  result: FormResult | undefined;
  open: boolean;
}) {
  const label = `${a.reviewer.name}`;
  const active = a.state === 'invited' || a.state === 'accepted';
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
      {open && active ? <DueDatesForm a={a} result={result} /> : null}
    </li>
  );
}
