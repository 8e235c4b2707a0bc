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

/** The site admin's orders on a journal's state (decision 0055): each sets one of JOURNAL_STATUSES. */
export const JOURNAL_STATUS_ACTIONS = { close: 'closed', archive: 'archived', reopen: 'open' } as const;
export type JournalStatusAction = keyof typeof JOURNAL_STATUS_ACTIONS;

export const journalTitle = z
  .string('The journal title is required.')
  .trim()
  .min(1, 'The journal title is required.')
  .max(200, 'The journal title must be at most 200 characters.');

/** Blank (a form's empty field) is absent. */
export const blankless = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const ONE_ADDRESS = 'Give the journal a path or a domain, not both.';

/**
 * A new journal (the site admin's short form, the API and `journal create`): its title, where it answers (a
 * path on the site or a domain of its own: one of them), and its first editor, an existing account named by
 * username or e-mail.
 */
export const createJournalSchema = z
  .object({
    title: journalTitle,
    path: blankless(journalPathSchema),
    domain: blankless(journalDomainSchema),
    editor: z
      .string('Name the first editor: an account’s username or e-mail.')
      .trim()
      .min(1, 'Name the first editor: an account’s username or e-mail.')
      .max(254, 'The first editor must be at most 254 characters.'),
  })
  .superRefine((v, ctx) => {
    if (v.path === undefined && v.domain === undefined)
      ctx.addIssue({ code: 'custom', path: ['path'], message: ONE_ADDRESS });
    else if (v.path !== undefined && v.domain !== undefined)
      ctx.addIssue({ code: 'custom', path: ['domain'], message: ONE_ADDRESS });
  });
export type CreateJournalInput = z.input<typeof createJournalSchema>;

/** A journal's new address: a path on the site or a domain of its own (the old one stays as a 301). */
export const moveJournalSchema = z
  .object({ path: blankless(journalPathSchema), domain: blankless(journalDomainSchema) })
  .superRefine((v, ctx) => {
    if ((v.path === undefined) === (v.domain === undefined))
      ctx.addIssue({ code: 'custom', path: ['path'], message: ONE_ADDRESS });
  });

export const journalStatusSchema = z.object({
  status: z.enum(JOURNAL_STATUSES, 'The status is open, closed or archived.'),
});

/** A journal as the site admin's list shows it. */
export const journalSummaryResponse = z.object({
  id: z.number(),
  title: z.string(),
  path: z.string().nullable(),
  domain: z.string().nullable(),
  /** Where it answers now. */
  url: z.string(),
  status: z.enum(JOURNAL_STATUSES),
  /** Its old addresses, answered with a 301 (`/old-path` or `old.example.org`). */
  aliases: z.array(z.string()),
  articles: z.number(),
  submissions: z.number(),
  createdAt: z.string(),
});
export type JournalSummary = z.infer<typeof journalSummaryResponse>;
