/**
 * Helpers for the similarity tests and the benchmark: real PDFs made with pdf-lib from plain paragraphs
 * (Times, wrapped lines, as many pages as needed), so extraction runs on the same kind of file a user sends.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function textPdf(paragraphs: string[], opts: { title?: string } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const size = 11;
  const lineHeight = 14;
  const width = 595.28;
  const height = 841.89;
  const margin = 72;
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const newLine = () => {
    y -= lineHeight;
    if (y < margin) {
      page = doc.addPage([width, height]);
      y = height - margin;
    }
  };
  if (opts.title) {
    page.drawText(winAnsi(opts.title), { x: margin, y, size: 14, font: bold });
    newLine();
    newLine();
  }
  for (const para of paragraphs) {
    let line = '';
    for (const word of winAnsi(para).split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width - 2 * margin && line) {
        page.drawText(line, { x: margin, y, size, font });
        newLine();
        line = word;
      } else {
        line = next;
      }
    }
    if (line) {
      page.drawText(line, { x: margin, y, size, font });
      newLine();
    }
    newLine();
  }
  return Buffer.from(await doc.save());
}

/** Keeps the characters the standard PDF fonts can draw. */
function winAnsi(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '');
}
