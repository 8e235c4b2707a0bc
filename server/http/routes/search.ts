import { messageResponse } from '../../../common/api.ts';
import { SEARCH_LIMITS } from '../../../common/search.ts';
import { searchQuerySchema, searchResponseSchema } from '../../search/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

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
}
