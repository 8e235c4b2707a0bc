import { STATUS_LABELS, type SubmissionStatus } from '../../../common/submissions.ts';

/**
 * A submission's status as a coloured label; the words carry the meaning, the colour only helps. An
 * accepted submission that has become an article (its `articleId`, as on the detail pages) reads "Published".
 */
export function StatusBadge({
  status,
  published = false,
}: {
  status: SubmissionStatus;
  published?: boolean;
}) {
  if (status === 'accepted' && published) {
    return <span className="status-badge status-badge--published">Published</span>;
  }
  return (
    <span className={`status-badge status-badge--${status.replace(/_/g, '-')}`}>{STATUS_LABELS[status]}</span>
  );
}
