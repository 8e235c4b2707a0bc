import { useId } from 'react';
import { formatBytes } from '../../../common/upload-rules.ts';
import type { UploadProgressState } from './use-upload.ts';

/**
 * The upload's `<progress>` bar, labelled, with the figures beside it. Screen readers hear a quarter at a
 * time (a live region that changes only then), not every percent. Cancel is offered while bytes are still
 * going; once they have all gone the server is already storing the submission.
 */
export function UploadProgress({
  label,
  progress,
  onCancel,
}: {
  label: string;
  progress: UploadProgressState;
  onCancel: () => void;
}) {
  const id = useId();
  const percent = Math.min(100, Math.floor((progress.loaded / Math.max(progress.total, 1)) * 100));
  const quarter = Math.floor(percent / 25) * 25;
  return (
    <div className="upload-progress">
      <label htmlFor={`${id}-bar`} className="upload-progress__label">
        {label}
      </label>
      <progress
        id={`${id}-bar`}
        className="upload-progress__bar"
        max={100}
        value={percent}
        aria-describedby={`${id}-figures`}
      >
        {percent}%
      </progress>
      <p id={`${id}-figures`} className="upload-progress__figures">
        {progress.sent
          ? 'Upload complete. Checking and storing the files…'
          : `${percent}% · ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`}
      </p>
      <p className="visually-hidden" role="status">
        {progress.sent ? 'Upload complete. Checking the files.' : `Uploading: ${quarter}%`}
      </p>
      {progress.sent ? null : (
        <button type="button" className="button button--secondary button--small" onClick={onCancel}>
          Cancel upload
        </button>
      )}
    </div>
  );
}
