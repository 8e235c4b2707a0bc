/**
 * The properties of a manuscript file that name a person or an organisation (a Word file's document
 * properties, the authors of its comments and tracked changes, a PDF's Author), and a copy of the file
 * without them, for double-anonymous review: the author's original is never touched.
 *
 * Pure functions over bytes. A file that cannot be read is an answer (`problem`), never an exception; ZIP
 * entries are inflated under a ceiling, so a "zip bomb" is refused rather than read. What counts as naming
 * a person is decision 0024.
 */
import {
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
  decodePDFRawStream,
} from 'pdf-lib';
import {
  type ZipDirectory,
  type ZipEntry,
  ZipError,
  hiddenZipEntries,
  readZipDirectory,
  readZipEntry,
  replaceZipEntries,
} from '../content/zip.ts';
import { type DetectedKind, MEDIA_TYPES, detectKind, wordEncrypted } from './content-type.ts';
import { guardZip } from './zip-guard.ts';

export interface PersonalProperty {
  /** Where in the file, in an editor's words: "Document properties", "Tracked changes", "PDF metadata (XMP)". */
  where: string;
  /** "Author", "Last modified by", "Company", a custom property's own name. */
  field: string;
  value: string;
}

export type PropertiesProblemCode =
  | 'unsupported'
  | 'unreadable'
  | 'encrypted'
  | 'too_large'
  | 'not_removable';

export interface PropertiesProblem {
  code: PropertiesProblemCode;
  /** A sentence for the editor. */
  message: string;
}

export interface PropertiesScan {
  /** Each property once (same place, field and value), in the order found. */
  properties: PersonalProperty[];
  /** Whether `withoutPersonalProperties` can make a copy without every listed property. */
  removable: boolean;
  /** Why the file could not be checked fully, or why its properties cannot be removed; null when neither. */
  problem: PropertiesProblem | null;
}

export type CopyWithoutProperties =
  | { ok: true; bytes: Buffer; removed: PersonalProperty[] }
  | ({ ok: false } & PropertiesProblem);

export const PROPERTIES_MESSAGES: Record<PropertiesProblemCode, string> = {
  unsupported: 'Only the properties of Word (.doc, .docx) and PDF files can be checked.',
  unreadable:
    'This file could not be read, so its properties could not be checked for names. Please open it and check its properties before sending it to reviewers.',
  encrypted:
    'This file is password-protected, so its properties could not be checked for names. Please ask the author for a copy without a password.',
  too_large:
    'This file is too large once uncompressed to be checked for names. Please check its properties before sending it to reviewers.',
  not_removable:
    'The names in this file cannot be removed automatically. Please ask the author for a copy without them.',
};

/** "Document properties: Author — Jane Doe". */
export function describeProperty(property: PersonalProperty): string {
  return `${property.where}: ${property.field} — ${property.value}`;
}

/** The text that replaces a name: "Anonymous" when the file names one person, "Anonymous 1", "Anonymous 2"… otherwise. */
export const ANONYMOUS = 'Anonymous';

/**
 * Each ZIP entry read at most this size once inflated (a document.xml of thousands of pages), and all of them
 * together at most twice that: a part is held as bytes and as text while it is rewritten.
 */
const MAX_PART_BYTES = 32 * 1024 * 1024;
const MAX_TOTAL_BYTES = 2 * MAX_PART_BYTES;

type HandledKind = 'docx' | 'pdf' | 'doc';

function problem(code: PropertiesProblemCode, message = PROPERTIES_MESSAGES[code]): PropertiesProblem {
  return { code, message };
}

const unreadableScan = (p: PropertiesProblem): PropertiesScan => ({
  properties: [],
  removable: false,
  problem: p,
});

/**
 * What a file was stored as: its kind (`detectKind`) or its media type (files' `media_type`,
 * "application/pdf").
 */
export type StoredType = DetectedKind | (string & {});

/**
 * The file's content decides how it is read; `type` is what it was stored as, and a file whose bytes are
 * not that kind is reported unreadable, never parsed as what it claims to be.
 */
function kindOf(bytes: Uint8Array, type: StoredType): HandledKind | PropertiesProblem {
  const stored = type.includes('/')
    ? (Object.entries(MEDIA_TYPES).find(
        ([, media]) => media === type.split(';')[0].trim().toLowerCase(),
      )?.[0] ?? null)
    : type;
  if (stored !== 'pdf' && stored !== 'docx' && stored !== 'doc') return problem('unsupported');
  return detectKind(asBuffer(bytes)) === stored ? stored : problem('unreadable');
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The properties of a .docx, .doc or PDF that name a person or an organisation. Never throws. */
export async function personalProperties(bytes: Uint8Array, type: StoredType): Promise<PropertiesScan> {
  const kind = kindOf(bytes, type);
  if (typeof kind !== 'string') return unreadableScan(kind);
  const data = asBuffer(bytes);
  try {
    if (kind === 'docx') {
      await guardZip(data);
      return scanDocx(data);
    }
    if (kind === 'pdf') return await scanPdf(data);
    return scanDoc(data);
  } catch (err) {
    return unreadableScan(asProblem(err));
  }
}

/**
 * A new file without the properties `personalProperties` lists: emptied, or for the authors of comments and
 * tracked changes replaced by "Anonymous". The input is not modified; the copy is checked again before it is
 * returned, so an `ok` copy has no personal properties left. Never throws.
 */
export async function withoutPersonalProperties(
  bytes: Uint8Array,
  type: StoredType,
): Promise<CopyWithoutProperties> {
  const scan = await personalProperties(bytes, type);
  if (!scan.removable) {
    return { ok: false, ...(scan.problem ?? problem('not_removable')) };
  }
  const data = asBuffer(bytes);
  if (scan.properties.length === 0) return { ok: true, bytes: Buffer.from(data), removed: [] };
  let copy: Buffer;
  try {
    const kind = detectKind(data);
    copy =
      kind === 'docx'
        ? stripDocx(data, scan.properties)
        : kind === 'pdf'
          ? await stripPdf(data, scan.properties)
          : stripDoc(data);
  } catch (err) {
    return { ok: false, ...asProblem(err, 'not_removable') };
  }
  const again = await personalProperties(copy, type);
  if (again.problem || again.properties.length > 0) return { ok: false, ...problem('not_removable') };
  return { ok: true, bytes: copy, removed: scan.properties };
}

function asProblem(err: unknown, fallback: PropertiesProblemCode = 'unreadable'): PropertiesProblem {
  if (err instanceof ZipError) return problem(err.code === 'too_large' ? 'too_large' : 'unreadable');
  const name = (err as { name?: string })?.name;
  if (name === 'PasswordException' || name === 'EncryptedPDFError') return problem('encrypted');
  return problem(fallback);
}

// ---------------------------------------------------------------------------------------------------------
// Shared: collecting, naming, and which custom properties name a person

class Found {
  readonly list: PersonalProperty[] = [];
  private readonly seen = new Set<string>();
  /** Added to the place of what is found next: " (unused part)" while a part nothing refers to is read. */
  suffix = '';

  add(place: string, field: string, raw: string): void {
    const value = raw.replace(/\s+/g, ' ').trim();
    if (!value || (PEOPLE_PLACES.has(place) && isPseudonym(value))) return;
    const where = `${place}${this.suffix}`;
    const key = `${where}\u0000${field}\u0000${value}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ where, field, value });
  }
}

/** The people who commented or tracked changes, each given "Anonymous" or "Anonymous n" in order of appearance. */
class Pseudonyms {
  private readonly labels = new Map<string, string>();

  constructor(properties: PersonalProperty[]) {
    const people = [
      ...new Set(
        properties.filter((p) => p.field === 'Author' && PEOPLE_PLACES.has(p.where)).map((p) => p.value),
      ),
    ];
    people.forEach((name, i) => {
      this.labels.set(name, people.length === 1 ? ANONYMOUS : `${ANONYMOUS} ${i + 1}`);
    });
  }

  of(name: string): string {
    return this.labels.get(name.replace(/\s+/g, ' ').trim()) ?? ANONYMOUS;
  }

  /** "A", or "A2" for "Anonymous 2". */
  initialsOf(label: string): string {
    return `A${label.slice(ANONYMOUS.length).trim()}`;
  }
}

/** What a copy puts in place of a name or initials: not a name, so not found again. */
const isPseudonym = (value: string) => /^(Anonymous( \d+)?|A\d*)$/.test(value);

const COMMENTS = 'Comments';
const TRACKED = 'Tracked changes';
const PEOPLE = 'People who commented or edited';
const PDF_COMMENTS = 'PDF comments';
const PEOPLE_PLACES = new Set([COMMENTS, TRACKED, PEOPLE, PDF_COMMENTS]);

/**
 * A custom property names a person or an organisation when its name says so (author, owner, company, e-mail…)
 * or its value is an e-mail address. Reference managers' settings (style names, document ids) do not.
 */
export function isPersonalCustomProperty(name: string, value: string): boolean {
  if (/[\w.+-]+@[\w-]+(\.[\w-]+)+/.test(value)) return true;
  if (/style|template|version|\bids?\b|guid|pref/i.test(name)) return false;
  return /author|creator|owner|user|person|writer|editor|manager|company|organi[sz]ation|institut|affiliation|department|e-?mail|contact|reviewer|name|signed|client/i.test(
    name,
  );
}

// ---------------------------------------------------------------------------------------------------------
// XML text (the parts of a .docx, a PDF's XMP): found by pattern, so everything else stays byte for byte

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'amp') return '&';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const code = lower.startsWith('#x')
      ? Number.parseInt(lower.slice(2), 16)
      : Number.parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The text of an element's content, its child tags dropped. */
const textOf = (xml: string) => decodeXml(xml.replace(/<[^>]*>/g, ' '));

/** Elements `<prefix:name …>value</prefix:name>` of the given local names, emptied (or removed) by `replace`. */
function eachElement(
  xml: string,
  localNames: string,
  visit: (local: string, value: string, attributes: string) => 'keep' | 'empty' | 'remove',
): string {
  const pattern = new RegExp(`<((?:[\\w.-]+:)?(${localNames}))(\\s[^<>]*)?>([\\s\\S]*?)</\\1\\s*>`, 'g');
  return xml.replace(pattern, (whole, qname: string, local: string, attributes = '', content: string) => {
    const action = visit(local, textOf(content), attributes);
    if (action === 'remove') return '';
    if (action === 'empty') return `<${qname}${attributes}></${qname}>`;
    return whole;
  });
}

const ATTRIBUTE = /(\s)((?:[\w.-]+:)?([\w.-]+))(\s*=\s*)("([^"]*)"|'([^']*)')/g;

/** Start tags and their attributes: `visit` returns an attribute's new (unescaped) value, or null to keep it. */
function eachAttribute(
  xml: string,
  visit: (tag: string, attribute: string, value: string) => string | null,
): string {
  return xml.replace(
    /<([\w.-]+:)?([\w.-]+)(\s[^<>]*?)(\/?)>/g,
    (whole, prefix = '', tag: string, attributes: string, close: string) => {
      if (!/author|initials|userId/.test(attributes)) return whole;
      const rewritten = attributes.replace(
        ATTRIBUTE,
        (
          attr,
          space: string,
          qname: string,
          local: string,
          eq: string,
          _q,
          double?: string,
          single?: string,
        ) => {
          const next = visit(tag, local, decodeXml(double ?? single ?? ''));
          return next === null ? attr : `${space}${qname}${eq}"${escapeXml(next)}"`;
        },
      );
      return `<${prefix}${tag}${rewritten}${close}>`;
    },
  );
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

// ---------------------------------------------------------------------------------------------------------
// .docx

/** A part read as text: every XML part and relationship part can name people. */
const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

type DocxPart = { text: string; encoding: 'utf8' | 'utf16le' };

interface DocxParts {
  directory: ZipDirectory;
  /** Every XML part the directory names. */
  parts: Map<string, DocxPart>;
  /** The entries (any kind) that no relationship reaches from the package: left out of a copy. */
  unused: Set<string>;
  /** XML records in the bytes that the directory does not name (an earlier directory's). */
  hidden: Map<string, DocxPart>;
}

function readDocx(data: Buffer): DocxParts {
  const directory = readZipDirectory(data);
  const parts: DocxParts['parts'] = new Map();
  let total = 0;
  const read = (entry: ZipEntry): DocxPart => {
    const content = readZipEntry(data, entry, MAX_PART_BYTES);
    total += content.length;
    if (total > MAX_TOTAL_BYTES)
      throw new ZipError('too_large', 'The document is too large once uncompressed.');
    const encoding = content[0] === 0xff && content[1] === 0xfe ? 'utf16le' : 'utf8';
    return { text: content.toString(encoding), encoding };
  };
  for (const entry of directory.entries) {
    if (isXmlPart(entry.name)) parts.set(entry.name, read(entry));
  }
  if (!directory.entries.some((e) => e.name === 'word/document.xml')) {
    throw new ZipError('corrupt', 'There is no word/document.xml.');
  }
  const hidden: DocxParts['hidden'] = new Map();
  for (const entry of hiddenZipEntries(data, directory)) {
    if (!isXmlPart(entry.name)) continue;
    try {
      hidden.set(`${entry.name}@${entry.localStart}`, read(entry));
    } catch (err) {
      if (err instanceof ZipError && err.code === 'too_large') throw err;
      // bytes that only looked like a record
    }
  }
  const reached = reachableParts(
    parts,
    directory.entries.map((e) => e.name),
  );
  const unused = new Set(directory.entries.map((e) => e.name).filter((name) => !reached.has(name)));
  return { directory, parts, unused, hidden };
}

/**
 * The parts a reader of the package reaches: [Content_Types].xml, and every part a relationship points to
 * from the package (`_rels/.rels`) or from a part reached, with those parts' own relationship parts. Part
 * names are compared as OPC compares them, without regard to case.
 */
function reachableParts(parts: Map<string, DocxPart>, names: string[]): Set<string> {
  const byLower = new Map(names.map((name) => [name.toLowerCase(), name]));
  const reached = new Set<string>();
  const reach = (name: string) => {
    const actual = byLower.get(name.toLowerCase());
    if (!actual || reached.has(actual)) return;
    reached.add(actual);
    const slash = actual.lastIndexOf('/');
    const folder = actual.slice(0, slash + 1);
    const rels = `${folder}_rels/${actual.slice(slash + 1)}.rels`;
    follow(rels, folder);
  };
  const follow = (relsName: string, folder: string) => {
    const actual = byLower.get(relsName.toLowerCase());
    if (!actual || reached.has(actual)) return;
    reached.add(actual);
    const rels = parts.get(actual)?.text ?? '';
    for (const [tag] of rels.matchAll(/<(?:[\w.-]+:)?Relationship\b[^<>]*>/g)) {
      if (/\sTargetMode\s*=\s*["']External["']/.test(tag)) continue;
      const target = /\sTarget\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag);
      if (target) reach(partName(folder, decodeXml(target[1] ?? target[2] ?? '')));
    }
  };
  reach('[Content_Types].xml');
  follow('_rels/.rels', '');
  return reached;
}

/** A relationship's target as a part name: from the package root when it starts with "/", else from `folder`. */
function partName(folder: string, target: string): string {
  let path = target.split('#')[0];
  try {
    path = decodeURI(path);
  } catch {
    // a target that is not valid percent-encoding is taken as written
  }
  const segments = (path.startsWith('/') ? path.slice(1) : `${folder}${path}`).split('/');
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment === '..') resolved.pop();
    else if (segment !== '.' && segment !== '') resolved.push(segment);
  }
  return resolved.join('/');
}

type DocxPartKind = 'core' | 'app' | 'custom' | 'rels' | 'content';

/** What a part holds, by its content as much as its name: a core-properties part is one wherever it lies. */
function docxPartKind(name: string, xml: string): DocxPartKind {
  const head = xml.slice(0, 4096);
  if (name === 'docProps/core.xml' || /<(?:[\w.-]+:)?coreProperties\b/.test(head)) return 'core';
  if (name === 'docProps/custom.xml' || /officeDocument\/2006\/custom-properties/.test(head)) return 'custom';
  if (name === 'docProps/app.xml' || /officeDocument\/2006\/extended-properties/.test(head)) return 'app';
  if (/\.rels$/i.test(name)) return 'rels';
  return 'content';
}

/**
 * Visits every personal property of a .docx part; with `names` given, returns the part without them
 * (otherwise the returned text is not meant to be used).
 */
function visitDocxPart(name: string, xml: string, found: Found, names: Pseudonyms | null): string {
  const kind = docxPartKind(name, xml);
  if (kind === 'core') {
    return eachElement(xml, 'creator|lastModifiedBy', (local, value) => {
      found.add('Document properties', local === 'creator' ? 'Author' : 'Last modified by', value);
      return value.trim() ? 'empty' : 'keep';
    });
  }
  if (kind === 'app') {
    return eachElement(xml, 'Company|Manager', (local, value) => {
      found.add('Document properties', local, value);
      return value.trim() ? 'empty' : 'keep';
    });
  }
  if (kind === 'custom') {
    return eachElement(xml, 'property', (_local, value, attributes) => {
      const property = /\sname\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(attributes);
      const propertyName = decodeXml(property?.[1] ?? property?.[2] ?? '');
      if (!value.trim() || !isPersonalCustomProperty(propertyName, value)) return 'keep';
      found.add('Custom properties', propertyName, value);
      return 'remove';
    });
  }
  if (kind === 'rels') {
    // The template a document was made from, as a path on the author's computer ("C:\Users\jdoe\…\Normal.dotm").
    return xml.replace(/<([\w.-]+:)?Relationship\s[^<>]*?\/?>/g, (tag) => {
      if (!/Type\s*=\s*["'][^"']*\/attachedTemplate["']/.test(tag)) return tag;
      return tag.replace(
        /(\sTarget\s*=\s*)("([^"]*)"|'([^']*)')/,
        (whole, eq: string, _q, double?: string, single?: string) => {
          const target = decodeXml(double ?? single ?? '');
          const file = target.split(/[\\/]/).pop() ?? '';
          if (file === target) return whole;
          found.add('Document properties', 'Template', target);
          return `${eq}"${escapeXml(file)}"`;
        },
      );
    });
  }
  // The pseudonym of the last person named: a comment's initials, a person's account id, follow their name.
  let person = ANONYMOUS;
  const rename = (value: string) => {
    person = names?.of(value) ?? ANONYMOUS;
    return names ? person : null;
  };
  return eachAttribute(xml, (tag, attribute, value) => {
    if (!value.trim()) return null;
    if (tag === 'person' && attribute === 'author') {
      found.add(PEOPLE, 'Author', value);
      return rename(value);
    }
    if (tag === 'presenceInfo' && attribute === 'providerId') {
      // "None": the user id is then a display name, as Word writes it for a local account.
      return names ? 'None' : null;
    }
    if (tag === 'presenceInfo' && attribute === 'userId') {
      found.add(PEOPLE, 'Account', value);
      return names ? person : null;
    }
    if (attribute === 'author') {
      found.add(tag === 'comment' ? COMMENTS : TRACKED, 'Author', value);
      return rename(value);
    }
    if (attribute === 'initials') {
      found.add(tag === 'comment' ? COMMENTS : TRACKED, 'Initials', value);
      return names ? names.initialsOf(person) : null;
    }
    return null;
  });
}

/** Where a name in a part that no relationship reaches, or that the directory no longer names, is listed. */
const UNUSED_PART = ' (unused part)';

function scanDocx(data: Buffer): PropertiesScan {
  const { parts, unused, hidden } = readDocx(data);
  const found = new Found();
  for (const [name, part] of parts) {
    found.suffix = unused.has(name) ? UNUSED_PART : '';
    visitDocxPart(name, part.text, found, null);
  }
  found.suffix = UNUSED_PART;
  for (const [key, part] of hidden) visitDocxPart(key.slice(0, key.lastIndexOf('@')), part.text, found, null);
  return { properties: found.list, removable: true, problem: null };
}

/**
 * The copy: the parts that name people rewritten, the parts no relationship reaches left out (and their
 * content types with them), and only the directory's records written, so no earlier record stays either.
 */
function stripDocx(data: Buffer, properties: PersonalProperty[]): Buffer {
  const { directory, parts, unused } = readDocx(data);
  const names = new Pseudonyms(properties);
  const replacements = new Map<string, Uint8Array | null>();
  for (const name of unused) replacements.set(name, null);
  for (const [name, part] of parts) {
    if (unused.has(name)) continue;
    let text = visitDocxPart(name, part.text, new Found(), names);
    if (name === '[Content_Types].xml' && unused.size > 0) {
      const gone = new Set([...unused].map((n) => `/${n}`.toLowerCase()));
      text = text.replace(/<(?:[\w.-]+:)?Override\b[^<>]*>/g, (tag) => {
        const part = /\sPartName\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag);
        return part && gone.has(decodeXml(part[1] ?? part[2] ?? '').toLowerCase()) ? '' : tag;
      });
    }
    if (text !== part.text) replacements.set(name, Buffer.from(text, part.encoding));
  }
  return replaceZipEntries(data, directory, replacements);
}

// ---------------------------------------------------------------------------------------------------------
// PDF: read with pdf.js (object streams, encryption without a user password), rewritten with pdf-lib

const INFO_PERSONAL = new Set(['Author', 'Company', 'Manager']);
const INFO_STANDARD = new Set([
  'Title',
  'Subject',
  'Keywords',
  'Creator',
  'Producer',
  'CreationDate',
  'ModDate',
  'Trapped',
]);

function personalInfoKey(key: string, value: string): boolean {
  return INFO_PERSONAL.has(key) || (!INFO_STANDARD.has(key) && isPersonalCustomProperty(key, value));
}

/** XMP properties that name a person: Dublin Core's creator, Adobe's pdf:Author, Office's company and manager. */
const XMP_PERSONAL: Record<string, string> = {
  'dc:creator': 'Creator',
  'pdf:Author': 'Author',
  'pdfx:Company': 'Company',
  'pdfx:Manager': 'Manager',
};
const XMP_NAMES = Object.keys(XMP_PERSONAL).join('|');
const XMP_ELEMENT = new RegExp(`<(${XMP_NAMES})\\b[^<>]*?(?:/>|>([\\s\\S]*?)</\\1\\s*>)`, 'g');
const XMP_ATTRIBUTE = new RegExp(`\\s(${XMP_NAMES})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');

const PDF_INFO = 'PDF properties';
const PDF_XMP = 'PDF metadata (XMP)';

const ANNOTATION_WIDGET = 20;

/** Earlier versions of a PDF read for names left behind by incremental saves: the last few. */
const MAX_EARLIER_VERSIONS = 5;

async function scanPdf(data: Buffer): Promise<PropertiesScan> {
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
async function everyPdfObject(data: Buffer): Promise<{ context: PDFContext; objects: PDFObject[] } | null> {
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

const INFO_LIKE_EXCLUDED = ['Type', 'Subtype', 'FT', 'Parent', 'Kids', 'Filter'].map((k) => PDFName.of(k));

/**
 * The names in any object: an information dictionary (no /Type, /Subtype, field or stream keys: Info has
 * none) by the Info rule, a comment's /T, an XMP stream's creators and authors.
 */
function peopleInPdfObjects(
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
function earlierVersions(data: Buffer): number[] {
  const ends: number[] = [];
  for (let at = data.indexOf('%%EOF'); at >= 0; at = data.indexOf('%%EOF', at + 5)) ends.push(at + 5);
  const last = data.subarray(Math.max(0, data.length - 1024)).lastIndexOf('%%EOF');
  const finalEnd = last < 0 ? data.length : Math.max(0, data.length - 1024) + last + 5;
  return ends.filter((end) => end < finalEnd).slice(-MAX_EARLIER_VERSIONS);
}

/** The names in a PDF's Info dictionary, XMP metadata and comments, read by pdf.js; and whether it is encrypted. */
async function readPdfPeople(data: Buffer, found: Found): Promise<{ encrypted: boolean }> {
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
function dropUnreachable(context: PDFContext): void {
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

function pdfText(value: unknown): string {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : '';
}

async function stripPdf(data: Buffer, properties: PersonalProperty[]): Promise<Buffer> {
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
function withoutXmpPeople(xmp: string, found: Found): string {
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

// ---------------------------------------------------------------------------------------------------------
// Legacy .doc: an OLE compound file whose property streams hold Author, Last saved by, Company, Manager

function scanDoc(data: Buffer): PropertiesScan {
  if (wordEncrypted(data)) return unreadableScan(problem('encrypted'));
  const file = new CompoundFile(data);
  const found = new Found();
  for (const value of docProperties(file)) found.add('Document properties', value.field, value.value);
  const tables = wordTables(file);
  for (const name of [...tables.emptiable, ...tables.fixed]) found.add(name.where, name.field, name.value);
  if (tables.fixed.length === 0) return { properties: found.list, removable: true, problem: null };
  return {
    properties: found.list,
    removable: false,
    problem: problem(
      'not_removable',
      'In a legacy Word file (.doc), the names of those who commented or tracked changes cannot be removed automatically. Please ask the author for a copy without them, saved as .docx or PDF.',
    ),
  };
}

/**
 * A copy with the property strings overwritten by zero bytes in place (same length, read as empty), and the
 * Word tables that can be emptied rewritten empty.
 */
function stripDoc(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  const file = new CompoundFile(copy);
  for (const value of docProperties(file))
    file.write(value.stream, value.start, Buffer.alloc(value.end - value.start));
  wordTables(file).empty();
  return copy;
}

interface DocValue {
  field: string;
  value: string;
  stream: StreamMap;
  /** The value's bytes within the stream. */
  start: number;
  end: number;
}

const SUMMARY_FIELDS: Record<number, string> = { 4: 'Author', 8: 'Last saved by' };
const DOCUMENT_SUMMARY_FIELDS: Record<number, string> = { 14: 'Manager', 15: 'Company' };

function docProperties(file: CompoundFile): DocValue[] {
  const values: DocValue[] = [];
  const summary = file.stream('\u0005SummaryInformation');
  if (summary) values.push(...propertySet(summary, (id) => SUMMARY_FIELDS[id]));
  const documentSummary = file.stream('\u0005DocumentSummaryInformation');
  if (documentSummary)
    values.push(
      ...propertySet(documentSummary, (id, custom) => (custom ? custom : DOCUMENT_SUMMARY_FIELDS[id])),
    );
  return values
    .filter(
      (v) =>
        v.value.trim() &&
        (!v.field.startsWith('custom:') || isPersonalCustomProperty(v.field.slice(7), v.value)),
    )
    .map((v) => (v.field.startsWith('custom:') ? { ...v, field: v.field.slice(7) } : v));
}

const VT_LPSTR = 0x1e;
const VT_LPWSTR = 0x1f;

/**
 * The string properties of a property set stream (MS-OLEPS) that `fieldOf` names. In the second section of
 * DocumentSummaryInformation (the user-defined properties), `fieldOf` gets "custom:" and the property's name.
 */
function propertySet(
  stream: StreamMap,
  fieldOf: (id: number, custom?: string) => string | undefined,
): DocValue[] {
  const bytes = stream.bytes;
  if (bytes.length < 48 || bytes.readUInt16LE(0) !== 0xfffe) return [];
  const sections = Math.min(bytes.readUInt32LE(24), 2);
  const values: DocValue[] = [];
  for (let s = 0; s < sections; s++) {
    const base = bytes.readUInt32LE(28 + s * 20 + 16);
    if (base + 8 > bytes.length) continue;
    const count = Math.min(bytes.readUInt32LE(base + 4), 1000);
    const offsets = new Map<number, number>();
    for (let i = 0; i < count && base + 16 + i * 8 <= bytes.length; i++) {
      offsets.set(bytes.readUInt32LE(base + 8 + i * 8), base + bytes.readUInt32LE(base + 12 + i * 8));
    }
    const codePageAt = offsets.get(1);
    const codePage =
      codePageAt !== undefined && codePageAt + 6 <= bytes.length ? bytes.readUInt16LE(codePageAt + 4) : 1252;
    const names = s === 1 ? dictionary(bytes, offsets.get(0), codePage) : new Map<number, string>();
    for (const [id, at] of offsets) {
      if (id < 2 || at + 8 > bytes.length) continue;
      const field =
        s === 1 ? (names.has(id) ? fieldOf(id, `custom:${names.get(id)}`) : undefined) : fieldOf(id);
      if (!field) continue;
      const type = bytes.readUInt16LE(at);
      const length = bytes.readUInt32LE(at + 4);
      const size = type === VT_LPWSTR ? length * 2 : type === VT_LPSTR ? length : -1;
      if (size < 0 || at + 8 + size > bytes.length) continue;
      const start = at + 8;
      const text = decodeCodePage(bytes.subarray(start, start + size), type === VT_LPWSTR ? 1200 : codePage);
      values.push({ field, value: beforeNul(text), stream, start, end: start + size });
    }
  }
  return values;
}

/** The names of the user-defined properties (property 0 of the section). */
function dictionary(bytes: Buffer, at: number | undefined, codePage: number): Map<number, string> {
  const names = new Map<number, string>();
  if (at === undefined || at + 4 > bytes.length) return names;
  const count = Math.min(bytes.readUInt32LE(at), 1000);
  let p = at + 4;
  for (let i = 0; i < count && p + 8 <= bytes.length; i++) {
    const id = bytes.readUInt32LE(p);
    const length = bytes.readUInt32LE(p + 4);
    const size = codePage === 1200 ? length * 2 : length;
    if (p + 8 + size > bytes.length) break;
    names.set(id, beforeNul(decodeCodePage(bytes.subarray(p + 8, p + 8 + size), codePage)));
    p += 8 + size;
    if (codePage === 1200) p += (4 - (size % 4)) % 4;
  }
  return names;
}

/** A property string ends at its first NUL (a stripped copy's values are all NULs). */
function beforeNul(text: string): string {
  const end = text.indexOf('\u0000');
  return end < 0 ? text : text.slice(0, end);
}

function decodeCodePage(bytes: Buffer, codePage: number): string {
  if (codePage === 1200) return bytes.toString('utf16le');
  if (codePage === 65001) return bytes.toString('utf8');
  try {
    return new TextDecoder(`windows-${codePage}`).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

// The Word binary's own tables (MS-DOC) that hold names: their index in the FIB's table of offsets and lengths.
const FIB_ASSOCIATED_STRINGS = 32;
const FIB_COMMENT_AUTHORS = 36;
const FIB_REVISION_AUTHORS = 51;
const FIB_SAVED_BY = 71;
/** In the associated strings: the template's path, the author, the last to save. */
const ASSOCIATED: Record<number, string> = { 1: 'Template', 6: 'Author', 7: 'Last saved by' };

interface WordTableName {
  where: string;
  field: string;
  value: string;
}

interface WordTables {
  /** Names in tables that can be emptied in place: the associated strings and the "saved by" list. */
  emptiable: WordTableName[];
  /** Names that cannot be removed from a .doc: the authors of tracked changes and of comments. */
  fixed: WordTableName[];
  /** Rewrites the emptiable tables without their names, in the file the compound file reads. */
  empty(): void;
}

interface StringTable {
  extended: boolean;
  strings: string[];
  /** Each string's extra data. */
  extras: Buffer[];
  /** Where the table's offset and length sit in the WordDocument stream. */
  fibAt: number;
  fc: number;
  lcb: number;
}

function wordTables(file: CompoundFile): WordTables {
  const none: WordTables = { emptiable: [], fixed: [], empty: () => undefined };
  const word = file.stream('WordDocument', Number.POSITIVE_INFINITY);
  if (!word || word.bytes.length < 160 || word.bytes.readUInt16LE(0) !== 0xa5ec) return none;
  const fib = word.bytes;
  const rgLw = 34 + fib.readUInt16LE(32) * 2;
  if (rgLw + 2 > fib.length) return none;
  const countAt = rgLw + 2 + fib.readUInt16LE(rgLw) * 4;
  if (countAt + 2 > fib.length) return none;
  const count = fib.readUInt16LE(countAt);
  const table = file.stream(fib.readUInt16LE(0x0a) & 0x0200 ? '1Table' : '0Table', Number.POSITIVE_INFINITY);
  if (!table) return none;
  const locate = (index: number) => {
    const fibAt = countAt + 2 + index * 8;
    if (index >= count || fibAt + 8 > fib.length) return null;
    const fc = fib.readUInt32LE(fibAt);
    const lcb = fib.readUInt32LE(fibAt + 4);
    return lcb > 0 && fc + lcb <= table.bytes.length ? { fibAt, fc, lcb } : null;
  };
  const sttb = (index: number): StringTable | null => {
    const at = locate(index);
    return at ? readStringTable(table.bytes, at.fc, at.lcb, at.fibAt) : null;
  };

  const emptiable: WordTableName[] = [];
  const fixed: WordTableName[] = [];
  const associated = sttb(FIB_ASSOCIATED_STRINGS);
  for (const [i, field] of Object.entries(ASSOCIATED)) {
    const value = associated?.strings[Number(i)] ?? '';
    if (field !== 'Template' || /[\\/]/.test(value))
      emptiable.push({ where: 'Document properties', field, value });
  }
  const savedBy = sttb(FIB_SAVED_BY);
  savedBy?.strings.forEach((value, i) => {
    emptiable.push({ where: 'Document properties', field: i % 2 === 0 ? 'Saved by' : 'Saved at', value });
  });
  for (const value of sttb(FIB_REVISION_AUTHORS)?.strings ?? []) {
    if (value !== 'Unknown') fixed.push({ where: TRACKED, field: 'Author', value });
  }
  const owners = locate(FIB_COMMENT_AUTHORS);
  if (owners) {
    // A run of strings, each its length (2 bytes) and UTF-16 characters.
    for (let p = owners.fc; p + 2 <= owners.fc + owners.lcb; ) {
      const end = p + 2 + table.bytes.readUInt16LE(p) * 2;
      if (end > owners.fc + owners.lcb) break;
      fixed.push({ where: COMMENTS, field: 'Author', value: table.bytes.toString('utf16le', p + 2, end) });
      p = end;
    }
  }
  const real = (names: WordTableName[]) => names.filter((n) => n.value.trim());
  return {
    emptiable: real(emptiable),
    fixed: real(fixed),
    empty() {
      const rewrite = (sttbTable: StringTable | null, keep: (i: number) => boolean) => {
        if (!sttbTable) return;
        const written = writeStringTable(sttbTable, keep);
        file.write(
          table,
          sttbTable.fc,
          Buffer.concat([written, Buffer.alloc(sttbTable.lcb - written.length)]),
        );
        const lcb = Buffer.alloc(4);
        lcb.writeUInt32LE(written.length);
        file.write(word, sttbTable.fibAt + 4, lcb);
      };
      rewrite(
        associated,
        (i) => !(i in ASSOCIATED) || (i === 1 && !/[\\/]/.test(associated?.strings[1] ?? '')),
      );
      rewrite(savedBy, () => false);
    },
  };
}

/** A string table (MS-DOC STTB): extended (UTF-16, 0xFFFF first) or not (one byte a character). */
function readStringTable(bytes: Buffer, fc: number, lcb: number, fibAt: number): StringTable | null {
  const end = fc + lcb;
  let p = fc;
  if (p + 6 > end) return null;
  const extended = bytes.readUInt16LE(p) === 0xffff;
  if (extended) p += 2;
  const count = bytes.readUInt16LE(p);
  const extra = bytes.readUInt16LE(p + 2);
  p += 4;
  const strings: string[] = [];
  const extras: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const cch = extended ? (p + 2 <= end ? bytes.readUInt16LE(p) : -1) : p < end ? bytes[p] : -1;
    const start = p + (extended ? 2 : 1);
    const stop = start + (extended ? cch * 2 : cch);
    if (cch < 0 || stop + extra > end) return null;
    strings.push(bytes.toString(extended ? 'utf16le' : 'latin1', start, stop));
    extras.push(Buffer.from(bytes.subarray(stop, stop + extra)));
    p = stop + extra;
  }
  return { extended, strings, extras, fibAt, fc, lcb };
}

/** The table again, the strings not kept emptied: never longer than it was. */
function writeStringTable(table: StringTable, keep: (i: number) => boolean): Buffer {
  const head = Buffer.alloc(table.extended ? 6 : 4);
  if (table.extended) head.writeUInt16LE(0xffff, 0);
  head.writeUInt16LE(table.strings.length, table.extended ? 2 : 0);
  head.writeUInt16LE(table.extras[0]?.length ?? 0, table.extended ? 4 : 2);
  const entries = table.strings.flatMap((text, i) => {
    const kept = keep(i) ? text : '';
    const chars = Buffer.from(kept, table.extended ? 'utf16le' : 'latin1');
    const cch = Buffer.alloc(table.extended ? 2 : 1);
    if (table.extended) cch.writeUInt16LE(kept.length);
    else cch[0] = kept.length;
    return [cch, chars, table.extras[i]];
  });
  return Buffer.concat([head, ...entries]);
}

/** A stream's bytes, and where each of its sectors lies in the file. */
interface StreamMap {
  bytes: Buffer;
  sectorSize: number;
  sectors: number[];
}

const END_OF_CHAIN = 0xfffffffe;

/** Enough of an OLE compound file (MS-CFB) to read streams and write into them in place (exported for tests). */
export class CompoundFile {
  private readonly shift: number;
  private readonly fat: number[] = [];
  private readonly directory: { name: string; type: number; start: number; size: number }[] = [];
  private miniStream: StreamMap | null = null;

  constructor(private readonly data: Buffer) {
    if (data.length < 512) throw new Error('Not a compound file');
    this.shift = data.readUInt16LE(0x1e);
    if (this.shift !== 9 && this.shift !== 12) throw new Error('Unsupported sector size');
    const fatSectors: number[] = [];
    for (let i = 0; i < 109; i++) {
      const sector = data.readUInt32LE(0x4c + i * 4);
      if (sector < END_OF_CHAIN - 2) fatSectors.push(sector);
    }
    let difat = data.readUInt32LE(0x44);
    const perSector = (1 << this.shift) / 4;
    for (let guard = 0; difat < END_OF_CHAIN - 2 && guard < this.sectorCount; guard++) {
      const at = this.offsetOf(difat);
      for (let i = 0; i < perSector - 1; i++) {
        const sector = data.readUInt32LE(at + i * 4);
        if (sector < END_OF_CHAIN - 2) fatSectors.push(sector);
      }
      difat = data.readUInt32LE(at + (perSector - 1) * 4);
    }
    for (const sector of fatSectors) {
      const at = this.offsetOf(sector);
      for (let i = 0; i < perSector; i++) this.fat.push(data.readUInt32LE(at + i * 4));
    }
    for (const at of this.chain(data.readUInt32LE(0x30))) {
      for (let e = 0; e < 1 << (this.shift - 7); e++) {
        const entry = at + e * 128;
        const nameLength = Math.min(data.readUInt16LE(entry + 0x40), 64);
        this.directory.push({
          name: data.toString('utf16le', entry, entry + Math.max(0, nameLength - 2)),
          type: data[entry + 0x42],
          start: data.readUInt32LE(entry + 0x74),
          size: data.readUInt32LE(entry + 0x78),
        });
      }
    }
  }

  private get sectorCount(): number {
    return Math.ceil(this.data.length / (1 << this.shift));
  }

  private offsetOf(sector: number): number {
    const at = (sector + 1) << this.shift;
    if (at + (1 << this.shift) > this.data.length) throw new Error('Sector out of bounds');
    return at;
  }

  /** The file offsets of a FAT chain's sectors; a loop or a broken chain is an error. */
  private chain(start: number): number[] {
    const offsets: number[] = [];
    for (let sector = start; sector !== END_OF_CHAIN; sector = this.fat[sector]) {
      if (sector >= this.fat.length || offsets.length > this.sectorCount)
        throw new Error('Broken sector chain');
      offsets.push(this.offsetOf(sector));
    }
    return offsets;
  }

  private gather(sectors: number[], sectorSize: number, size: number, source: Buffer): StreamMap {
    const bytes = Buffer.alloc(Math.min(size, sectors.length * sectorSize));
    sectors.forEach((at, i) => {
      source.copy(bytes, i * sectorSize, at, Math.min(at + sectorSize, at + bytes.length - i * sectorSize));
    });
    return { bytes, sectorSize, sectors };
  }

  /**
   * A stream of the root storage by name, or null (also when larger than `maxBytes`: property streams are
   * small). A stream is never larger than the file: its sectors are the file's.
   */
  stream(name: string, maxBytes = 1024 * 1024): StreamMap | null {
    const entry = this.directory.find((e) => e.type === 2 && e.name === name);
    if (!entry || entry.size > maxBytes || entry.size > this.data.length) return null;
    const cutoff = this.data.readUInt32LE(0x38);
    if (entry.size >= cutoff) {
      return this.gather(this.chain(entry.start), 1 << this.shift, entry.size, this.data);
    }
    const mini = this.mini();
    const miniShift = this.data.readUInt16LE(0x20);
    const miniFat = this.chain(this.data.readUInt32LE(0x3c)).flatMap((at) =>
      Array.from({ length: (1 << this.shift) / 4 }, (_, i) => this.data.readUInt32LE(at + i * 4)),
    );
    const sectors: number[] = [];
    for (let sector = entry.start; sector !== END_OF_CHAIN; sector = miniFat[sector]) {
      if (sector >= miniFat.length || sectors.length > miniFat.length)
        throw new Error('Broken mini sector chain');
      sectors.push(this.locate(mini, sector << miniShift));
    }
    return this.gather(sectors, 1 << miniShift, entry.size, this.data);
  }

  private mini(): StreamMap {
    if (!this.miniStream) {
      const root = this.directory.find((e) => e.type === 5);
      if (!root) throw new Error('No root entry');
      this.miniStream = {
        bytes: Buffer.alloc(0),
        sectorSize: 1 << this.shift,
        sectors: this.chain(root.start),
      };
    }
    return this.miniStream;
  }

  private locate(stream: StreamMap, offset: number): number {
    const at = stream.sectors[Math.floor(offset / stream.sectorSize)];
    if (at === undefined) throw new Error('Offset out of bounds');
    return at + (offset % stream.sectorSize);
  }

  /** Writes `bytes` at `offset` of a stream read by `stream()`, in the file (and in the stream's copy). */
  write(stream: StreamMap, offset: number, bytes: Buffer): void {
    for (let i = 0; i < bytes.length; i++) this.data[this.locate(stream, offset + i)] = bytes[i];
    bytes.copy(stream.bytes, offset);
  }
}
