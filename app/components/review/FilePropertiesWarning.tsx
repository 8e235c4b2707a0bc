import { Form } from 'react-router';
import type { z } from 'zod';
import type { filePropertiesResponse } from '../../../common/review-responses.ts';

export type FileProperties = z.infer<typeof filePropertiesResponse>;

/** The button's intent: the desk page's action answers it with `review.withoutNamesForReviewers`. */
export const WITHOUT_PROPERTIES_INTENT = 'review-files-without-properties';

/**
 * The double-anonymous warning of the desk's peer-review panel (decision 0024): the reviewer files of the
 * current round whose own properties name a person (or that could not be checked), and a button that gives
 * reviewers copies without those properties; once sent, a note that reviewers get the copies. Nothing
 * otherwise. The data comes from `context.services.review.fileProperties(submissionId)` (or GET
 * /api/editor/submissions/:id/review/file-properties).
 */
export function FilePropertiesWarning({ properties }: { properties: FileProperties }) {
  const copies = properties.files.filter((f) => f.copy);
  if (!properties.warn) {
    // Sent already: the editor sees that reviewers get the copies, not the author's files.
    if (properties.mode !== 'double-anonymous' || !copies.length) return null;
    return (
      <div className="alert alert--success file-properties" role="note">
        <p>
          Double-anonymous review: reviewers get {copies.length === 1 ? 'a copy' : 'copies'} without the
          properties that named people ({copies.map((f) => f.name).join(', ')}). The author's files are as
          they were.
        </p>
      </div>
    );
  }
  const named = properties.files.filter(
    (f) => f.properties.length > 0 || (f.problem && f.problem.code !== 'unsupported'),
  );
  const removable = named.some((f) => f.removable);
  return (
    <div className="alert file-properties" role="note" aria-labelledby="file-properties-title">
      <p id="file-properties-title">
        <strong>
          Double-anonymous review: the files reviewers receive name people in their own properties.
        </strong>
      </p>
      <ul className="file-properties__files">
        {named.map((f) => (
          <li key={f.fileId}>
            <span className="file-properties__name">{f.name}</span>
            {f.properties.length ? (
              <ul>
                {f.properties.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
            {f.problem ? <p>{f.problem.message}</p> : null}
          </li>
        ))}
      </ul>
      {removable ? (
        <Form method="post" className="file-properties__send">
          <p>Reviewers can be sent copies without these properties; the author's files stay as they were.</p>
          <button
            type="submit"
            name="intent"
            value={WITHOUT_PROPERTIES_INTENT}
            className="button button--secondary button--small"
          >
            Send reviewers copies without these properties
          </button>
        </Form>
      ) : null}
    </div>
  );
}
