import { Form } from 'react-router';
import { ARTICLE_WORD_RULE, formatBytes } from '../../../common/upload-rules.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { ArticleFields, type IssueOption } from '../dashboard/ArticleFields.tsx';
import { FileField } from '../FileField.tsx';
import { ArticlePdfField } from './ArticlePdfField.tsx';

/** "Upload an article": its metadata, the PDF and (optionally) the Word file of its full text. */
export function UploadArticleForm({
  issues,
  maxPdfBytes,
  maxWordBytes,
  result,
  round,
}: {
  issues: readonly IssueOption[];
  maxPdfBytes: number;
  maxWordBytes: number;
  result: FormResult | undefined;
  round: number;
}) {
  const upload = refusalFor(result, 'upload');
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      className="panel"
      aria-labelledby="upload-heading"
      key={`upload-${upload.values.title === undefined ? round : 'kept'}-${upload.values.author_count ?? ''}`}
    >
      <h2 id="upload-heading">Upload an article</h2>
      <p className="field__hint">All fields are required. The article appears on the reader site at once.</p>
      <input type="hidden" name="form" value="upload" />
      <ArticleFields prefix="upload" values={upload.values} errors={upload.errors} issues={issues} />
      <ArticlePdfField
        id="upload-pdf"
        label="Article PDF"
        maxBytes={maxPdfBytes}
        error={upload.errors.pdf}
        chooseAgain={upload.values.title !== undefined}
      />
      <FileField
        id="upload-word"
        rule={ARTICLE_WORD_RULE}
        maxBytes={maxWordBytes}
        label="Word file"
        hint={`The final .docx, up to ${formatBytes(maxWordBytes)}: it becomes the full text on the article page and in JATS XML once you have previewed and published it under Edit.`}
        error={upload.errors.word}
        reminder={
          upload.values.title !== undefined ? 'If you chose a Word file, please choose it again.' : undefined
        }
      />
      <button type="submit" name="intent" value="upload" className="button button--primary">
        Upload and publish
      </button>
    </Form>
  );
}
