import { useEffect, useRef } from 'react';
import { useNavigate, useRevalidator } from 'react-router';

/**
 * Sent on `window` just before the page leaves for an ended session; forms keep their text on it
 * (use-form-draft.ts). Defined here, in the root's code, so that every page does not load the drafts' module.
 */
export const SESSION_ENDING_EVENT = 'colophon:session-ending';

/** Wait this long past the expiry, so the server has certainly stopped accepting the session. */
const GRACE_MS = 1_000;
/** setTimeout cannot wait longer than 2^31-1 ms; longer sessions are waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** On returning to the tab, ask the server again at most this often (a logout in another tab, a suspension). */
const RESYNC_MS = 60_000;

/**
 * Ends the signed-in view when the session expires (spec section 4): at `expiresAt` (seconds since the
 * epoch) the page goes to /home; every navigation reloads the root loader, which then finds no session, so
 * the header shows Login and Register again. The token itself lives only in the httpOnly cookie.
 *
 * `serverTime` (ms) is the server's clock when the loader ran: the wait is measured on the server's clock,
 * so a browser whose clock runs fast does not leave early and loop back to a page that is still signed in.
 *
 * Timers do not run while a laptop sleeps, so the check repeats whenever the tab becomes visible or
 * focused again. Just before leaving it sends SESSION_ENDING_EVENT, on which forms keep their text.
 */
export function useSessionExpiry(expiresAt: number | null, serverTime: number) {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  // The expiry already acted on: if the server still showed that session afterwards, leaving again would loop.
  const handled = useRef<number | null>(null);

  useEffect(() => {
    if (expiresAt === null || handled.current === expiresAt) return;
    const skew = serverTime - Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastSync = Date.now();

    const check = () => {
      clearTimeout(timer);
      if (handled.current === expiresAt) return;
      const left = expiresAt * 1000 + GRACE_MS - (Date.now() + skew);
      if (left <= 0) {
        handled.current = expiresAt;
        // Forms on the page keep what was typed (use-form-draft.ts) before the page leaves.
        window.dispatchEvent(new Event(SESSION_ENDING_EVENT));
        void navigate('/home', { replace: true });
        return;
      }
      timer = setTimeout(check, Math.min(left, MAX_TIMER_MS));
    };
    const onReturn = () => {
      if (document.visibilityState !== 'visible') return;
      check();
      if (handled.current !== expiresAt && Date.now() - lastSync > RESYNC_MS) {
        lastSync = Date.now();
        void revalidate();
      }
    };

    check();
    document.addEventListener('visibilitychange', onReturn);
    window.addEventListener('focus', onReturn);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onReturn);
      window.removeEventListener('focus', onReturn);
    };
  }, [expiresAt, serverTime, navigate, revalidate]);
}
