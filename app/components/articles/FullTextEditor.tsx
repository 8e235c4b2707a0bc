import { Form } from 'react-router';
import type { FormResult } from '../../lib/form-result.ts';
import { useJournalPrefix, withPrefixedLinks } from '../../lib/journal-href.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { type AltFigure, FigureAltFields } from '../fulltext/FigureAltFields.tsx';
import { type DoiReference, ReferenceDoiFields } from '../fulltext/ReferenceDoiFields.tsx';
import { ProblemList, WordFileField } from '../fulltext/WordFileParts.tsx';

/** A converted Word file as the editor reviews it: where it came from, its size, and what needs a person. */
export interface FullTextSummary {
  source: string;
  ready: boolean;
  words: number;
  figures: readonly AltFigure[];
  problems: readonly { kind: string; message: string }[];
  references: readonly DoiReference[];
}

/**
 * An article's full text under Edit (decision 0035): a new Word file is converted into a pending full text,
 * previewed and fixed here, then published in place of the live one; the live one's figures keep their own
 * alt text form.
 */
export function FullTextEditor({
  articleId,
  fullText,
  pending,
  maxWordBytes,
  result,
  round,
}: {
  articleId: number;
  fullText: FullTextSummary | null;
  /** The pending full text, with its preview drawn as readers will see it. */
  pending: (FullTextSummary & { html: string }) | null;
  maxWordBytes: number;
  result: FormResult | undefined;
  round: number;
}) {
  const convert = refusalFor(result, 'fulltext');
  const alt = refusalFor(result, 'alt');
  const pendingFix = refusalFor(result, 'pending-fix');
  const pendingPublish = refusalFor(result, 'pending-publish');
  const pendingRefused = Object.keys(pendingPublish.values).length ? pendingPublish : pendingFix;
  // The preview's figures are the editors' API's: under the journal's path (decision 0056).
  const prefix = useJournalPrefix();
  return (
    <>
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        aria-labelledby="fulltext-title"
        className="dash-replace"
        key={`word-${articleId}-${round}`}
      >
        <h3 id="fulltext-title">Full text from the Word file</h3>
        <p>
          {fullText
            ? fullText.ready
              ? `Shown on the article page and in its JATS XML (from ${fullText.source}, ${fullText.words.toLocaleString('en')} words).`
              : `Not shown to readers until every figure has alt text (from ${fullText.source}).`
            : 'None yet: the final Word file (.docx) becomes the full text on the article page and in its JATS XML.'}{' '}
          A new Word file is converted for you to preview first: readers keep the published full text until
          you publish the new one.
        </p>
        <input type="hidden" name="id" value={articleId} />
        <WordFileField
          source={fullText?.source ?? null}
          maxBytes={maxWordBytes}
          error={convert.errors.word}
          chooseAgain={Boolean(convert.errors.word)}
        />
      </Form>
      {pending ? (
        <section className="dash-replace" aria-labelledby="pending-title">
          <h3 id="pending-title">New full text, not published yet</h3>
          <p>
            From {pending.source} ({pending.words.toLocaleString('en')} words). Check it as readers will see
            it, fix what is listed, then publish it in place of {fullText ? 'the live one' : 'none'}.
          </p>
          <ProblemList
            problems={pending.problems}
            title="Needs a person"
            level={4}
            id="pending-problems-title"
          />
          <details className="desk-fulltext__preview">
            <summary>Preview the new full text as readers will see it</summary>
            <div
              className="article-page"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: made from the structured document and sanitised on the server.
              dangerouslySetInnerHTML={{ __html: withPrefixedLinks(pending.html, prefix) }}
            />
          </details>
          <Form
            method="post"
            noValidate
            aria-labelledby="pending-title"
            key={`pending-${articleId}-${pending.source}-${pending.words}`}
          >
            <input type="hidden" name="id" value={articleId} />
            {pending.figures.length ? (
              <fieldset className="form-box">
                <legend>Alt text of the new figures</legend>
                <FigureAltFields
                  figures={pending.figures}
                  idPrefix="pending-alt"
                  figureUrl={(name) => `/api/editor/articles/${articleId}/fulltext/pending/figures/${name}`}
                  values={pendingRefused.values}
                  errors={pendingRefused.errors}
                />
              </fieldset>
            ) : null}
            {pending.references.some((r) => !r.doi) ? (
              <ReferenceDoiFields
                references={pending.references.filter((r) => !r.doi)}
                idPrefix="pending-doi"
                values={pendingRefused.values}
                errors={pendingRefused.errors}
              />
            ) : null}
            <div className="dash-actions">
              {pending.figures.length || pending.references.some((r) => !r.doi) ? (
                <button type="submit" name="intent" value="pending-fix" className="button">
                  Save the fixes
                </button>
              ) : null}
              <button type="submit" name="intent" value="pending-publish" className="button button--primary">
                Publish the new full text
              </button>
            </div>
          </Form>
        </section>
      ) : null}
      {fullText ? (
        <>
          <ProblemList
            problems={fullText.problems}
            title="Needs a person in the published full text"
            level={4}
          />
          {fullText.figures.length ? (
            <Form method="post" noValidate aria-labelledby="alt-title" key={`alt-${articleId}-${round}`}>
              <h4 id="alt-title">Alt text of the published figures</h4>
              <input type="hidden" name="id" value={articleId} />
              <FigureAltFields
                figures={fullText.figures}
                idPrefix="article-alt"
                figureUrl={(name) => `/api/editor/articles/${articleId}/fulltext/figures/${name}`}
                values={alt.values}
                errors={alt.errors}
              />
              <button type="submit" name="intent" value="alt" className="button">
                Save the alt text
              </button>
            </Form>
          ) : null}
        </>
      ) : null}
    </>
  );
}
