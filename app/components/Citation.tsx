import { useRef, useState } from 'react';
import { type CitationInput, citationParts, formatCitation } from '../../common/citation.ts';
import { MESSAGES } from '../../common/messages.ts';
import { useHydrated } from '../lib/use-hydrated.ts';

type Outcome = { ok: true; message: string; n: number } | { ok: false; message: string; n: number };

/**
 * The article's citation in the journal's format, with a Copy citation button (shown only once scripts
 * run: without them the text is there to select). The outcome is announced: success in a status region
 * that is always on the page, failure as an alert, with the text selected so Ctrl+C still works.
 */
export function Citation({ citation }: { citation: CitationInput }) {
  const hydrated = useHydrated();
  const textRef = useRef<HTMLParagraphElement>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const parts = citationParts(citation);

  async function copy() {
    const n = (outcome?.n ?? 0) + 1;
    try {
      if (!navigator.clipboard?.writeText) {
        throw new Error('this browser does not give the page access to the clipboard.');
      }
      await navigator.clipboard.writeText(formatCitation(citation));
      setOutcome({ ok: true, message: MESSAGES.citationCopied, n });
    } catch (err) {
      selectContents(textRef.current);
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
          <button type="button" className="button button--secondary" onClick={copy}>
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
