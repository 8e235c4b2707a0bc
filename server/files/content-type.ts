/**
 * What a file really is, read from its bytes: the name and the browser's declared type are not trusted.
 */
export type DetectedKind = 'pdf' | 'docx' | 'doc' | 'zip' | 'png' | 'jpeg' | 'empty' | 'unknown';

const starts = (data: Buffer, bytes: number[]) => bytes.every((b, i) => data[i] === b);

export function detectKind(data: Buffer): DetectedKind {
  if (data.length === 0) return 'empty';
  // PDF readers accept the header within the first KB; so do we.
  if (data.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (starts(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  if (starts(data, [0x50, 0x4b, 0x03, 0x04]) || starts(data, [0x50, 0x4b, 0x05, 0x06])) {
    // A .docx is a ZIP whose entries include word/document.xml: the names sit in plain text in the headers.
    return data.includes('word/document.xml') || data.includes('word/') ? 'docx' : 'zip';
  }
  if (starts(data, [0x89, 0x50, 0x4e, 0x47])) return 'png';
  if (starts(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  return 'unknown';
}

export const MEDIA_TYPES: Record<DetectedKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  zip: 'application/zip',
  png: 'image/png',
  jpeg: 'image/jpeg',
  empty: 'application/octet-stream',
  unknown: 'application/octet-stream',
};

/** Problems a PDF can have that make it useless to readers and editors, found without a full parse. */
export function pdfProblem(data: Buffer): 'encrypted' | 'truncated' | null {
  const tail = data.subarray(Math.max(0, data.length - 2048));
  if (!tail.includes('%%EOF')) return 'truncated';
  // The trailer (or a cross-reference stream) names an /Encrypt dictionary when the file is protected.
  if (/\/Encrypt\s*\d+\s+\d+\s+R/.test(data.toString('latin1'))) return 'encrypted';
  return null;
}

/**
 * A password-protected Word file. Word 2007+ encrypts a .docx into an OLE container (so it reads as `doc`)
 * holding an "EncryptedPackage" stream; Word 97–2003 sets the "encrypted" flag of its File Information Block.
 */
export function wordEncrypted(data: Buffer): boolean {
  if (detectKind(data) !== 'doc') return false;
  return data.includes(Buffer.from('EncryptedPackage', 'utf16le')) || isEncryptedWord97(data);
}

/**
 * Word 97–2003 files store an "encrypted" flag in the File Information Block at the start of the
 * WordDocument stream. Finding that stream needs the OLE directory; the FIB's magic (0xA5EC) is looked
 * for at sector boundaries instead, which is enough for the files Word and LibreOffice write.
 */
function isEncryptedWord97(data: Buffer): boolean {
  for (let at = 512; at + 12 <= data.length; at += 512) {
    if (data.readUInt16LE(at) === 0xa5ec) return (data.readUInt16LE(at + 0x0a) & 0x0100) !== 0;
  }
  return false;
}
