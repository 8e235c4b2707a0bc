import type { MailLogEntry } from '../../../server/mail/service.ts';
import { DateText } from '../submission/DateText.tsx';

const STATUS_TEXT: Record<MailLogEntry['status'], string> = {
  queued: 'Waiting to be sent',
  sent: 'Sent',
  failed: 'Not delivered',
};

/**
 * The submission's communication log (issue 14): every e-mail about it, automatic or manual, newest first,
 * with its delivery result; bodies as the mail log keeps them (links carrying a token removed).
 */
export function CommunicationLog({ entries }: { entries: MailLogEntry[] }) {
  return (
    <section className="panel comm-log" aria-labelledby="comm-log-title">
      <h2 id="comm-log-title">Communication log</h2>
      {entries.length === 0 ? (
        <p className="muted">No e-mail about this submission yet.</p>
      ) : (
        <ol
          className="comm-log__list"
          aria-label={`E-mails about this submission, newest first (${entries.length})`}
        >
          {entries.map((m) => (
            <li key={m.id} className="comm-log__item">
              <details>
                <summary>
                  <span className="comm-log__subject">{m.subject}</span>
                  <span className="comm-log__meta">
                    To {m.recipients} · <DateText iso={m.sentAt ?? m.queuedAt} time /> ·{' '}
                    <span className={`comm-log__status comm-log__status--${m.status}`}>
                      {STATUS_TEXT[m.status]}
                      {m.status !== 'sent' && m.attempts > 0
                        ? ` (${m.attempts} attempt${m.attempts === 1 ? '' : 's'})`
                        : ''}
                    </span>
                  </span>
                </summary>
                {m.lastError && m.status !== 'sent' ? (
                  <p className="comm-log__error">
                    <strong>Last error:</strong> {m.lastError}
                  </p>
                ) : null}
                <pre className="comm-log__body">{m.body}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
