import { Form, useLocation } from 'react-router';

/**
 * The header's search box, on every page: a plain GET form to /search (it works without JavaScript).
 * On the search page it shows the current words.
 */
export function SearchBox() {
  const { pathname, search } = useLocation();
  const current = pathname === '/search' ? (new URLSearchParams(search).get('q') ?? '') : '';
  return (
    <Form method="get" action="/search" role="search" aria-label="Articles" className="header-search">
      <label htmlFor="header-search-q" className="visually-hidden">
        Search articles
      </label>
      <input
        key={current}
        id="header-search-q"
        type="search"
        name="q"
        defaultValue={current}
        placeholder="Search articles"
        maxLength={500}
        autoComplete="off"
        enterKeyHint="search"
        className="header-search__input"
      />
      <button type="submit" className="header-search__button">
        Search
      </button>
    </Form>
  );
}
