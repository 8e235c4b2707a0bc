import { Form } from 'react-router';
import type { AlertStatus } from '../../../server/subscriptions/service.ts';

/**
 * An issue's new-issue alert on the Volumes & issues page: how it went once sent, else the button that sends
 * it, behind a disclosure that says what will happen (it can be sent only once), so it works without scripts.
 */
export function IssueAlertCell({
  issue,
  alert,
  subscribers,
  round,
}: {
  issue: { id: number; volume_number: number; issue_number: number; article_count: number };
  alert: AlertStatus | undefined;
  subscribers: number;
  round: number;
}) {
  const name = `volume ${issue.volume_number}, issue ${issue.issue_number}`;
  if (alert) {
    const day = alert.requestedAt.slice(0, 10);
    return (
      <p className="issue-alert">
        Alert sent {day} by {alert.requestedBy}: {alert.sent} of {alert.recipients} e-mail{alert.recipients === 1 ? '' : 's'}
        {alert.failed ? `, ${alert.failed} failed` : ''}
        {alert.finishedAt ? '' : ' (sending…)'}
      </p>
    );
  }
  if (issue.article_count === 0) return <p className="issue-alert">No alert: no articles yet</p>;
  return (
    <details key={`alert-${round}`} className="issue-alert__send">
      <summary>
        Send alert<span className="visually-hidden"> for {name}</span>
      </summary>
      <Form method="post" className="dash-edit-form">
        <input type="hidden" name="id" value={issue.id} />
        <p className="issue-alert">
          E-mail this issue's contents to {subscribers} subscriber{subscribers === 1 ? '' : 's'} with an approved
          account. An issue's alert goes out only once: send it when all its articles are published.
        </p>
        <button type="submit" name="intent" value="send-alert" className="button button--small">
          Send the new-issue alert<span className="visually-hidden"> for {name}</span>
        </button>
      </Form>
    </details>
  );
}
