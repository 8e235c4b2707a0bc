import { createReadableStreamFromReadable } from '@react-router/node';
import type { StoredFile } from '../../server/files/service.ts';
import type { WebContext } from '../../server/web-context.ts';
import { asClientError } from '../lib/forms.server.ts';
import { reviewerAccess } from '../lib/review-access.server.ts';
import { parseId } from '../lib/route-params.ts';
import type { Route } from './+types/reviews.$id.files';

/**
 * A reviewer's downloads, beside their assignment's page (so the link's cookie, scoped to `/reviews/{id}`,
 * reaches them): `/reviews/{id}/files/{fileId}` (the round's files, once accepted) and
 * `/reviews/{id}/attachment` (their review's attached file). Refusals are plain sentences.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const fileId = params.fileId === undefined ? null : parseId(params.fileId);
  if (!id || (params.fileId !== undefined && !fileId)) return refusal(404, 'Not found.');
  const access = reviewerAccess(request, context, id);
  if (!access) return refusal(401, 'Open the link from your invitation e-mail, or sign in.');
  try {
    const { name, file } = fileId
      ? await context.services.review.file(access, id, fileId)
      : await context.services.review.attachment(access, id);
    return await send(context, request, name, file);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return refusal(refused.status, refused.message, refused.headers);
  }
}

/** The whole file, or the range a `Range` header asks for (the API's downloads answer the same way). */
async function send(context: WebContext, request: Request, name: string, file: StoredFile) {
  const download = await context.services.files.download(file, name, {
    range: request.headers.get('range') ?? undefined,
    ifRange: request.headers.get('if-range') ?? undefined,
  });
  return new Response(createReadableStreamFromReadable(download.body), {
    status: download.status,
    headers: download.headers,
  });
}

function refusal(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message, {
    status,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
