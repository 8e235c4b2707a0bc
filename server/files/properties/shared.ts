/** What the readers of each kind share: the shapes and words of a scan, collecting and naming people, XML text. */

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
export const MAX_PART_BYTES = 32 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 2 * MAX_PART_BYTES;

export type HandledKind = 'docx' | 'pdf' | 'doc';

export function problem(code: PropertiesProblemCode, message = PROPERTIES_MESSAGES[code]): PropertiesProblem {
  return { code, message };
}

export const unreadableScan = (p: PropertiesProblem): PropertiesScan => ({
  properties: [],
  removable: false,
  problem: p,
});

// ---------------------------------------------------------------------------------------------------------
// Shared: collecting, naming, and which custom properties name a person

export class Found {
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
export class Pseudonyms {
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
export const isPseudonym = (value: string) => /^(Anonymous( \d+)?|A\d*)$/.test(value);

export const COMMENTS = 'Comments';
export const TRACKED = 'Tracked changes';
export const PEOPLE = 'People who commented or edited';
export const PDF_COMMENTS = 'PDF comments';
export const PEOPLE_PLACES = new Set([COMMENTS, TRACKED, PEOPLE, PDF_COMMENTS]);

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

export function decodeXml(text: string): string {
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
export const textOf = (xml: string) => decodeXml(xml.replace(/<[^>]*>/g, ' '));

/** Elements `<prefix:name …>value</prefix:name>` of the given local names, emptied (or removed) by `replace`. */
export function eachElement(
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

export const ATTRIBUTE = /(\s)((?:[\w.-]+:)?([\w.-]+))(\s*=\s*)("([^"]*)"|'([^']*)')/g;

/** Start tags and their attributes: `visit` returns an attribute's new (unescaped) value, or null to keep it. */
export function eachAttribute(
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

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
