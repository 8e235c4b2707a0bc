import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  PRESERVATION_SYSTEMS,
  type PreservationSystem,
  SYSTEM_NAMES,
  manifestPath,
  preservationResponse,
  preservationSettingsSchema,
} from '../../../common/preservation.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import { escapeAttr } from '../../discovery/xml.ts';
import { isDomainError } from '../../errors.ts';
import { downloadRequest, partialDownloadResponses } from '../../files/download.ts';
import type { Manifest } from '../../preservation/service.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { destinationOf } from '../journals.ts';
import { STATUS_OF } from '../errors.ts';

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'Not found', schema: messageResponse },
};

/** The editor's archive page and the admin's preservation settings (decision 0065). */
export function preservationRoutes(api: Api, services: Services) {
  const { preservation } = services;

  api.route({
    method: 'GET',
    path: '/api/editor/preservation',
    tag: 'Preservation',
    summary:
      "The journal's preservation settings, its manifests' addresses and each issue's latest archive package",
    auth: 'editorial',
    responses: {
      200: { description: 'The overview', schema: preservationResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: () => preservation.overview(),
  });

  api.route({
    method: 'PUT',
    path: '/api/admin/preservation',
    tag: 'Administration',
    summary:
      'Switch the LOCKSS and CLOCKSS manifest pages on or off; list the preservation crawlers’ addresses',
    description:
      'While a manifest is on, requests from the listed IP addresses or CIDR ranges may download the journal’s PDFs without an account (decision 0065).',
    auth: 'admin',
    body: preservationSettingsSchema,
    responses: {
      200: {
        description: 'Saved',
        schema: z.object({ message: z.string(), settings: preservationSettingsSchema }),
      },
      400: errors[400],
      401: errors[401],
      403: errors[403],
    },
    handler: async ({ auth, body }) => ({
      message: 'The preservation settings are saved.',
      settings: await preservation.editSettings(auth!.user, body),
    }),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/preservation/issues/:id/bag',
    tag: 'Preservation',
    summary: "Download an issue's latest archive package: its BagIt bag as a ZIP",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The ZIP of the bag', binary: 'application/zip' },
      ...partialDownloadResponses,
      401: errors[401],
      403: errors[403],
      404: { description: 'No such issue, or no package made yet', schema: messageResponse },
    },
    handler: async ({ params, request, reply }) => {
      const { file, name } = await preservation.bagFile(params.id);
      const download = await services.files.download(file, name, downloadRequest(request));
      return reply
        .code(download.status)
        .headers({ ...download.headers, 'content-type': 'application/zip' })
        .send(download.body);
    },
  });

  api.route({
    method: 'POST',
    path: '/api/editor/preservation/issues/:id/bag',
    tag: 'Preservation',
    summary: "Make an issue's archive package again (by a job, at once)",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      202: { description: 'Queued', schema: messageResponse },
      401: errors[401],
      403: errors[403],
      404: errors[404],
      422: { description: 'The issue has no published article', schema: messageResponse },
    },
    handler: async ({ auth, params, reply }) => {
      await preservation.remake(auth!.user, params.id);
      reply.code(202);
      return { message: 'The archive package is being made again: it is listed here when it is ready.' };
    },
  });
}

/** A manifest page: plain HTML a crawler reads without scripts, every address absolute (the journal's). */
export function manifestHtml(
  m: Manifest,
  journal: { name: string; issnOnline: string; publisher: string },
  base: string,
): string {
  const system = SYSTEM_NAMES[m.system];
  const heading = m.kind === 'years' ? `${system} manifest` : `${system} manifest for ${m.year}`;
  const body: string[] = [];
  if (m.kind === 'years') {
    body.push(
      m.years.length
        ? `<h2>Archival Units by year</h2>\n<ul>\n${m.years
            .map((y) => `<li><a href="${escapeAttr(base + manifestPath(m.system, y))}">${y}</a></li>`)
            .join('\n')}\n</ul>`
        : '<p>No issue has been published yet.</p>',
    );
  } else {
    for (const issue of m.issues) {
      const issueUrl = `${base}/volumes?volume=${issue.volume}&issue=${issue.number}`;
      body.push(
        `<h2><a href="${escapeAttr(issueUrl)}">Volume ${issue.volume}, issue ${issue.number} (${issue.year}): ${escapeAttr(issue.title)}</a></h2>`,
      );
      body.push(
        `<ul>\n${issue.articles
          .map((a) => {
            const links = [`<a href="${escapeAttr(`${base}/article/${a.id}`)}">${escapeAttr(a.title)}</a>`];
            if (a.hasPdf)
              links.push(`<a href="${escapeAttr(`${base}/api/articles/${a.id}/download`)}">PDF</a>`);
            links.push(`<a href="${escapeAttr(`${base}/article/${a.id}/jats.xml`)}">JATS XML</a>`);
            return `<li>${links.join(' · ')}</li>`;
          })
          .join('\n')}\n</ul>`,
      );
    }
    body.push(`<p><a href="${escapeAttr(base + manifestPath(m.system))}">Every year</a></p>`);
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttr(`${heading} · ${journal.name}`)}</title>
</head>
<body>
<main>
<h1>${escapeAttr(journal.name)}</h1>
<p>${escapeAttr(heading)}${journal.issnOnline ? ` · ISSN ${escapeAttr(journal.issnOnline)} (online)` : ''} · ${escapeAttr(journal.publisher)}</p>
${body.join('\n')}
<p>${escapeAttr(m.statement)}</p>
<p><a href="${escapeAttr(`${base}/`)}">${escapeAttr(journal.name)}</a></p>
</main>
</body>
</html>
`;
}

function htmlMessage(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${escapeAttr(message)}</title>\n</head>\n<body>\n<main>\n<h1>${escapeAttr(message)}</h1>\n</main>\n</body>\n</html>\n`,
    );
}

/**
 * The LOCKSS and CLOCKSS manifest pages at each journal's address (`/gateway/lockss?year=YYYY`, the addresses
 * of OJS's gateway plugin): plain routes, before the pages; 404 while the journal has the system off.
 */
export function manifestRoutes(app: FastifyInstance, services: Services) {
  for (const system of PRESERVATION_SYSTEMS) {
    app.get<{ Querystring: { year?: string | string[] } }>(
      manifestPath(system as PreservationSystem),
      async (request, reply) => {
        if (destinationOf(request)?.kind === 'site') return htmlMessage(reply, 404, 'Not found.');
        const year = request.query.year;
        try {
          const manifest = await services.preservation.manifest(system, Array.isArray(year) ? year[0] : year);
          const journal = await services.settings.journal();
          return reply
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-cache')
            .send(manifestHtml(manifest, journal, services.journalUrl()));
        } catch (err) {
          if (!isDomainError(err)) throw err;
          return htmlMessage(reply, STATUS_OF[err.code] ?? 400, err.message);
        }
      },
    );
  }
}
