import { useEffect, useRef, useState } from 'react';
import {
  CITATION_FILES,
  CITATION_STYLES,
  type CitationInput,
  type CitationStyleId,
  type FormattedCitation,
  citationParts,
  citationPath,
  formatCitation,
} from '../../common/citation.ts';
import { MESSAGES } from '../../common/messages.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { useJournalHref } from '../lib/journal-href.ts';

type Outcome = { ok: true; message: string; n: number } | { ok: false; message: string; n: number };

const FILE_FORMATS = Object.keys(CITATION_FILES) as (keyof typeof CITATION_FILES)[];

/** Where the reference styles are on the article page (the picker's links lead there). */
export const STYLES_ANCHOR = 'citation-styles';

/**
 * The article's citation in the journal's format, with a Copy citation button (shown only once scripts
 * run: without them the text is there to select); the BibTeX and RIS files; and, under "More citation
 * styles", one reference style at a time. The page's HTML carries only the style asked for (`?style=`,
 * APA by default), rendered on the server (the page ships no citation processor); picking another fetches
 * it (`GET /api/articles/{id}/citation/{style}`), or, without scripts, the picker's links load the page
 * with that style. The outcome of a copy is announced: success in a status region that is always on the
 * page, failure as an alert, with the text selected so Ctrl+C still works.
 */
export function Citation({
  citation,
  articleId,
  style,
  stylesOpen = false,
}: {
  citation: CitationInput;
  articleId: number;
  /** The reference style shown first (the server rendered it). */
  style: FormattedCitation;
  /** Open "More citation styles" at once (the reader picked a style without scripts). */
  stylesOpen?: boolean;
}) {
  const hydrated = useHydrated();
  const journalHref = useJournalHref();
  const textRef = useRef<HTMLParagraphElement>(null);
  const styleRef = useRef<HTMLParagraphElement>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [shown, setShown] = useState(style);
  const [loading, setLoading] = useState<CitationStyleId | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const fetched = useRef(new Map<string, FormattedCitation>());
  const latest = useRef(0);
  const parts = citationParts(citation);

  // Another article (or another ?style=): start again from what the server rendered.
  useEffect(() => {
    fetched.current = new Map([[`${articleId} ${style.id}`, style]]);
    latest.current++;
    setShown(style);
    setLoading(null);
    setFailed(null);
  }, [articleId, style]);

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

  async function pick(event: React.MouseEvent<HTMLAnchorElement>, id: CitationStyleId) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const request = ++latest.current;
    setFailed(null);
    const known = fetched.current.get(`${articleId} ${id}`);
    if (known) {
      setLoading(null);
      setShown(known);
      return;
    }
    setLoading(id);
    try {
      const res = await fetch(journalHref(`/api/articles/${articleId}/citation/${id}`), {
        headers: { accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
      const found = (await res.json()) as FormattedCitation;
      fetched.current.set(`${articleId} ${id}`, found);
      if (request === latest.current) setShown(found);
    } catch (err) {
      const label = CITATION_STYLES.find((s) => s.id === id)?.label ?? id;
      const reason = err instanceof Error ? err.message : String(err);
      if (request === latest.current)
        setFailed(`The ${label} citation could not be loaded (${reason}). Please try again.`);
    } finally {
      if (request === latest.current) setLoading(null);
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

      <p className="citation__files">
        <span>Download the citation for a reference manager:</span>
        {FILE_FORMATS.map((format) => (
          <a
            key={format}
            href={journalHref(citationPath(articleId, format))}
            download
            className="button button--secondary citation__button"
          >
            {CITATION_FILES[format].label}
          </a>
        ))}
      </p>

      <details className="citation__formats" id={STYLES_ANCHOR} open={stylesOpen || undefined}>
        <summary>More citation styles: {CITATION_STYLES.map((s) => s.label).join(', ')}</summary>
        <div className="citation__styles">
          <ul className="citation__picker" aria-label="Citation style">
            {CITATION_STYLES.map((s) => (
              <li key={s.id}>
                <a
                  href={`?style=${s.id}#${STYLES_ANCHOR}`}
                  className="citation__pick"
                  aria-current={s.id === shown.id ? 'true' : undefined}
                  onClick={(event) => pick(event, s.id)}
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="citation__style" aria-live="polite" aria-busy={loading ? true : undefined}>
            <p className="citation__style-name">
              {shown.label} <span className="citation__edition">({shown.edition})</span>
            </p>
            <p
              className="citation__style-text"
              ref={styleRef}
              // Made by the CSL processor on the server, which escapes the article's text, then passed
              // through an allow-list (italics and links only): see server/catalog/citation.ts.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server output, see above.
              dangerouslySetInnerHTML={{ __html: shown.html }}
            />
            {hydrated ? (
              <button
                type="button"
                className="button button--secondary citation__button"
                onClick={() => copy(shown.text, styleRef.current)}
              >
                Copy<span className="visually-hidden"> the {shown.label} citation</span>
              </button>
            ) : null}
          </div>
          {failed ? (
            <p role="alert" className="alert alert--error citation__error">
              {failed}
            </p>
          ) : null}
        </div>
      </details>
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
