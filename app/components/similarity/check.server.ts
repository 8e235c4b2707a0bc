import { MESSAGES } from '../../../common/messages.ts';
import { PLAGIARISM_RULE } from '../../../common/similarity-rules.ts';
import { fileLimit } from '../../../common/upload-rules.ts';
import { checkFiltersSchema, checkUploadedFile } from '../../../server/similarity/routes.ts';
import type { WebContext } from '../../../server/web-context.ts';
import { asClientError, readForm, validateForm } from '../../lib/forms.server.ts';
import { optionFields } from './options.ts';

export type PlagiarismActionResult =
  | { ok: true; report: Awaited<ReturnType<typeof checkUploadedFile>>; filename: string; at: number }
  | { ok: false; message: string; reason: string | null; errors: Record<string, string>; at: number };

/**
 * /plagiarism posted without JavaScript: the same checks and the same check as POST /api/plagiarism.
 * Refusals come back as the spec's failure message with the specific reason beside it (or, without a
 * file, `Please upload a file.` alone).
 */
export async function plagiarismFormPost(
  request: Request,
  context: WebContext,
): Promise<{ result: PlagiarismActionResult; status: number; headers?: Record<string, string> }> {
  const at = Date.now();
  const auth = context.auth;
  const max = context.services.config.MAX_MANUSCRIPT_SIZE;
  try {
    if (!auth) throw Object.assign(new Error(MESSAGES.signInRequired), { status: 401 });
    const read = await readForm(request, { files: { file: fileLimit(PLAGIARISM_RULE, max) }, maxTextBytes: 16 * 1024 });
    if (!read.ok) throw Object.assign(new Error(read.refusal.message), read.refusal);
    const { form } = read;
    const filters = validateForm(checkFiltersSchema, optionFields(form) ?? {});
    if (!filters.ok) throw Object.assign(new Error(filters.refusal.message), filters.refusal);
    const file = form.file('file') ?? undefined;
    const report = await checkUploadedFile(context.services, auth.user, file, filters.data);
    return { result: { ok: true, report, filename: file?.filename ?? '', at }, status: 200 };
  } catch (err) {
    const refused = asClientError(err) ?? serverBusy(err);
    if (!refused) {
      context.services.log.error({ err }, 'plagiarism check failed');
      return { result: { ok: false, message: MESSAGES.plagiarismFailure, reason: null, errors: {}, at }, status: 500 };
    }
    const noFile = refused.message === MESSAGES.plagiarismNoFile;
    return {
      result: {
        ok: false,
        message: noFile ? MESSAGES.plagiarismNoFile : MESSAGES.plagiarismFailure,
        reason: noFile ? null : refused.message,
        errors: refused.errors,
        at,
      },
      status: refused.status,
      headers: refused.headers,
    };
  }
}

/** The checker's 503 ("busy, try again"): a refusal to pass on, not a failure to log. */
function serverBusy(err: unknown) {
  const e = err as { status?: unknown; message?: unknown; headers?: unknown };
  if (e && e.status === 503 && typeof e.message === 'string') {
    return { status: 503, message: e.message, errors: {}, headers: e.headers as Record<string, string> | undefined };
  }
  return null;
}
