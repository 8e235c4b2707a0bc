import { Link } from 'react-router';
import { formatBytes } from '../../../common/upload-rules.ts';

/**
 * The signed copyright form sent with a submission, as a download link (GET
 * /api/submissions/{id}/copyright-form): in the Files box, for its author on My submissions and for editors
 * on the desk.
 */
export function CopyrightFormFile({
  submissionId,
  form,
}: {
  submissionId: number;
  form: { name: string; size: number } | null;
}) {
  return (
    <>
      <h3 className="version__title">Signed copyright form</h3>
      {form ? (
        <p>
          <Link reloadDocument to={`/api/submissions/${submissionId}/copyright-form`} download={form.name}>
            {form.name}
          </Link>{' '}
          <span className="muted">({formatBytes(form.size)})</span>
        </p>
      ) : (
        <p className="muted">None sent with the submission.</p>
      )}
    </>
  );
}
