/**
 * The properties of a manuscript file that name a person or an organisation (a Word file's document
 * properties, the authors of its comments and tracked changes, a PDF's Author), and a copy of the file
 * without them, for double-anonymous review: the author's original is never touched.
 *
 * Pure functions over bytes. A file that cannot be read is an answer (`problem`), never an exception; ZIP
 * entries are inflated under a ceiling, so a "zip bomb" is refused rather than read. What counts as naming
 * a person is decision 0024.
 */
import { ZipError, guardZip } from '../content/zip.ts';
import { type DetectedKind, detectKind, MEDIA_TYPES } from './content-type.ts';
import {
  type CopyWithoutProperties,
  type HandledKind,
  problem,
  type PropertiesProblem,
  type PropertiesProblemCode,
  type PropertiesScan,
  unreadableScan,
} from './properties/shared.ts';
import { scanDocx, stripDocx } from './properties/docx.ts';
import { scanDoc, stripDoc } from './properties/doc.ts';

/** PDFs are read and rewritten with pdf-lib, loaded with the first PDF (0.1-0.2 s of the server's start otherwise). */
const pdfProperties = () => import('./properties/pdf.ts');

export {
  ANONYMOUS,
  type CopyWithoutProperties,
  PROPERTIES_MESSAGES,
  type PersonalProperty,
  type PropertiesProblem,
  type PropertiesProblemCode,
  type PropertiesScan,
  describeProperty,
  isPersonalCustomProperty,
} from './properties/shared.ts';
export { CompoundFile } from './properties/compound-file.ts';

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
    if (kind === 'pdf') return await (await pdfProperties()).scanPdf(data);
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
          ? await (await pdfProperties()).stripPdf(data, scan.properties)
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
