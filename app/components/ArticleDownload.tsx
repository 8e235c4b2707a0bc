import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES } from '../../common/messages.ts';
import { downloadPdf } from '../lib/download.ts';
import { useJournalHref } from '../lib/journal-href.ts';

export interface DownloadState {
  articleId: number;
  /** Decided on the server: the journal's `downloads` setting and the account's current role and status. */
  allowed: boolean;
  hasPdf: boolean;
  signedIn: boolean;
  /** The API address of the PDF (same origin, the session cookie goes with it). */
  href: string;
  /** The page was asked for with ?download=denied (the refused button, without JavaScript). */
  showDenied: boolean;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; filename: string }
  | { kind: 'denied' }
  | { kind: 'failed'; message: string };

/**
 * The Download PDF button. Allowed readers get a plain link to the PDF (with scripts, it is fetched so a
 * refusal shows here instead of as a JSON file); others get a link back to this page that shows why,
 * which scripts turn into an inline message.
 */
export function ArticleDownload({ state }: { state: DownloadState }) {
  const [phase, setPhase] = useState<Phase>(state.showDenied ? { kind: 'denied' } : { kind: 'idle' });
  const journalHref = useJournalHref();
  const href = journalHref(state.href);
  const deniedHref = journalHref(`/article/${state.articleId}?download=denied#download`);

  if (!state.hasPdf) {
    return (
      <div id="download" className="article-download">
        <p className="muted">The PDF of this article is not available yet.</p>
      </div>
    );
  }

  async function fetchPdf(event: React.MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (phase.kind === 'busy') return;
    setPhase({ kind: 'busy' });
    const result = await downloadPdf(href, `article-${state.articleId}.pdf`);
    if (result.ok) setPhase({ kind: 'done', filename: result.filename });
    else if (result.status === 401 || result.status === 403) setPhase({ kind: 'denied' });
    else setPhase({ kind: 'failed', message: result.message || MESSAGES.accessDenied });
  }

  return (
    <div id="download" className="article-download" tabIndex={-1}>
      {state.allowed ? (
        <a
          href={href}
          className="button button--primary article-download__button"
          onClick={fetchPdf}
          aria-disabled={phase.kind === 'busy' ? true : undefined}
        >
          <PdfIcon /> Download PDF
        </a>
      ) : (
        <a
          href={deniedHref}
          className="button button--primary article-download__button"
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
            event.preventDefault();
            setPhase({ kind: 'denied' });
          }}
        >
          <PdfIcon /> Download PDF
        </a>
      )}
      <p role="status" className="article-download__status">
        {phase.kind === 'busy' ? MESSAGES.preparingDownload : null}
        {phase.kind === 'done' ? `Your download has started: ${phase.filename}` : null}
      </p>
      {phase.kind === 'denied' ? <DownloadDenied signedIn={state.signedIn} articleId={state.articleId} /> : null}
      {phase.kind === 'failed' ? (
        <FocusedAlert>
          <p className="alert__message">
            {MESSAGES.downloadFailedPrefix}
            {phase.message}
          </p>
        </FocusedAlert>
      ) : null}
    </div>
  );
}

/** The spec's message for readers who may not download, with the way forward. */
export function DownloadDenied({ signedIn, articleId }: { signedIn: boolean; articleId: number }) {
  return (
    <FocusedAlert className="download-denied">
      <p className="alert__message">{MESSAGES.downloadNeedsApproval}</p>
      {signedIn ? (
        <p>
          Your account has not been approved for downloads yet. The editorial board reviews new accounts and
          you will be notified by e-mail once yours is approved.
        </p>
      ) : (
        <p className="download-denied__actions">
          <Link to="/regist" className="button button--secondary">
            Register
          </Link>
          <Link
            to={`/login?redirectTo=${encodeURIComponent(`/article/${articleId}`)}`}
            className="button button--secondary"
          >
            Log in
          </Link>
        </p>
      )}
    </FocusedAlert>
  );
}

/** An alert that takes focus when it appears, so keyboard users land on it. */
function FocusedAlert({ children, className }: { children: React.ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div role="alert" tabIndex={-1} ref={ref} className={`alert alert--error${className ? ` ${className}` : ''}`}>
      {children}
    </div>
  );
}

function PdfIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="icon">
      <path
        d="M12 3v12m0 0-5-5m5 5 5-5M5 19h14"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
