import { data } from 'react-router';
import { z } from 'zod';
import { idField } from '../../../common/schemas.ts';
import type { SessionUser } from '../../../server/accounts/service.ts';
import { validate } from '../../../common/validate.ts';
import { checkFiltersSchema } from '../../../server/similarity/check-upload.ts';
import type { WebContext } from '../../../server/web-context.ts';
import { asClientError } from '../../lib/forms.server.ts';
import { OPTION_DEFAULTS, optionFields } from './options.ts';

const querySchema = checkFiltersSchema.extend({
  fileId: idField('fileId').optional(),
  refresh: z
    .literal('1')
    .optional()
    .transform((v) => v === '1'),
});

/**
 * The editor's report page: the submission, the filters from the query string (a GET form), and the report
 * (the stored one with the default filters, else run now), or why there is none. No such submission (or
 * manuscript version) is the page's 404.
 */
export async function editorReport(context: WebContext, user: SessionUser, submissionId: number, url: URL) {
  try {
    return await reportPage(context, user, submissionId, url);
  } catch (err) {
    if (asClientError(err)?.status === 404) throw data('No such submission.', { status: 404 });
    throw err;
  }
}

async function reportPage(context: WebContext, user: SessionUser, submissionId: number, url: URL) {
  const submission = await context.services.submissions.detail(submissionId, user);
  const params = url.searchParams;
  const raw = {
    ...(optionFields(params) ?? {}),
    ...(params.get('fileId') ? { fileId: params.get('fileId') } : {}),
    ...(params.get('refresh') === '1' ? { refresh: '1' } : {}),
  };
  const parsed = validate(querySchema, raw);
  const filters: Partial<z.output<typeof querySchema>> = parsed.success ? parsed.data : {};
  const form = {
    excludeQuotes: filters.excludeQuotes ?? OPTION_DEFAULTS.excludeQuotes,
    excludeBibliography: filters.excludeBibliography ?? OPTION_DEFAULTS.excludeBibliography,
    minMatchWords: filters.minMatchWords ?? OPTION_DEFAULTS.minMatchWords,
    fileId: filters.fileId ?? null,
  };
  const head = {
    submission: { id: submission.id, reference: submission.reference, title: submission.title },
    filters: form,
    filterErrors: parsed.success ? {} : parsed.errors,
  };
  try {
    const result = await context.services.similarity.reportForSubmission(submissionId, filters);
    return { ...head, ok: true as const, result };
  } catch (err) {
    // A file without readable text, a busy checker: said on the page, with the versions to choose another.
    const refused = asClientError(err);
    if (!refused || refused.status === 404) throw err;
    const versions = await context.services.similarity.manuscriptVersions(submissionId);
    return { ...head, ok: false as const, status: refused.status, message: refused.message, versions };
  }
}
