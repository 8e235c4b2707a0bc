import { useEffect, useRef } from 'react';
import type { FormDraft } from '../lib/use-form-draft.ts';

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/**
 * "Restore what you typed?": shown above a form when a draft was kept as the session ended. It takes focus
 * when it appears, so keyboard and screen-reader users meet it first.
 */
export function DraftOffer<T>({
  draft,
  what = 'this form',
  withFiles = false,
}: {
  draft: FormDraft<T>;
  /** "the submission form" */
  what?: string;
  /** The form takes files, which are never kept. */
  withFiles?: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  const shown = draft.offer !== null;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  if (!draft.offer) return null;
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="alert alert--info draft-offer"
      aria-labelledby="draft-offer-title"
    >
      <p id="draft-offer-title" className="draft-offer__title">
        Restore what you typed?
      </p>
      <p>
        Your session ended at {time(draft.offer.savedAt)} while you were filling in {what}. What you had typed
        was kept in this browser tab{withFiles ? '; files are not kept, so please choose them again' : ''}.
      </p>
      <div className="draft-offer__actions">
        <button type="button" className="button button--primary button--small" onClick={draft.restore}>
          Restore
        </button>
        <button type="button" className="button button--secondary button--small" onClick={draft.discard}>
          Discard
        </button>
      </div>
    </section>
  );
}
