import { ARTICLE_PDF_RULE, formatBytes } from '../../../common/upload-rules.ts';
import { FileField } from '../FileField.tsx';

/** The article's PDF, for the upload form and for replacing it under Edit. */
export function ArticlePdfField({
  id,
  label,
  maxBytes,
  error,
  chooseAgain,
}: {
  id: string;
  label: string;
  maxBytes: number;
  error: string | undefined;
  /** After a refused post: the browser does not keep a chosen file when the page is shown again. */
  chooseAgain: boolean;
}) {
  return (
    <FileField
      id={id}
      rule={ARTICLE_PDF_RULE}
      maxBytes={maxBytes}
      label={label}
      required
      hint={`A PDF, up to ${formatBytes(maxBytes)}.`}
      error={error}
      reminder={chooseAgain ? 'If you chose a PDF, please choose it again.' : undefined}
    />
  );
}
