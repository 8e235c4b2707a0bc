import { messageResponse } from '../../../common/api.ts';
import { SEARCH_LIMITS } from '../../../common/search.ts';
import { asSite } from '../../db/scope.ts';
import {
  searchQuerySchema,
  searchResponseSchema,
  siteSearchQuerySchema,
  siteSearchResponseSchema,
} from '../../search/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

/** The site-wide search's address (decision 0057): under the API, on every host of the site. */
export const SITE_SEARCH_API = '/api/site/search';

export function searchRoutes(api: Api, services: Services) {
  api.route({
    method: 'GET',
    path: '/api/search',
    tag: 'Articles',
    summary: 'Full-text search of the published articles',
    description:
      `Searches titles, keywords, authors, abstracts and the articles' full text (from their PDFs), best match first: ` +
      'a match in the title, keywords, authors or abstract always ranks above one found only in the full text. ' +
      'The query uses web-search syntax: words (all must appear, in any form: "network" finds "networks"), ' +
      '"a quoted phrase", -excluded, this OR that; other punctuation is ignored. ' +
      `Filters: volume number, year of publication, article type. At most ${SEARCH_LIMITS.maxQueryLength} characters; ` +
      `${SEARCH_LIMITS.defaultPageSize} results a page by default, ${SEARCH_LIMITS.maxPageSize} at most. ` +
      'Highlights come as segments of plain text ({ text, match }), never as HTML. When nothing can match ' +
      '(only common words such as "the"), `hint` says why.',
    auth: 'none',
    cache: 'public',
    query: searchQuerySchema,
    responses: {
      200: { description: 'One page of results', schema: searchResponseSchema },
      400: {
        description: 'Empty or too long a query, or an invalid filter or page',
        schema: messageResponse,
      },
    },
    handler: ({ query }) => services.search.search(query),
  });

  api.route({
    method: 'GET',
    path: SITE_SEARCH_API,
    tag: 'Articles',
    summary: 'Full-text search of the published articles of every journal of the site',
    description:
      'The same search as `/api/search`, over every journal the site hosts (it answers the same at any of ' +
      'their addresses). Each result names its journal (`journal`: id, title, address) and links to the ' +
      'article at that journal’s address; `journal` keeps to one journal (a volume number is then its own).',
    auth: 'none',
    cache: 'public',
    query: siteSearchQuerySchema,
    responses: {
      200: { description: 'One page of results', schema: siteSearchResponseSchema },
      400: {
        description: 'Empty or too long a query, or an invalid filter or page',
        schema: messageResponse,
      },
    },
    handler: ({ query }) => asSite(() => services.search.searchSite(query, services.journals)),
  });
}
