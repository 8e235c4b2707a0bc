/**
 * The demo articles' PDFs and the copyright form, typeset by pdf-layout.ts. pdf-lib takes a few hundred
 * milliseconds to load, and only a first start (the demo PDFs) and a download of the copyright form need
 * it: it is loaded then, not with the server.
 */
import type { JournalSettings } from '../../common/journal.ts';
import type { ArticlePdfInput } from './pdf-layout.ts';

export type { ArticlePdfInput } from './pdf-layout.ts';

export async function articlePdf(input: ArticlePdfInput): Promise<{ bytes: Uint8Array; pageCount: number }> {
  return (await import('./pdf-layout.ts')).articlePdf(input);
}

export async function copyrightFormPdf(
  journal: JournalSettings,
  opts: { date?: Date } = {},
): Promise<Uint8Array> {
  return (await import('./pdf-layout.ts')).copyrightFormPdf(journal, opts);
}
