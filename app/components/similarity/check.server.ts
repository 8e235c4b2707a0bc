import { MESSAGES } from '../../../common/messages.ts';
import { PLAGIARISM_RULE } from '../../../common/similarity-rules.ts';
import { fileLimit } from '../../../common/upload-rules.ts';
import { checkFiltersSchema, checkUploadedFile } from '../../../server/similarity/check-upload.ts';
import type { WebContext } from '../../../server/web-context.ts';
import { type ClientError, asClientError, readForm, validateForm } from '../../lib/forms.server.ts';
import { optionFields } from './options.ts';

export type PlagiarismActionResult =
  | { ok: true; report: Awaited<ReturnType<typeof checkUploadedFile>>; filename: string; at: number }
  | { ok: false; message: string; reason: string | null; errors: Record<string, string>; at: number };

/**
 * /plagiarism posted without JavaScript: the same checks and the same check as POST /api/plagiarism.
 * Refusals come back as the spec's failure message with the specific reason beside it (or, without a
 * file, `Please upload a file.` alone). A busy checker is a refusal too (503, Retry-After), not a failure.
 */
export async function plagiarismFormPost(
  request: Request,
  context: WebContext,
): Promise<{ result: PlagiarismActionResult; status: number; headers?: Record<string, string> }> {
  const at = Date.now();
  const auth = context.auth;
  const max = context.services.config.MAX_MANUSCRIPT_SIZE;
  const refusedWith = (refused: ClientError) => {
    const noFile = refused.message === MESSAGES.plagiarismNoFile;
    return {
      result: {
        ok: false as const,
        message: noFile ? MESSAGES.plagiarismNoFile : MESSAGES.plagiarismFailure,
        reason: noFile ? null : refused.message,
        errors: refused.errors,
        at,
      },
      status: refused.status,
      headers: refused.headers,
    };
  };
  if (!auth) return refusedWith({ status: 401, message: MESSAGES.signInRequired, errors: {} });
  try {
    const read = await readForm(request, {
      files: { file: fileLimit(PLAGIARISM_RULE, max) },
      maxTextBytes: 16 * 1024,
    });
    if (!read.ok) return refusedWith(read.refusal);
    const { form } = read;
    const filters = validateForm(checkFiltersSchema, optionFields(form) ?? {});
    if (!filters.ok) return refusedWith(filters.refusal);
    const file = form.file('file') ?? undefined;
    const report = await checkUploadedFile(context.services, auth.user, file, filters.data);
    return { result: { ok: true, report, filename: file?.filename ?? '', at }, status: 200 };
  } catch (err) {
    const refused = asClientError(err);
    if (refused) return refusedWith(refused);
    context.services.log.error({ err }, 'plagiarism check failed');
    return {
      result: { ok: false, message: MESSAGES.plagiarismFailure, reason: null, errors: {}, at },
      status: 500,
    };
  }
}
