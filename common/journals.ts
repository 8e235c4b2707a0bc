import { z } from 'zod';

/**
 * The first parts of the addresses the site itself answers (every page of the spec, the API, assets, the
 * discovery files, and the site's own pages): a journal's path may not be one of them, or its pages would
 * hide the site's (decision 0053).
 */
export const RESERVED_PATHS = new Set([
  'about',
  'account',
  'admin',
  'apc',
  'api',
  'article',
  'articles',
  'assets',
  'author-template',
  'closed-special-issues',
  'contact',
  'copyright',
  'copyright-form.pdf',
  'download',
  'editor-dashboard',
  'editorial-board',
  'ethics',
  'favicon.ico',
  'feed.atom',
  'feed.rss',
  'forgot-password',
  'healthz',
  'home',
  'index.php',
  'indexing',
  'instructions',
  'journals',
  'login',
  'logout',
  'my-submissions',
  'oai',
  'open-special-issues',
  'overview',
  'plagiarism',
  'readyz',
  'regist',
  'reset-password',
  'reviews',
  'robots.txt',
  'search',
  'site',
  'sitemap.xml',
  'special-issues',
  'submission',
  'subscription',
  'unsubscribe',
  'volumes',
  'well-known',
  '.well-known',
]);

export const JOURNAL_PATH_RULE =
  'A journal path is 2 to 40 lower-case letters, digits and hyphens, starting with a letter.';

/** A journal's path on the site: `/{path}/volumes`. */
export const journalPathSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{1,39}$/, JOURNAL_PATH_RULE)
  .refine((path) => !RESERVED_PATHS.has(path), {
    message: 'That path is one of the site’s own addresses: choose another.',
  });

/** A journal's own host name (no scheme, no port, no path). */
export const journalDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, 'A domain is at most 253 characters.')
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/,
    'Enter a host name such as journal.example.org (no https://, no path).',
  );

export const JOURNAL_STATUSES = ['open', 'closed', 'archived'] as const;
export type JournalStatus = (typeof JOURNAL_STATUSES)[number];
