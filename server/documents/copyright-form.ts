/**
 * The copyright transfer form as a PDF, typeset from the journal settings (copyright-form-layout.ts, decision
 * 0049). pdf-lib takes a few hundred milliseconds to load, and only a download of the form needs it here: it
 * is loaded then, not with the server.
 */
import type { JournalSettings } from '../../common/journal.ts';

export async function copyrightFormPdf(
  journal: JournalSettings,
  opts: { date?: Date } = {},
): Promise<Uint8Array> {
  return (await import('./copyright-form-layout.ts')).copyrightFormPdf(journal, opts);
}
