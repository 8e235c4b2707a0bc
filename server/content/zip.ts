import { createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The journal's one ZIP stack (decision 0044): a minimal writer (deflate, no encryption, no ZIP64) for the
 * Office Open XML templates; a reader with ceilings; a copy with some entries replaced and every other copied
 * byte for byte (decision 0024); and the zip-bomb guard every Office file passes before anything opens it
 * (decision 0034). mammoth reads a .docx with its own JSZip, only after the guard.
 *
 * One file: the guard and the copy read the same records the reader parses; split, each would re-describe
 * them (about 450 lines).
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time fields. */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

export function zip(entries: { name: string; data: string | Uint8Array }[], modified = new Date()): Buffer {
  const { time, date } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;

  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
    const packed = deflateRawSync(raw);
    const crc = crc32(raw);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal and external attributes: all zero
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + packed.length;
  }

  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Reading a ZIP archive (no encryption, no ZIP64), and a copy of one with some entries replaced, the others
 * copied byte for byte. Sizes are bounded: entries are inflated with a ceiling, so a "zip bomb" is an error,
 * never an exhausted memory.
 */
export class ZipError extends Error {
  constructor(
    readonly code: 'corrupt' | 'unsupported' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  /** The entry's record in the central directory: [centralStart, centralEnd). */
  centralStart: number;
  centralEnd: number;
  /** The local header, data and any data descriptor: [localStart, localEnd). */
  localStart: number;
  dataStart: number;
  localEnd: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Where the end-of-central-directory record starts. */
  endStart: number;
}

/** More entries than any Word document has; a directory that claims more is refused before it is read. */
export const MAX_ZIP_ENTRIES = 10_000;

export function readZipDirectory(data: Buffer): ZipDirectory {
  const corrupt = (why: string) => new ZipError('corrupt', `The archive is damaged (${why}).`);
  let endStart = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (data.readUInt32LE(at) === 0x06054b50) {
      endStart = at;
      break;
    }
  }
  if (endStart < 0) throw corrupt('no end of central directory');
  const count = data.readUInt16LE(endStart + 10);
  const directorySize = data.readUInt32LE(endStart + 12);
  const directoryStart = data.readUInt32LE(endStart + 16);
  if (count === 0xffff || directoryStart === 0xffffffff)
    throw new ZipError('unsupported', 'ZIP64 archives are not read.');
  if (count > MAX_ZIP_ENTRIES)
    throw new ZipError('too_large', `The archive has more than ${MAX_ZIP_ENTRIES} entries.`);
  if (directoryStart + directorySize > endStart) throw corrupt('central directory out of bounds');

  const entries: ZipEntry[] = [];
  let at = directoryStart;
  for (let n = 0; n < count; n++) {
    if (at + 46 > endStart || data.readUInt32LE(at) !== 0x02014b50)
      throw corrupt('bad central directory entry');
    const nameLength = data.readUInt16LE(at + 28);
    const centralEnd = at + 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (centralEnd > endStart) throw corrupt('central directory entry out of bounds');
    const flags = data.readUInt16LE(at + 8);
    const compressedSize = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    const localStart = data.readUInt32LE(at + 42);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localStart === 0xffffffff) {
      throw new ZipError('unsupported', 'ZIP64 archives are not read.');
    }
    if (localStart + 30 > directoryStart || data.readUInt32LE(localStart) !== 0x04034b50)
      throw corrupt('bad local header');
    const dataStart =
      localStart + 30 + data.readUInt16LE(localStart + 26) + data.readUInt16LE(localStart + 28);
    let localEnd = dataStart + compressedSize;
    if (localEnd > directoryStart) throw corrupt('entry data out of bounds');
    if (flags & 0x08) {
      // A data descriptor follows the data: crc, sizes, with or without its signature.
      localEnd += localEnd + 4 <= directoryStart && data.readUInt32LE(localEnd) === 0x08074b50 ? 16 : 12;
      if (localEnd > directoryStart) throw corrupt('data descriptor out of bounds');
    }
    entries.push({
      name: data.toString(flags & 0x0800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength),
      flags,
      method: data.readUInt16LE(at + 10),
      compressedSize,
      size,
      crc: data.readUInt32LE(at + 16),
      centralStart: at,
      centralEnd,
      localStart,
      dataStart,
      localEnd,
    });
    at = centralEnd;
  }
  return { entries, endStart };
}

/** An entry's content, at most `maxBytes` once inflated (else a `too_large` ZipError), its CRC checked. */
export function readZipEntry(data: Buffer, entry: ZipEntry, maxBytes: number): Buffer {
  if (entry.flags & 0x01) throw new ZipError('unsupported', `${entry.name} is encrypted.`);
  const packed = data.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  let content: Buffer;
  if (entry.method === 0) content = Buffer.from(packed);
  else if (entry.method === 8) {
    try {
      content = inflateRawSync(packed, { maxOutputLength: maxBytes + 1 });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw new ZipError('too_large', `${entry.name} is larger than ${maxBytes} bytes once uncompressed.`);
      }
      throw new ZipError('corrupt', `${entry.name} cannot be uncompressed.`);
    }
  } else throw new ZipError('unsupported', `${entry.name} uses compression method ${entry.method}.`);
  if (content.length > maxBytes) {
    throw new ZipError('too_large', `${entry.name} is larger than ${maxBytes} bytes once uncompressed.`);
  }
  if (crc32(content) !== entry.crc) throw new ZipError('corrupt', `${entry.name} fails its checksum.`);
  return content;
}

/**
 * A new archive with the entries named in `replacements` holding new content (deflated) or left out (null),
 * every other entry's local record and directory record copied byte for byte, in the same order. Only the
 * directory's entries are written: bytes between them (a record an earlier directory named) are not. The
 * input is not modified.
 */
export function replaceZipEntries(
  data: Buffer,
  directory: ZipDirectory,
  replacements: Map<string, Uint8Array | null>,
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for (const entry of directory.entries) {
    const central = Buffer.from(data.subarray(entry.centralStart, entry.centralEnd));
    const replacement = replacements.get(entry.name);
    if (replacement === null) continue;
    count++;
    if (replacement === undefined) {
      locals.push(data.subarray(entry.localStart, entry.localEnd));
      central.writeUInt32LE(offset, 42);
      centrals.push(central);
      offset += entry.localEnd - entry.localStart;
      continue;
    }
    const packed = deflateRawSync(replacement);
    const crc = crc32(replacement);
    const header = Buffer.from(data.subarray(entry.localStart, entry.dataStart));
    const flags = entry.flags & ~0x08; // sizes now in the header: no data descriptor
    for (const [record, base] of [
      [header, 0],
      [central, 2],
    ] as const) {
      // The local header's fields sit 2 bytes earlier than the directory's (no "version made by").
      record.writeUInt16LE(flags, 6 + base);
      record.writeUInt16LE(8, 8 + base);
      record.writeUInt32LE(crc, 14 + base);
      record.writeUInt32LE(packed.length, 18 + base);
      record.writeUInt32LE(replacement.length, 22 + base);
    }
    central.writeUInt32LE(offset, 42);
    locals.push(header, packed);
    centrals.push(central);
    offset += header.length + packed.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.from(data.subarray(directory.endStart));
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}

/**
 * Local records that the central directory does not name: what a tool that updates an archive by appending
 * a new directory leaves of the entries it replaced. Found by their signature outside every named record;
 * only those whose header gives their sizes (no data descriptor), within the file.
 */
export function hiddenZipEntries(data: Buffer, directory: ZipDirectory): ZipEntry[] {
  const named = directory.entries.map((e) => [e.localStart, e.localEnd] as const);
  const directoryStart = Math.min(directory.endStart, ...directory.entries.map((e) => e.centralStart));
  const hidden: ZipEntry[] = [];
  const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  for (
    let at = data.indexOf(signature);
    at >= 0 && at + 30 <= directoryStart;
    at = data.indexOf(signature, at + 4)
  ) {
    if (named.some(([start, end]) => at >= start && at < end)) continue;
    const flags = data.readUInt16LE(at + 6);
    const compressedSize = data.readUInt32LE(at + 18);
    const nameLength = data.readUInt16LE(at + 26);
    const dataStart = at + 30 + nameLength + data.readUInt16LE(at + 28);
    if (flags & 0x08 || dataStart + compressedSize > directoryStart) continue;
    hidden.push({
      name: data.toString(flags & 0x0800 ? 'utf8' : 'latin1', at + 30, at + 30 + nameLength),
      flags,
      method: data.readUInt16LE(at + 8),
      compressedSize,
      size: data.readUInt32LE(at + 22),
      crc: data.readUInt32LE(at + 14),
      centralStart: -1,
      centralEnd: -1,
      localStart: at,
      dataStart,
      localEnd: dataStart + compressedSize,
    });
    at = dataStart + compressedSize - 4;
  }
  return hidden;
}

// ---- The zip-bomb guard (decision 0034) ---------------------------------------------------------------

/**
 * The one guard before anything opens an Office file or a ZIP (mammoth and JSZip, word-extractor, our own
 * reader above): a "zip bomb" — a few megabytes that inflate to a gigabyte — is refused by its
 * declared sizes and ratios, then by its real ones while it is inflated into nothing (counted, never kept),
 * before any parser holds a byte of it (decision 0034).
 *
 * Guarded files are remembered by identity, so a buffer checked at upload is not inflated again by the
 * converter or the text extraction it is handed to.
 */

export interface ZipLimits {
  /** An XML part (document.xml, styles, comments…) once uncompressed: what a parser builds a tree of. */
  maxXmlBytes: number;
  /** Any other entry (pictures, embedded objects) once uncompressed. */
  maxEntryBytes: number;
  /** Every entry together once uncompressed. */
  maxTotalBytes: number;
  /** How many times its compressed size an entry may grow… */
  maxRatio: number;
  /** …once it is larger than this (small parts of repeated markup compress far better). */
  ratioFrom: number;
}

const MB = 1024 * 1024;

/**
 * A 1,000-page thesis has a document.xml of 20–30 MB and compresses 10–30 times; a zip bomb grows 200–1,000
 * times. Pictures are stored already compressed.
 */
export const ZIP_LIMITS: ZipLimits = {
  maxXmlBytes: 32 * MB,
  maxEntryBytes: 128 * MB,
  maxTotalBytes: 256 * MB,
  maxRatio: 100,
  ratioFrom: 1 * MB,
};

/** Thrown by `guardZip` for a file that expands too much: `ZipError` with code "too_large". */
export class ZipExpandsError extends ZipError {
  constructor(readonly detail: string) {
    super('too_large', expandsMessage('The file', detail));
    this.name = 'ZipExpandsError';
  }
}

/** "The Word file expands too much once uncompressed: …", for a refusal that names the file its own way. */
export function expandsMessage(label: string, detail: string): string {
  return `${label} expands too much once uncompressed: ${detail}`;
}

const guarded = new WeakSet<Buffer>();

const isXml = (name: string) => /\.(xml|rels)$/i.test(name);
const inMb = (bytes: number) => `${Math.ceil(bytes / MB).toLocaleString('en')} MB`;

/**
 * Resolves when every entry of the archive stays within `limits` declared and inflated; otherwise throws a
 * `ZipExpandsError` saying which entry and by how much, or a `ZipError` for an archive that cannot be read
 * (damaged, encrypted, ZIP64) — a file this guard cannot measure is not handed to a parser that would.
 * Memory stays at one inflation chunk whatever the file claims.
 */
export async function guardZip(data: Buffer, limits: ZipLimits = ZIP_LIMITS): Promise<void> {
  if (limits === ZIP_LIMITS && guarded.has(data)) return;
  const { entries } = readZipDirectory(data);
  const refuse = (entry: ZipEntry, size: number, what: string, ratio = true) =>
    new ZipExpandsError(
      `its part "${entry.name}" ${what} ${inMb(size)}` +
        (ratio && entry.compressedSize > 0
          ? ` (${Math.floor(size / entry.compressedSize)} times its compressed size)`
          : '') +
        `, where a document's parts are at most ${inMb(limits.maxXmlBytes)} of text each, grow at most ${limits.maxRatio} times, and come to ${inMb(limits.maxTotalBytes)} together. It is refused as a possible "zip bomb": please save the document again and upload it again.`,
    );
  const ceiling = (entry: ZipEntry) => (isXml(entry.name) ? limits.maxXmlBytes : limits.maxEntryBytes);
  const tooMuch = (entry: ZipEntry, size: number) =>
    size > ceiling(entry) ||
    (size > limits.ratioFrom && size > Math.max(entry.compressedSize, 1) * limits.maxRatio);

  // What the directory declares: refused before a byte is inflated.
  let declared = 0;
  for (const entry of entries) {
    declared += entry.size;
    if (tooMuch(entry, entry.size)) throw refuse(entry, entry.size, 'declares');
    if (declared > limits.maxTotalBytes) throw refuse(entry, declared, 'brings the whole file to', false);
  }
  // What it really holds: inflated and counted, stopped at the first byte past what it declared.
  let real = 0;
  for (const entry of entries) {
    if (entry.flags & 0x01) throw new ZipError('unsupported', `${entry.name} is encrypted.`);
    if (entry.method === 0) {
      real += entry.compressedSize;
      if (entry.compressedSize !== entry.size)
        throw new ZipError('corrupt', `The archive is damaged (${entry.name} has the wrong size).`);
      continue;
    }
    if (entry.method !== 8) {
      throw new ZipError('unsupported', `${entry.name} uses compression method ${entry.method}.`);
    }
    const packed = data.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    const size = await inflatedSize(packed, entry.size);
    if (size === null || size > entry.size) {
      // More than it declared: measured up to the limit it broke, so the message says by how much at least.
      throw refuse(entry, entry.size + 1, 'expands past what it declares, to more than');
    }
    real += size;
    if (real > limits.maxTotalBytes) throw refuse(entry, real, 'brings the whole file to', false);
  }
  if (limits === ZIP_LIMITS) guarded.add(data);
}

/**
 * The size `packed` inflates to, counting chunks as they come and dropping them; null as soon as it passes
 * `limit`. A stream that is not valid deflate data is a damaged archive.
 */
function inflatedSize(packed: Buffer, limit: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    let size = 0;
    let done = false;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !done) {
        done = true;
        inflate.destroy();
        resolve(null);
      }
    });
    inflate.on('end', () => {
      if (!done) resolve(size);
      done = true;
    });
    inflate.on('error', () => {
      if (done) return;
      done = true;
      reject(new ZipError('corrupt', 'The archive is damaged (a part cannot be uncompressed).'));
    });
    inflate.end(packed);
  });
}
