import { AsyncLocalStorage } from 'node:async_hooks';
import { currentJournalId } from '../db/scope.ts';

/**
 * What a cached answer was made from (decision 0018). While a page or a public API answer is rendered for
 * the cache, the services it reads name what they read (`dependsOn`): the answer is then dropped exactly
 * when one of those names changes (`ResponseCache.invalidate`). A read that can go stale with time alone
 * (a deadline passing) says until when it holds (`validUntil`).
 *
 * The names:
 * - `site`: the journal's settings and its own pages (every page shows the journal's name);
 * - `catalog`: any list of articles (home, feeds, search, the JSON tree);
 * - `catalog-index`: the volumes and issues, with how many articles each holds (/volumes, its issue pages);
 * - `content:<key>`: one of the journal's own pages, the editorial board, the special issues;
 * - `article:<id>`, `issue:<id>`, `volume:<id>`: one article, issue or volume as shown on its own page;
 * - `issue-articles:<id>`: the articles of one issue (its table of contents);
 * - `reviews`: review assignments (the header's count of a signed-in reader's open reviews).
 */
export class Dependencies {
  readonly tags = new Set<string>();
  /** Epoch milliseconds after which the answer must be made again; Infinity when time alone changes nothing. */
  validUntil = Number.POSITIVE_INFINITY;
}

const current = new AsyncLocalStorage<Dependencies>();

/** Names that are the site's, not one journal's: never qualified. */
const SITE_WIDE = new Set(['journals']);

/**
 * A name as one journal's (decision 0053): `j3:article:7` is what journal 3's pages show of its article 7, so
 * a change in one journal drops none of another's answers. Named in the site's scope (a chore over every
 * journal), it is `*:article:7`: whichever journal's it is (server/services.ts expands it).
 */
export function qualifyTag(tag: string): string {
  if (SITE_WIDE.has(tag)) return tag;
  const journal = currentJournalId();
  return journal === null ? `*:${tag}` : `j${journal}:${tag}`;
}

/** The journal a qualified name belongs to ('*' for any; null for a site-wide name), and the name itself. */
export function splitTag(tag: string): { journal: number | '*' | null; name: string } {
  const colon = tag.indexOf(':');
  if (colon > 0 && tag[0] === 'j' && /^j\d+$/.test(tag.slice(0, colon)))
    return { journal: Number(tag.slice(1, colon)), name: tag.slice(colon + 1) };
  if (tag.startsWith('*:')) return { journal: '*', name: tag.slice(2) };
  return { journal: null, name: tag };
}

/** Runs `render` while recording what it reads. */
export function collectDependencies<T>(deps: Dependencies, render: () => Promise<T>): Promise<T> {
  return current.run(deps, render);
}

/** Says that the answer being rendered (if any is) shows these. Outside a cached render it does nothing. */
export function dependsOn(...tags: string[]): void {
  const deps = current.getStore();
  if (deps) for (const tag of tags) deps.tags.add(qualifyTag(tag));
}

/** Says that the answer being rendered holds only until `at` (e.g. a call for papers' deadline). */
export function validUntil(at: Date | number): void {
  const deps = current.getStore();
  const ms = typeof at === 'number' ? at : at.getTime();
  if (deps && ms < deps.validUntil) deps.validUntil = ms;
}

export const articleTag = (id: number) => `article:${id}`;
export const issueTag = (id: number) => `issue:${id}`;
/** The list of an issue's articles (its table of contents), apart from the issue's own title and number. */
export const issueArticlesTag = (id: number) => `issue-articles:${id}`;
export const volumeTag = (id: number) => `volume:${id}`;
export const CATALOG = 'catalog';
export const CATALOG_INDEX = 'catalog-index';
export const SITE = 'site';
/** The site's journals and their addresses (server/journals/). */
export const JOURNALS = 'journals';
export const REVIEWS = 'reviews';
export const contentTag = (key: string) => `content:${key}`;
