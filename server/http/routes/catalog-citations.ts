import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  CITATION_FILES,
  CITATION_STYLES,
  type CitationFileFormat,
  type CitationStyleId,
} from '../../../common/citation.ts';
import { attachmentDisposition } from '../../../common/filenames.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const FORMATS = [...Object.keys(CITATION_FILES), ...CITATION_STYLES.map((s) => s.id)] as [
  CitationFileFormat | CitationStyleId,
  ...(CitationFileFormat | CitationStyleId)[],
];

export const citationQuerySchema = z.object({
  format: z.enum(FORMATS, `Format must be one of: ${FORMATS.join(', ')}.`).default('bibtex'),
});

const isFile = (format: string): format is CitationFileFormat => format in CITATION_FILES;

const STYLE_IDS = CITATION_STYLES.map((s) => s.id) as [CitationStyleId, ...CitationStyleId[]];

export const citationStyleParamsSchema = idParamSchema.extend({
  style: z.enum(STYLE_IDS, `Style must be one of: ${STYLE_IDS.join(', ')}.`),
});

export const formattedCitationResponse = z.object({
  id: z.enum(STYLE_IDS),
  label: z.string().describe('The style\'s short name, e.g. "APA"'),
  edition: z.string().describe('The style guide and edition followed'),
  html: z.string().describe('The entry as HTML: text, <i>, <span> and <a href> only, escaped and sanitised'),
  text: z.string().describe('The same as plain text'),
});

/** An article's citation as a BibTeX or RIS file, or as text in one of the reference styles. */
export function citationRoutes(api: Api, services: Services) {
  const { catalog, settings, citations } = services;

  api.route({
    method: 'GET',
    path: '/api/articles/:id/citation',
    tag: 'Articles',
    summary:
      'Cite a published article: BibTeX or RIS file, or APA, MLA, Chicago, Harvard, IEEE, Vancouver text',
    description:
      '`bibtex` (application/x-bibtex) and `ris` (application/x-research-info-systems) come as attachments named after the journal, volume, issue and article; the styles as UTF-8 plain text.',
    auth: 'none',
    params: idParamSchema,
    query: citationQuerySchema,
    responses: {
      200: { description: 'The citation', binary: 'application/x-bibtex' },
      400: { description: 'Invalid id or format', schema: messageResponse },
      404: { description: 'No such published article', schema: messageResponse },
    },
    handler: async ({ params, query, reply }) => {
      const [article, journal] = await Promise.all([catalog.article(params.id), settings.journal()]);
      reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
      if (isFile(query.format)) {
        const file = citations.file(article, journal, query.format);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', attachmentDisposition(file.filename))
          .send(file.body);
      }
      const formatted = citations.format(article, journal, query.format);
      return reply.header('content-type', 'text/plain; charset=utf-8').send(`${formatted.text}\n`);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/articles/:id/citation/:style',
    tag: 'Articles',
    summary: "A published article's citation in one reference style, as HTML and plain text",
    description:
      'What the article page shows when a reader picks a style: the bibliography entry as sanitised HTML (italics and links) and as plain text (for copying). Public and cacheable, like the article.',
    auth: 'none',
    cache: 'public',
    params: citationStyleParamsSchema,
    responses: {
      200: { description: 'The formatted citation', schema: formattedCitationResponse },
      400: { description: 'Invalid id or style', schema: messageResponse },
      404: { description: 'No such published article', schema: messageResponse },
    },
    handler: async ({ params }) => {
      const [article, journal] = await Promise.all([catalog.article(params.id), settings.journal()]);
      return citations.format(article, journal, params.style);
    },
  });
}
