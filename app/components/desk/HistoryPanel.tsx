import { STATUS_LABELS } from '../../../common/submissions.ts';
import { DateText } from '../submission/DateText.tsx';
import { StatusBadge } from '../submission/StatusBadge.tsx';
import type { DeskSubmission } from './desk-loader.server.ts';

/** Every move of the submission, newest first, with the messages sent with it. */
export function HistoryPanel({ history }: { history: DeskSubmission['history'] }) {
  return (
    <section className="panel" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <History history={history} />
    </section>
  );
}

function History({ history }: { history: DeskSubmission['history'] }) {
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
