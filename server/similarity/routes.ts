import { z } from 'zod';
import { messageResponse } from '../../common/api.ts';
import { MESSAGES } from '../../common/messages.ts';
import { can } from '../../common/roles.ts';
import { idField, idParamSchema, wholeNumber } from '../../common/schemas.ts';
import { similarityReportSchema, submissionReportSchema } from '../../common/similarity.ts';
import { MIN_MATCH_WORDS, PLAGIARISM_RULE } from '../../common/similarity-rules.ts';
import type { SessionUser } from '../accounts/service.ts';
import { fileLimit } from '../../common/upload-rules.ts';
import { checkUpload } from '../files/uploads.ts';
import type { Api } from '../http/api.ts';
import { HttpError, badRequest, parseInput } from '../http/errors.ts';
import { readMultipart } from '../http/multipart.ts';
import type { Services } from '../services.ts';
import { BusyError, type CheckOptions, ExtractionError, type SimilarityReport } from './service.ts';

/** "true"/"false"/"on"/"1" from a form or a query string; absent stays undefined (the default applies). */
const flag = z
  .enum(['true', 'false', 'on', 'off', '1', '0'], 'Use true or false.')
  .optional()
  .transform((v) => (v === undefined ? undefined : ['true', 'on', '1'].includes(v)));

export const checkFiltersSchema = z.object({
  excludeQuotes: flag,
  excludeBibliography: flag,
  minMatchWords: wholeNumber({
    required: 'Give a whole number of words.',
    invalid: 'Give a whole number of words.',
  })
    .pipe(
      z
        .number()
        .min(MIN_MATCH_WORDS.min, `At least ${MIN_MATCH_WORDS.min} words.`)
        .max(MIN_MATCH_WORDS.max, `At most ${MIN_MATCH_WORDS.max} words.`),
    )
    .optional(),
});

/** Turns the checker's refusals into answers for the person: never a 500 for a file that cannot be read. */
export function checkError(err: unknown): unknown {
  if (err instanceof ExtractionError) return new HttpError(err.status, err.message, { file: err.message });
  if (err instanceof BusyError) return new HttpError(503, err.message, undefined, { 'retry-after': '30' });
  return err;
}

/**
 * A plagiarism check of an uploaded file, with the privacy rule for the viewer. The file stays in memory:
 * it is neither stored nor added to the corpus. Shared by the API route and the page's form action.
 */
export async function checkUploadedFile(
  services: Services,
  user: SessionUser,
  file: { field: string; filename: string; data: Buffer } | undefined,
  filters: Pick<CheckOptions, 'excludeQuotes' | 'excludeBibliography' | 'minMatchWords'>,
): Promise<SimilarityReport> {
  await services.plagiarismLimiter.hit(`user:${user.id}`);
  if (!file) throw badRequest(MESSAGES.plagiarismNoFile, { file: MESSAGES.plagiarismNoFile });
  const upload = await checkUpload(file, {
    ...PLAGIARISM_RULE,
    maxBytes: services.config.MAX_MANUSCRIPT_SIZE,
  });
  try {
    return await services.similarity.check(upload, {
      viewer: can('editorial', user) ? 'editor' : 'reader',
      ...filters,
    });
  } catch (err) {
    throw checkError(err);
  }
}

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
    handler: async ({ params, query }) => {
      try {
        return await services.similarity.reportForSubmission(params.id, query);
      } catch (err) {
        throw checkError(err);
      }
    },
  });
}
