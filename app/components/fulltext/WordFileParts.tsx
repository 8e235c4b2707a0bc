import { ARTICLE_WORD_RULE, formatBytes } from '../../../common/upload-rules.ts';
import { FileField } from '../FileField.tsx';

/**
 * The parts of the editor's full-text forms that the desk (a submission before publishing) and the dashboard
 * (an article) share: the Word file field with its button, and the list of what needs a person.
 */

export function WordFileField({
  source,
  maxBytes,
  error,
  chooseAgain,
}: {
  /** The Word file the full text was made from, if there is one. */
  source: string | null;
  maxBytes: number;
  error: string | undefined;
  /** The form came back refused: the browser forgot the chosen file. */
  chooseAgain: boolean;
}) {
  return (
    <>
      <FileField
        id="fulltext-word"
        rule={ARTICLE_WORD_RULE}
        maxBytes={maxBytes}
        label={source ? 'Replace the Word file' : 'Word file'}
        required
        hint={`A .docx file, up to ${formatBytes(maxBytes)}.${source ? ` Now: ${source}.` : ''}`}
        error={error}
        reminder={chooseAgain ? 'Please choose the file again.' : undefined}
      />
      <button type="submit" name="intent" value="fulltext" className="button">
        Convert the Word file
      </button>
    </>
  );
}

export function ProblemList({
  problems,
  title,
  level,
  id = 'fulltext-problems-title',
}: {
  problems: readonly { kind: string; message: string }[];
  title: string;
  level: 3 | 4;
  /** The heading's id (two lists on one page need two). */
  id?: string;
}) {
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <>
      <Heading id={id}>{title}</Heading>
      {problems.length ? (
        <ul className="fulltext-problems" aria-labelledby={id}>
          {problems.map((p) => (
            <li key={p.message} className={`fulltext-problems__item fulltext-problems__item--${p.kind}`}>
              {p.message}
            </li>
          ))}
        </ul>
      ) : (
        <p>Nothing: every part of the Word file was kept.</p>
      )}
    </>
  );
}
