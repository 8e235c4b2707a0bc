import { useHref, useNavigation } from 'react-router';

/**
 * The journal's own addresses for what React Router's `<Link>` and `<Form>` do not make (decision 0056): a
 * `fetch` of its API, a beacon, an upload. A journal reached by its path (`/{path}/…`) is React Router's
 * basename there, and its API is under it too; at a root the path is unchanged. `path` starts with `/`.
 */
export function useJournalHref(): (path: string) => string {
  const prefix = useJournalPrefix();
  return (path: string) => `${prefix}${path}`;
}

/** The journal's path prefix in the browser's addresses: '' at a root, `/{path}` by path. */
export function useJournalPrefix(): string {
  const root = useHref('/');
  return root === '/' ? '' : root.replace(/\/+$/, '');
}

/** A path of the browser's address without the journal's prefix (`/{path}/volumes` → `/volumes`). */
export function withoutPrefix(pathname: string, prefix: string): string {
  if (!prefix || prefix === '/') return pathname;
  if (pathname === prefix) return '/';
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : pathname;
}

/**
 * Whether a form is being sent to this page of the journal (`path`, as the routes name it): the router's
 * `formAction` carries the journal's path and the query, which this leaves aside.
 */
export function useSubmittingTo(path: string): boolean {
  const navigation = useNavigation();
  const prefix = useJournalPrefix();
  if (navigation.state !== 'submitting' || !navigation.formAction) return false;
  return withoutPrefix(navigation.formAction.split('?')[0], prefix) === path;
}

/**
 * Server-made HTML (the journal's Markdown pages, an article's full text) with its root-relative links and
 * images (`href="/instructions"`, `src="/article/7/figures/f1.png"`) under the journal's path; unchanged at
 * a root. The same on the server's render and the browser's, so hydration finds the same HTML.
 */
export function withPrefixedLinks(html: string, prefix: string): string {
  if (!prefix) return html;
  return html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${prefix}/`);
}
