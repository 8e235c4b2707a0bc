import type { WebContext } from '../../server/web-context.ts';

/** Every call for papers with its status now, and what the special-issue pages' heads need. */
export async function loadSpecialIssues(context: WebContext, path: string) {
  const { content, settings } = context.services;
  const baseUrl = context.services.journalUrl();
  const [issues, journal] = await Promise.all([content.specialIssues(new Date()), settings.journal()]);
  return { issues, journalName: journal.name, email: journal.email, canonicalUrl: `${baseUrl}${path}` };
}
