import type { AuthContext } from './accounts/service.ts';
import type { Services } from './services.ts';

/** What every page loader and action receives as `context`. */
export interface WebContext {
  services: Services;
  /** The signed-in session, with the account's current role and status; null when signed out. */
  auth: AuthContext | null;
  clientIp: string;
  userAgent: string;
  /** Whether cookies must be marked Secure. */
  secure: boolean;
}
