import { z } from 'zod';
import { wholeNumber } from '../../common/schemas.ts';
import { SEARCH_LIMITS, SEARCH_MESSAGES } from '../../common/search.ts';

/** An empty form field (`volume=` from "All volumes") means "no filter". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const number = (message: string, min: number, max: number) =>
  z.preprocess(
    blankToUndefined,
    wholeNumber({ required: message, invalid: message })
      .pipe(z.number().min(min, message).max(max, message))
      .optional(),
  );

/**
 * `GET /api/search` and the /search page read the same query. `q` is trimmed; what is inside is never
 * an error (websearch syntax: "phrases", -not, OR; anything else is read as words), except its length.
 */
export const searchQuerySchema = z.object({
  q: z
    .string(SEARCH_MESSAGES.badText)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, SEARCH_MESSAGES.emptyQuery)
        .max(SEARCH_LIMITS.maxQueryLength, SEARCH_MESSAGES.queryTooLong),
    )
    .meta({
      description: `Words to find (websearch syntax: "a phrase", -excluded, this OR that); 1 to ${SEARCH_LIMITS.maxQueryLength} characters`,
    }),
  volume: number(SEARCH_MESSAGES.badVolume, 1, 999_999_999).meta({ description: 'Volume number' }),
  year: number(SEARCH_MESSAGES.badYear, 1000, 9999).meta({ description: 'Year of publication' }),
  type: z
    .preprocess(
      blankToUndefined,
      z.string(SEARCH_MESSAGES.badType).trim().max(100, SEARCH_MESSAGES.badType).optional(),
    )
    .meta({ description: 'Article type, e.g. "Research Article"' }),
  page: number(SEARCH_MESSAGES.badPage, 1, SEARCH_LIMITS.maxPage).meta({ description: 'Page, from 1' }),
  size: number(SEARCH_MESSAGES.badSize, 1, SEARCH_LIMITS.maxPageSize).meta({
    description: `Results per page (default ${SEARCH_LIMITS.defaultPageSize})`,
  }),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** A piece of highlighted text: plain text, and whether it matched the search. Never HTML. */
const segments = z.array(z.object({ text: z.string(), match: z.boolean() }));

export const searchResultSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  title_highlighted: segments,
  authors: z.array(z.string()),
  article_type: z.string(),
  volume_number: z.number().int(),
  issue_number: z.number().int(),
  year: z.number().int(),
  publication_date: z.string(),
  doi: z.string().nullable(),
  url: z.string(),
  snippet: segments,
  snippet_source: z.enum(['abstract', 'full_text']),
  rank: z.number(),
});

export const searchResponseSchema = z.object({
  query: z.string(),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  pages: z.number().int(),
  results: z.array(searchResultSchema),
  hint: z
    .string()
    .nullable()
    .meta({ description: 'Why nothing was found, when the search could not match anything' }),
});
export type SearchResponse = z.output<typeof searchResponseSchema>;
export type SearchResult = z.output<typeof searchResultSchema>;
export type Segment = SearchResult['snippet'][number];

/**
 * `GET /api/site/search` (decision 0057): the same query over every journal of the site, and `journal` to
 * keep to one of them (a volume number is then that journal's).
 */
const BAD_JOURNAL = 'Journal must be the id of one of the site’s journals: a whole number of 1 or more.';

export const siteSearchQuerySchema = searchQuerySchema.extend({
  journal: number(BAD_JOURNAL, 1, 2_147_483_647).meta({
    description: 'Only this journal’s articles (its id)',
  }),
});
export type SiteSearchQuery = z.output<typeof siteSearchQuerySchema>;

/** A result of the site-wide search names its journal; `url` is the article at the journal's address. */
export const siteSearchResultSchema = searchResultSchema.extend({
  journal: z.object({
    id: z.number().int(),
    title: z.string(),
    url: z.string().meta({ description: 'The journal’s address' }),
  }),
});

export const siteSearchResponseSchema = searchResponseSchema.extend({
  results: z.array(siteSearchResultSchema),
});
export type SiteSearchResponse = z.output<typeof siteSearchResponseSchema>;
export type SiteSearchResult = z.output<typeof siteSearchResultSchema>;
