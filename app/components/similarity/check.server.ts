import { MESSAGES } from '../../../common/messages.ts';
import { PLAGIARISM_RULE } from '../../../common/similarity-rules.ts';
import { fileLimit } from '../../../common/upload-rules.ts';
import { checkFiltersSchema, checkUploadedFile } from '../../../server/similarity/check-upload.ts';
import type { WebContext } from '../../../server/web-context.ts';
import { asClientError, type ClientError, readForm, validateForm } from '../../lib/forms.server.ts';
import { clientError, replyDone, replyRefused } from '../../lib/reply.server.ts';
import { optionFields } from './options.ts';

const FORM = 'plagiarism';

/** Thrown to the one refusal below: a refusal already worded (by the reader, the check). */
class Refused extends Error {
  constructor(readonly refusal: ClientError) {
    super(refusal.message);
  }
}

/**
 * /plagiarism posted without JavaScript: the same checks and the same check as POST /api/plagiarism. A refusal's
 * message is its specific reason (the page puts the spec's failure message above it: `plagiarismFailure` in
 * plagiarism.tsx), or `Please upload a file.`, or the failure message alone for a fault of ours (500, logged).
 */
export async function plagiarismFormPost(request: Request, context: WebContext) {
  const auth = context.auth;
  const max = context.services.config.MAX_MANUSCRIPT_SIZE;
  try {
    if (!auth) throw new Refused(clientError(401, MESSAGES.signInRequired));
    const read = await readForm(request, {
      files: { file: fileLimit(PLAGIARISM_RULE, max) },
      maxTextBytes: 16 * 1024,
    });
    if (!read.ok) throw new Refused(read.refusal);
    const { form } = read;
    const filters = validateForm(checkFiltersSchema, optionFields(form) ?? {});
    if (!filters.ok) throw new Refused(filters.refusal);
    const file = form.file('file') ?? undefined;
    const report = await checkUploadedFile(context.services, auth.user, file, filters.data);
    return replyDone(FORM, 'The similarity report is below.', {
      payload: { report, filename: file?.filename ?? '' },
    });
  } catch (err) {
    const refused = err instanceof Refused ? err.refusal : asClientError(err);
    if (refused) return replyRefused(FORM, refused);
    context.services.log.error({ err }, 'plagiarism check failed');
    return replyRefused(FORM, clientError(500, MESSAGES.plagiarismFailure));
  }
}
