/** The one-page copyright transfer form the reader site offers at /copyright (decision 0049). */
import { PDFDocument } from 'pdf-lib';
import type { JournalSettings } from '../../common/journal.ts';
import { copyrightFormText } from '../../content/copyright-form.ts';
import {
  ACCENT,
  BOTTOM,
  embedFonts,
  fitSize,
  INK,
  Layout,
  MARGIN,
  MUTED,
  PAGE_H,
  PAGE_W,
  PANEL,
  RULE,
  TEXT_W,
  textWidth,
  toWinAnsi,
} from './typeset.ts';

export async function copyrightFormPdf(
  journal: JournalSettings,
  opts: { date?: Date } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const f = await embedFonts(doc);
  const form = copyrightFormText(journal);
  const l = new Layout(f);
  const page = doc.addPage([PAGE_W, PAGE_H]);

  // Masthead.
  l.y = PAGE_H - 56;
  l.text(toWinAnsi(journal.name, f.sansBold), { font: f.sansBold, size: 12, color: ACCENT });
  l.gap(13);
  l.text(toWinAnsi(`${journal.issnOnline ? `ISSN ${journal.issnOnline} (Online)  |  ` : ''}${journal.publisher}`, f.sans), {
    font: f.sans,
    size: 8,
    color: MUTED,
  });
  l.gap(8);
  l.rule({ thickness: 1.2, color: ACCENT });
  l.gap(30);
  l.text(form.title, { font: f.serifBold, size: 18 });
  l.gap(16);
  l.text(toWinAnsi(form.subtitle, f.serifItalic), { font: f.serifItalic, size: 11, color: MUTED });
  l.gap(8);
  l.paragraph(form.intro, { font: f.serif, size: 10, leading: 13, justify: true });
  l.gap(10);

  // Fields to fill in: a label and a line to write on.
  for (const label of form.fields) {
    l.y -= 24;
    const y = l.y;
    const text = toWinAnsi(`${label}:`, f.sansBold);
    const w = textWidth(f.sansBold, text, 9);
    l.draw((p) => {
      p.drawText(text, { x: MARGIN, y, font: f.sansBold, size: 9, color: INK });
      p.drawLine({
        start: { x: MARGIN + w + 6, y: y - 2 },
        end: { x: MARGIN + TEXT_W, y: y - 2 },
        thickness: 0.5,
        color: RULE,
      });
    });
  }
  l.gap(28);
  l.text('Terms of the agreement', { font: f.sansBold, size: 10.5, color: ACCENT });
  l.gap(4);
  form.terms.forEach((term, i) => {
    l.paragraph(term, {
      font: f.serif,
      size: 9.5,
      leading: 12,
      label: `${i + 1}.`,
      x: MARGIN + 14,
      width: TEXT_W - 14,
      justify: true,
    });
    l.gap(3);
  });
  l.gap(10);
  l.paragraph(form.signature, { font: f.serifItalic, size: 9.5, leading: 12 });
  l.gap(8);
  const colW = (TEXT_W - 40) / form.signatureFields.length;
  l.y -= 30;
  const sy = l.y;
  l.draw((p) => {
    form.signatureFields.forEach((label, i) => {
      const x = MARGIN + i * (colW + 20);
      p.drawLine({ start: { x, y: sy }, end: { x: x + colW, y: sy }, thickness: 0.6, color: INK });
      p.drawText(label, { x, y: sy - 11, font: f.sans, size: 8, color: MUTED });
    });
  });

  // A box for the editorial office.
  l.y -= 48;
  const boxTop = l.y;
  const boxH = 58;
  const office = toWinAnsi(form.officeUse, f.sansBold);
  l.draw((p) => {
    p.drawRectangle({ x: MARGIN, y: boxTop - boxH, width: TEXT_W, height: boxH, color: PANEL });
    p.drawText(office, { x: MARGIN + 10, y: boxTop - 16, font: f.sansBold, size: 8, color: MUTED });
    form.officeFields.forEach((label, i) => {
      const x = MARGIN + 10 + i * ((TEXT_W - 20) / form.officeFields.length);
      const y = boxTop - 42;
      p.drawText(`${label}:`, { x, y, font: f.sans, size: 8, color: MUTED });
      const w = textWidth(f.sans, `${label}:`, 8);
      p.drawLine({
        start: { x: x + w + 4, y: y - 2 },
        end: { x: x + (TEXT_W - 20) / form.officeFields.length - 14, y: y - 2 },
        thickness: 0.5,
        color: RULE,
      });
    });
  });

  for (const op of l.pages.flat()) op(page);
  const footer = toWinAnsi(`${journal.publisherAddress}  |  ${journal.email}  |  ${journal.phone}`, f.sans);
  page.drawLine({
    start: { x: MARGIN, y: BOTTOM - 10 },
    end: { x: MARGIN + TEXT_W, y: BOTTOM - 10 },
    thickness: 0.5,
    color: RULE,
  });
  page.drawText(footer, {
    x: MARGIN,
    y: BOTTOM - 22,
    font: f.sans,
    size: fitSize(footer, f.sans, 7.5, TEXT_W),
    color: MUTED,
  });

  const date = opts.date ?? new Date(`${journal.startYear}-01-01T00:00:00Z`);
  doc.setTitle(`${form.title}: ${journal.name}`, { showInWindowTitleBar: true });
  doc.setAuthor(journal.publisher);
  doc.setSubject(`${form.subtitle}, ${journal.name}${journal.issnOnline ? ` (ISSN ${journal.issnOnline})` : ''}`);
  doc.setKeywords([`copyright, licence to publish, ${journal.license.name}, ${journal.abbreviation}`]);
  doc.setCreator(`${journal.name} (Colophon)`);
  doc.setProducer('Colophon with pdf-lib');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  doc.setLanguage(journal.language);
  return doc.save();
}
