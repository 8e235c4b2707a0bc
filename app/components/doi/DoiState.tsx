import { DOI_STATE_LABELS, type DoiStateName } from '../../../common/doi.ts';

/** An article's DOI state as the DOI page shows it: its name, and Crossref's (or our) words on it. */
export function DoiState({ state, message }: { state: DoiStateName; message: string | null }) {
  return (
    <>
      <span className={`doi-state doi-state--${state}`}>{DOI_STATE_LABELS[state]}</span>
      {message ? <span className="doi-state__message"> {message}</span> : null}
    </>
  );
}
