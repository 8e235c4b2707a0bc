import { Link } from 'react-router';
import { formatBytes } from '../../../common/upload-rules.ts';
import { DateText } from './DateText.tsx';

export interface SubmissionFileItem {
  id: number;
  kind: 'manuscript' | 'additional';
  version: number;
  name: string;
  size: number;
  createdAt: string;
}

type SubmissionFile = SubmissionFileItem;

/**
 * A submission's files grouped by version, newest first, each a download link (for its author on My
 * submissions, and for editors on the desk). Earlier versions stay listed.
 */
export function FilesByVersion({ submissionId, files }: { submissionId: number; files: SubmissionFile[] }) {
  const versions = [...new Set(files.map((f) => f.version))].sort((a, b) => b - a);
  if (!versions.length) return <p className="muted">No files.</p>;
  return (
    <ol className="versions">
      {versions.map((version) => {
        const inVersion = files
          .filter((f) => f.version === version)
          .sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'manuscript' ? -1 : 1));
        const when = inVersion[0]?.createdAt;
        return (
          <li key={version} className="version">
            <h3 className="version__title">
              Version {version}
              <span className="version__label">
                {version === 1 ? ' · original submission' : ' · revision'}
                {version === versions[0] && versions.length > 1 ? ' (latest)' : ''}
              </span>
            </h3>
            {when ? (
              <p className="version__when muted">
                <DateText iso={when} />
              </p>
            ) : null}
            <ul className="file-list">
              {inVersion.map((f) => (
                <li key={f.id}>
                  <span className="file-list__kind">
                    {f.kind === 'manuscript' ? 'Manuscript' : 'Additional files'}
                  </span>
                  <Link reloadDocument to={`/api/submissions/${submissionId}/files/${f.id}`} download={f.name}>
                    {f.name}
                  </Link>{' '}
                  <span className="muted">({formatBytes(f.size)})</span>
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}
