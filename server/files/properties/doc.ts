import { wordEncrypted } from '../content-type.ts';
import {
  COMMENTS,
  Found,
  isPersonalCustomProperty,
  problem,
  type PropertiesScan,
  TRACKED,
  unreadableScan,
} from './shared.ts';
import { CompoundFile, type StreamMap } from './compound-file.ts';

// ---------------------------------------------------------------------------------------------------------
// Legacy .doc: an OLE compound file whose property streams hold Author, Last saved by, Company, Manager

export function scanDoc(data: Buffer): PropertiesScan {
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
export function stripDoc(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  const file = new CompoundFile(copy);
  for (const value of docProperties(file))
    file.write(value.stream, value.start, Buffer.alloc(value.end - value.start));
  wordTables(file).empty();
  return copy;
}

export interface DocValue {
  field: string;
  value: string;
  stream: StreamMap;
  /** The value's bytes within the stream. */
  start: number;
  end: number;
}

export const SUMMARY_FIELDS: Record<number, string> = { 4: 'Author', 8: 'Last saved by' };
export const DOCUMENT_SUMMARY_FIELDS: Record<number, string> = { 14: 'Manager', 15: 'Company' };

export function docProperties(file: CompoundFile): DocValue[] {
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

export const VT_LPSTR = 0x1e;
export const VT_LPWSTR = 0x1f;

/**
 * The string properties of a property set stream (MS-OLEPS) that `fieldOf` names. In the second section of
 * DocumentSummaryInformation (the user-defined properties), `fieldOf` gets "custom:" and the property's name.
 */
export function propertySet(
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
export function dictionary(bytes: Buffer, at: number | undefined, codePage: number): Map<number, string> {
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
export function beforeNul(text: string): string {
  const end = text.indexOf('\u0000');
  return end < 0 ? text : text.slice(0, end);
}

export function decodeCodePage(bytes: Buffer, codePage: number): string {
  if (codePage === 1200) return bytes.toString('utf16le');
  if (codePage === 65001) return bytes.toString('utf8');
  try {
    return new TextDecoder(`windows-${codePage}`).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

// The Word binary's own tables (MS-DOC) that hold names: their index in the FIB's table of offsets and lengths.
export const FIB_ASSOCIATED_STRINGS = 32;
export const FIB_COMMENT_AUTHORS = 36;
export const FIB_REVISION_AUTHORS = 51;
export const FIB_SAVED_BY = 71;
/** In the associated strings: the template's path, the author, the last to save. */
export const ASSOCIATED: Record<number, string> = { 1: 'Template', 6: 'Author', 7: 'Last saved by' };

export interface WordTableName {
  where: string;
  field: string;
  value: string;
}

export interface WordTables {
  /** Names in tables that can be emptied in place: the associated strings and the "saved by" list. */
  emptiable: WordTableName[];
  /** Names that cannot be removed from a .doc: the authors of tracked changes and of comments. */
  fixed: WordTableName[];
  /** Rewrites the emptiable tables without their names, in the file the compound file reads. */
  empty(): void;
}

export interface StringTable {
  extended: boolean;
  strings: string[];
  /** Each string's extra data. */
  extras: Buffer[];
  /** Where the table's offset and length sit in the WordDocument stream. */
  fibAt: number;
  fc: number;
  lcb: number;
}

export function wordTables(file: CompoundFile): WordTables {
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
export function readStringTable(bytes: Buffer, fc: number, lcb: number, fibAt: number): StringTable | null {
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
export function writeStringTable(table: StringTable, keep: (i: number) => boolean): Buffer {
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
