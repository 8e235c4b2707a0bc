import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  IMPORT_FILE_FIELD,
  IMPORT_FILE_HINT,
  IMPORT_MAX_FILES,
  importFieldsSchema,
  importRunResponse,
} from '../../../common/imports.ts';
import { formatBytes } from '../../../common/upload-rules.ts';
import { can } from '../../../common/roles.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import type { AuthContext } from '../../accounts/service.ts';
import { forbidden, parseInput } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { asHttpError } from '../errors.ts';
import { readMultipartToDisk } from '../multipart.ts';

const NOT_SITE_ADMIN = 'Only a site admin imports journals.';

/** A browser's form sent without JavaScript: it is answered with pages, not JSON. */
function wantsPage(accept: string | undefined): boolean {
  const a = (accept ?? '').toLowerCase();
  return a.includes('text/html') && !a.includes('application/json');
}

/**
 * The site admin's OJS imports (issue 26, decision 0069): upload exports (streamed to disk, never held in memory)
 * to start a run, and follow the runs. Signed in is checked by the registry; being the site's admin here.
 */
export function importRoutes(api: Api, services: Services) {
  const intake = services.ojsImports;
  const requireSiteAdmin = async (auth: AuthContext | null) => {
    const siteAdmin = auth ? await services.journalAdmin.isSiteAdmin(auth.user.id) : false;
    if (!auth || !can('siteAdmin', { ...auth.user, siteAdmin })) throw forbidden(NOT_SITE_ADMIN);
  };
  const refusals = {
    401: { description: 'Not signed in', schema: messageResponse },
    403: { description: 'Not a site admin', schema: messageResponse },
  };
  const runAnswer = messageResponse.extend({ run: importRunResponse });
  const maxBytes = services.config.IMPORT_MAX_BYTES;

  api.route({
    method: 'POST',
    path: '/api/admin/imports',
    tag: 'Site',
    summary: 'Import OJS exports (Native XML and Users XML) into a journal, as a job',
    description: `For site admins only. Multipart: \`journal\` (an existing journal's path) or \`newPath\` and \`newTitle\` (a new journal, with you as its first editor), \`oldPath\` (the journal's path on the OJS site, for redirects), \`dryRun\` and \`sendPasswordLinks\` (true/false), and one or more \`${IMPORT_FILE_FIELD}\` parts. The files stream to disk; together at most ${formatBytes(maxBytes)}. Answers 202 with the run (follow it at the Location). A browser form (Accept: text/html) is answered with a 303 to the run's page.`,
    auth: 'signedIn',
    body: importFieldsSchema,
    multipart: [{ name: IMPORT_FILE_FIELD, description: `${IMPORT_FILE_HINT}; one or more`, required: true }],
    responses: {
      202: { description: 'Started: the run, queued', schema: runAnswer },
      303: { description: 'A browser form: to the run’s page (or back to the form, refused)' },
      400: { description: 'A field is missing or malformed, or no file', schema: messageResponse },
      ...refusals,
      409: { description: 'The new journal’s path is, or was, another journal’s', schema: messageResponse },
      413: { description: 'The upload is larger than IMPORT_MAX_BYTES', schema: messageResponse },
      415: { description: 'A file is not XML, or not sent as multipart/form-data', schema: messageResponse },
      507: { description: 'The server’s disk is full: nothing was kept', schema: messageResponse },
    },
    handler: async ({ auth, request, reply }) => {
      const page = wantsPage(request.headers.accept);
      let folder: string | null = null;
      try {
        await requireSiteAdmin(auth);
        folder = await intake.newFolder();
        const body = await readMultipartToDisk(request, {
          toDisk: {
            [IMPORT_FILE_FIELD]: {
              dir: folder,
              maxBytes,
              maxFiles: IMPORT_MAX_FILES,
              tooLarge: `The upload is too large: OJS exports of at most ${formatBytes(maxBytes)} together.`,
            },
          },
        });
        const fields = parseInput(importFieldsSchema, body.fields);
        const run = await intake.start(auth!.user, fields, folder, body.saved);
        folder = null; // the run's now
        if (page) return reply.code(303).header('location', `/admin/imports/${run.id}`).send();
        reply.code(202).header('location', `/api/admin/imports/${run.id}`);
        return {
          message: run.dryRun ? 'The dry run has started.' : 'The import has started.',
          run,
        };
      } catch (err) {
        if (folder) await intake.discard(folder);
        const refused = page ? asHttpError(err) : null;
        if (refused && refused.status !== 401) {
          // No JavaScript: back to the form, with the refusal in words (never a page of JSON).
          const back = new URLSearchParams({ refused: refused.message });
          if (!request.raw.complete) reply.header('connection', 'close');
          return reply.code(303).header('location', `/admin/imports?${back}`).send();
        }
        throw err;
      }
    },
  });

  api.route({
    method: 'GET',
    path: '/api/admin/imports',
    tag: 'Site',
    summary: 'The OJS imports of every journal, newest first, with their progress and reports',
    description: 'For site admins only.',
    auth: 'signedIn',
    responses: {
      200: { description: 'The runs', schema: z.object({ runs: z.array(importRunResponse) }) },
      ...refusals,
    },
    handler: async ({ auth }) => {
      await requireSiteAdmin(auth);
      return { runs: await intake.list() };
    },
  });

  api.route({
    method: 'GET',
    path: '/api/admin/imports/:id',
    tag: 'Site',
    summary: 'One OJS import: its state, items done of the total, the current item, and its report when done',
    description: 'For site admins only. Poll it while the run is queued or running.',
    auth: 'signedIn',
    params: idParamSchema,
    responses: {
      200: { description: 'The run', schema: z.object({ run: importRunResponse }) },
      ...refusals,
      404: { description: 'No such import', schema: messageResponse },
    },
    handler: async ({ auth, params }) => {
      await requireSiteAdmin(auth);
      return { run: await intake.get(params.id) };
    },
  });

  api.route({
    method: 'POST',
    path: '/api/admin/imports/:id/run',
    tag: 'Site',
    summary: 'Run a finished dry run for real, with the same files',
    description:
      'For site admins only. 409 when the run is not a finished dry run, or its files are no longer on the server (upload them again).',
    auth: 'signedIn',
    params: idParamSchema,
    responses: {
      202: { description: 'Started: the new run', schema: runAnswer },
      303: { description: 'A browser form: to the new run’s page' },
      ...refusals,
      404: { description: 'No such import', schema: messageResponse },
      409: { description: 'Not a finished dry run, or its files are gone', schema: messageResponse },
    },
    handler: async ({ auth, params, request, reply }) => {
      await requireSiteAdmin(auth);
      const run = await intake.runForReal(auth!.user, params.id);
      if (wantsPage(request.headers.accept))
        return reply.code(303).header('location', `/admin/imports/${run.id}`).send();
      reply.code(202).header('location', `/api/admin/imports/${run.id}`);
      return { message: 'The import has started.', run };
    },
  });
}
