/**
 * The files people upload (a submission's two files, an article's PDF): what each may be, and the words used when one is refused.
 * The page checks a chosen file with these before uploading it; the page actions hand the same rules to the
 * server's `checkUpload`, and the API (server/http/routes/submissions.ts) words its refusals the same way, so an
 * author reads one message whichever side refuses.
 */
/** The two file fields of the submission and revision forms. */
export type UploadField = 'submissionFile' | 'additionalZip' | 'copyrightForm';

export interface FileRule<Field extends string = UploadField> {
  field: Field;
  /** The file's name in messages, e.g. "The main submission file". */
  label: string;
  /** What the server's content check may call it. */
  accept: ('pdf' | 'doc' | 'docx' | 'zip' | 'png' | 'jpeg')[];
  /** Names the file picker offers and the page accepts. */
  extensions: readonly string[];
  /** The `accept` attribute of the file input. */
  acceptAttr: string;
  wrongType: string;
}

export const MANUSCRIPT_RULE: FileRule = {
  field: 'submissionFile',
  label: 'The main submission file',
  accept: ['pdf', 'doc', 'docx'],
  extensions: ['.pdf', '.doc', '.docx'],
  acceptAttr:
    '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  wrongType: 'The main submission file must be a Word document (.doc, .docx) or a PDF (.pdf).',
};

export const ADDITIONAL_RULE: FileRule = {
  field: 'additionalZip',
  label: 'The additional file',
  accept: ['zip'],
  extensions: ['.zip'],
  acceptAttr: '.zip,application/zip,application/x-zip-compressed',
  wrongType: 'The additional file must be a .zip archive.',
};

/** The author's signed copyright form, sent with a submission (issue 22). */
export const COPYRIGHT_FORM_RULE: FileRule = {
  field: 'copyrightForm',
  label: 'The copyright form',
  accept: ['pdf'],
  extensions: ['.pdf'],
  acceptAttr: '.pdf,application/pdf',
  wrongType: 'The copyright form must be a PDF (.pdf): scan or save the signed form as a PDF.',
};

/** A reviewer's attached file (an annotated manuscript, say): PDF or Word. */
export const REVIEW_ATTACHMENT_RULE: FileRule<'file'> = {
  field: 'file',
  label: 'The attached file',
  accept: ['pdf', 'doc', 'docx'],
  extensions: ['.pdf', '.doc', '.docx'],
  acceptAttr: MANUSCRIPT_RULE.acceptAttr,
  wrongType: 'The attached file must be a Word document (.doc, .docx) or a PDF (.pdf).',
};

/** An article's PDF, uploaded or replaced on the dashboard or given when a submission is published. */
export const ARTICLE_PDF_RULE: FileRule<'pdf'> = {
  field: 'pdf',
  label: 'The article PDF',
  accept: ['pdf'],
  extensions: ['.pdf'],
  acceptAttr: '.pdf,application/pdf',
  wrongType: 'The article file must be a PDF (.pdf).',
};

/**
 * The final Word file of an article (.docx only: the full text is made from its structure), given beside the
 * PDF when a submission is published or an article uploaded, or later to replace it.
 */
export const ARTICLE_WORD_RULE: FileRule<'word'> = {
  field: 'word',
  label: 'The Word file',
  accept: ['docx'],
  extensions: ['.docx'],
  acceptAttr: '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  wrongType: 'The full-text file must be a Word document (.docx).',
};

/** A journal's logo (decision 0062): shown on its pages' header and on its card on the site's home. */
export const JOURNAL_LOGO_RULE: FileRule<'logo'> = {
  field: 'logo',
  label: 'The logo',
  accept: ['png', 'jpeg'],
  extensions: ['.png', '.jpg', '.jpeg'],
  acceptAttr: '.png,.jpg,.jpeg,image/png,image/jpeg',
  wrongType: 'The logo must be a PNG or JPEG image (.png, .jpg).',
};
/** A logo is small: a square of a few hundred pixels. */
export const JOURNAL_LOGO_MAX_BYTES = 1024 * 1024;

export interface UploadLimits {
  /** Bytes (the server's MAX_MANUSCRIPT_SIZE). */
  manuscript: number;
  /** Bytes (the server's MAX_ADDITIONAL_SIZE). */
  additional: number;
}

/** "43 KB", "20 MB": the same rounding as the server's messages. */
export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${Math.round((n / 1024 ** 3) * 10) / 10} GB`;
  if (n >= 1024 ** 2) return `${Math.round((n / 1024 ** 2) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/** The refusal of a file past its limit, in the same words wherever it is refused. */
export function tooLargeMessage(rule: { label: string }, maxBytes: number): string {
  return `${rule.label} is too large: the limit is ${formatBytes(maxBytes)}.`;
}

/** The form reader's limit for one file field of `rule`, with its refusal. */
export function fileLimit(rule: { label: string }, maxBytes: number): { maxBytes: number; tooLarge: string } {
  return { maxBytes, tooLarge: tooLargeMessage(rule, maxBytes) };
}

/** What the first bytes say a file is. A .docx is a ZIP, so both read as "zip" here. */
type Sniffed = 'pdf' | 'doc' | 'zip' | 'png' | 'jpeg' | 'xml' | 'other';

const EXPECTED: Record<string, Sniffed> = {
  '.pdf': 'pdf',
  '.doc': 'doc',
  '.docx': 'zip',
  '.zip': 'zip',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.xml': 'xml',
};

function sniff(bytes: Uint8Array): Sniffed {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  // PDF readers accept the header anywhere in the first KB; so does the server.
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  if (starts([0x50, 0x4b, 0x03, 0x04]) || starts([0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (starts([0x89, 0x50, 0x4e, 0x47])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  // XML: its declaration or first tag, after a byte-order mark and white space.
  if (/^(\xEF\xBB\xBF)?\s*</.test(head)) return 'xml';
  return 'other';
}

export function extensionOf(name: string): string {
  return /\.[A-Za-z0-9]+$/.exec(name)?.[0]?.toLowerCase() ?? '';
}

/**
 * Why a chosen file cannot be uploaded, or null when it may be: empty, a name the field does not take, too
 * large, or content that is not what its name says (a PNG renamed .pdf). Encrypted and damaged PDFs are
 * left to the server, which reads the whole file.
 */
export async function fileProblem(
  file: Blob & { name: string },
  rule: FileRule<string>,
  maxBytes: number,
): Promise<string | null> {
  if (file.size === 0) return `${rule.label} is empty (0 bytes). Please choose the right file.`;
  const ext = extensionOf(file.name);
  if (!rule.extensions.includes(ext)) return `${rule.wrongType} "${file.name}" is not one of these.`;
  if (file.size > maxBytes) return tooLargeMessage(rule, maxBytes);
  let head: Uint8Array;
  try {
    head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
  } catch {
    return `"${file.name}" could not be read. Please choose it again.`;
  }
  if (sniff(head) !== EXPECTED[ext]) {
    return `${rule.wrongType} (The file's content does not match its name "${file.name}".)`;
  }
  return null;
}
