/**
 * File names people gave their uploads, made safe to show and to send back. Bidirectional controls go (a
 * right-to-left override turns "report\u202Efdp.exe" into what reads as "reportexe.pdf"), as do control
 * characters and path separators; what is left is trimmed to a sensible length.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: C0 and C1 controls and DEL are what this removes.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export function safeFilename(name: string, fallback = 'file'): string {
  const cleaned = name
    .normalize('NFC')
    .replace(BIDI_CONTROLS, '')
    .replace(CONTROLS, '')
    .replace(/[\\/]/g, '_')
    .trim()
    .slice(-200);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback;
}

/**
 * A Content-Disposition value for a download: the safe name in UTF-8 (RFC 6266 `filename*`), and an ASCII
 * stand-in for old clients.
 */
export function attachmentDisposition(name: string): string {
  const safe = safeFilename(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}
