import { EDITORIAL_BOARD_KEY, pageKey, SPECIAL_ISSUES_KEY } from '../../common/content.ts';
import { DISCOVERY_PATHS } from './links.ts';
import { el, renderXml } from './xml.ts';

/**
 * The sitemap (https://www.sitemaps.org/protocol.html) and robots.txt: what crawlers may fetch and where
 * every page is. Pure: the route gathers the dates and passes them in.
 */

/** The journal's public pages, in the order of the site's menus. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/overview',
  '/indexing',
  '/editorial-board',
  '/instructions',
  '/apc',
  '/ethics',
  '/copyright',
  '/contact',
  '/special-issues',
  '/open-special-issues',
  '/closed-special-issues',
  '/volumes',
] as const;

/**
 * The stored settings each public page shows, besides the journal's own settings (title, publisher,
 * contact: in every page's header and footer). A page's last change is the newest of them.
 */
export const PAGE_SETTINGS: Partial<Record<(typeof PUBLIC_PAGES)[number], string[]>> = {
  '/about': [pageKey('about')],
  '/overview': [pageKey('overview')],
  '/indexing': [pageKey('indexing')],
  '/editorial-board': [EDITORIAL_BOARD_KEY],
  '/instructions': [pageKey('instructions')],
  '/apc': [pageKey('apc')],
  '/ethics': [pageKey('ethics')],
  '/copyright': [pageKey('copyright')],
  '/special-issues': [SPECIAL_ISSUES_KEY],
  '/open-special-issues': [SPECIAL_ISSUES_KEY],
  '/closed-special-issues': [SPECIAL_ISSUES_KEY],
};

/** Where readers (and crawlers) find one issue's articles. */
export const issueListingPath = (volume: number, issue: number) => `/volumes?volume=${volume}&issue=${issue}`;

export interface SitemapEntry {
  /** Root-relative path. */
  path: string;
  lastmod?: Date | null;
}

/** W3C datetime at seconds, in UTC. */
const w3c = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

export function sitemapXml(baseUrl: string, entries: SitemapEntry[]): string {
  return renderXml(
    el(
      'urlset',
      { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' },
      entries.map((e) =>
        el(
          'url',
          null,
          el('loc', null, baseUrl + e.path),
          e.lastmod ? el('lastmod', null, w3c(e.lastmod)) : null,
        ),
      ),
    ),
  );
}

/**
 * Crawlers are welcome everywhere readers are, including the PDFs under /api/articles/{id}/download
 * (Google Scholar wants `citation_pdf_url` fetchable), and kept out of the JSON API, the account and
 * editorial pages. The most specific rule wins, so the `Allow` for downloads beats `Disallow: /api/`.
 */
export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /api/articles/*/download',
    'Disallow: /api/',
    'Disallow: /editor-dashboard',
    'Disallow: /my-submissions',
    'Disallow: /submission',
    'Disallow: /login',
    'Disallow: /logout',
    'Disallow: /regist',
    'Disallow: /account',
    'Disallow: /forgot-password',
    'Disallow: /reset-password',
    'Allow: /',
    '',
    `Sitemap: ${baseUrl}${DISCOVERY_PATHS.sitemap}`,
    '',
  ].join('\n');
}
