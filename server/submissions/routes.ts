import { messageResponse, submissionCreatedResponse } from '../../common/api.ts';
import { MESSAGES } from '../../common/messages.ts';
import { submissionFieldsSchema } from '../../common/schemas.ts';
import { checkUpload } from '../files/uploads.ts';
import type { Api } from '../http/api.ts';
import { badRequest, validationError } from '../http/errors.ts';
import { readMultipart } from '../http/multipart.ts';
import type { Services } from '../services.ts';

export function submissionRoutes(api: Api, services: Services) {
  api.route({
    method: 'POST',
    path: '/api/submission/submit',
    tag: 'Submissions',
    summary: 'Submit a manuscript (authors, pending or approved; editors; admins)',
    auth: 'submit',
    authMessages: { unauthenticated: MESSAGES.mustBeAuthor, forbidden: MESSAGES.mustBeAuthor },
    body: submissionFieldsSchema,
    multipart: [
      { name: 'submissionFile', description: 'The manuscript: .doc, .docx or .pdf (checked by content)', required: true },
      { name: 'additionalZip', description: 'Optional supplementary material as one .zip', required: false },
    ],
    responses: {
      201: { description: MESSAGES.submissionSuccess, schema: submissionCreatedResponse },
      400: { description: 'Invalid input', schema: messageResponse },
      401: { description: MESSAGES.mustBeAuthor, schema: messageResponse },
      403: { description: MESSAGES.mustBeAuthor, schema: messageResponse },
      413: { description: 'A file is too large', schema: messageResponse },
      415: { description: 'A file is not of an accepted type', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, request, reply }) => {
      const { MAX_MANUSCRIPT_SIZE, MAX_ADDITIONAL_SIZE } = services.config;
      const body = await readMultipart(request, {
        fileFields: ['submissionFile', 'additionalZip'],
        maxFileBytes: Math.max(MAX_MANUSCRIPT_SIZE, MAX_ADDITIONAL_SIZE),
      });
      const fields = submissionFieldsSchema.safeParse(body.fields);
      if (!fields.success) throw validationError(fields.error);
      if (!body.files.submissionFile) {
        throw badRequest(MESSAGES.mainFileMissing, { submissionFile: MESSAGES.mainFileMissing });
      }
      const manuscript = checkUpload(body.files.submissionFile, {
        label: 'The main submission file',
        accept: ['pdf', 'doc', 'docx'],
        maxBytes: MAX_MANUSCRIPT_SIZE,
        wrongType: 'The main submission file must be a Word document (.doc, .docx) or a PDF (.pdf).',
      });
      const additional = body.files.additionalZip
        ? checkUpload(body.files.additionalZip, {
            label: 'The additional file',
            accept: ['zip'],
            maxBytes: MAX_ADDITIONAL_SIZE,
            wrongType: 'The additional file must be a .zip archive.',
          })
        : undefined;
      const created = await services.submissions.submit(auth!.user, fields.data, manuscript, additional);
      reply.code(201);
      return { message: MESSAGES.submissionSuccess, ...created };
    },
  });
}
