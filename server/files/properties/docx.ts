import {
  hiddenZipEntries,
  readZipDirectory,
  readZipEntry,
  replaceZipEntries,
  type ZipDirectory,
  type ZipEntry,
  ZipError,
} from '../../content/zip.ts';
import {
  ANONYMOUS,
  COMMENTS,
  decodeXml,
  eachAttribute,
  eachElement,
  escapeXml,
  Found,
  isPersonalCustomProperty,
  MAX_PART_BYTES,
  MAX_TOTAL_BYTES,
  PEOPLE,
  type PersonalProperty,
  type PropertiesScan,
  Pseudonyms,
  TRACKED,
} from './shared.ts';

// ---------------------------------------------------------------------------------------------------------
// .docx

/** A part read as text: every XML part and relationship part can name people. */
export const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

export type DocxPart = { text: string; encoding: 'utf8' | 'utf16le' };

export interface DocxParts {
  directory: ZipDirectory;
  /** Every XML part the directory names. */
  parts: Map<string, DocxPart>;
  /** The entries (any kind) that no relationship reaches from the package: left out of a copy. */
  unused: Set<string>;
  /** XML records in the bytes that the directory does not name (an earlier directory's). */
  hidden: Map<string, DocxPart>;
}

export function readDocx(data: Buffer): DocxParts {
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
export function reachableParts(parts: Map<string, DocxPart>, names: string[]): Set<string> {
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
export function partName(folder: string, target: string): string {
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

export type DocxPartKind = 'core' | 'app' | 'custom' | 'rels' | 'content';

/** What a part holds, by its content as much as its name: a core-properties part is one wherever it lies. */
export function docxPartKind(name: string, xml: string): DocxPartKind {
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
export function visitDocxPart(name: string, xml: string, found: Found, names: Pseudonyms | null): string {
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
export const UNUSED_PART = ' (unused part)';

export function scanDocx(data: Buffer): PropertiesScan {
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
export function stripDocx(data: Buffer, properties: PersonalProperty[]): Buffer {
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
