import { useEffect, useState } from 'react';

/**
 * False in the server's HTML and during hydration, true once the page's scripts run: for controls that
 * only work with JavaScript (such as Copy citation), so a reader without it is never shown a dead button.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
