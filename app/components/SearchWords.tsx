import { SEARCH_LIMITS } from '../../common/search.ts';

/**
 * The search form's words field with its tips, the same on a journal's search page and the site's: the query
 * as typed, its refusal beside it.
 */
export function SearchWords({ q, error }: { q: string; error?: string }) {
  return (
    <div className="search-form__main">
      <label htmlFor="search-q">Words to find</label>
      <div className="search-form__row">
        <input
          id="search-q"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={SEARCH_LIMITS.maxQueryLength}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? 'search-q-error' : undefined, 'search-tips'].filter(Boolean).join(' ')}
          enterKeyHint="search"
        />
        <button type="submit" className="button">
          Search
        </button>
      </div>
      {error ? (
        <p className="field-error" id="search-q-error">
          {error}
        </p>
      ) : null}
      <p className="search-form__tips" id="search-tips">
        Searches titles, authors, keywords, abstracts and full texts. Use "quotes" for a phrase, a minus sign
        to leave a word out (-survey), OR for either word.
      </p>
    </div>
  );
}
