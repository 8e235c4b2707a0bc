import {
  decodePDFRawStream,
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
} from 'pdf-lib';
import {
  decodeXml,
  Found,
  isPersonalCustomProperty,
  PDF_COMMENTS,
  type PersonalProperty,
  problem,
  type PropertiesScan,
  Pseudonyms,
  textOf,
} from './shared.ts';

// ---------------------------------------------------------------------------------------------------------
// PDF: read with pdf.js (object streams, encryption without a user password), rewritten with pdf-lib

export const INFO_PERSONAL = new Set(['Author', 'Company', 'Manager']);
export const INFO_STANDARD = new Set([
  'Title',
  'Subject',
  'Keywords',
  'Creator',
  'Producer',
  'CreationDate',
  'ModDate',
  'Trapped',
]);

export function personalInfoKey(key: string, value: string): boolean {
  return INFO_PERSONAL.has(key) || (!INFO_STANDARD.has(key) && isPersonalCustomProperty(key, value));
}

/** XMP properties that name a person: Dublin Core's creator, Adobe's pdf:Author, Office's company and manager. */
export const XMP_PERSONAL: Record<string, string> = {
  'dc:creator': 'Creator',
  'pdf:Author': 'Author',
  'pdfx:Company': 'Company',
  'pdfx:Manager': 'Manager',
};
export const XMP_NAMES = Object.keys(XMP_PERSONAL).join('|');
export const XMP_ELEMENT = new RegExp(`<(${XMP_NAMES})\\b[^<>]*?(?:/>|>([\\s\\S]*?)</\\1\\s*>)`, 'g');
export const XMP_ATTRIBUTE = new RegExp(`\\s(${XMP_NAMES})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');

export const PDF_INFO = 'PDF properties';
export const PDF_XMP = 'PDF metadata (XMP)';

export const ANNOTATION_WIDGET = 20;

/** Earlier versions of a PDF read for names left behind by incremental saves: the last few. */
export const MAX_EARLIER_VERSIONS = 5;

export async function scanPdf(data: Buffer): Promise<PropertiesScan> {
  const found = new Found();
  const { encrypted } = await readPdfPeople(data, found);
  // What a reader shows is not all the file holds: a name removed with an incremental save ("Save" in
  // Acrobat) is still there in the version before, and an object nothing refers to any more (an information
  // dictionary replaced by a new one) is still there too. Every object of the file is read, each definition
  // of each; what they name that the document shown does not is listed as "(earlier version)".
  const current = new Set(found.list.map((p) => `${p.field}\u0000${p.value}`));
  const left = new Found();
  const objects = encrypted ? null : await everyPdfObject(data);
  if (objects) peopleInPdfObjects(objects, left);
  else {
    // An encrypted file's strings are read by pdf.js only: its last few versions, each as a document.
    for (const end of earlierVersions(data)) {
      try {
        await readPdfPeople(data.subarray(0, end), left);
      } catch {
        // a linearized file's first section, or a damaged version: not a document of its own
      }
    }
  }
  for (const p of left.list) {
    if (!current.has(`${p.field}\u0000${p.value}`))
      found.add(`${p.where} (earlier version)`, p.field, p.value);
  }
  if (encrypted && found.list.length > 0) {
    return {
      properties: found.list,
      removable: false,
      problem: problem(
        'encrypted',
        'This PDF is protected against changes, so a copy without these properties cannot be made. Please ask the author for a PDF without protection.',
      ),
    };
  }
  return { properties: found.list, removable: true, problem: null };
}

/**
 * Every object the bytes hold, read from first to last as pdf-lib parses a file: each definition of each
 * object number (an incremental save's earlier ones too), objects nothing refers to, and those inside object
 * streams. Null for an encrypted file (its strings are ciphertext to this reader) or one it cannot parse.
 */
export async function everyPdfObject(
  data: Buffer,
): Promise<{ context: PDFContext; objects: PDFObject[] } | null> {
  try {
    const parser = PDFParser.forBytesWithOptions(
      new Uint8Array(data),
      Number.POSITIVE_INFINITY,
      false,
      false,
    );
    const context = (parser as unknown as { context: PDFContext }).context;
    const objects: PDFObject[] = [];
    const assign = context.assign.bind(context);
    context.assign = (ref, object) => {
      objects.push(object);
      assign(ref, object);
    };
    await parser.parseDocument();
    return context.trailerInfo.Encrypt ? null : { context, objects };
  } catch {
    return null;
  }
}

export const INFO_LIKE_EXCLUDED = ['Type', 'Subtype', 'FT', 'Parent', 'Kids', 'Filter'].map((k) =>
  PDFName.of(k),
);

/**
 * The names in any object: an information dictionary (no /Type, /Subtype, field or stream keys: Info has
 * none) by the Info rule, a comment's /T, an XMP stream's creators and authors.
 */
export function peopleInPdfObjects(
  { context, objects }: { context: PDFContext; objects: PDFObject[] },
  found: Found,
) {
  const text = (value: PDFObject | undefined) =>
    pdfText(value instanceof PDFRef ? context.lookup(value) : value);
  for (const object of objects) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : null;
    if (!dict) continue;
    const type = dict.get(PDFName.of('Type'));
    const subtype = dict.get(PDFName.of('Subtype'));
    if (object instanceof PDFRawStream) {
      if (type !== PDFName.of('Metadata') && subtype !== PDFName.of('XML')) continue;
      try {
        withoutXmpPeople(Buffer.from(decodePDFRawStream(object).decode()).toString('utf8'), found);
      } catch {
        // a stream that does not decode holds nothing a reader could show either
      }
      continue;
    }
    if (subtype instanceof PDFName && subtype !== PDFName.of('Widget') && !dict.has(PDFName.of('FT'))) {
      const title = text(dict.get(PDFName.of('T')));
      if (title) found.add(PDF_COMMENTS, 'Author', title);
      continue;
    }
    if (INFO_LIKE_EXCLUDED.some((key) => dict.has(key))) continue;
    for (const [key, value] of dict.entries()) {
      const name = key.decodeText();
      const v = text(value);
      if (v && personalInfoKey(name, v)) found.add(PDF_INFO, name, v);
    }
  }
}

/** Where each version but the last ends (after its %%EOF), the latest few. */
export function earlierVersions(data: Buffer): number[] {
  const ends: number[] = [];
  for (let at = data.indexOf('%%EOF'); at >= 0; at = data.indexOf('%%EOF', at + 5)) ends.push(at + 5);
  const last = data.subarray(Math.max(0, data.length - 1024)).lastIndexOf('%%EOF');
  const finalEnd = last < 0 ? data.length : Math.max(0, data.length - 1024) + last + 5;
  return ends.filter((end) => end < finalEnd).slice(-MAX_EARLIER_VERSIONS);
}

/** The names in a PDF's Info dictionary, XMP metadata and comments, read by pdf.js; and whether it is encrypted. */
export async function readPdfPeople(data: Buffer, found: Found): Promise<{ encrypted: boolean }> {
  const { getDocumentProxy } = await import('unpdf');
  // pdf.js takes ownership of the array it is given: pass a copy.
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false });
  try {
    const { info, metadata } = (await pdf.getMetadata()) as unknown as {
      info: Record<string, unknown> & { Custom?: Record<string, unknown>; EncryptFilterName?: string | null };
      metadata: { getRaw(): unknown } | null;
    };
    // pdf.js gives the standard entries (and facts of its own) by name, the others under Custom.
    if (typeof info.Author === 'string') found.add(PDF_INFO, 'Author', info.Author);
    for (const [key, value] of Object.entries(info.Custom ?? {})) {
      if (typeof value === 'string' && personalInfoKey(key, value)) found.add(PDF_INFO, key, value);
    }
    const xmp = metadata?.getRaw();
    if (typeof xmp === 'string') withoutXmpPeople(xmp, found);
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const annotations = (await page.getAnnotations()) as {
        annotationType: number;
        titleObj?: { str?: string };
      }[];
      for (const annotation of annotations) {
        const title = annotation.titleObj?.str;
        if (annotation.annotationType !== ANNOTATION_WIDGET && title)
          found.add(PDF_COMMENTS, 'Author', title);
      }
      page.cleanup();
    }
    return { encrypted: Boolean(info.EncryptFilterName) };
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

/**
 * Drops every object the document does not reach from its trailer (catalog, Info): the copy is written from
 * what is left, so an information dictionary, an XMP packet or a comment that nothing refers to any more is
 * not carried into it.
 */
export function dropUnreachable(context: PDFContext): void {
  const reached = new Set<string>();
  const pending: (PDFObject | undefined)[] = [context.trailerInfo.Root, context.trailerInfo.Info];
  while (pending.length) {
    const object = pending.pop();
    if (object instanceof PDFRef) {
      if (reached.has(object.tag)) continue;
      reached.add(object.tag);
      pending.push(context.lookup(object));
    } else if (object instanceof PDFDict) {
      for (const [, value] of object.entries()) pending.push(value);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    } else if (object instanceof PDFStream) {
      pending.push(object.dict);
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reached.has(ref.tag)) context.delete(ref);
  }
}

export function pdfText(value: unknown): string {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : '';
}

export async function stripPdf(data: Buffer, properties: PersonalProperty[]): Promise<Buffer> {
  // A damaged object is an error, not a warning on the console and an object missing from the copy.
  const doc = await PDFDocument.load(new Uint8Array(data), {
    updateMetadata: false,
    throwOnInvalidObject: true,
  });
  const { context } = doc;

  const info = context.lookup(context.trailerInfo.Info);
  if (info instanceof PDFDict) {
    for (const key of info.keys()) {
      if (personalInfoKey(key.decodeText(), pdfText(info.get(key)))) info.delete(key);
    }
  }

  const metadataRef = doc.catalog.get(PDFName.of('Metadata'));
  const metadata = metadataRef ? context.lookup(metadataRef) : undefined;
  if (metadata instanceof PDFRawStream) {
    const xmp = Buffer.from(decodePDFRawStream(metadata).decode()).toString('utf8');
    const stripped = withoutXmpPeople(xmp, new Found());
    if (stripped !== xmp) {
      const stream = context.stream(Buffer.from(stripped, 'utf8'), { Type: 'Metadata', Subtype: 'XML' });
      if (metadataRef && metadataRef !== metadata) context.assign(metadataRef as never, stream);
      else doc.catalog.set(PDFName.of('Metadata'), context.register(stream));
    }
  }

  const names = new Pseudonyms(properties);
  for (const page of doc.getPages()) {
    const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; annotations && i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, PDFDict);
      if (!annotation || annotation.get(PDFName.of('Subtype')) === PDFName.of('Widget')) continue;
      const title = pdfText(annotation.lookup(PDFName.of('T')));
      if (title) annotation.set(PDFName.of('T'), PDFHexString.fromText(names.of(title)));
    }
  }
  // A rewrite, not an incremental update: an update would leave the old values in the file for anyone to read;
  // and only what the document reaches is written, so no earlier object is carried over either.
  dropUnreachable(context);
  return Buffer.from(
    await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false }),
  );
}

/**
 * The XMP packet without the properties of XMP_PERSONAL, written as elements (a list of rdf:li, or a value)
 * or as attributes of rdf:Description; each one removed is given to `found`.
 */
export function withoutXmpPeople(xmp: string, found: Found): string {
  return xmp
    .replace(XMP_ELEMENT, (_whole, name: string, content = '') => {
      const items = [...content.matchAll(/<rdf:li\b[^>]*>([\s\S]*?)<\/rdf:li\s*>/g)].map((m) => textOf(m[1]));
      for (const item of items.length > 0 ? items : [textOf(content)])
        found.add(PDF_XMP, XMP_PERSONAL[name], item);
      return '';
    })
    .replace(XMP_ATTRIBUTE, (_whole, name: string, double?: string, single?: string) => {
      found.add(PDF_XMP, XMP_PERSONAL[name], decodeXml(double ?? single ?? ''));
      return '';
    });
}
