import type { JournalSettings } from '../../common/journal.ts';
import type { Work } from './works.ts';
import { el, renderXml, textEl } from './xml.ts';

/**
 * RSS 2.0 and Atom (RFC 4287) feeds of articles, newest first. The documents depend only on the articles
 * and the journal (the feed's date is the newest change, not the time of the request), so the same
 * catalogue always gives the same bytes and the route can answer conditional requests with 304.
 */

type JournalFacts = Pick<JournalSettings, 'name' | 'description' | 'language' | 'publisher' | 'license'>;

export interface FeedSpec {
  /** The feed's own title, e.g. "Colophon Journal: Volume 1, Issue 2". */
  title: string;
  description: string;
  /** The page the feed stands for (home, or the listing). */
  pageUrl: string;
  /** The feed's own address. */
  selfUrl: string;
  works: Work[];
  /** The newest change among what the feed shows (its Last-Modified). */
  updated: Date;
}

/** Midnight UTC of a YYYY-MM-DD publication date. */
const publishedAt = (w: Work) => new Date(`${w.publicationDate}T00:00:00Z`);

export function rssFeed(journal: JournalFacts, feed: FeedSpec): string {
  return renderXml(
    el(
      'rss',
      {
        version: '2.0',
        'xmlns:atom': 'http://www.w3.org/2005/Atom',
        'xmlns:dc': 'http://purl.org/dc/elements/1.1/',
      },
      el(
        'channel',
        null,
        el('title', null, feed.title),
        el('link', null, feed.pageUrl),
        el('description', null, feed.description),
        el('language', null, journal.language),
        el('copyright', null, `Articles: ${journal.license.name} (${journal.license.url})`),
        el('lastBuildDate', null, feed.updated.toUTCString()),
        el('atom:link', { href: feed.selfUrl, rel: 'self', type: 'application/rss+xml' }),
        feed.works.map((w) =>
          el(
            'item',
            null,
            el('title', null, w.title),
            el('link', null, w.url),
            el('guid', { isPermaLink: 'true' }, w.url),
            textEl('description', w.abstract),
            el('pubDate', null, publishedAt(w).toUTCString()),
            w.authors.map((a) => el('dc:creator', null, a.name)),
            w.keywords.map((k) => el('category', null, k)),
            w.doi ? el('dc:identifier', null, `doi:${w.doi}`) : null,
          ),
        ),
      ),
    ),
  );
}

export function atomFeed(journal: JournalFacts, feed: FeedSpec): string {
  return renderXml(
    el(
      'feed',
      { xmlns: 'http://www.w3.org/2005/Atom', 'xml:lang': journal.language },
      el('id', null, feed.selfUrl),
      el('title', null, feed.title),
      el('subtitle', null, feed.description),
      el('updated', null, feed.updated.toISOString()),
      el('link', { rel: 'self', type: 'application/atom+xml', href: feed.selfUrl }),
      el('link', { rel: 'alternate', type: 'text/html', href: feed.pageUrl }),
      // Atom wants an author for every entry: the feed's stands in for entries without one.
      el('author', null, el('name', null, journal.publisher)),
      el('rights', null, `Articles: ${journal.license.name} (${journal.license.url})`),
      feed.works.map((w) =>
        el(
          'entry',
          null,
          el('id', null, w.url),
          el('title', null, w.title),
          el('link', { rel: 'alternate', type: 'text/html', href: w.url }),
          w.pdfUrl ? el('link', { rel: 'related', type: 'application/pdf', href: w.pdfUrl }) : null,
          el('published', null, publishedAt(w).toISOString()),
          el('updated', null, w.updatedAt.toISOString()),
          w.authors.map((a) => el('author', null, el('name', null, a.name))),
          w.keywords.map((k) => el('category', { term: k })),
          textEl('summary', w.abstract, { type: 'text' }),
        ),
      ),
    ),
  );
}
