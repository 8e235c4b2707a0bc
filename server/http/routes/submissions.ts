import { z } from 'zod';
import {
  messageResponse,
  mySubmission,
  submissionCreatedResponse,
  submissionDetail,
  submissionListItem,
} from '../../../common/api.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { countField, idParamSchema, submissionFieldsSchema } from '../../../common/schemas.ts';
import {
  decisionSchema,
  deskFilterSchema,
  publishSubmissionSchema,
  revisionFieldsSchema,
} from '../../../common/submissions.ts';
import {
  ADDITIONAL_RULE,
  ARTICLE_PDF_RULE,
  ARTICLE_WORD_RULE,
  COPYRIGHT_FORM_RULE,
  fileLimit,
  MANUSCRIPT_RULE,
} from '../../../common/upload-rules.ts';
import { partialDownloadResponses, sendStoredFile } from '../../files/download.ts';
import { type CheckedUpload, checkUpload } from '../../files/uploads.ts';
import { saveFixes, storeWordFile } from '../../fulltext/editing.ts';
import { fullTextResponse } from '../../fulltext/present.ts';
import type { Services } from '../../services.ts';
import { preparePublication, presentPublication } from '../../submissions/publication.ts';
import type { Api } from '../api.ts';
import { parseInput } from '../../errors.ts';
import { badRequest } from '../errors.ts';
import { type MultipartBody, readMultipart } from '../multipart.ts';

const refusals = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'No such submission (or not yours)', schema: messageResponse },
};

const fileParams = z.object({ id: idParamSchema.shape.id, fileId: idParamSchema.shape.id });

/** The manuscript and the optional ZIP of a submission or a revision, checked by content. */
async function manuscriptFiles(
  services: Services,
  body: MultipartBody,
): Promise<{ manuscript: CheckedUpload; additional?: CheckedUpload }> {
  const { MAX_MANUSCRIPT_SIZE, MAX_ADDITIONAL_SIZE } = services.config;
  if (!body.files.submissionFile) {
    throw badRequest(MESSAGES.mainFileMissing, { submissionFile: MESSAGES.mainFileMissing });
  }
  const manuscript = await checkUpload(body.files.submissionFile, {
    ...MANUSCRIPT_RULE,
    maxBytes: MAX_MANUSCRIPT_SIZE,
  });
  const additional = body.files.additionalZip
    ? await checkUpload(body.files.additionalZip, { ...ADDITIONAL_RULE, maxBytes: MAX_ADDITIONAL_SIZE })
    : undefined;
  return { manuscript, additional };
}

const readManuscriptForm = (services: Services, request: Parameters<typeof readMultipart>[0]) =>
  readMultipart(request, {
    files: {
      submissionFile: fileLimit(MANUSCRIPT_RULE, services.config.MAX_MANUSCRIPT_SIZE),
      additionalZip: fileLimit(ADDITIONAL_RULE, services.config.MAX_ADDITIONAL_SIZE),
      copyrightForm: fileLimit(COPYRIGHT_FORM_RULE, services.config.MAX_MANUSCRIPT_SIZE),
    },
  });

/** What the preview answers: the PDF to be published, the full text, the copyright form, the warnings. */
const publicationResponse = z.object({
  pdf: z.object({ name: z.string(), size: z.number(), given: z.boolean() }).nullable(),
  fulltext: fullTextResponse.nullable(),
  copyrightForm: z.object({ name: z.string(), size: z.number() }).nullable(),
  warnings: z.array(z.string()),
});

export function submissionRoutes(api: Api, services: Services) {
  const { submissions } = services;

  api.route({
    method: 'POST',
    path: '/api/submission/submit',
    tag: 'Submissions',
    summary: 'Submit a manuscript (authors, pending or approved; editors; admins)',
    auth: 'submit',
    authMessages: { unauthenticated: MESSAGES.mustBeAuthor, forbidden: MESSAGES.mustBeAuthor },
    body: submissionFieldsSchema,
    multipart: [
      {
        name: 'submissionFile',
        description: 'The manuscript: .doc, .docx or .pdf (checked by content)',
        required: true,
      },
      { name: 'additionalZip', description: 'Optional supplementary material as one .zip', required: false },
      {
        name: 'copyrightForm',
        description:
          "The signed copyright form, a PDF (checked by content); required when the journal's settings say so (copyrightFormRequired)",
        required: false,
      },
    ],
    responses: {
      201: { description: MESSAGES.submissionSuccess, schema: submissionCreatedResponse },
      400: refusals[400],
      401: { description: MESSAGES.mustBeAuthor, schema: messageResponse },
      403: { description: MESSAGES.mustBeAuthor, schema: messageResponse },
      409: { description: MESSAGES.journalClosed, schema: messageResponse },
      413: { description: 'A file is too large', schema: messageResponse },
      415: { description: 'A file is not of an accepted type', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, request, reply }) => {
      const body = await readManuscriptForm(services, request);
      const fields = parseInput(submissionFieldsSchema, body.fields);
      const { manuscript, additional } = await manuscriptFiles(services, body);
      const copyrightForm = body.files.copyrightForm
        ? await checkUpload(body.files.copyrightForm, {
            ...COPYRIGHT_FORM_RULE,
            maxBytes: services.config.MAX_MANUSCRIPT_SIZE,
          })
        : undefined;
      const created = await submissions.submit(auth!.user, fields, manuscript, additional, copyrightForm);
      reply.code(201);
      return { message: MESSAGES.submissionSuccess, ...created };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/submissions/mine',
    tag: 'Submissions',
    summary: "The signed-in author's submissions, newest first, with the editors' latest message",
    auth: 'submit',
    responses: {
      200: { description: 'Submissions', schema: z.array(mySubmission) },
      401: refusals[401],
      403: refusals[403],
    },
    handler: ({ auth }) => submissions.forUser(auth!.user.id),
  });

  api.route({
    method: 'GET',
    path: '/api/submissions/:id',
    tag: 'Submissions',
    summary: 'One submission with its authors, files (every version) and history: its author, or editors',
    auth: 'submit',
    params: idParamSchema,
    responses: { 200: { description: 'The submission', schema: submissionDetail }, ...refusals },
    handler: ({ auth, params }) => submissions.detail(params.id, auth!.user),
  });

  api.route({
    method: 'GET',
    path: '/api/submissions/:id/files/:fileId',
    tag: 'Submissions',
    summary: 'Download one file of a submission (its author, or editors)',
    auth: 'submit',
    params: fileParams,
    responses: {
      200: { description: 'The file', binary: 'application/octet-stream' },
      ...partialDownloadResponses,
      ...refusals,
    },
    handler: async ({ auth, params, request, reply }) => {
      const { reference, file } = await submissions.file(params.id, params.fileId, auth!.user);
      return sendStoredFile(services.files, request, reply, `${reference}-${file.originalName}`, file);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/submissions/:id/copyright-form',
    tag: 'Submissions',
    summary: 'Download the signed copyright form sent with a submission (its author, or editors)',
    auth: 'submit',
    params: idParamSchema,
    responses: {
      200: { description: 'The PDF', binary: 'application/pdf' },
      ...partialDownloadResponses,
      ...refusals,
    },
    handler: async ({ auth, params, request, reply }) => {
      const { reference, file } = await submissions.ownFile(params.id, 'copyright', auth!.user);
      return sendStoredFile(services.files, request, reply, `${reference}-copyright-form.pdf`, file);
    },
  });

  api.route({
    method: 'POST',
    path: '/api/submissions/:id/revision',
    tag: 'Submissions',
    summary: 'Upload a revised manuscript while revisions are requested (earlier versions are kept)',
    auth: 'submit',
    params: idParamSchema,
    body: revisionFieldsSchema,
    multipart: [
      { name: 'submissionFile', description: 'The revised manuscript: .doc, .docx or .pdf', required: true },
      {
        name: 'additionalZip',
        description: 'Optional revised supplementary material (.zip)',
        required: false,
      },
    ],
    responses: {
      200: { description: 'The submission, now revised', schema: submissionDetail },
      ...refusals,
      409: { description: 'Revisions are not requested for this submission', schema: messageResponse },
      413: { description: 'A file is too large', schema: messageResponse },
      415: { description: 'A file is not of an accepted type', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, params, request }) => {
      const body = await readManuscriptForm(services, request);
      const fields = parseInput(revisionFieldsSchema, body.fields);
      const { manuscript, additional } = await manuscriptFiles(services, body);
      return submissions.revise(
        auth!.user,
        params.id,
        fields.message,
        manuscript,
        additional,
        fields.responseToReviewers,
      );
    },
  });

  api.route({
    method: 'GET',
    path: '/api/editor/submissions',
    tag: 'Editorial',
    summary:
      'The submissions desk: filter by status, type and date of arrival; search title, reference or author',
    auth: 'editorial',
    query: deskFilterSchema.extend({
      limit: countField('limit', 1, 200, 50),
      offset: countField('offset', 0, 10_000_000, 0),
    }),
    responses: {
      200: {
        description: 'A page of submissions',
        schema: z.object({ submissions: z.array(submissionListItem), total: z.number() }),
      },
      400: refusals[400],
      401: refusals[401],
      403: refusals[403],
    },
    handler: ({ query }) => submissions.list({ ...query, articleType: query.type }),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/submissions/:id/decision',
    tag: 'Editorial',
    summary:
      'Move a submission on (under review, revisions requested, accepted, rejected) with a message to the author',
    auth: 'editorial',
    params: idParamSchema,
    body: decisionSchema,
    responses: {
      200: { description: 'The submission after the decision', schema: submissionDetail },
      ...refusals,
      409: { description: 'Not a possible move from the current status', schema: messageResponse },
    },
    handler: ({ auth, params, body }) => submissions.decide(auth!.user, params.id, body),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/submissions/:id/publication',
    tag: 'Editorial',
    summary:
      'Prepare an accepted submission for publishing: the final PDF and the Word file, for the preview',
    description:
      'Both files are checked (and the Word file converted) before anything is kept; a refused file leaves the earlier preview as it was. Nothing is shown to readers: the article goes live with POST …/publish. The answer is the preview: the PDF to be published, the full text with what needs a person, and warnings (no copyright form).',
    auth: 'editorial',
    params: idParamSchema,
    multipart: [
      {
        name: 'pdf',
        description: 'The final PDF (optional when the latest manuscript is a PDF)',
        required: false,
      },
      {
        name: 'word',
        description: 'The final Word file (.docx), converted into the full text (optional)',
        required: false,
      },
    ],
    responses: {
      201: { description: 'Ready to preview', schema: messageResponse.extend(publicationResponse.shape) },
      ...refusals,
      409: { description: 'Not accepted, or already published', schema: messageResponse },
      413: { description: 'A file is too large', schema: messageResponse },
      415: { description: 'Not a PDF, or not a Word document (.docx)', schema: messageResponse },
      422: {
        description: 'The PDF is encrypted or damaged, or the Word file cannot be converted',
        schema: messageResponse,
      },
    },
    handler: async ({ auth, params, request, reply }) => {
      const body = await readMultipart(request, {
        files: {
          pdf: fileLimit(ARTICLE_PDF_RULE, services.config.MAX_ARTICLE_PDF_SIZE),
          word: fileLimit(ARTICLE_WORD_RULE, services.config.MAX_MANUSCRIPT_SIZE),
        },
      });
      await preparePublication(services, auth!.user, params.id, {
        pdf: body.files.pdf,
        word: body.files.word,
      });
      reply.code(201);
      return {
        message: 'Ready to preview. Nothing is published until you publish it.',
        ...(await presentPublication(services, auth!.user, params.id)),
      };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/editor/submissions/:id/publication',
    tag: 'Editorial',
    summary:
      "An accepted submission's preview before publishing: its PDF, full text, copyright form and warnings",
    auth: 'editorial',
    params: idParamSchema,
    responses: { 200: { description: 'The preview', schema: publicationResponse }, ...refusals },
    handler: ({ auth, params }) => presentPublication(services, auth!.user, params.id),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/submissions/:id/final-pdf',
    tag: 'Editorial',
    summary: 'The final PDF given for publishing, for the preview',
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The PDF', binary: 'application/pdf' },
      ...partialDownloadResponses,
      ...refusals,
    },
    handler: async ({ auth, params, request, reply }) => {
      const { reference, file } = await submissions.ownFile(params.id, 'final', auth!.user);
      return sendStoredFile(services.files, request, reply, `${reference}-${file.originalName}`, file);
    },
  });

  const publishFields = publishSubmissionSchema;
  api.route({
    method: 'POST',
    path: '/api/editor/submissions/:id/publish',
    tag: 'Editorial',
    summary: 'Publish an accepted submission as an article of an issue, with its metadata and authors',
    description:
      'Publishes what POST …/publication prepared (the final PDF, the full text); files sent here are prepared first, so one call can do both. Fields alt-N (figures) and doi-N (references) are saved first. Refused while a figure has no alt text. Warns (does not refuse) when the submission has no copyright form.',
    auth: 'editorial',
    params: idParamSchema,
    body: publishFields,
    multipart: [
      {
        name: 'pdf',
        description: 'The final PDF (optional when the latest manuscript is a PDF)',
        required: false,
      },
      {
        name: 'word',
        description:
          'The final Word file (.docx), converted into the full text (optional; one converted before by POST …/publication or …/fulltext is used otherwise).',
        required: false,
      },
    ],
    responses: {
      201: {
        description: 'Published',
        schema: messageResponse.extend({ articleId: z.number(), warnings: z.array(z.string()) }),
      },
      ...refusals,
      409: { description: 'Not accepted, already published, or the DOI is taken', schema: messageResponse },
      413: { description: 'The PDF is too large', schema: messageResponse },
      415: { description: 'Not a PDF', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, params, request, reply }) => {
      const max = services.config.MAX_ARTICLE_PDF_SIZE;
      const body = await readMultipart(request, {
        files: {
          pdf: fileLimit(ARTICLE_PDF_RULE, max),
          word: fileLimit(ARTICLE_WORD_RULE, services.config.MAX_MANUSCRIPT_SIZE),
        },
      });
      const fields = parseInput(publishFields, body.fields);
      const pdf = body.files.pdf
        ? await checkUpload(body.files.pdf, { ...ARTICLE_PDF_RULE, maxBytes: max })
        : undefined;
      const owner = { submissionId: params.id };
      if (body.files.word) await storeWordFile(services, auth!.user, owner, body.files.word);
      await saveFixes(services, auth!.user, owner, body.fields);
      const articleId = await submissions.publish(
        auth!.user,
        params.id,
        fields,
        pdf,
        services.catalog,
        services.fulltext,
      );
      const warnings = submissions.publishWarnings(await submissions.detail(params.id, auth!.user));
      reply.code(201);
      return { message: 'Published.', articleId, warnings };
    },
  });
}
