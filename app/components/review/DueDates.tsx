import { formatDay } from '../../../common/dates.ts';
import type { AssignmentState, AssignmentStatus } from '../../../common/review.ts';

/**
 * An assignment's due dates: both while the invitation waits for an answer, the review's alone once answered,
 * with "overdue" beside the date that has passed (derived by the server from the clock and the journal's time zone, decision 0023).
 */
export function DueDates({
  state,
  status,
  responseDue,
  reviewDue,
  timeZone,
}: {
  state: AssignmentState;
  status: AssignmentStatus;
  responseDue: string;
  reviewDue: string;
  timeZone?: string;
}) {
  const zone = timeZone ? ` (end of the day, ${timeZone})` : '';
  const answerFirst = state === 'invited';
  const rows = [
    {
      key: 'response',
      term: 'Answer by',
      day: responseDue,
      overdue: status === 'response-overdue',
    },
    { key: 'review', term: 'Review due', day: reviewDue, overdue: status === 'review-overdue' },
  ];
  // Once answered, the answer's date no longer matters: only the review's is shown.
  if (!answerFirst) rows.splice(0, 1);
  return (
    <dl className="review-dates">
      {rows.map((r) => (
        <div
          key={r.key}
          className={r.overdue ? 'review-dates__row review-dates__row--overdue' : 'review-dates__row'}
        >
          <dt>{r.term}</dt>
          <dd>
            <time dateTime={r.day}>{formatDay(r.day)}</time>
            {zone ? <span className="muted">{zone}</span> : null}
            {r.overdue ? <strong className="overdue-badge">Overdue</strong> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
