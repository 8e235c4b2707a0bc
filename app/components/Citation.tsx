import { useRef, useState } from 'react';
import {
  type CitationInput,
  type FormattedCitation,
  citationParts,
  formatCitation,
} from '../../common/citation.ts';
import { MESSAGES } from '../../common/messages.ts';
import { useHydrated } from '../lib/use-hydrated.ts';

type Outcome = { ok: true; message: string; n: number } | { ok: false; message: string; n: number };

export interface CitationFileLink {
  label: string;
  href: string;
}

/**
 * The article's citation in the journal's format, with a Copy citation button (shown only once scripts
 * run: without them the text is there to select); below it, the same in the reference styles (rendered on
 * the server: the page ships no citation processor) and the BibTeX and RIS files. The outcome of a copy is
 * announced: success in a status region that is always on the page, failure as an alert, with the text
 * selected so Ctrl+C still works.
 */
export function Citation({
  citation,
  styles = [],
  files = [],
}: {
  citation: CitationInput;
  styles?: readonly FormattedCitation[];
  files?: readonly CitationFileLink[];
}) {
  const hydrated = useHydrated();
  const textRef = useRef<HTMLParagraphElement>(null);
  const styleRefs = useRef(new Map<string, HTMLElement>());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const parts = citationParts(citation);

  async function copy(text: string, element: HTMLElement | null | undefined) {
    const n = (outcome?.n ?? 0) + 1;
    try {
      if (!navigator.clipboard?.writeText) {
        throw new Error('this browser does not give the page access to the clipboard.');
      }
      await navigator.clipboard.writeText(text);
      setOutcome({ ok: true, message: MESSAGES.citationCopied, n });
    } catch (err) {
      selectContents(element ?? null);
      const reason = err instanceof Error ? err.message : String(err);
      setOutcome({ ok: false, message: `${MESSAGES.citationCopyFailedPrefix}${reason}`, n });
    }
  }

  return (
    <div className="citation">
      <p className="citation__text" ref={textRef}>
        {parts.map((part, i) => {
          const key = `${i}-${part.kind}`;
          if (part.kind === 'journal') return <cite key={key}>{part.text}</cite>;
          if (part.kind === 'link') {
            return (
              <a key={key} href={part.href}>
                {part.text}
              </a>
            );
          }
          return <span key={key}>{part.text}</span>;
        })}
      </p>
      {hydrated ? (
        <div className="citation__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => copy(formatCitation(citation), textRef.current)}
          >
            Copy citation
          </button>
          {/* Present from the start, so screen readers announce what is written into it. */}
          <p role="status" className="citation__status">
            {outcome?.ok ? <span key={outcome.n}>{outcome.message}</span> : null}
          </p>
        </div>
      ) : null}
      {outcome && !outcome.ok ? (
        <div role="alert" className="alert alert--error citation__error" key={outcome.n}>
          <p className="alert__message">{outcome.message}</p>
          <p>The citation is selected: press Ctrl+C (⌘C on a Mac) to copy it.</p>
        </div>
      ) : null}

      {files.length ? (
        <p className="citation__files">
          <span>Download the citation for a reference manager:</span>
          {files.map((f) => (
            <a key={f.href} href={f.href} download className="button button--secondary citation__button">
              {f.label}
            </a>
          ))}
        </p>
      ) : null}

      {styles.length ? (
        <details className="citation__formats">
          <summary>More citation styles: {styles.map((s) => s.label).join(', ')}</summary>
          <dl className="citation__styles">
            {styles.map((style) => (
              <div key={style.id} className="citation__style">
                <dt>
                  {style.label} <span className="citation__edition">({style.edition})</span>
                </dt>
                <dd>
                  <p
                    className="citation__style-text"
                    ref={(el) => {
                      if (el) styleRefs.current.set(style.id, el);
                      else styleRefs.current.delete(style.id);
                    }}
                    // Made by the CSL processor on the server, which escapes the article's text, then passed
                    // through an allow-list (italics and links only): see server/catalog/citation.ts.
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server output, see above.
                    dangerouslySetInnerHTML={{ __html: style.html }}
                  />
                  {hydrated ? (
                    <button
                      type="button"
                      className="button button--secondary citation__button"
                      onClick={() => copy(style.text, styleRefs.current.get(style.id))}
                    >
                      Copy<span className="visually-hidden"> the {style.label} citation</span>
                    </button>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </div>
  );
}

function selectContents(element: HTMLElement | null) {
  if (!element) return;
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}
