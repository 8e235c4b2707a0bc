import { z } from 'zod';
import { MESSAGES } from '../../common/messages.ts';
import { can } from '../../common/roles.ts';
import { wholeNumber } from '../../common/schemas.ts';
import { MIN_MATCH_WORDS, PLAGIARISM_RULE } from '../../common/similarity-rules.ts';
import type { SessionUser } from '../accounts/service.ts';
import { invalid } from '../errors.ts';
import { checkUpload } from '../files/uploads.ts';
import type { Services } from '../services.ts';
import type { CheckOptions, SimilarityReport } from './service.ts';

/** "true"/"false"/"on"/"1" from a form or a query string; absent stays undefined (the default applies). */
export const flag = z
  .enum(['true', 'false', 'on', 'off', '1', '0'], 'Use true or false.')
  .optional()
  .transform((v) => (v === undefined ? undefined : ['true', 'on', '1'].includes(v)));

/** The check's filters, as the plagiarism form, the report page's query and the API take them. */
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

/**
 * A plagiarism check of an uploaded file, with the privacy rule for the viewer. The file stays in memory:
 * it is neither stored nor added to the corpus. Shared by the API route and the page's form action. A file
 * whose text cannot be read is an ExtractionError, a full checker a BusyError: both domain refusals, never a
 * 500.
 */
export async function checkUploadedFile(
  services: Pick<Services, 'plagiarismLimiter' | 'config' | 'similarity'>,
  user: SessionUser,
  file: { field: string; filename: string; data: Buffer } | undefined,
  filters: Pick<CheckOptions, 'excludeQuotes' | 'excludeBibliography' | 'minMatchWords'>,
): Promise<SimilarityReport> {
  await services.plagiarismLimiter.hit(`user:${user.id}`);
  if (!file) throw invalid(MESSAGES.plagiarismNoFile, { file: MESSAGES.plagiarismNoFile });
  const upload = await checkUpload(file, {
    ...PLAGIARISM_RULE,
    maxBytes: services.config.MAX_MANUSCRIPT_SIZE,
  });
  return services.similarity.check(upload, {
    viewer: can('editorial', user) ? 'editor' : 'reader',
    ...filters,
  });
}
