import { z } from 'zod';

/**
 * The journal's own words, as stored in the `settings` table and edited by the editorial office:
 *
 * - `content.page.<slug>`: one Markdown string per page. Its first line is the page's heading (`# About
 *   the journal`); the first paragraph after it is the page's description for search engines. Placeholders
 *   such as `{{journal.name}}` are filled from the journal settings when the page is shown.
 * - `content.editorial-board`: an array of board members.
 * - `content.special-issues`: an array of calls for papers.
 *
 * Seeded from `content/` on every start without overwriting edits (see server/content/seed.ts).
 */

export const PAGE_SLUGS = ['about', 'overview', 'indexing', 'instructions', 'apc', 'ethics', 'copyright'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

export const pageKey = (slug: PageSlug) => `content.page.${slug}`;
export const EDITORIAL_BOARD_KEY = 'content.editorial-board';
export const SPECIAL_ISSUES_KEY = 'content.special-issues';

/** Markdown that starts with a level-1 heading: the page's title. */
export const pageMarkdownSchema = z
  .string()
  .trim()
  .min(1, 'The page is empty.')
  .max(200_000, 'The page is too long.')
  .refine((md) => /^#\s+\S/.test(md), 'The page must start with its heading, e.g. "# About the journal".');

/** The board's sections, in the order the page shows them. */
export const BOARD_ROLES = [
  'editor-in-chief',
  'associate-editor-in-chief',
  'associate-editor',
  'board-member',
] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];

export const BOARD_ROLE_LABELS: Record<BoardRole, { one: string; many: string }> = {
  'editor-in-chief': { one: 'Editor-in-Chief', many: 'Editor-in-Chief' },
  'associate-editor-in-chief': { one: 'Associate Editor-in-Chief', many: 'Associate Editors-in-Chief' },
  'associate-editor': { one: 'Associate Editor', many: 'Associate Editors' },
  'board-member': { one: 'Editorial Board Member', many: 'Editorial Board Members' },
};

/** A required line of text, with messages an editor can act on. */
const line = (what: string, max: number) =>
  z
    .string(`${what} is required.`)
    .trim()
    .min(1, `${what} is required.`)
    .max(max, `${what} is at most ${max} characters.`);

export const boardMemberSchema = z.object({
  name: line('Name', 200),
  role: z.enum(BOARD_ROLES, 'Choose a section.'),
  affiliation: line('Affiliation', 400),
  country: line('Country', 100),
  researchAreas: z
    .array(line('Each research area', 200))
    .min(1, 'Give at least one research area.')
    .max(20, 'Give at most 20 research areas.'),
  email: z.email('Enter a valid e-mail address.'),
});
export type BoardMember = z.infer<typeof boardMemberSchema>;

export const editorialBoardSchema = z.array(boardMemberSchema);
export type EditorialBoard = z.infer<typeof editorialBoardSchema>;

/** A calendar date, `YYYY-MM-DD`, that exists. */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the form YYYY-MM-DD.')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'Not a calendar date.');

export const specialIssueSchema = z.object({
  /** Stable identifier, also the anchor on the special-issue pages. */
  id: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Lower-case letters, digits and hyphens.')
    .max(80, 'At most 80 characters.'),
  title: line('Title', 300),
  /** One or two sentences on the scope of the call. */
  summary: line('Summary', 1000),
  guestEditors: z
    .array(z.object({ name: line("A guest editor's name", 200), affiliation: line("A guest editor's affiliation", 400) }))
    .min(1, 'Name at least one guest editor.'),
  /** Submissions are accepted until the end of this day (UTC). */
  deadline: isoDate,
});
export type SpecialIssue = z.infer<typeof specialIssueSchema>;

export const specialIssuesSchema = z
  .array(specialIssueSchema)
  .refine((list) => new Set(list.map((s) => s.id)).size === list.length, 'Two special issues share an id.');

export type SpecialIssueStatus = 'Open' | 'Closed';
export type SpecialIssueWithStatus = SpecialIssue & { status: SpecialIssueStatus };

// Kept in a zod-free module so the pages that only show special issues don't ship zod to the browser.
export { formatDeadline } from './dates.ts';
