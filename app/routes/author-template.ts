import type { Route } from './+types/author-template';
import { attachmentDisposition } from '../../common/filenames.ts';

/** The manuscript templates linked from /instructions (Word and LaTeX), generated from the journal settings. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const file = await context.services.content.template(params.file);
  if (!file) {
    return new Response('No such template.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'Content-Type': file.mediaType,
      'Content-Disposition': attachmentDisposition(file.filename),
      'Content-Length': String(file.bytes.byteLength),
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
