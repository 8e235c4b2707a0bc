import { tooLargeMessage } from '../../common/upload-rules.ts';
import { type DomainError, invalid, onField, tooLarge, unprocessable, unsupportedType } from '../errors.ts';
import { ZipError, ZipExpandsError, expandsMessage, guardZip } from '../content/zip.ts';
import { type DetectedKind, MEDIA_TYPES, detectKind, pdfProblem, wordEncrypted } from './content-type.ts';

export interface RawUpload {
  field: string;
  filename: string;
  data: Buffer;
}

export interface CheckedUpload extends RawUpload {
  kind: DetectedKind;
  mediaType: string;
}

export interface UploadRule {
  /** The field's name in messages, e.g. "The main submission file". */
  label: string;
  accept: DetectedKind[];
  maxBytes: number;
  /** Refusal for a file of the wrong kind (the spec's wording where it has one). */
  wrongType: string;
}

const EXTENSIONS: Partial<Record<DetectedKind, string[]>> = {
  pdf: ['.pdf'],
  doc: ['.doc'],
  docx: ['.docx'],
  zip: ['.zip'],
  png: ['.png'],
  jpeg: ['.jpg', '.jpeg'],
};

/**
 * Checks an upload by its content: empty, too large, wrong kind (whatever its name says), a name that
 * contradicts the content, and PDFs or Word files that need a password or are cut short. Throws a 4xx with a
 * clear message.
 */
export async function checkUpload(upload: RawUpload, rule: UploadRule): Promise<CheckedUpload> {
  const fail = (err: DomainError) => onField(err, upload.field);
  if (upload.data.length === 0)
    throw fail(invalid(`${rule.label} is empty (0 bytes). Please choose the right file.`));
  const kind = detectKind(upload.data);
  // A protected .docx is an OLE container, which reads as a .doc: say it is protected, not that it is the wrong kind.
  if (
    kind === 'doc' &&
    rule.accept.includes('docx') &&
    !rule.accept.includes('doc') &&
    wordEncrypted(upload.data)
  ) {
    throw fail(
      unprocessable(
        `${rule.label} is password-protected. Please save it without a password and upload it again.`,
      ),
    );
  }
  // A .docx is a ZIP; where a plain ZIP is wanted, a Word file inside a .zip name is still a ZIP archive.
  const accepted = rule.accept.includes(kind) || (kind === 'docx' && rule.accept.includes('zip'));
  if (!accepted) throw fail(unsupportedType(rule.wrongType));
  if (upload.data.length > rule.maxBytes) {
    throw fail(tooLarge(tooLargeMessage(rule, rule.maxBytes)));
  }
  // Before the name check: a protected .docx is an OLE container, which would otherwise read as a misnamed .doc.
  if (kind === 'doc' && wordEncrypted(upload.data)) {
    throw fail(
      unprocessable(
        `${rule.label} is password-protected. Please save it without a password and upload it again.`,
      ),
    );
  }
  const ext = /\.[A-Za-z0-9]+$/.exec(upload.filename)?.[0]?.toLowerCase();
  const effective: DetectedKind = kind === 'docx' && !rule.accept.includes('docx') ? 'zip' : kind;
  if (ext && !(EXTENSIONS[effective] ?? []).includes(ext)) {
    throw fail(
      unsupportedType(`${rule.wrongType} (The file's content does not match its name "${upload.filename}".)`),
    );
  }
  if (kind === 'pdf') {
    const problem = pdfProblem(upload.data);
    if (problem === 'encrypted' && (await needsPassword(upload.data))) {
      throw fail(
        unprocessable(
          `${rule.label} is password-protected. Please upload a PDF without a password or encryption.`,
        ),
      );
    }
    if (problem === 'truncated') {
      throw fail(
        unprocessable(`${rule.label} is damaged or incomplete. Please export the PDF again and upload it.`),
      );
    }
  }
  if (kind === 'docx') {
    // Every Office file is measured here, before anything (converter, text extraction, property scan) opens it.
    try {
      await guardZip(upload.data);
    } catch (err) {
      if (err instanceof ZipExpandsError) throw fail(unprocessable(expandsMessage(rule.label, err.detail)));
      if (err instanceof ZipError) {
        throw fail(
          unprocessable(
            `${rule.label} could not be read: it is damaged or is not a Word document (${err.message.replace(/\.$/, '')}). Open it in Word, save it again as .docx and upload it again.`,
          ),
        );
      }
      throw err;
    }
  }
  const filename = sanitizeFilename(upload.filename) || `upload${EXTENSIONS[effective]?.[0] ?? ''}`;
  return { ...upload, filename, kind: effective, mediaType: MEDIA_TYPES[effective] };
}

/**
 * An encrypted PDF may need no password to open: one with only an owner password (printing or copying
 * restricted, as some exports set) opens for everyone. Only a PDF that asks for a password is refused.
 */
async function needsPassword(data: Buffer): Promise<boolean> {
  const { getDocumentProxy } = await import('unpdf');
  try {
    const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false });
    await pdf.destroy().catch(() => undefined);
    return false;
  } catch (err) {
    // Anything else (a damaged file) is for the next checks and for extraction to report.
    return (err as { name?: string })?.name === 'PasswordException';
  }
}

/** Keeps a readable original name, without paths or control characters. */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Drop control characters (C0 and DEL) without a regex of them.
  return [...base]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 200);
}
