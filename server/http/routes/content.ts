import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import { journalSettingsEditSchema, logoHref } from '../../../common/journal.ts';
import { JOURNAL_LOGO_MAX_BYTES, JOURNAL_LOGO_RULE, fileLimit } from '../../../common/upload-rules.ts';
import { invalid, notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { readMultipart } from '../multipart.ts';

const errors = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  409: { description: 'Someone else saved the settings since `version`', schema: messageResponse },
};

const settingsResponse = z.object({
  settings: journalSettingsEditSchema,
  /** Send it back with a change: the change is refused (409) if someone saved in between. */
  version: z.string(),
});

/** The journal's settings for the admin: title, ISSN, publisher and contact, Crossref deposit, downloads. */
export function journalSettingsRoutes(api: Api, services: Services) {
  const { content } = services;

  api.route({
    method: 'GET',
    path: '/api/admin/journal-settings',
    tag: 'Administration',
    summary:
      "The journal's editable settings (title, ISSN, publisher, contact, DOI prefix, depositor, downloads)",
    auth: 'admin',
    responses: {
      200: { description: 'The settings', schema: settingsResponse },
      401: errors[401],
      403: errors[403],
    },
    handler: () => content.journalSettingsForEdit(),
  });

  api.route({
    method: 'PUT',
    path: '/api/admin/journal-settings',
    tag: 'Administration',
    summary:
      "Change the journal's editable settings (all fields; `version` guards against overwriting an edit)",
    auth: 'admin',
    body: journalSettingsEditSchema.extend({ version: z.string().max(64).optional() }),
    responses: {
      200: {
        description: 'Saved; the names of the settings that changed',
        schema: messageResponse.extend({ changed: z.array(z.string()), ...settingsResponse.shape }),
      },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      409: errors[409],
    },
    handler: async ({ auth, body }) => {
      const { version, ...edit } = body;
      const changed = await content.editJournalSettings(auth!.user, edit, version);
      return {
        message: changed.length ? 'The journal settings are saved.' : 'Nothing changed.',
        changed,
        ...(await content.journalSettingsForEdit()),
      };
    },
  });

  // The journal's logo (decision 0062): public to read, the admin's to set.
  const logoResponse = messageResponse.extend({
    logo: z.object({ href: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
  });

  api.route({
    method: 'GET',
    path: '/api/journal/logo',
    tag: 'Journal',
    summary: "The journal's logo (PNG or JPEG), as its pages and the site's home show it",
    description:
      'Asked for with `v` (the first 16 hex digits of its SHA-256, as the pages link it), the answer is cacheable for a year: a new logo has a new `v`.',
    auth: 'none',
    query: z.object({ v: z.string().max(64).optional() }),
    responses: {
      200: { description: 'The image', binary: 'image/png' },
      404: { description: 'The journal has no logo', schema: messageResponse },
    },
    handler: async ({ query, reply }) => {
      const logo = await content.logo();
      if (!logo) throw notFound('This journal has no logo.');
      const file = await services.files.get(logo.fileId);
      const current = query.v !== undefined && query.v === logo.sha256.slice(0, 16);
      reply
        .header('content-type', logo.mediaType)
        .header('content-length', String(file.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      return reply.send(await services.files.open(file));
    },
  });

  api.route({
    method: 'PUT',
    path: '/api/admin/journal-logo',
    tag: 'Administration',
    summary: "Set the journal's logo: a PNG or JPEG of at most 1 MB, 64 to 4,000 pixels a side",
    auth: 'admin',
    multipart: [{ name: 'logo', description: 'The image (.png, .jpg)', required: true }],
    responses: {
      200: { description: 'Saved', schema: logoResponse },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      413: { description: 'The image is larger than 1 MB', schema: messageResponse },
      415: { description: 'Not a PNG or JPEG image', schema: messageResponse },
      422: { description: 'Unreadable, or too small or too large in pixels', schema: messageResponse },
    },
    handler: async ({ auth, request }) => {
      const body = await readMultipart(request, {
        files: { logo: fileLimit(JOURNAL_LOGO_RULE, JOURNAL_LOGO_MAX_BYTES) },
      });
      const upload = body.files.logo;
      if (!upload) throw invalid('Choose the logo (a PNG or JPEG image).', { logo: 'Choose an image.' });
      const logo = await content.setLogo(auth!.user, upload);
      return {
        message: 'The logo is saved.',
        logo: { href: logoHref(services.journalUrl(), logo), width: logo.width, height: logo.height },
      };
    },
  });

  api.route({
    method: 'DELETE',
    path: '/api/admin/journal-logo',
    tag: 'Administration',
    summary: "Remove the journal's logo",
    auth: 'admin',
    responses: {
      200: { description: 'Removed', schema: logoResponse },
      401: errors[401],
      403: errors[403],
      404: { description: 'The journal has no logo', schema: messageResponse },
    },
    handler: async ({ auth }) => {
      await content.removeLogo(auth!.user);
      return { message: 'The logo is removed.', logo: null };
    },
  });
}
