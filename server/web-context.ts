import type { AuthContext } from './accounts/service.ts';
import type { Services } from './services.ts';

/** What every page loader and action receives as `context`. */
export interface WebContext {
  services: Services;
  /** The signed-in session, with the account's current role and status; null when signed out. */
  auth: AuthContext | null;
  clientIp: string;
  userAgent: string;
  /** Whether cookies must be marked Secure (https, directly or behind a trusted proxy). */
  secure: boolean;
  /** This response's Content-Security-Policy nonce, for the scripts the page renders. */
  nonce: string;
}
