import { PassThrough } from 'node:stream';
import { messageResponse } from '../../../common/api.ts';
import { attachmentDisposition } from '../../../common/filenames.ts';
import { type Sink, sinkOf } from '../../ojs/export/sink.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const errors = {
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  422: { description: 'Nothing to export (no issue, no account)', schema: messageResponse },
};

/**
 * An export written into the answer as it is made. Until its first piece, a refusal is an ordinary error
 * answer (its status and message); after it, a failure can only cut the answer short, and is logged.
 */
async function streamed(services: Services, write: (sink: Sink) => Promise<unknown>): Promise<PassThrough> {
  const body = new PassThrough();
  const inner = sinkOf(body);
  let wrote = false;
  let started!: () => void;
  const first = new Promise<void>((resolve) => {
    started = resolve;
  });
  const sink: Sink = {
    write(piece) {
      wrote = true;
      started();
      return inner.write(piece);
    },
  };
  const done = write(sink).then(() => {
    body.end();
  });
  // After the first piece, a failure cuts the answer short (Fastify ends the response); it is logged.
  done.catch((err: unknown) => {
    if (!wrote) return;
    services.log.warn({ err }, 'An OJS export stopped before its end.');
    body.destroy(err as Error);
  });
  // Before it, the refusal is the answer: its status and message.
  await Promise.race([first, done]);
  return body;
}

/** The journal admin's downloads of the journal as OJS would have it (decision 0068). */
export function ojsExportRoutes(api: Api, services: Services) {
  api.route({
    method: 'GET',
    path: '/api/admin/export/ojs.xml',
    tag: 'Administration',
    summary: "The journal's issues and articles as OJS 3.4 Native XML, with every file embedded",
    description:
      'Streamed as it is written: each issue with its sections, cover and articles; each article with its PDF and other files (base64), its publication, authors, galleys and references. Import it in OJS with Tools → Import/Export → Native XML.',
    auth: 'admin',
    responses: { 200: { description: 'The Native XML', binary: 'application/xml' }, ...errors },
    handler: async ({ reply }) => {
      const body = await streamed(services, (sink) => services.ojsExport.native(sink));
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', attachmentDisposition('issues.xml'))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/admin/export/users.xml',
    tag: 'Administration',
    summary: "The journal's accounts as OJS 3.4 Users XML",
    description:
      'Every account with a role in this journal, in the OJS user group of its role (and Reviewer for reviewers). Passwords go as argon2id hashes, which OJS cannot check: people set a new one there.',
    auth: 'admin',
    responses: { 200: { description: 'The Users XML', binary: 'application/xml' }, ...errors },
    handler: async ({ reply }) => {
      const body = await streamed(services, (sink) => services.ojsExport.users(sink));
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', attachmentDisposition('users.xml'))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  });
}
