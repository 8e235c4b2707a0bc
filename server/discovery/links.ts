/**
 * The addresses of the discovery documents, in one place: routes register these paths, and pages link them
 * from `<head>` (`<link rel="alternate" type=… title=… href=…>`). Pure: safe to import from page code.
 */

export const FEED_PATHS = {
  rss: '/feed.rss',
  atom: '/feed.atom',
  issueRss: (volume: number, issue: number) => `/volumes/${volume}/issues/${issue}/feed.rss`,
  issueAtom: (volume: number, issue: number) => `/volumes/${volume}/issues/${issue}/feed.atom`,
} as const;

export const DISCOVERY_PATHS = {
  oai: '/oai',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
} as const;

/**
 * The site's own discovery addresses, on its host whatever journals it serves (decision 0057): `site` is
 * one of the paths no journal may take (common/journals.ts).
 */
export const SITE_DISCOVERY_PATHS = {
  oai: '/site/oai',
} as const;

export const FEED_TYPES = { rss: 'application/rss+xml', atom: 'application/atom+xml' } as const;

export interface FeedLink {
  rel: 'alternate';
  type: (typeof FEED_TYPES)[keyof typeof FEED_TYPES];
  title: string;
  href: string;
}

/**
 * The feeds a page should announce: the journal's latest articles on every page, and, on an issue's
 * listing (`/volumes?volume=V&issue=I`), that issue's own feeds as well. `baseUrl` (the site's public
 * address, `services.journalUrl()`: the journal's) makes the addresses absolute; pass '' for root-relative ones.
 */
export function feedLinks(
  baseUrl: string,
  opts: { journalName?: string; issue?: { volume: number; issue: number } } = {},
): FeedLink[] {
  const base = baseUrl.replace(/\/+$/, '');
  const name = opts.journalName ? `${opts.journalName}: ` : '';
  const links: FeedLink[] = [
    {
      rel: 'alternate',
      type: FEED_TYPES.rss,
      title: `${name}latest articles (RSS)`,
      href: base + FEED_PATHS.rss,
    },
    {
      rel: 'alternate',
      type: FEED_TYPES.atom,
      title: `${name}latest articles (Atom)`,
      href: base + FEED_PATHS.atom,
    },
  ];
  if (opts.issue) {
    const { volume, issue } = opts.issue;
    const label = `Volume ${volume}, Issue ${issue}`;
    links.push(
      {
        rel: 'alternate',
        type: FEED_TYPES.rss,
        title: `${name}${label} (RSS)`,
        href: base + FEED_PATHS.issueRss(volume, issue),
      },
      {
        rel: 'alternate',
        type: FEED_TYPES.atom,
        title: `${name}${label} (Atom)`,
        href: base + FEED_PATHS.issueAtom(volume, issue),
      },
    );
  }
  return links;
}
