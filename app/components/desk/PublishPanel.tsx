import { Form, Link } from 'react-router';
import { ARTICLE_PDF_RULE, ARTICLE_WORD_RULE, formatBytes } from '../../../common/upload-rules.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { FileField } from '../FileField.tsx';
import { refusalFor } from '../dashboard/ActionResult.tsx';

/** The publish page of a submission: where the files go, the preview is shown and the article is published. */
export const publishPath = (submissionId: number) => `/editor-dashboard/submissions/${submissionId}/publish`;

export interface PreparedFiles {
  /** The PDF that would be published (given, or the latest manuscript when it is a PDF). */
  pdf: { name: string; size: number; given: boolean } | null;
  /** The Word file the full text was made from. */
  word: string | null;
}

/**
 * Step 1 of publishing an accepted submission (issue 22, decision 0035): the final PDF and the Word file, given
 * together. They go to the publish page, which shows the article as readers will see it; nothing is live
 * before the editor presses Publish there. The desk shows this form; the publish page shows it again to
 * replace a file.
 */
export function PrepareFilesForm({
  submissionId,
  latestManuscript,
  prepared,
  maxPdfBytes,
  maxWordBytes,
  result,
  round,
}: {
  submissionId: number;
  latestManuscript: { name: string; version: number; mediaType: string } | undefined;
  prepared: PreparedFiles;
  maxPdfBytes: number;
  maxWordBytes: number;
  result: FormResult | undefined;
  round: number;
}) {
  const refused = refusalFor(result, 'prepare');
  const kept = result && !result.ok && result.intent === 'prepare';
  const latestIsPdf = latestManuscript?.mediaType === 'application/pdf';
  const given = prepared.pdf?.given ? prepared.pdf : null;
  const ready = Boolean(given || prepared.word);
  return (
    <Form
      method="post"
      action={publishPath(submissionId)}
      encType="multipart/form-data"
      noValidate
      aria-labelledby="prepare-title"
      className="desk-prepare"
      key={kept ? `prepare-kept-${round}` : `prepare-${round}`}
    >
      <h3 id="prepare-title">{ready ? 'Replace a file' : 'The final files'}</h3>
      <div className="dash-forms">
        <FileField
          id="prepare-pdf"
          rule={ARTICLE_PDF_RULE}
          maxBytes={maxPdfBytes}
          label="Final PDF"
          required={!latestIsPdf && !given}
          hint={
            given
              ? `Now: ${given.name} (${formatBytes(given.size)}). A PDF, up to ${formatBytes(maxPdfBytes)}.`
              : latestIsPdf
                ? `Without one, the latest manuscript (${latestManuscript?.name}, version ${latestManuscript?.version}) is published as it is. A PDF, up to ${formatBytes(maxPdfBytes)}.`
                : `The latest manuscript${latestManuscript ? ` (${latestManuscript.name})` : ''} is not a PDF. A PDF, up to ${formatBytes(maxPdfBytes)}.`
          }
          error={refused.errors.pdf}
          reminder={kept ? 'If you chose a PDF, please choose it again.' : undefined}
        />
        <FileField
          id="prepare-word"
          rule={ARTICLE_WORD_RULE}
          maxBytes={maxWordBytes}
          label="Word file"
          hint={`The final .docx, up to ${formatBytes(maxWordBytes)}: it becomes the full text on the article page and in JATS XML.${prepared.word ? ` Now: ${prepared.word}.` : ''}`}
          error={refused.errors.word}
          reminder={kept ? 'If you chose a Word file, please choose it again.' : undefined}
        />
      </div>
      <button type="submit" name="intent" value="prepare" className="button button--primary">
        {ready ? 'Upload and preview again' : 'Upload and preview'}
      </button>
    </Form>
  );
}

/** The desk's panel for an accepted submission: the files, then the preview on the publish page. */
export function PublishPanel(props: Parameters<typeof PrepareFilesForm>[0]) {
  const { submissionId, prepared } = props;
  const ready = Boolean(prepared.pdf || prepared.word);
  return (
    <section className="panel panel--action" aria-labelledby="publish-title">
      <h2 id="publish-title">Publish as an article</h2>
      <p>
        Give the final PDF and the Word file together. You then see the article as readers will, with what needs
        a person (alt text, references without a DOI), and fix it there. Nothing is on the reader site until you
        press Publish on that page.
      </p>
      {ready ? (
        <p>
          <Link to={publishPath(submissionId)} className="button button--primary">
            Open the preview and publish
          </Link>
        </p>
      ) : null}
      <PrepareFilesForm {...props} />
    </section>
  );
}
