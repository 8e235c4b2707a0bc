import type { Route } from './+types/copyright-form';
import { attachmentDisposition } from '../../common/filenames.ts';

/** The copyright transfer form as a PDF download, generated from the journal settings. */
export async function loader({ context }: Route.LoaderArgs) {
  const form = await context.services.content.copyrightForm();
  return new Response(new Uint8Array(form.bytes), {
    headers: {
      'Content-Type': form.mediaType,
      'Content-Disposition': attachmentDisposition(form.filename),
      'Content-Length': String(form.bytes.byteLength),
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
