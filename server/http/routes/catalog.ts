import { z } from 'zod';
import {
  articleResponse,
  editorArticlesResponse,
  editorIssuesResponse,
  editorVolumesResponse,
  issueResponse,
  messageResponse,
  paperResponse,
  publicArticlePageResponse,
  publicTreeResponse,
  volumeResponse,
} from '../../../common/api.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { can } from '../../../common/roles.ts';
import {
  articleUploadFieldsSchema,
  countField,
  idField,
  idParamSchema,
  issueSchema,
  volumeSchema,
} from '../../../common/schemas.ts';
import { ARTICLE_PDF_RULE, fileLimit } from '../../../common/upload-rules.ts';
import { issueCreatedMessage } from '../../catalog/present.ts';
import { downloadRequest, partialDownloadResponses } from '../../files/download.ts';
import { checkUpload } from '../../files/uploads.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { parseInput } from '../../errors.ts';
import { badRequest, HttpError } from '../errors.ts';
import { readMultipart } from '../multipart.ts';
import type { AuthContext } from '../../accounts/service.ts';
import type { FastifyRequest } from 'fastify';

const articleFileParams = z.object({ id: idField('Id'), fileId: idField('File') });

export const articleStatusSchema = z.object({
  status: z.enum(['published', 'unpublished'], "Status must be 'published' or 'unpublished'."),
});

/** Editing an issue: its title, description and month (it stays in its volume, under its number). */
export const issueEditSchema = issueSchema.pick({ title: true, description: true, publication_month: true });

/** The page of GET /api/articles/public/list: `page` from 1, `size` 1 to 100 (50 unless given). */
export const publicListQuery = z.object({
  page: countField('Page', 1, 1_000_000, 1),
  size: countField('Size', 1, 100, 50),
});

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'Not found', schema: messageResponse },
};

/** A readable file name for a downloaded article: journal, volume, issue, id and title. */
export function downloadFilename(
  abbrev: string,
  a: { id: number; volume_number: number; issue_number: number; title: string },
) {
  const slug = a.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .replace(/-$/, '');
  const journal = abbrev.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return `${journal}-v${a.volume_number}i${a.issue_number}-${a.id}-${slug || 'article'}.pdf`;
}

export function catalogRoutes(api: Api, services: Services) {
  const { catalog, settings } = services;

  /**
   * Who may download an article's files, its PDF and its others alike: anyone when the journal's downloads
   * are open, an approved account, or a preservation crawler at an address the journal lists (decision
   * 0065); the journal's settings, for the caller.
   */
  const mayDownload = async (auth: AuthContext | null | undefined, request: FastifyRequest) => {
    const journal = await settings.journal();
    const allowed =
      journal.downloads === 'open' ||
      can('download', auth?.user) ||
      (await services.preservation.crawlerMayDownload(request.ip));
    if (!allowed) {
      if (!auth) throw new HttpError(401, MESSAGES.downloadNeedsApproval);
      if (!can('download', auth.user)) throw new HttpError(403, MESSAGES.downloadNeedsApproval);
    }
    return journal;
  };

  api.route({
    method: 'GET',
    path: '/api/articles/public/articles',
    tag: 'Articles',
    summary: 'Every volume, newest first, with its issues and their published articles',
    description:
      'The whole archive in one answer (kept by the server and sent compressed, with an ETag: a client that sends it back in If-None-Match gets 304 until something changes). For an archive too large to take at once, GET /api/articles/public/list gives the published articles a page at a time.',
    auth: 'none',
    cache: 'public',
    responses: { 200: { description: 'Volumes', schema: publicTreeResponse } },
    handler: () => catalog.publicTree(),
  });

  api.route({
    method: 'GET',
    path: '/api/articles/public/list',
    tag: 'Articles',
    summary: 'The published articles a page at a time, newest first',
    description:
      'The paginated variant of GET /api/articles/public/articles: each article as GET /api/articles/public/article/{id} gives it (volume, issue, authors, PDF link), newest publication first. A page past the last one is empty.',
    auth: 'none',
    cache: 'public',
    query: publicListQuery,
    responses: { 200: { description: 'One page of articles', schema: publicArticlePageResponse } },
    handler: async ({ query }) => {
      const found = await catalog.publishedPage({ limit: query.size, offset: (query.page - 1) * query.size });
      return {
        page: query.page,
        size: query.size,
        total: found.total,
        pages: Math.ceil(found.total / query.size),
        articles: found.articles,
      };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/articles/public/article/:id',
    tag: 'Articles',
    summary: 'One published article with its volume, issue, authors and PDF link',
    auth: 'none',
    cache: 'public',
    params: idParamSchema,
    responses: {
      200: { description: 'The article', schema: articleResponse },
      400: errors[400],
      404: errors[404],
    },
    handler: ({ params }) => catalog.article(params.id),
  });

  api.route({
    method: 'GET',
    path: '/api/articles/:id/download',
    tag: 'Articles',
    summary: "Download an article's PDF",
    description:
      'Needs an approved account (researcher, author, editor) or an admin, unless the journal setting `downloads` is `open` or the request comes from a preservation crawler’s listed address while a LOCKSS or CLOCKSS manifest is on.',
    auth: 'optional',
    params: idParamSchema,
    responses: {
      200: { description: 'The PDF, as an attachment', binary: 'application/pdf' },
      ...partialDownloadResponses,
      401: { description: MESSAGES.downloadNeedsApproval, schema: messageResponse },
      403: { description: MESSAGES.downloadNeedsApproval, schema: messageResponse },
      404: errors[404],
    },
    handler: async ({ auth, params, request, reply }) => {
      const journal = await mayDownload(auth, request);
      const { article, file } = await catalog.articlePdf(params.id, {
        includeUnpublished: can('editorial', auth?.user),
      });
      const name = downloadFilename(journal.abbreviation, article);
      // The whole file, or the range a PDF reader asks for (206).
      const download = await services.files.download(file, name, downloadRequest(request));
      // Usage counts: a published article's file delivered in full, once (not a HEAD request, not a range,
      // not an aborted transfer, not an editor fetching an unpublished one).
      if (request.method === 'GET' && download.status === 200 && article.status === 'published') {
        reply.raw.once('finish', () =>
          services.metrics.track('download', article.id, {
            sessionId: auth?.sessionId,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          }),
        );
      }
      return reply
        .code(download.status)
        .headers({ ...download.headers, 'content-type': 'application/pdf' })
        .send(download.body);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/articles/:id/files/:fileId',
    tag: 'Articles',
    summary: "Download one of an article's other files (its other galleys: HTML, data, a translation)",
    description:
      'The same rule as the PDF: an approved account (researcher, author, editor) or an admin, unless the journal setting `downloads` is `open` or the request comes from a preservation crawler’s listed address.',
    auth: 'optional',
    params: articleFileParams,
    responses: {
      200: { description: 'The file, as an attachment', binary: 'application/octet-stream' },
      ...partialDownloadResponses,
      401: { description: MESSAGES.downloadNeedsApproval, schema: messageResponse },
      403: { description: MESSAGES.downloadNeedsApproval, schema: messageResponse },
      404: errors[404],
    },
    handler: async ({ auth, params, request, reply }) => {
      await mayDownload(auth, request);
      const { file } = await catalog.articleFile(params.id, params.fileId, {
        includeUnpublished: can('editorial', auth?.user),
      });
      const download = await services.files.download(file, file.originalName, downloadRequest(request));
      return reply.code(download.status).headers(download.headers).send(download.body);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/issues/:id/cover',
    tag: 'Articles',
    summary: "An issue's cover image",
    description:
      'Public, like the issue it shows. A JPEG, PNG, GIF or WebP image; 404 when the issue has none.',
    auth: 'none',
    params: idParamSchema,
    responses: {
      200: { description: 'The cover image', binary: 'image/jpeg' },
      ...partialDownloadResponses,
      404: errors[404],
    },
    handler: async ({ params, request, reply }) => {
      const file = await catalog.issueCover(params.id);
      const download = await services.files.download(file, file.originalName, downloadRequest(request));
      return reply
        .code(download.status)
        .headers({
          ...download.headers,
          // Shown in the page (not saved), and the same for everyone: shared caches may keep it an hour.
          'content-disposition': 'inline',
          'cache-control': 'public, max-age=3600',
        })
        .send(download.body);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/papers',
    tag: 'Articles',
    summary: 'Published papers, newest first, with the path to download each',
    auth: 'none',
    cache: 'public',
    responses: { 200: { description: 'Papers', schema: z.array(paperResponse) } },
    handler: () => catalog.papers(),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/volumes',
    tag: 'Editorial',
    summary: 'All volumes with their issue counts',
    auth: 'editorial',
    responses: {
      200: { description: 'Volumes', schema: editorVolumesResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: () => catalog.editorVolumes(),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/issues',
    tag: 'Editorial',
    summary: 'All issues with their volume and article counts',
    auth: 'editorial',
    responses: {
      200: { description: 'Issues', schema: editorIssuesResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: () => catalog.editorIssues(),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/articles',
    tag: 'Editorial',
    summary: 'Articles, newest first, published or not; the total is in the X-Total-Count header',
    auth: 'editorial',
    query: z.object({
      limit: countField('limit', 1, 500, 100),
      offset: countField('offset', 0, 10_000_000, 0),
    }),
    responses: {
      200: { description: 'Articles', schema: editorArticlesResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ query, reply }) => {
      const page = await catalog.editorArticles(query);
      reply.header('x-total-count', String(page.total));
      return page.articles;
    },
  });

  api.route({
    method: 'POST',
    path: '/api/editor/volume',
    tag: 'Editorial',
    summary: 'Create a volume',
    auth: 'editorial',
    body: volumeSchema,
    responses: {
      201: { description: 'Created', schema: messageResponse.extend({ volume: volumeResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      409: { description: 'That volume number exists', schema: messageResponse },
    },
    handler: async ({ auth, body, reply }) => {
      const volume = await catalog.createVolume(auth!.user, body);
      reply.code(201);
      return { message: `Volume ${volume.volume_number} created.`, volume };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/editor/issue',
    tag: 'Editorial',
    summary: 'Create the next issue of a volume (issue numbers are given in order)',
    auth: 'editorial',
    body: issueSchema,
    responses: {
      201: {
        description: 'Created',
        schema: messageResponse.extend({ issue: issueResponse.extend({ volume_number: z.number() }) }),
      },
      400: errors[400],
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ auth, body, reply }) => {
      const issue = await catalog.createIssue(auth!.user, body);
      reply.code(201);
      return { message: issueCreatedMessage(issue), issue };
    },
  });

  api.route({
    method: 'PATCH',
    path: '/api/editor/volumes/:id',
    tag: 'Editorial',
    summary: "Edit a volume's title, number and year",
    auth: 'editorial',
    params: idParamSchema,
    body: volumeSchema,
    responses: {
      200: { description: 'Updated', schema: messageResponse.extend({ volume: volumeResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
      409: { description: 'That volume number exists', schema: messageResponse },
    },
    handler: async ({ auth, params, body }) => {
      const volume = await catalog.updateVolume(auth!.user, params.id, body);
      return { message: `Volume ${volume.volume_number} updated.`, volume };
    },
  });

  api.route({
    method: 'PATCH',
    path: '/api/editor/issues/:id',
    tag: 'Editorial',
    summary: "Edit an issue's title, description and month (its volume and number stay)",
    auth: 'editorial',
    params: idParamSchema,
    body: issueEditSchema,
    responses: {
      200: { description: 'Updated', schema: messageResponse.extend({ issue: issueResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
    },
    handler: async ({ auth, params, body }) => {
      const issue = await catalog.updateIssue(auth!.user, params.id, body);
      return { message: `Issue ${issue.issue_number} updated.`, issue };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/articles/admin/upload',
    tag: 'Editorial',
    summary: 'Publish an article with its PDF into an issue',
    auth: 'editorial',
    body: articleUploadFieldsSchema,
    multipart: [{ name: 'pdf', description: 'The article as a PDF (checked by content)', required: true }],
    responses: {
      201: { description: 'Published', schema: messageResponse.extend({ article: articleResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      409: { description: 'The DOI is already used', schema: messageResponse },
      413: { description: 'The PDF is too large', schema: messageResponse },
      415: { description: 'Not a PDF', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, request, reply }) => {
      const max = services.config.MAX_ARTICLE_PDF_SIZE;
      const body = await readMultipart(request, { files: { pdf: fileLimit(ARTICLE_PDF_RULE, max) } });
      const fields = parseInput(articleUploadFieldsSchema, body.fields);
      if (!body.files.pdf)
        throw badRequest('Please choose the article PDF.', { pdf: 'Please choose the article PDF.' });
      const pdf = await checkUpload(body.files.pdf, { ...ARTICLE_PDF_RULE, maxBytes: max });
      const article = await catalog.uploadArticle(auth!.user, fields, pdf);
      reply.code(201);
      return { message: 'Article published.', article };
    },
  });

  api.route({
    method: 'PATCH',
    path: '/api/editor/articles/:id',
    tag: 'Editorial',
    summary: "Edit an article's metadata and authors (the PDF stays)",
    auth: 'editorial',
    params: idParamSchema,
    body: articleUploadFieldsSchema,
    responses: {
      200: { description: 'Updated', schema: messageResponse.extend({ article: articleResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
      409: { description: 'The DOI is already used', schema: messageResponse },
    },
    handler: async ({ auth, params, body }) => {
      const article = await catalog.updateArticle(auth!.user, params.id, body);
      return { message: 'Article updated.', article };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/editor/articles/:id/pdf',
    tag: 'Editorial',
    summary: "Replace an article's PDF",
    auth: 'editorial',
    params: idParamSchema,
    multipart: [{ name: 'pdf', description: 'The new PDF (checked by content)', required: true }],
    responses: {
      200: { description: 'Replaced', schema: messageResponse.extend({ article: articleResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
      413: { description: 'The PDF is too large', schema: messageResponse },
      415: { description: 'Not a PDF', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, params, request }) => {
      const max = services.config.MAX_ARTICLE_PDF_SIZE;
      const body = await readMultipart(request, { files: { pdf: fileLimit(ARTICLE_PDF_RULE, max) } });
      if (!body.files.pdf)
        throw badRequest('Please choose the article PDF.', { pdf: 'Please choose the article PDF.' });
      const pdf = await checkUpload(body.files.pdf, { ...ARTICLE_PDF_RULE, maxBytes: max });
      const article = await catalog.replaceArticlePdf(auth!.user, params.id, pdf);
      return { message: 'PDF replaced.', article };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/editor/articles/:id/status',
    tag: 'Editorial',
    summary: 'Unpublish or republish an article',
    auth: 'editorial',
    params: idParamSchema,
    body: articleStatusSchema,
    responses: {
      200: { description: 'Changed', schema: messageResponse.extend({ article: articleResponse }) },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
    },
    handler: async ({ auth, params, body }) => {
      const article = await catalog.setArticleStatus(auth!.user, params.id, body.status);
      return {
        message: body.status === 'published' ? 'Article republished.' : 'Article unpublished.',
        article,
      };
    },
  });
}
