import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import { journalSettingsEditSchema } from '../../../common/journal.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

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
}
