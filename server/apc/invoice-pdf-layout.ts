/** The APC invoice as a one-page PDF on our layout engine (documents/typeset.ts, decisions 0049, 0063). */
import { PDFDocument } from 'pdf-lib';
import type { InvoiceView } from '../../common/apc.ts';
import { formatDeadline } from '../../common/dates.ts';
import type { JournalSettings } from '../../common/journal.ts';
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
} from '../documents/typeset.ts';

export async function invoicePdf(journal: JournalSettings, invoice: InvoiceView): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const f = await embedFonts(doc);
  const l = new Layout(f);
  const page = doc.addPage([PAGE_W, PAGE_H]);

  l.y = PAGE_H - 56;
  l.text(toWinAnsi(journal.name, f.sansBold), { font: f.sansBold, size: 12, color: ACCENT });
  l.gap(13);
  const masthead = toWinAnsi(
    `${journal.issnOnline ? `ISSN ${journal.issnOnline} (Online)  |  ` : ''}${journal.publisher}  |  ${journal.email}`,
    f.sans,
  );
  l.text(masthead, { font: f.sans, size: fitSize(masthead, f.sans, 8, TEXT_W), color: MUTED });
  l.gap(8);
  l.rule({ thickness: 1.2, color: ACCENT });
  l.gap(30);
  l.text(toWinAnsi(`Invoice ${invoice.number}`, f.serifBold), { font: f.serifBold, size: 18 });
  l.gap(14);
  l.text(toWinAnsi('Article processing charge', f.serifItalic), {
    font: f.serifItalic,
    size: 11,
    color: MUTED,
  });
  l.gap(18);

  const field = (label: string, value: string) => {
    l.paragraph(toWinAnsi(value, f.serif), {
      font: f.serif,
      size: 10,
      leading: 13,
      label: toWinAnsi(label, f.sansBold),
      x: MARGIN + 120,
      width: TEXT_W - 120,
    });
    l.gap(4);
  };
  field('Issued', formatDeadline(invoice.issuedOn));
  field('To', `${invoice.author.name} <${invoice.author.email}>`);
  field('Manuscript', `${invoice.submissionReference}: ${invoice.title}`);
  field('First submitted', formatDeadline(invoice.submittedOn));
  l.gap(12);

  // The amounts, in a panel.
  const lines: [string, string][] = [[`Charge (${invoice.reason})`, `${invoice.amount} ${invoice.currency}`]];
  if (invoice.waived !== '0.00') lines.push(['Waiver granted', `-${invoice.waived} ${invoice.currency}`]);
  if (invoice.discount !== '0.00')
    lines.push([`Voucher ${invoice.voucherCode ?? ''}`.trim(), `-${invoice.discount} ${invoice.currency}`]);
  lines.push(['Amount due', `${invoice.due} ${invoice.currency}`]);
  if (invoice.paid !== '0.00') lines.push(['Paid', `${invoice.paid} ${invoice.currency}`]);
  lines.push(['Outstanding', `${invoice.outstanding} ${invoice.currency}`]);
  const rowH = 16;
  const boxH = lines.length * rowH + 16;
  l.y -= boxH;
  const top = l.y + boxH;
  l.draw((p) => {
    p.drawRectangle({ x: MARGIN, y: top - boxH, width: TEXT_W, height: boxH, color: PANEL });
    lines.forEach(([label, value], i) => {
      const bold = label === 'Outstanding' || label === 'Amount due';
      const font = bold ? f.sansBold : f.sans;
      const y = top - 20 - i * rowH;
      const text = toWinAnsi(label, font);
      p.drawText(text, { x: MARGIN + 10, y, font, size: fitSize(text, font, 9.5, TEXT_W - 140), color: INK });
      const v = toWinAnsi(value, font);
      p.drawText(v, { x: MARGIN + TEXT_W - 10 - textWidth(font, v, 9.5), y, font, size: 9.5, color: INK });
    });
  });
  l.gap(14);
  l.text(toWinAnsi(`State: ${invoice.stateLabel}`, f.sansBold), {
    font: f.sansBold,
    size: 10,
    color: ACCENT,
  });
  l.gap(18);
  if (invoice.state === 'none') {
    l.paragraph(toWinAnsi('Nothing is owed for this article: no payment is needed.', f.serif), {
      font: f.serif,
      size: 10,
      leading: 13,
    });
  } else if (invoice.state !== 'void') {
    l.text('How to pay', { font: f.sansBold, size: 10.5, color: ACCENT });
    l.gap(4);
    for (const para of invoice.paymentInstructions.split(/\n+/)) {
      l.paragraph(toWinAnsi(para, f.serif), { font: f.serif, size: 10, leading: 13 });
      l.gap(3);
    }
    l.paragraph(toWinAnsi(`Please quote ${invoice.number} with your payment.`, f.serifItalic), {
      font: f.serifItalic,
      size: 10,
      leading: 13,
    });
  } else {
    l.paragraph(toWinAnsi(`This invoice is void: ${invoice.voidReason ?? ''}`, f.serif), {
      font: f.serif,
      size: 10,
      leading: 13,
    });
  }
  l.gap(14);
  l.paragraph(
    toWinAnsi(
      'No surcharges for length, figures or supplementary data. Waivers are granted at the publisher’s discretion.',
      f.serifItalic,
    ),
    { font: f.serifItalic, size: 9, leading: 12, color: MUTED },
  );

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
  doc.setTitle(`Invoice ${invoice.number}: ${journal.name}`, { showInWindowTitleBar: true });
  doc.setAuthor(journal.publisher);
  doc.setSubject(`Article processing charge for ${invoice.submissionReference}`);
  doc.setCreator(`${journal.name} (Colophon)`);
  return doc.save();
}
