import type { AuthContext } from './accounts/service.ts';
import type { Services } from './services.ts';

/** What every page loader and action receives as `context`. */
export interface WebContext {
  services: Services;
  /** The signed-in session, with the account's current role and status; null when signed out. */
  auth: AuthContext | null;
  /**
   * The journal the page is for, and the path prefix it was reached under ('' at a root; `/{path}` by path:
   * React Router's basename, decision 0056); null for the site's own pages (no journal at the site's root).
   */
  journal: { id: number; prefix: string } | null;
  clientIp: string;
  userAgent: string;
  /** Whether cookies must be marked Secure (https, directly or behind a trusted proxy). */
  secure: boolean;
  /** This response's Content-Security-Policy nonce, for the scripts the page renders. */
  nonce: string;
  /**
   * HTML a loader hands straight to the server's render, kept out of the route data (decision 0028): set for a
   * whole document, null for React Router's `.data` (a navigation in the browser), whose data must carry it.
   * A large server-made block (an article's full text) is then sent once, not twice (as HTML and as data).
   */
  documentHtml: Map<string, string> | null;
  /**
   * Set by app/entry.server.tsx `handleError` when a loader or action failed because the database is briefly
   * unavailable: the bridge (server/http/ssr.ts) answers 503 with Retry-After instead of 500.
   */
  databaseUnavailable?: boolean;
}
