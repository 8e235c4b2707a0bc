import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import { attachmentDisposition } from '../../../common/filenames.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import { ARTICLE_WORD_RULE, fileLimit } from '../../../common/upload-rules.ts';
import { notFound } from '../../errors.ts';
import { altFields, doiFields, saveFixes, storeWordFile } from '../../fulltext/editing.ts';
import { fullTextResponse, presentFullText } from '../../fulltext/present.ts';
import { type FullTextOwner, figurePath, jatsPath } from '../../fulltext/service.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { readMultipart } from '../multipart.ts';

/** A figure's file name as the document names it. */
const FIGURE_NAME = /^figure-\d{1,4}\.(png|jpg)$/;

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'Not found', schema: messageResponse },
};

const uploadRefusals = {
  413: { description: 'The Word file is too large', schema: messageResponse },
  415: { description: 'Not a Word document (.docx)', schema: messageResponse },
  422: { description: 'Protected, damaged or not convertible', schema: messageResponse },
};

/** The editors' API: convert a Word file for a submission or an article, see the problems, give alt text. */
export function fullTextRoutes(api: Api, services: Services) {
  const owners = [
    {
      kind: 'submission',
      what: "the accepted submission's full text (its preview before publishing)",
      path: '/api/editor/submissions/:id/fulltext',
      owner: (id: number): FullTextOwner => ({ submissionId: id }),
      // A Word file sent here is the submission's.
      upload: (id: number): FullTextOwner => ({ submissionId: id }),
    },
    {
      kind: 'article',
      what: "the article's published full text (what readers see)",
      path: '/api/editor/articles/:id/fulltext',
      owner: (id: number): FullTextOwner => ({ articleId: id }),
      // A new Word file for a published article waits for its preview: the live full text stays (decision 0035).
      upload: (id: number): FullTextOwner => ({ pendingArticleId: id }),
    },
    {
      kind: 'pending',
      what: "the article's new full text, waiting for the editor to publish it in place of the live one",
      path: '/api/editor/articles/:id/fulltext/pending',
      owner: (id: number): FullTextOwner => ({ pendingArticleId: id }),
      upload: null,
    },
  ] as const;
  for (const { kind, what, path, owner, upload } of owners) {
    if (upload)
      api.route({
        method: 'POST',
        path,
        tag: 'Editorial',
        summary:
          kind === 'submission'
            ? "Convert the submission's final Word file (.docx) into its full text, for the preview (replacing any earlier one)"
            : "Convert a new Word file (.docx) for a published article: kept as its pending full text, the live one stays until POST …/fulltext/pending/publish",
        description:
          'The file is checked by its content and converted at once; a file that cannot be converted (not .docx, protected, damaged) is refused with the reason and nothing is kept. The answer lists what needs a person before publishing. Nothing is shown to readers.',
        auth: 'editorial',
        params: idParamSchema,
        multipart: [{ name: 'word', description: 'The Word file (.docx)', required: true }],
        responses: {
          201: { description: 'Converted', schema: messageResponse.extend({ fulltext: fullTextResponse }) },
          ...errors,
          409: { description: 'The submission is not accepted, or already published', schema: messageResponse },
          ...uploadRefusals,
        },
        handler: async ({ auth, params, request, reply }) => {
          const body = await readMultipart(request, {
            files: { word: fileLimit(ARTICLE_WORD_RULE, services.config.MAX_MANUSCRIPT_SIZE) },
          });
          const view = await storeWordFile(services, auth!.user, upload(params.id), body.files.word);
          reply.code(201);
          return {
            message:
              kind === 'submission'
                ? 'Word file converted.'
                : 'Word file converted. The published full text stays until you publish this one.',
            fulltext: presentFullText(view),
          };
        },
      });

    api.route({
      method: 'GET',
      path,
      tag: 'Editorial',
      summary: `${what[0].toUpperCase()}${what.slice(1)}: its figures, references and what needs a person`,
      auth: 'editorial',
      params: idParamSchema,
      responses: { 200: { description: 'The full text', schema: fullTextResponse }, ...errors },
      handler: async ({ params }) => {
        const view = await services.fulltext.of(owner(params.id));
        if (!view)
          throw notFound(kind === 'pending' ? 'This article has no new full text waiting.' : `This ${kind} has no full text yet.`);
        return presentFullText(view);
      },
    });

    api.route({
      method: 'PATCH',
      path: `${path}/alt`,
      tag: 'Editorial',
      summary: `Describe the figures of ${what} (alt text)`,
      description: 'A JSON object of figure numbers to alt text, e.g. {"alt-2": "Bar chart of …"}.',
      auth: 'editorial',
      params: idParamSchema,
      body: z.record(z.string().regex(/^alt-\d{1,4}$/, 'Fields are named alt-N.'), z.string().max(5000)),
      responses: {
        200: { description: 'Saved', schema: messageResponse.extend({ fulltext: fullTextResponse }) },
        ...errors,
      },
      handler: async ({ auth, params, body }) => {
        const o = owner(params.id);
        await services.fulltext.setAltText(auth!.user, o, altFields(body));
        const view = await services.fulltext.of(o);
        return { message: 'Alt text saved.', fulltext: presentFullText(view!) };
      },
    });

    api.route({
      method: 'PATCH',
      path: `${path}/references`,
      tag: 'Editorial',
      summary: `Give DOIs to references of ${what} that have none`,
      description:
        'A JSON object of reference numbers to DOIs, e.g. {"doi-3": "10.1234/abc.2025.001"} (a doi.org address is taken too); the reference then links to doi.org.',
      auth: 'editorial',
      params: idParamSchema,
      body: z.record(z.string().regex(/^doi-\d{1,4}$/, 'Fields are named doi-N.'), z.string().max(300)),
      responses: {
        200: { description: 'Saved', schema: messageResponse.extend({ fulltext: fullTextResponse }) },
        ...errors,
      },
      handler: async ({ auth, params, body }) => {
        const o = owner(params.id);
        await services.fulltext.setReferenceDois(auth!.user, o, doiFields(body));
        const view = await services.fulltext.of(o);
        return { message: 'DOIs saved.', fulltext: presentFullText(view!) };
      },
    });

    api.route({
      method: 'GET',
      path: `${path}/figures/:name`,
      tag: 'Editorial',
      summary: `A figure of ${what}, for the preview`,
      auth: 'editorial',
      params: idParamSchema.extend({ name: z.string().regex(FIGURE_NAME, 'No such figure.') }),
      responses: { 200: { description: 'The image', binary: 'image/png' }, ...errors },
      handler: async ({ params, reply }) => {
        const { file, stream } = await services.fulltext.figure(owner(params.id), params.name);
        reply
          .header('content-type', file.mediaType)
          .header('content-length', String(file.size))
          .header('cache-control', 'private, no-store');
        return reply.send(stream);
      },
    });
  }

  api.route({
    method: 'POST',
    path: '/api/editor/articles/:id/fulltext/pending/publish',
    tag: 'Editorial',
    summary: "Publish the article's new full text in place of the live one",
    description:
      'The new full text (from POST …/fulltext) replaces the one readers see, in one step. Refused while a figure has no alt text (one field error per figure, alt-N); fields alt-N and doi-N sent here are saved first.',
    auth: 'editorial',
    params: idParamSchema,
    body: z
      .record(z.string().regex(/^(alt|doi)-\d{1,4}$/, 'Fields are named alt-N or doi-N.'), z.string().max(5000))
      .optional(),
    responses: {
      200: { description: 'Published', schema: messageResponse.extend({ fulltext: fullTextResponse }) },
      ...errors,
    },
    handler: async ({ auth, params, body }) => {
      if (body) await saveFixes(services, auth!.user, { pendingArticleId: params.id }, body);
      const view = await services.fulltext.publishPending(auth!.user, params.id);
      return { message: 'The new full text is on the article page.', fulltext: presentFullText(view) };
    },
  });
}

/**
 * The readers' files beside the article page: its JATS XML and its figures, at stable addresses. Plain routes
 * (not the JSON API), registered before the pages.
 */
export function fullTextReaderRoutes(app: FastifyInstance, services: Services) {
  const id = (raw: string) => {
    const n = Number(raw);
    if (!/^\d{1,10}$/.test(raw) || n < 1 || n > 2_147_483_647) throw notFound('Article not found.');
    return n;
  };
  app.get<{ Params: { id: string } }>(jatsPath(':id' as unknown as number), async (request, reply) => {
    const xml = await services.fulltext.jats(id(request.params.id));
    return reply
      .type('application/jats+xml; charset=utf-8')
      .header('content-disposition', attachmentDisposition(`article-${request.params.id}.jats.xml`))
      .header('cache-control', 'public, max-age=300')
      .send(xml);
  });
  app.get<{ Params: { id: string; name: string } }>(
    figurePath(':id' as unknown as number, ':name'),
    async (request, reply) => {
      const articleId = id(request.params.id);
      if (!FIGURE_NAME.test(request.params.name)) throw notFound('No such figure.');
      // Only a figure readers can see: a published article's full text, every figure described.
      if (!(await services.fulltext.readerDocument(articleId))) throw notFound('No such figure.');
      await services.catalog.article(articleId);
      const { file, stream } = await services.fulltext.figure({ articleId }, request.params.name);
      const etag = `"${file.sha256.slice(0, 32)}"`;
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply
        .header('content-type', file.mediaType)
        .header('content-length', String(file.size))
        .header('etag', etag)
        .header('cache-control', 'public, max-age=3600')
        .send(stream);
    },
  );
}
