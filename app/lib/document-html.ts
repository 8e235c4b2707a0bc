import { createContext, useContext } from 'react';

/**
 * Server-made HTML that a loader put in the load context's `documentHtml` instead of its data (decision 0028),
 * provided by app/entry.server.tsx while a whole document renders. In the browser it is empty: the HTML is
 * already in the page, and React leaves an element's `dangerouslySetInnerHTML` content alone when it hydrates.
 * A navigation in the browser gets the HTML in the route data instead.
 */
export const DocumentHtmlContext = createContext<ReadonlyMap<string, string> | null>(null);

/** The HTML for `key`: from the route data when it came with it, else from the document's render. */
export function useDocumentHtml(key: string, fromData: string | undefined): string {
  const html = useContext(DocumentHtmlContext);
  return fromData ?? html?.get(key) ?? '';
}
