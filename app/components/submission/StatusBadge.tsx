import { STATUS_LABELS, type SubmissionStatus } from '../../../common/submissions.ts';

/** A submission's status as a coloured label; the words carry the meaning, the colour only helps. */
export function StatusBadge({ status }: { status: SubmissionStatus }) {
  return (
    <span className={`status-badge status-badge--${status.replace(/_/g, '-')}`}>{STATUS_LABELS[status]}</span>
  );
}
