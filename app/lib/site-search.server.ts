import { data, type AppLoadContext } from 'react-router';
import { SEARCH_LIMITS } from '../../common/search.ts';
import { validate } from '../../common/validate.ts';
import { asSite } from '../../server/db/scope.ts';
import { siteSearchQuerySchema } from '../../server/search/schemas.ts';
import { type SearchHit, searchHitOf } from '../components/SearchResult.tsx';

const FIELDS = ['q', 'journal', 'year', 'type', 'page'] as const;

/** A result of the site's search: where it was published names its journal, and its link is there. */
export interface SiteSearchHit extends SearchHit {
  href: string;
  journal: { title: string; href: string };
}

/**
 * `/search` on the site's own host (no journal at its root: decision 0057): the same search over every
 * journal's published articles (`searchSite`, in the site's scope), with a journal to keep to instead of a
 * volume. Each result links to the article at its journal's address. Without `q`, the form; a wrong query or
 * filter, the form again with the message (status 400).
 */
export async function siteSearch(context: AppLoadContext, url: URL) {
  const { search, journals } = context.services;
  const form = Object.fromEntries(FIELDS.map((k) => [k, url.searchParams.get(k) ?? ''])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  const options = {
    journals: journals
      .list()
      .map((j) => ({ id: j.id, title: j.title }))
      .sort((a, b) => a.title.localeCompare(b.title)),
  };
  const base = { kind: 'site' as const, form, options, search: url.search };
  if (!url.searchParams.has('q')) return { ...base, state: 'idle' as const };
  const parsed = validate(siteSearchQuerySchema, { ...form, size: String(SEARCH_LIMITS.defaultPageSize) });
  if (!parsed.success) {
    return data(
      { ...base, state: 'invalid' as const, message: parsed.message, errors: parsed.errors },
      { status: 400 },
    );
  }
  const found = await asSite(() => search.searchSite(parsed.data, journals));
  return {
    ...base,
    state: 'results' as const,
    query: found.query,
    total: found.total,
    page: found.page,
    size: found.size,
    hint: found.hint,
    hits: found.results.map(
      (r): SiteSearchHit => ({
        ...searchHitOf(r),
        href: r.url,
        journal: { title: r.journal.title, href: `${r.journal.url}/` },
      }),
    ),
  };
}
