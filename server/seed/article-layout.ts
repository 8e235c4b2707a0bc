/**
 * The demo articles typeset as real journal PDFs (the seed's, decision 0049): masthead, title block, abstract
 * panel, numbered sections with tables and bar charts, references, page numbers and the DOI in every footer,
 * on the layout engine of server/documents/typeset.ts.
 */

import { PDFDocument, rgb } from 'pdf-lib';
import { formatDay } from '../../common/dates.ts';
import type { JournalSettings } from '../../common/journal.ts';
import type { DemoArticle, DemoFigure, DemoTable } from '../../content/demo-articles.ts';
import {
  ACCENT,
  BOTTOM,
  embedFonts,
  fitSize,
  INK,
  Layout,
  layoutTokens,
  MARGIN,
  MUTED,
  PAGE_H,
  PAGE_W,
  PANEL,
  RULE,
  TEXT_W,
  TOP,
  type Token,
  textWidth,
  toWinAnsi,
  words,
  wrapText,
} from '../documents/typeset.ts';

// ---- Tables and figures ----------------------------------------------------------------------------

function drawTable(l: Layout, table: DemoTable, n: number) {
  const { sans, sansBold } = l.fonts;
  const size = 8.5;
  const rowH = 14;
  const pad = 6;
  const cells = [table.columns, ...table.rows].map((r) => r.map((c) => toWinAnsi(c, sans)));
  const natural = table.columns.map(
    (_, c) =>
      Math.max(...cells.map((r, i) => textWidth(i === 0 ? sansBold : sans, r[c] ?? '', size))) + 2 * pad,
  );
  const total = natural.reduce((a, b) => a + b, 0);
  // Spread the spare width over the columns (or shrink them all when the table is too wide).
  const widths = natural.map((w) => (w / total) * TEXT_W);
  const caption: Token[] = [
    { text: `Table ${n}.`, font: sansBold, size, color: ACCENT },
    ...words(table.caption, sans, size),
  ];
  const captionLines = layoutTokens(caption, TEXT_W).length;
  const height = captionLines * 11 + 6 + rowH * cells.length + 10;
  l.ensure(height);
  l.gap(4);
  l.rich(caption, { leading: 11 });
  l.gap(6);
  l.rule({ thickness: 0.9, color: INK });
  cells.forEach((row, r) => {
    l.y -= rowH;
    const y = l.y + 4;
    const font = r === 0 ? sansBold : sans;
    let x = MARGIN;
    const placed = row.map((text, c) => {
      const cellX = x;
      x += widths[c];
      // First column left-aligned, numbers right-aligned.
      const tx = c === 0 ? cellX + pad : cellX + widths[c] - pad - textWidth(font, text, size);
      return { text, x: tx };
    });
    l.draw((p) => {
      for (const cell of placed) p.drawText(cell.text, { x: cell.x, y, font, size, color: INK });
    });
    if (r === 0) {
      l.y -= 2;
      l.rule({ thickness: 0.5, color: INK });
    }
  });
  l.y -= 4;
  l.rule({ thickness: 0.9, color: INK });
  l.gap(10);
}

function drawFigure(l: Layout, fig: DemoFigure, n: number) {
  const { sans, sansBold } = l.fonts;
  const barH = 13;
  const step = 20;
  const labelW = 110;
  const valueW = 40;
  const plotW = TEXT_W - labelW - valueW - 20;
  const caption: Token[] = [
    { text: `Figure ${n}.`, font: sansBold, size: 8.5, color: ACCENT },
    ...words(fig.caption, sans, 8.5),
  ];
  const captionLines = layoutTokens(caption, TEXT_W).length;
  const chartH = fig.bars.length * step + 28;
  l.ensure(chartH + captionLines * 11 + 16);
  l.gap(6);
  const top = l.y;
  const max = Math.max(...fig.bars.map((b) => b.value));
  const x0 = MARGIN + labelW + 10;
  const unit = toWinAnsi(fig.unit, sans);
  const bars = fig.bars.map((b, i) => ({
    label: toWinAnsi(b.label, sans),
    value: b.value.toLocaleString('en-US', { maximumFractionDigits: 2 }),
    y: top - (i + 1) * step,
    w: Math.max(1, (b.value / max) * plotW),
    strong: i === fig.bars.length - 1,
  }));
  const axisY = top - fig.bars.length * step - 8;
  l.draw((p) => {
    p.drawRectangle({ x: MARGIN, y: axisY - 18, width: TEXT_W, height: top - axisY + 24, color: PANEL });
    for (const b of bars) {
      const lw = textWidth(sans, b.label, 8);
      p.drawText(b.label, { x: x0 - 8 - lw, y: b.y + 3.5, font: sans, size: 8, color: INK });
      p.drawRectangle({
        x: x0,
        y: b.y,
        width: b.w,
        height: barH,
        color: b.strong ? ACCENT : rgb(0.45, 0.6, 0.75),
      });
      p.drawText(b.value, { x: x0 + b.w + 5, y: b.y + 3.5, font: sans, size: 8, color: INK });
    }
    p.drawLine({
      start: { x: x0, y: axisY },
      end: { x: x0 + plotW, y: axisY },
      thickness: 0.6,
      color: MUTED,
    });
    p.drawLine({ start: { x: x0, y: axisY }, end: { x: x0, y: top - 2 }, thickness: 0.6, color: MUTED });
    const uw = textWidth(sans, unit, 7.5);
    p.drawText(unit, { x: x0 + (plotW - uw) / 2, y: axisY - 12, font: sans, size: 7.5, color: MUTED });
  });
  l.y = axisY - 24;
  l.gap(4);
  l.rich(caption, { leading: 11 });
  l.gap(10);
}

// ---- Articles --------------------------------------------------------------------------------------

export interface ArticlePdfInput {
  journal: JournalSettings;
  article: DemoArticle;
  volume: { number: number; year: number };
  issue: { number: number };
  firstPage: number;
  doi: string;
}

/** "Ramasamy, K.; Venkatesan, P.; Okafor, D." */
function citationAuthors(authors: DemoArticle['authors']): string {
  return authors
    .map((a) => {
      const parts = a.name.split(/\s+/);
      const last = parts.pop()!;
      return `${last}, ${parts.map((p) => `${p[0]}.`).join('')}`;
    })
    .join('; ');
}

/**
 * A multi-page journal article: masthead and running header, title, authors and affiliations, abstract
 * panel, numbered sections with tables and figures, back matter and references, with printed page
 * numbers starting at `firstPage` and the DOI and licence in every footer.
 */
export async function articlePdf(input: ArticlePdfInput): Promise<{ bytes: Uint8Array; pageCount: number }> {
  const { journal, article, volume, issue, doi } = input;
  const doc = await PDFDocument.create();
  const f = await embedFonts(doc);
  const l = new Layout(f);

  // Title block.
  l.y = TOP - 30;
  l.text(article.articleType.toUpperCase(), { font: f.sansBold, size: 8.5, color: ACCENT });
  l.gap(8);
  l.paragraph(article.title, { font: f.serifBold, size: 17, leading: 21, color: INK });
  l.gap(8);

  // Authors with superscripts, "1,*" for the corresponding author.
  const authorTokens: Token[] = [];
  article.authors.forEach((a, i) => {
    const last = i === article.authors.length - 1;
    const sep = i === 0 ? null : last ? 'and' : null;
    if (sep) authorTokens.push({ text: sep, font: f.serif, size: 12 });
    const name = words(a.name, f.serif, 12);
    authorTokens.push(...name);
    const mark = a.corresponding ? `${a.superscript},*` : a.superscript;
    const comma = !last && article.authors.length > 2;
    authorTokens.push({ text: mark, font: f.serif, size: 7.5, rise: 4.5, glue: true });
    if (comma) authorTokens.push({ text: ',', font: f.serif, size: 12, glue: true });
  });
  l.rich(authorTokens, { leading: 16 });
  l.gap(6);

  const affiliations = new Map<string, string>();
  for (const a of article.authors)
    if (!affiliations.has(a.superscript)) affiliations.set(a.superscript, a.affiliation);
  for (const [sup, affiliation] of affiliations) {
    l.rich(
      [{ text: sup, font: f.serifItalic, size: 6, rise: 3 }, ...words(affiliation, f.serifItalic, 9, MUTED)],
      { leading: 11.5 },
    );
  }
  const corresponding = article.authors.find((a) => a.corresponding) ?? article.authors[0];
  l.rich(
    [
      { text: '*', font: f.serifItalic, size: 6, rise: 3 },
      ...words(`Correspondence: ${corresponding.email}`, f.serifItalic, 9, MUTED),
    ],
    { leading: 11.5 },
  );
  l.gap(8);
  l.text(
    toWinAnsi(
      `Received: ${formatDay(article.received)}   |   Accepted: ${formatDay(article.accepted)}   |   Published: ${formatDay(article.publicationDate)}`,
      f.sans,
    ),
    { font: f.sans, size: 7.5, color: MUTED },
  );
  l.gap(14);

  // Abstract and keywords in a shaded panel.
  const absSize = 9.5;
  const absLeading = 12.5;
  const inner = TEXT_W - 24;
  const absLines = wrapText(toWinAnsi(article.abstract, f.serif), f.serif, absSize, inner).length;
  const kwTokens: Token[] = [
    { text: 'Keywords:', font: f.sansBold, size: 8.5, color: ACCENT },
    ...words(article.keywords.split(/\s*,\s*/).join('; '), f.serif, absSize),
  ];
  const kwLines = layoutTokens(kwTokens, inner).length;
  const panelH = 14 + 14 + absLines * absLeading + 6 + kwLines * absLeading + 10;
  const panelTop = l.y;
  l.draw((p) => {
    p.drawRectangle({ x: MARGIN, y: panelTop - panelH, width: TEXT_W, height: panelH, color: PANEL });
    p.drawRectangle({ x: MARGIN, y: panelTop - panelH, width: 2.5, height: panelH, color: ACCENT });
  });
  l.gap(12);
  l.y -= 9;
  l.text('Abstract', { font: f.sansBold, size: 9.5, x: MARGIN + 12, color: ACCENT });
  l.gap(4);
  l.paragraph(article.abstract, {
    font: f.serif,
    size: absSize,
    leading: absLeading,
    justify: true,
    x: MARGIN + 12,
    width: inner,
  });
  l.gap(6);
  l.rich(kwTokens, { leading: absLeading, x: MARGIN + 12, width: inner });
  l.y = panelTop - panelH - 12;

  // How to cite.
  const year = volume.year;
  const pagesPlaceholder = '{{pages}}';
  const cite = `${citationAuthors(article.authors)} ${article.title}. ${journal.abbreviation} ${year}, ${volume.number}(${issue.number}), ${pagesPlaceholder}. https://doi.org/${doi}`;
  // The citation's page range is only known after layout; reserve its lines with a same-width stand-in.
  const citeTokens = (pages: string): Token[] => [
    { text: 'How to cite:', font: f.sansBold, size: 7.5, color: MUTED },
    ...words(cite.replace(pagesPlaceholder, pages), f.sans, 7.5, MUTED),
  ];
  const citeStart = { page: l.pageIndex, y: l.y };
  const citeLines = layoutTokens(citeTokens('0000-0000'), TEXT_W).length;
  l.y -= citeLines * 10;
  l.gap(14);

  // Body.
  let tableNo = 0;
  let figureNo = 0;
  article.sections.forEach((section, s) => {
    l.ensure(16 + 14 * 3);
    l.gap(6);
    l.y -= 12;
    l.text(toWinAnsi(`${s + 1}. ${section.heading}`, f.sansBold), {
      font: f.sansBold,
      size: 11,
      color: ACCENT,
    });
    l.gap(4);
    section.paragraphs.forEach((para, i) => {
      l.paragraph(para, {
        font: f.serif,
        size: 10.5,
        leading: 13.6,
        justify: true,
        indent: i === 0 ? 0 : 14,
      });
      l.gap(2);
    });
    if (section.table) drawTable(l, section.table, ++tableNo);
    if (section.figure) drawFigure(l, section.figure, ++figureNo);
  });

  // Back matter.
  l.gap(8);
  const backMatter: [string, string][] = [
    ['Funding:', article.funding],
    ['Data availability:', article.dataAvailability],
    ['Conflicts of interest:', 'The authors declare no conflicts of interest.'],
  ];
  for (const [label, text] of backMatter) {
    l.rich([{ text: label, font: f.sansBold, size: 8.5, color: INK }, ...words(text, f.serif, 9.5)], {
      leading: 12,
    });
    l.gap(3);
  }
  l.ensure(16 + 11 * 3);
  l.gap(10);
  l.y -= 12;
  l.text('References', { font: f.sansBold, size: 11, color: ACCENT });
  l.gap(4);
  article.references.forEach((ref, i) => {
    l.paragraph(ref, {
      font: f.serif,
      size: 9,
      leading: 11.2,
      label: `${i + 1}.`,
      x: MARGIN + 16,
      width: TEXT_W - 16,
      keepLines: 3,
    });
    l.gap(1.5);
  });

  // Now the page count is known: draw pages, running headers and footers.
  const pageCount = l.pages.length;
  const lastPage = input.firstPage + pageCount - 1;
  const pages = `${input.firstPage}-${lastPage}`;
  l.pages[citeStart.page].push((p) => {
    const lines = layoutTokens(citeTokens(pages), TEXT_W);
    lines.forEach((line, i) => {
      for (const t of line) {
        p.drawText(t.token.text, {
          x: MARGIN + t.x,
          y: citeStart.y - (i + 1) * 10 + 2,
          font: t.token.font,
          size: t.token.size,
          color: t.token.color ?? INK,
        });
      }
    });
  });

  const headerLeft = toWinAnsi(journal.name, f.sansOblique);
  const headerRight = `Vol. ${volume.number}, Issue ${issue.number} (${year}), pp. ${pages}`;
  const licence = toWinAnsi(
    `© ${year} The Authors. Published by ${journal.publisher} under the ${journal.license.name} licence (${journal.license.url}).`,
    f.sans,
  );
  const licenceSize = fitSize(licence, f.sans, 7, TEXT_W);
  const doiLine = `https://doi.org/${doi}`;
  l.pages.forEach((ops, i) => {
    const page = doc.addPage([PAGE_W, PAGE_H]);
    // Header.
    const hy = PAGE_H - 46;
    if (i === 0) {
      page.drawText(headerLeft, { x: MARGIN, y: hy + 8, font: f.sansBold, size: 10, color: ACCENT });
      page.drawText(`${journal.issnOnline ? `ISSN ${journal.issnOnline} (Online)  |  ` : ''}Open Access`, {
        x: MARGIN,
        y: hy - 3,
        font: f.sans,
        size: 7.5,
        color: MUTED,
      });
      const rw = textWidth(f.sans, headerRight, 8);
      page.drawText(headerRight, { x: MARGIN + TEXT_W - rw, y: hy - 3, font: f.sans, size: 8, color: MUTED });
      page.drawLine({
        start: { x: MARGIN, y: hy - 9 },
        end: { x: MARGIN + TEXT_W, y: hy - 9 },
        thickness: 1.2,
        color: ACCENT,
      });
    } else {
      page.drawText(headerLeft, { x: MARGIN, y: hy, font: f.sansOblique, size: 8, color: MUTED });
      const rw = textWidth(f.sans, headerRight, 8);
      page.drawText(headerRight, { x: MARGIN + TEXT_W - rw, y: hy, font: f.sans, size: 8, color: MUTED });
      page.drawLine({
        start: { x: MARGIN, y: hy - 6 },
        end: { x: MARGIN + TEXT_W, y: hy - 6 },
        thickness: 0.5,
        color: RULE,
      });
    }
    // Body.
    for (const op of ops) op(page);
    // Footer: rule, DOI and page number, licence line.
    const fy = BOTTOM - 22;
    page.drawLine({
      start: { x: MARGIN, y: fy + 12 },
      end: { x: MARGIN + TEXT_W, y: fy + 12 },
      thickness: 0.5,
      color: RULE,
    });
    page.drawText(doiLine, { x: MARGIN, y: fy, font: f.sans, size: 7.5, color: ACCENT });
    const num = String(input.firstPage + i);
    const nw = textWidth(f.sansBold, num, 9);
    page.drawText(num, { x: MARGIN + TEXT_W - nw, y: fy, font: f.sansBold, size: 9, color: INK });
    page.drawText(licence, { x: MARGIN, y: fy - 11, font: f.sans, size: licenceSize, color: MUTED });
  });

  const date = new Date(`${article.publicationDate}T00:00:00Z`);
  doc.setTitle(article.title, { showInWindowTitleBar: true });
  doc.setAuthor(article.authors.map((a) => a.name).join(', '));
  doc.setSubject(`${journal.name} ${year}, ${volume.number}(${issue.number}), ${pages}. doi:${doi}`);
  doc.setKeywords([article.keywords]);
  doc.setCreator(`${journal.name} (Colophon)`);
  doc.setProducer('Colophon demo seed with pdf-lib');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  doc.setLanguage(journal.language);
  return { bytes: await doc.save(), pageCount };
}

// ---- Copyright transfer form ------------------------------------------------------------------------
