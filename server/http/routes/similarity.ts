import { messageResponse } from '../../../common/api.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { idField, idParamSchema } from '../../../common/schemas.ts';
import { similarityReportSchema, submissionReportSchema } from '../../../common/similarity.ts';
import { PLAGIARISM_RULE } from '../../../common/similarity-rules.ts';
import { fileLimit } from '../../../common/upload-rules.ts';
import { parseInput } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { checkFiltersSchema, checkUploadedFile, flag } from '../../similarity/check-upload.ts';
import type { Api } from '../api.ts';
import { readMultipart } from '../multipart.ts';

export function similarityRoutes(api: Api, services: Services) {
  api.route({
    method: 'POST',
    path: '/api/plagiarism',
    tag: 'Similarity',
    summary: 'Check a manuscript for plagiarism and grammar (any signed-in account; rate-limited)',
    description:
      'Compares the file with every article the journal has published and every manuscript it has received, and measures its grammar. Answers the two percentages (two decimals) with the report: sources with their shares, matched passages (character offsets into `text`), grammar issues with suggestions. A reader sees titles and text of published articles only; a match with an unpublished manuscript is reported with its share and nothing else. Editors see everything. The file is not kept.',
    auth: 'signedIn',
    body: checkFiltersSchema,
    multipart: [
      {
        name: 'file',
        description: 'The manuscript: .doc, .docx or .pdf (checked by content)',
        required: true,
      },
    ],
    responses: {
      200: { description: 'The result and the report', schema: similarityReportSchema },
      400: {
        description: `${MESSAGES.plagiarismNoFile} (or an empty file, a bad filter)`,
        schema: messageResponse,
      },
      401: { description: 'Not signed in', schema: messageResponse },
      403: { description: 'Account rejected or suspended', schema: messageResponse },
      413: { description: 'The file is too large (MAX_MANUSCRIPT_SIZE)', schema: messageResponse },
      415: { description: 'Not a Word or PDF file (by content)', schema: messageResponse },
      422: {
        description: 'No readable text: password-protected, damaged, or a scanned image',
        schema: messageResponse,
      },
      429: { description: 'Too many checks (RATE_LIMIT_PLAGIARISM)', schema: messageResponse },
      503: { description: 'The checker is busy: try again in a minute', schema: messageResponse },
    },
    handler: async ({ auth, request }) => {
      const body = await readMultipart(request, {
        files: { file: fileLimit(PLAGIARISM_RULE, services.config.MAX_MANUSCRIPT_SIZE) },
        maxFields: 10,
      });
      const filters = parseInput(checkFiltersSchema, body.fields);
      return checkUploadedFile(services, auth!.user, body.files.file, filters);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/editor/submissions/:id/similarity',
    tag: 'Editorial',
    summary: "A submission's similarity report: the stored arrival check, or a new one with other filters",
    description:
      'Without filters (or with the defaults: quotes counted, bibliography excluded, 8 words) the report stored when the version arrived (`refresh=true`: checked again and stored); other filters run the check again. `fileId` chooses a manuscript version (default: the latest). The other versions of the same submission are never sources.',
    auth: 'editorial',
    params: idParamSchema,
    query: checkFiltersSchema.extend({
      fileId: idField('fileId').optional(),
      refresh: flag.describe(
        'Check again now (with the default filters, the new report replaces the stored one)',
      ),
    }),
    responses: {
      200: { description: 'The report', schema: submissionReportSchema },
      400: { description: 'A bad filter', schema: messageResponse },
      401: { description: 'Not signed in', schema: messageResponse },
      403: { description: 'Not an editor', schema: messageResponse },
      404: { description: 'No such submission or manuscript version', schema: messageResponse },
      422: { description: 'No readable text in the manuscript', schema: messageResponse },
      503: { description: 'The checker is busy: try again in a minute', schema: messageResponse },
    },
    handler: async ({ params, query }) => services.similarity.reportForSubmission(params.id, query),
  });
}
