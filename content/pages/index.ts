import { readFileSync } from 'node:fs';
import { PAGE_SLUGS, type PageSlug } from '../../common/content.ts';

/**
 * The journal pages' Markdown as first seeded (settings keys `content.page.<slug>`). After the first run
 * each page lives in the database and the editorial office edits it there; changing a file here later
 * changes nothing for a journal that already runs. Placeholders such as `{{journal.name}}` are filled
 * from the journal settings when a page is shown (server/content/markdown.ts lists them).
 */
export function defaultPages(): Record<PageSlug, string> {
  return Object.fromEntries(
    PAGE_SLUGS.map((slug) => [slug, readFileSync(new URL(`./${slug}.md`, import.meta.url), 'utf8')]),
  ) as Record<PageSlug, string>;
}
