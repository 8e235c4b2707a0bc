/**
 * The one guard before anything opens an Office file or a ZIP (mammoth and JSZip, word-extractor, our own
 * reader in content/zip.ts): a "zip bomb" — a few megabytes that inflate to a gigabyte — is refused by its
 * declared sizes and ratios, then by its real ones while it is inflated into nothing (counted, never kept),
 * before any parser holds a byte of it (decision 0034).
 *
 * Guarded files are remembered by identity, so a buffer checked at upload is not inflated again by the
 * converter or the text extraction it is handed to.
 */
import { createInflateRaw } from 'node:zlib';
import { type ZipEntry, ZipError, readZipDirectory } from '../content/zip.ts';

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
