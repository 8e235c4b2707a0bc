import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { type DetectedKind, MEDIA_TYPES, detectKind } from '../files/content-type.ts';
import type { FileOnDisk } from '../files/service.ts';
import type { OjsFile } from './native.ts';

/**
 * The files of an OJS export (issue 26, decision 0066): an `<embed>` is already a file of the import's own
 * (xml.ts decodes it as it streams); an `<href>` names one in the folder the admin allowed (`filesFrom`), and
 * nothing else: not a URL, not a path out of it (`..`, an absolute path elsewhere, a symbolic link leading
 * out). Each file's kind is decided by its bytes, read from its head and tail only: a file is never read
 * into memory whole.
 */

export class FileRefused extends Error {}

export type LocalFile = { path: string; size: number; sha256: string };

/** The bytes an `<href src>` names, inside `filesFrom` only; throws `FileRefused` with the reason. */
export async function hrefFile(src: string, filesFrom: string | null): Promise<LocalFile> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) && !/^file:/i.test(src)) {
    throw new FileRefused(`it names a file elsewhere (${src}): only files in the allowed folder are read.`);
  }
  if (!filesFrom)
    throw new FileRefused(
      `it names the file "${src}" by reference, and no folder was allowed to read it from.`,
    );
  const relative = src.replace(/^file:\/\//i, '');
  const root = await realpath(filesFrom);
  const asked = path.resolve(root, relative);
  const inside = (p: string) => p === root || p.startsWith(root + path.sep);
  if (!inside(asked)) throw new FileRefused(`"${src}" is outside the allowed folder: not read.`);
  let real: string;
  try {
    real = await realpath(asked);
  } catch {
    throw new FileRefused(`"${src}" is not in the allowed folder.`);
  }
  // A symbolic link inside the folder that leads out of it is refused like the path itself.
  if (!inside(real)) throw new FileRefused(`"${src}" leads outside the allowed folder: not read.`);
  const info = await stat(real);
  if (!info.isFile()) throw new FileRefused(`"${src}" is not a file.`);
  if ((await lstat(asked)).isSymbolicLink() && !inside(real))
    throw new FileRefused(`"${src}" is a link out.`);
  return { path: real, size: info.size, sha256: await sha256Of(real) };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const HEAD = 64 * 1024;

/**
 * A file's first and last bytes, never the whole (enough for its kind, a PDF's end marker and trailer, an
 * export's root element and its end): the one reader of an import's file ends.
 */
export async function fileEnds(
  file: string,
  size: number,
  bytes: { head: number; tail: number } = { head: HEAD, tail: HEAD },
): Promise<{ head: Buffer; tail: Buffer }> {
  const fd = await open(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(bytes.head, size));
    const { bytesRead: h } = await fd.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(bytes.tail, size));
    const { bytesRead: t } = await fd.read(tail, 0, tail.length, Math.max(0, size - tail.length));
    return { head: head.subarray(0, h), tail: tail.subarray(0, t) };
  } finally {
    await fd.close();
  }
}

/**
 * A galley's PDF, checked as uploads are (content-type.ts): a PDF by its bytes whatever its name, not cut
 * short, not encrypted. Throws `FileRefused` with the reason.
 */
export async function checkedPdf(local: LocalFile, name: string): Promise<FileOnDisk> {
  if (local.size === 0) throw new FileRefused(`its PDF “${name}” is empty.`);
  const { head, tail } = await fileEnds(local.path, local.size);
  const kind = detectKind(head);
  if (kind !== 'pdf')
    throw new FileRefused(`its PDF galley “${name}” is not a PDF (its bytes are ${kindName(kind)}).`);
  if (!tail.subarray(-2048).includes('%%EOF'))
    throw new FileRefused(`its PDF “${name}” is damaged or incomplete (it has no end).`);
  if (
    /\/Encrypt\s*\d+\s+\d+\s+R/.test(tail.toString('latin1')) ||
    /\/Encrypt\s*\d+\s+\d+\s+R/.test(head.toString('latin1'))
  )
    throw new FileRefused(`its PDF “${name}” is encrypted.`);
  return { ...local, filename: pdfName(name), mediaType: MEDIA_TYPES.pdf };
}

/** An issue cover: a PNG or JPEG by its bytes; null when it is neither. */
export async function checkedImage(local: LocalFile, name: string): Promise<FileOnDisk | null> {
  if (local.size === 0) return null;
  const { head } = await fileEnds(local.path, local.size);
  const kind = detectKind(head);
  if (kind !== 'png' && kind !== 'jpeg') return null;
  return {
    ...local,
    filename: name || `cover.${kind === 'png' ? 'png' : 'jpg'}`,
    mediaType: MEDIA_TYPES[kind],
  };
}

/** Another galley's file (HTML, EPUB, data): kept as it is, its type what OJS said it is (sent as a download). */
export function otherFile(local: LocalFile, f: OjsFile): FileOnDisk {
  const mediaType = /^[\w.+-]+\/[\w.+-]+$/.test(f.mimeType) ? f.mimeType : 'application/octet-stream';
  return { ...local, filename: f.name, mediaType };
}

function pdfName(name: string) {
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}

function kindName(kind: DetectedKind): string {
  return kind === 'unknown' || kind === 'empty' ? 'something else' : `a ${kind.toUpperCase()} file`;
}

/** The bytes of an OJS file: its `<embed>` (decoded already) or its `<href>` in the allowed folder. */
export async function localFileOf(f: OjsFile, filesFrom: string | null): Promise<LocalFile> {
  if (!f.content) throw new FileRefused(`the file “${f.name}” has neither <embed> nor <href>.`);
  if ('embedded' in f.content) {
    const e = f.content.embedded;
    if (e.error) throw new FileRefused(`the file “${f.name}” cannot be read: ${e.error}.`);
    return { path: e.path, size: e.size, sha256: e.sha256 };
  }
  try {
    return await hrefFile(f.content.href, filesFrom);
  } catch (err) {
    if (err instanceof FileRefused) throw new FileRefused(`the file “${f.name}”: ${err.message}`);
    throw err;
  }
}
