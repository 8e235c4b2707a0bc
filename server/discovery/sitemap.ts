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

/** Where crawlers are welcome and where not, relative to the place a journal answers at. */
const ROBOTS_RULES = [
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
] as const;

/**
 * Crawlers are welcome everywhere readers are, including the PDFs under /api/articles/{id}/download
 * (Google Scholar wants `citation_pdf_url` fetchable), and kept out of the JSON API, the account and
 * editorial pages. The most specific rule wins, so the `Allow` for downloads beats `Disallow: /api/`.
 *
 * Crawlers read robots.txt at a host's root only: the site's host carries the rules of every journal it
 * serves by path (`/{path}/api/` …) and each one's sitemap after its own (decision 0057); a journal on a
 * domain of its own has its own file. With no journal by path, the file is the one-journal site's.
 */
export function robotsTxt(baseUrl: string, byPath: { path: string; baseUrl: string }[] = []): string {
  const rules = (prefix: string) => ROBOTS_RULES.map((rule) => rule.replace(': /', `: ${prefix}/`));
  return [
    'User-agent: *',
    ...rules(''),
    ...byPath.flatMap((journal) => rules(`/${journal.path}`)),
    'Allow: /',
    '',
    `Sitemap: ${baseUrl}${DISCOVERY_PATHS.sitemap}`,
    ...byPath.map((journal) => `Sitemap: ${journal.baseUrl}${DISCOVERY_PATHS.sitemap}`),
    '',
  ].join('\n');
}

/**
 * The site's own sitemap when no journal answers at its root (decision 0057): a sitemap index of the
 * sitemaps of the journals it serves by path (those on domains of their own are on other hosts).
 */
export function sitemapIndexXml(sitemaps: { url: string; lastmod?: Date | null }[]): string {
  return renderXml(
    el(
      'sitemapindex',
      { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' },
      sitemaps.map((s) =>
        el('sitemap', null, el('loc', null, s.url), s.lastmod ? el('lastmod', null, w3c(s.lastmod)) : null),
      ),
    ),
  );
}
