import { useEffect, useState } from 'react';

/**
 * False on the server and in the first render in the browser, true once the page's scripts run: what needs
 * JavaScript (drag and drop, buttons that act in place) appears only then, and the page works without it.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
