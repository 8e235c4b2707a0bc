import type { Equation } from '../document.ts';
import { ZIP_LIMITS, type ZipDirectory, readZipDirectory, readZipEntry, replaceZipEntries } from '../../content/zip.ts';
import { prepare } from './equations.ts';

/**
 * mammoth's document model (its lib/documents.js, the part we read), and reading a .docx into it: the parts
 * mammoth would drop are prepared first (equations.ts); the ZIP is our own reader (decision 0044).
 */

/** What the journal already knows: front matter comes from here, and the file's copy of it is left out. */
export interface KnownFront {
  title: string;
  abstract: string;
  keywords: string;
  authors: { name: string; email: string; affiliation: string }[];
}

/** A Word file that cannot be converted: the message says why, for the person who uploaded it. */
export class ConversionError extends Error {}

// ---- mammoth's document model (lib/documents.js), the part we read -------------------------------------

export interface MText {
  type: 'text';
  value: string;
}
export interface MRun {
  type: 'run';
  children: MNode[];
  isBold: boolean;
  isItalic: boolean;
  verticalAlignment: 'baseline' | 'superscript' | 'subscript';
}
export interface MHyperlink {
  type: 'hyperlink';
  children: MNode[];
  href?: string;
  anchor?: string;
}
export interface MImage {
  type: 'image';
  altText?: string;
  contentType?: string;
  readAsBuffer(): Promise<Buffer>;
}
export interface MParagraph {
  type: 'paragraph';
  children: MNode[];
  styleId: string | null;
  styleName: string | null;
  numbering: { level: string; isOrdered: boolean } | null;
}
export interface MTableCell {
  type: 'tableCell';
  children: MNode[];
  colSpan: number;
  rowSpan: number;
}
export interface MTableRow {
  type: 'tableRow';
  children: MTableCell[];
  isHeader: boolean;
}
export interface MTable {
  type: 'table';
  children: MTableRow[];
}
export type MNode =
  | MText
  | MRun
  | MHyperlink
  | MImage
  | MParagraph
  | MTable
  | MTableRow
  | MTableCell
  | { type: 'tab' | 'bookmarkStart' | 'commentReference' }
  | { type: 'checkbox'; checked: boolean }
  | { type: 'break'; breakType: string }
  | { type: 'noteReference'; noteType: string; noteId: string };
export interface MDocument {
  children: MNode[];
  notes: { resolve(ref: { noteType: string; noteId: string }): { body: MNode[] } | null };
}

// ---- Reading the file -------------------------------------------------------------------------------

export const UNREADABLE =
  'The Word file could not be read: it is damaged or is not a Word document. Open it in Word, save it again as .docx and upload it again, or publish with the PDF alone.';

export async function readDocx(
  data: Buffer,
): Promise<{ doc: MDocument; equations: (Equation & { reason?: string })[] }> {
  let directory: ZipDirectory;
  try {
    directory = readZipDirectory(data);
  } catch {
    throw new ConversionError(UNREADABLE);
  }
  const entries = new Map(directory.entries.map((e) => [e.name, e]));
  if (!entries.has('word/document.xml')) throw new ConversionError(UNREADABLE);
  const equations: (Equation & { reason?: string })[] = [];
  // Only the parts the pass changes are written again; every other entry is copied byte for byte.
  const changed = new Map<string, Uint8Array>();
  try {
    for (const part of ['word/document.xml', 'word/footnotes.xml', 'word/endnotes.xml']) {
      const entry = entries.get(part);
      if (!entry) continue;
      const prepared = prepare(readZipEntry(data, entry, ZIP_LIMITS.maxXmlBytes).toString('utf8'), equations);
      if (prepared === null) continue;
      changed.set(part, Buffer.from(prepared, 'utf8'));
    }
  } catch (err) {
    if (err instanceof ConversionError) throw err;
    throw new ConversionError(UNREADABLE);
  }
  const rewritten = changed.size ? replaceZipEntries(data, directory, changed) : data;
  let doc: MDocument | undefined;
  // Loaded on the first conversion, not with the server (decision 0021: start-up and idle memory).
  const mammoth = (await import('mammoth')).default;
  try {
    await mammoth.convertToHtml(
      { buffer: rewritten },
      {
        transformDocument: (d: MDocument) => {
          doc = d;
          return d;
        },
        // The HTML is not used: images are read from the document model, never inlined as data URIs.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
  } catch {
    throw new ConversionError(UNREADABLE);
  }
  if (!doc) throw new ConversionError(UNREADABLE);
  return { doc, equations };
}
