import { formatDay } from '../../../common/dates.ts';
import { type ReviewMode, ROUND_DECISION_LABELS } from '../../../common/review.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { DateText } from '../submission/DateText.tsx';
import type { DeskReviewData } from './desk-review.server.ts';
import { FilePropertiesWarning } from './FilePropertiesWarning.tsx';
import { InviteForm } from './InviteForm.tsx';
import { ModeForm } from './ModeForm.tsx';
import { ReviewCard } from './ReviewCard.tsx';
import { ReviewerItem } from './ReviewerItem.tsx';
import type { Round } from './review-panel.ts';

const MODE_NAMES: Record<ReviewMode, string> = {
  'double-anonymous': 'Double-anonymous',
  anonymous: 'Anonymous',
  open: 'Open',
};

/**
 * The "Peer review" panel of the submission's desk page: rounds, reviewers, invitations, reviews. Each of its
 * forms is its own file beside this one (`ModeForm`, `InviteForm`, `DueDatesForm`, `RatingForm`,
 * `AssignmentButton`); their posts are answered by `desk-review.server.ts`.
 */
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
