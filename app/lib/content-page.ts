import { pageTitle } from './meta.ts';
import contentCss from '../styles/content.css?url';

type Match = { id: string; loaderData?: unknown } | undefined;

/** The stylesheet of the journal's content pages, for each route's `links`. */
export const contentLinks = () => [{ rel: 'stylesheet', href: contentCss }];

/**
 * A content page's head: "Page · Journal name" (the site's title pattern), its description, and the
 * canonical address with matching Open Graph tags.
 */
export function contentMeta(
  matches: readonly Match[],
  data: { title: string; description: string; canonicalUrl: string } | undefined,
) {
  if (!data) return [{ title: pageTitle(matches, 'Page not found') }];
  const title = pageTitle(matches, data.title);
  return [
    { title },
    { name: 'description', content: data.description },
    { property: 'og:type', content: 'website' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: data.description },
    { property: 'og:url', content: data.canonicalUrl },
    { tagName: 'link', rel: 'canonical', href: data.canonicalUrl },
  ];
}
