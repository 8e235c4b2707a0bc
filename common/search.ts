/** What search says to people (no Zod here: the search page's components import it into the browser). */
export const SEARCH_LIMITS = {
  /** Longest query, in characters (after trimming). */
  maxQueryLength: 500,
  defaultPageSize: 10,
  maxPageSize: 50,
  maxPage: 1000,
} as const;

export const SEARCH_MESSAGES = {
  emptyQuery: 'Enter one or more words to search for.',
  queryTooLong: `The search is too long: use at most ${SEARCH_LIMITS.maxQueryLength} characters.`,
  onlyCommonWords:
    'Your search has only very common words (such as "the" or "of") or no words at all. Add a more specific word.',
  noResults: 'No published article matches your search.',
  noResultsWithFilters: 'No published article matches your search with these filters. Try removing a filter.',
  badVolume: 'Volume must be a whole number of 1 or more.',
  badYear: 'Year must be a four-digit year.',
  badType: 'Article type must be at most 100 characters.',
  badPage: `Page must be a whole number from 1 to ${SEARCH_LIMITS.maxPage}.`,
  badSize: `Page size must be a whole number from 1 to ${SEARCH_LIMITS.maxPageSize}.`,
  badText: 'Search terms must be text.',
} as const;
