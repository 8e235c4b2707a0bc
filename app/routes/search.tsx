import { data, Form, Link } from 'react-router';
import { SEARCH_LIMITS, SEARCH_MESSAGES } from '../../common/search.ts';
import { validate } from '../../common/validate.ts';
import { searchQuerySchema } from '../../server/search/schemas.ts';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { SearchResult, searchHitOf } from '../components/SearchResult.tsx';
import { SearchWords } from '../components/SearchWords.tsx';
import { SiteSearch } from '../components/SiteSearch.tsx';
import { publicPage } from '../lib/cache.ts';
import { pageTitle } from '../lib/meta.ts';
import { readerLinks } from '../lib/reader-page.ts';
import { siteSearch } from '../lib/site-search.server.ts';
import searchCss from '../styles/search.css?url';
import type { Route } from './+types/search';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = () => [...readerLinks(), { rel: 'stylesheet', href: searchCss }];

const FIELDS = ['q', 'volume', 'year', 'type', 'page'] as const;

/**
 * /search?q=&volume=&year=&type=&page=: the GET form and one page of results. Without `q` it shows the
 * form and a few tips; an invalid query or filter shows the form again with the message (status 400).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { search } = context.services;
  const url = new URL(request.url);
  // On the site's own host, every journal's articles (decision 0057).
  if (!context.journal) return siteSearch(context, url);
  const form = Object.fromEntries(FIELDS.map((k) => [k, url.searchParams.get(k) ?? ''])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  const options = await search.filterOptions();
  // A filter value from the address that no published article has still shows as chosen.
  if (/^\d{1,9}$/.test(form.volume) && !options.volumes.some((v) => v.number === Number(form.volume))) {
    options.volumes.push({ number: Number(form.volume), year: null });
  }
  if (/^\d{4}$/.test(form.year) && !options.years.includes(Number(form.year)))
    options.years.push(Number(form.year));
  if (form.type.trim() && !options.types.includes(form.type)) options.types.push(form.type);
  const base = { kind: 'journal' as const, form, options, search: url.search };
  if (!url.searchParams.has('q')) return { ...base, state: 'idle' as const };

  const parsed = validate(searchQuerySchema, { ...form, size: String(SEARCH_LIMITS.defaultPageSize) });
  if (!parsed.success) {
    return data(
      { ...base, state: 'invalid' as const, message: parsed.message, errors: parsed.errors },
      { status: 400 },
    );
  }
  const found = await search.search(parsed.data);
  return {
    ...base,
    state: 'results' as const,
    query: found.query,
    total: found.total,
    page: found.page,
    size: found.size,
    hint: found.hint,
    hits: found.results.map(searchHitOf),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const q = loaderData?.state === 'results' ? loaderData.query : '';
  return [
    { title: pageTitle(matches, q ? `Search: ${q}` : 'Search') },
    {
      name: 'description',
      content: 'Search the titles, authors, keywords, abstracts and full texts of the published articles.',
    },
    // Result pages are for readers; crawlers have the sitemap.
    { name: 'robots', content: 'noindex, follow' },
  ];
};

const plural = (n: number, word: string) => `${n.toLocaleString('en-GB')} ${word}${n === 1 ? '' : 's'}`;

export default function Search({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'site') return <SiteSearch data={loaderData} />;
  const { form, options, state } = loaderData;
  const errors = state === 'invalid' ? loaderData.errors : {};
  const hasFilters = Boolean(form.volume || form.year || form.type);
  const described = (field: string) => (errors[field] ? `search-${field}-error` : undefined);
  const clearFilters = `/search?${new URLSearchParams({ q: form.q })}`;

  return (
    <JournalPageLayout title="Search" className="search-page">
      <Form method="get" action="/search" className="search-form" aria-label="Search the articles">
        <SearchWords q={form.q} error={errors.q} />
        <fieldset className="search-form__filters">
          <legend>Filters</legend>
          <div className="search-form__filter">
            <label htmlFor="search-volume">Volume</label>
            <select
              id="search-volume"
              name="volume"
              defaultValue={form.volume}
              key={`v${form.volume}`}
              aria-describedby={described('volume')}
            >
              <option value="">All volumes</option>
              {options.volumes.map((v) => (
                <option key={v.number} value={v.number}>
                  Volume {v.number}
                  {v.year === null ? '' : ` (${v.year})`}
                </option>
              ))}
            </select>
          </div>
          <div className="search-form__filter">
            <label htmlFor="search-year">Year</label>
            <select
              id="search-year"
              name="year"
              defaultValue={form.year}
              key={`y${form.year}`}
              aria-describedby={described('year')}
            >
              <option value="">All years</option>
              {options.years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </div>
          <div className="search-form__filter">
            <label htmlFor="search-type">Article type</label>
            <select
              id="search-type"
              name="type"
              defaultValue={form.type}
              key={`t${form.type}`}
              aria-describedby={described('type')}
            >
              <option value="">All types</option>
              {options.types.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          {(['volume', 'year', 'type', 'page'] as const).map((f) =>
            errors[f] ? (
              <p className="field-error search-form__filter-error" id={`search-${f}-error`} key={f}>
                {errors[f]}
              </p>
            ) : null,
          )}
        </fieldset>
      </Form>

      {state === 'invalid' ? (
        <div role="alert" className="alert alert--error search-alert">
          <p className="alert__message">{loaderData.message}</p>
        </div>
      ) : null}

      {state === 'results' ? (
        <section className="search-results" aria-labelledby="search-results-title">
          <h2 id="search-results-title" aria-live="polite">
            {loaderData.total
              ? `${plural(loaderData.total, 'article')} found for “${loaderData.query}”`
              : `Nothing found for “${loaderData.query}”`}
          </h2>
          {loaderData.total ? (
            <>
              <p className="search-results__range muted">
                {loaderData.hits.length
                  ? `Showing ${(loaderData.page - 1) * loaderData.size + 1}–${(loaderData.page - 1) * loaderData.size + loaderData.hits.length}, best match first.`
                  : 'There are no more results: this page is past the last one.'}
                {hasFilters ? (
                  <>
                    {' '}
                    <Link to={clearFilters}>Clear the filters</Link>
                  </>
                ) : null}
              </p>
              <ol className="search-results__list">
                {loaderData.hits.map((hit) => (
                  <li key={hit.id}>
                    <SearchResult hit={hit} />
                  </li>
                ))}
              </ol>
              <Pagination
                page={loaderData.page}
                total={loaderData.total}
                size={loaderData.size}
                search={loaderData.search}
                label="Result pages"
              />
            </>
          ) : (
            <div className="search-empty">
              <p>{loaderData.hint ?? SEARCH_MESSAGES.noResults}</p>
              {hasFilters ? (
                <p>
                  <Link to={clearFilters}>Search all articles for “{loaderData.query}”</Link>
                </p>
              ) : null}
              <p>
                Or <Link to="/volumes">browse the volumes and issues</Link>.
              </p>
            </div>
          )}
        </section>
      ) : null}

      {state === 'idle' ? (
        <p className="search-idle">
          Enter words above, or <Link to="/volumes">browse the volumes and issues</Link>.
        </p>
      ) : null}
    </JournalPageLayout>
  );
}
