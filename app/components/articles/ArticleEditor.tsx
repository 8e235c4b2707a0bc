import { Form, Link } from 'react-router';
import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { ArticleFields, type IssueOption } from '../dashboard/ArticleFields.tsx';
import { ArticleFactsFields } from './ArticleFactsFields.tsx';
import { ArticlePdfField } from './ArticlePdfField.tsx';
import { type EditedArticle, editValues } from './article-form-values.ts';
import { FullTextEditor, type FullTextSummary } from './FullTextEditor.tsx';

/** The panel of the article under Edit (`?edit=id`): its metadata, its PDF, its full text. */
export function ArticleEditor({
  editing,
  page,
  issues,
  maxPdfBytes,
  maxWordBytes,
  fullText,
  pending,
  result,
  round,
}: {
  editing: EditedArticle;
  /** The list's page, kept when the editor is closed. */
  page: number;
  issues: readonly IssueOption[];
  maxPdfBytes: number;
  maxWordBytes: number;
  fullText: FullTextSummary | null;
  pending: (FullTextSummary & { html: string }) | null;
  result: FormResult | undefined;
  round: number;
}) {
  const edit = refusalFor(result, 'edit');
  const replace = refusalFor(result, 'replace-pdf');
  const values = Object.keys(edit.values).length ? edit.values : editValues(editing);
  return (
    <div className="panel">
      <h2 id="edit-article-heading">Edit “{editing.title}”</h2>
      <p>
        <Link to={{ search: page > 1 ? `?page=${page}` : '' }}>Close the editor</Link>
      </p>
      <Form
        method="post"
        noValidate
        aria-labelledby="edit-article-heading"
        key={`edit-${editing.id}-${round}`}
      >
        <input type="hidden" name="form" value="edit" />
        <input type="hidden" name="id" value={editing.id} />
        <ArticleFields prefix="edit-article" values={values} errors={edit.errors} issues={issues} />
        <ArticleFactsFields prefix="edit-article" values={values} errors={edit.errors} />
        <button type="submit" name="intent" value="edit" className="button button--primary">
          Save the article
        </button>
      </Form>
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        aria-labelledby="replace-pdf-title"
        className="dash-replace"
        key={`pdf-${editing.id}-${round}`}
      >
        <h3 id="replace-pdf-title">Replace the PDF</h3>
        <input type="hidden" name="id" value={editing.id} />
        <ArticlePdfField
          id="replace-pdf"
          label="New PDF"
          maxBytes={maxPdfBytes}
          error={replace.errors.pdf}
          chooseAgain={Boolean(replace.errors.pdf)}
        />
        <button type="submit" name="intent" value="replace-pdf" className="button">
          Replace the PDF
        </button>
      </Form>
      <FullTextEditor
        articleId={editing.id}
        fullText={fullText}
        pending={pending}
        maxWordBytes={maxWordBytes}
        result={result}
        round={round}
      />
    </div>
  );
}
