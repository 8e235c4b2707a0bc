import { createContext, useContext } from 'react';

/**
 * This page response's Content-Security-Policy nonce (the load context's `nonce`), provided by
 * app/entry.server.tsx while the page renders on the server. In the browser it is undefined: scripts are only
 * written into the server's HTML, and browsers hide the attribute's value from the page anyway.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

/**
 * Run before any module: Zod builds fast validators with `new Function` unless told not to, and its probe for
 * that (caught, but still refused by the policy, which allows no eval) is reported as a CSP violation.
 */
export const BEFORE_MODULES_SCRIPT = 'globalThis.__zod_globalConfig={jitless:true};';
