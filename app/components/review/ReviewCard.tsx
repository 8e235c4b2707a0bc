import { Link } from 'react-router';
import { RECOMMENDATION_LABELS } from '../../../common/review.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { DateText } from '../submission/DateText.tsx';
import { AssignmentButton } from './AssignmentButton.tsx';
import { RatingForm } from './RatingForm.tsx';
import type { Assignment, Round } from './review-panel.ts';

function answerText(value: unknown): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  if (value === null || value === undefined || value === '') return '—';
  return String(value);
}

/** A submitted review, beside the others: recommendation, answers, comments, attachment; read, thank, rate. */
export function ReviewCard({
  a,
  round,
  result,
}: {
  a: Assignment;
  round: Round;
  result: FormResult | undefined;
}) {
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
          <Link reloadDocument to={`/api/editor/review-assignments/${a.id}/attachment`} download>
            Download the reviewer’s attached file
          </Link>
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
      <RatingForm a={a} result={result} />
    </article>
  );
}
