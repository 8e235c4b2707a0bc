import { Form, Link } from 'react-router';
import { SEARCH_MESSAGES } from '../../common/search.ts';
import type { SiteSearchHit } from '../lib/site-search.server.ts';
import { Pagination } from './dashboard/Pagination.tsx';
import { SearchResult } from './SearchResult.tsx';
import { SearchWords } from './SearchWords.tsx';

type SiteSearchData = {
  form: Record<'q' | 'journal' | 'year' | 'type' | 'page', string>;
  options: { journals: { id: number; title: string }[] };
  search: string;
} & (
  | { state: 'idle' }
  | { state: 'invalid'; message: string; errors: Record<string, string> }
  | {
      state: 'results';
      query: string;
      total: number;
      page: number;
      size: number;
      hint: string | null;
      hits: SiteSearchHit[];
    }
);

const plural = (n: number, word: string) => `${n.toLocaleString('en-GB')} ${word}${n === 1 ? '' : 's'}`;

/**
 * The site's search (decision 0057), on the site's own host: every journal's published articles, or one
 * journal's; each result names its journal and links to the article at the journal's address.
 */
export function SiteSearch({ data }: { data: SiteSearchData }) {
  const { form, options, state } = data;
  const errors = state === 'invalid' ? data.errors : {};
  const described = (field: string) => (errors[field] ? `search-${field}-error` : undefined);
  const everywhere = `/search?${new URLSearchParams({ q: form.q })}`;
  return (
    <div className="page search-page">
      <header className="journal-page__header">
        <h1 className="journal-page__title">Search every journal</h1>
        <p className="journal-page__lead">The published articles of all the site’s journals, or of one.</p>
      </header>
      <Form method="get" action="/search" className="search-form" aria-label="Search the journals’ articles">
        <SearchWords q={form.q} error={errors.q} />
        <fieldset className="search-form__filters">
          <legend>Filters</legend>
          <div className="search-form__filter">
            <label htmlFor="search-journal">Journal</label>
            <select
              id="search-journal"
              name="journal"
              defaultValue={form.journal}
              key={`j${form.journal}`}
              aria-describedby={described('journal')}
            >
              <option value="">All journals</option>
              {options.journals.map((j) => (
                <option key={j.id} value={j.id}>
                  {j.title}
                </option>
              ))}
            </select>
          </div>
          {(['journal', 'year', 'type', 'page'] as const).map((f) =>
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
          <p className="alert__message">{data.message}</p>
        </div>
      ) : null}

      {state === 'results' ? (
        <section className="search-results" aria-labelledby="search-results-title">
          <h2 id="search-results-title" aria-live="polite">
            {data.total
              ? `${plural(data.total, 'article')} found for “${data.query}”`
              : `Nothing found for “${data.query}”`}
          </h2>
          {data.total ? (
            <>
              <p className="search-results__range muted">
                {data.hits.length
                  ? `Showing ${(data.page - 1) * data.size + 1}–${(data.page - 1) * data.size + data.hits.length}, best match first.`
                  : 'There are no more results: this page is past the last one.'}
                {form.journal ? (
                  <>
                    {' '}
                    <Link to={everywhere}>Search every journal</Link>
                  </>
                ) : null}
              </p>
              <ol className="search-results__list">
                {data.hits.map((hit) => (
                  <li key={hit.id}>
                    <SearchResult hit={hit} site={{ href: hit.href, journal: hit.journal }} />
                  </li>
                ))}
              </ol>
              <Pagination
                page={data.page}
                total={data.total}
                size={data.size}
                search={data.search}
                label="Result pages"
              />
            </>
          ) : (
            <div className="search-empty">
              <p>{data.hint ?? SEARCH_MESSAGES.noResults}</p>
              {form.journal ? (
                <p>
                  <Link to={everywhere}>Search every journal for “{data.query}”</Link>
                </p>
              ) : null}
              <p>
                Or <Link to="/">see the journals</Link>.
              </p>
            </div>
          )}
        </section>
      ) : null}

      {state === 'idle' ? (
        <p className="search-idle">
          Enter words above, or <Link to="/">see the journals</Link>.
        </p>
      ) : null}
    </div>
  );
}
