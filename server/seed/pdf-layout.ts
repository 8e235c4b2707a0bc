import { formatDay } from '../../common/dates.ts';
import {
  type Color,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  rgb,
  StandardFonts,
  setWordSpacing,
} from 'pdf-lib';
import type { JournalSettings } from '../../common/journal.ts';
import { copyrightFormText } from '../../content/copyright-form.ts';
import type { DemoArticle, DemoFigure, DemoTable } from '../../content/demo-articles.ts';

/**
 * Typesets the demo articles (and the copyright form) as real PDFs with pdf-lib's standard fonts: a small
 * layout engine with word wrap, justification, tables and bar charts. Output is deterministic for the same
 * input (dates come from the article), so the content-addressed blob store keeps one copy.
 */

// A4 with the 2.54 cm margins the instructions for authors ask for.
const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN = 72;
const TEXT_W = PAGE_W - 2 * MARGIN;
const TOP = PAGE_H - MARGIN;
const BOTTOM = MARGIN;

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.35, 0.37, 0.42);
const ACCENT = rgb(0.08, 0.27, 0.45);
const RULE = rgb(0.6, 0.62, 0.66);
const PANEL = rgb(0.94, 0.95, 0.97);

interface Fonts {
  serif: PDFFont;
  serifBold: PDFFont;
  serifItalic: PDFFont;
  sans: PDFFont;
  sansBold: PDFFont;
  sansOblique: PDFFont;
}

async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [serif, serifBold, serifItalic, sans, sansBold, sansOblique] = await Promise.all([
    doc.embedFont(StandardFonts.TimesRoman),
    doc.embedFont(StandardFonts.TimesRomanBold),
    doc.embedFont(StandardFonts.TimesRomanItalic),
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.HelveticaOblique),
  ]);
  return { serif, serifBold, serifItalic, sans, sansBold, sansOblique };
}

// ---- Text helpers ----------------------------------------------------------------------------------

const REPLACEMENTS: Record<string, string> = {
  '\u2212': '-', // minus sign
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2248': '~',
  '\u2192': '->',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u2011': '-',
};

let winAnsi: Set<number> | null = null;

/** The standard fonts speak WinAnsi only: anything else is replaced by a near equivalent, never dropped silently. */
export function toWinAnsi(text: string, font: PDFFont): string {
  winAnsi ??= new Set(font.getCharacterSet());
  const charset = winAnsi;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (charset.has(cp) || ch === '\n') {
      out += ch;
      continue;
    }
    if (REPLACEMENTS[ch] !== undefined) {
      out += REPLACEMENTS[ch];
      continue;
    }
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += base && [...base].every((c) => charset.has(c.codePointAt(0)!)) ? base : '?';
  }
  return out;
}

/**
 * The width pdf-lib will really draw. `font.widthOfTextAtSize` applies kerning pairs, but `drawText` does
 * not kern, so measuring with it lets words run into each other ("Technology,Salem").
 */
const charWidths = new WeakMap<PDFFont, Map<string, number>>();
export function textWidth(font: PDFFont, text: string, size: number): number {
  let widths = charWidths.get(font);
  if (!widths) {
    widths = new Map();
    charWidths.set(font, widths);
  }
  let total = 0;
  for (const ch of text) {
    let w = widths.get(ch);
    if (w === undefined) {
      w = font.widthOfTextAtSize(ch, 1);
      widths.set(ch, w);
    }
    total += w;
  }
  return total * size;
}

/** Greedy word wrap; a word wider than the line (a long URL) is cut where it must be. */
export function wrapText(
  text: string,
  font: PDFFont,
  size: number,
  width: number,
  firstIndent = 0,
): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const space = textWidth(font, ' ', size);
  const lines: string[] = [];
  let line = '';
  let lineW = 0;
  const avail = () => width - (lines.length === 0 ? firstIndent : 0);
  for (let word of words) {
    let w = textWidth(font, word, size);
    while (!line && w > avail()) {
      // Cut an over-long word at the last character that fits.
      let cut = word.length - 1;
      while (cut > 1 && textWidth(font, word.slice(0, cut), size) > avail()) cut--;
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
      w = textWidth(font, word, size);
    }
    if (!line) {
      line = word;
      lineW = w;
    } else if (lineW + space + w <= avail()) {
      line += ` ${word}`;
      lineW += space + w;
    } else {
      // A compound ("machine-learning") may break after one of its hyphens.
      const room = avail() - lineW - space;
      const parts = word.split(/(?<=-)(?=[^-])/);
      let head = '';
      for (const part of parts.slice(0, -1)) {
        if (textWidth(font, head + part, size) > room) break;
        head += part;
      }
      if (head) {
        line += ` ${head}`;
        word = word.slice(head.length);
        w = textWidth(font, word, size);
      }
      lines.push(line);
      line = '';
      lineW = 0;
      while (w > avail()) {
        let cut = word.length - 1;
        while (cut > 1 && textWidth(font, word.slice(0, cut), size) > avail()) cut--;
        lines.push(word.slice(0, cut));
        word = word.slice(cut);
        w = textWidth(font, word, size);
      }
      line = word;
      lineW = w;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size (down to `min`) at which one line of text fits the width. */
function fitSize(text: string, font: PDFFont, size: number, width: number, min = 5): number {
  let s = size;
  while (s > min && textWidth(font, text, s) > width) s -= 0.25;
  return s;
}

/** A mixed-style piece of text for `RichText`: superscripts, bold labels and ordinary words. */
interface Token {
  text: string;
  font: PDFFont;
  size: number;
  rise?: number;
  color?: Color;
  /** Attached to the previous token without a space (superscripts, punctuation). */
  glue?: boolean;
}

type Op = (page: PDFPage) => void;

// ---- Layout engine ---------------------------------------------------------------------------------

/**
 * Places blocks top to bottom and starts a new page when one does not fit. Drawing is recorded, not done,
 * so the page count is known before headers and footers ("pp. 13-16") are drawn.
 */
class Layout {
  readonly pages: Op[][] = [[]];
  y = TOP;

  constructor(
    readonly fonts: Fonts,
    private readonly top = TOP,
  ) {
    this.y = top;
  }

  get pageIndex() {
    return this.pages.length - 1;
  }

  newPage() {
    this.pages.push([]);
    this.y = this.top;
  }

  /** Makes room for `height` points, on a new page if needed. */
  ensure(height: number) {
    if (this.y - height < BOTTOM && this.y < this.top) this.newPage();
  }

  draw(op: Op) {
    this.pages[this.pageIndex].push(op);
  }

  gap(points: number) {
    this.y -= points;
  }

  text(text: string, o: { font: PDFFont; size: number; x?: number; color?: Color }) {
    const x = o.x ?? MARGIN;
    const y = this.y;
    this.draw((p) => p.drawText(text, { x, y, font: o.font, size: o.size, color: o.color ?? INK }));
  }

  /**
   * A paragraph: wrapped, optionally justified (the last line stays ragged), broken across pages line by
   * line. A `label` ("3.") is set in the left margin of the first line, for numbered lists.
   */
  paragraph(
    raw: string,
    o: {
      font: PDFFont;
      size: number;
      leading: number;
      indent?: number;
      label?: string;
      justify?: boolean;
      color?: Color;
      x?: number;
      width?: number;
      keepLines?: number;
    },
  ) {
    const x0 = o.x ?? MARGIN;
    const width = o.width ?? TEXT_W;
    const text = toWinAnsi(raw, o.font);
    const lines = wrapText(text, o.font, o.size, width, o.indent ?? 0);
    // Keep at least two lines together at the foot of a page.
    this.ensure(o.leading * Math.min(lines.length, o.keepLines ?? 2));
    lines.forEach((line, i) => {
      this.ensure(o.leading);
      this.y -= o.leading;
      const indent = i === 0 ? (o.indent ?? 0) : 0;
      const x = x0 + indent;
      const y = this.y + o.leading * 0.22;
      const label = i === 0 ? o.label : undefined;
      const lineWidth = width - indent;
      const spaces = (line.match(/ /g) ?? []).length;
      let ws = 0;
      if (o.justify && i < lines.length - 1 && spaces > 0) {
        ws = (lineWidth - textWidth(o.font, line, o.size)) / spaces;
        if (ws > o.size * 0.9) ws = 0; // a nearly empty line looks worse stretched
      }
      const font = o.font;
      const color = o.color ?? INK;
      this.draw((p) => {
        if (label) p.drawText(label, { x: MARGIN, y, font, size: o.size, color });
        if (ws) p.pushOperators(setWordSpacing(ws));
        p.drawText(line, { x, y, font, size: o.size, color });
        if (ws) p.pushOperators(setWordSpacing(0));
      });
    });
  }

  /** Mixed-style text (authors with superscripts, "Keywords:" in bold), wrapped token by token. */
  rich(tokens: Token[], o: { leading: number; x?: number; width?: number; align?: 'left' | 'center' }) {
    const x0 = o.x ?? MARGIN;
    const width = o.width ?? TEXT_W;
    const lines = layoutTokens(tokens, width);
    for (const line of lines) {
      this.ensure(o.leading);
      this.y -= o.leading;
      const lineW = line.reduce((w, t) => Math.max(w, t.x + t.width), 0);
      const shift = o.align === 'center' ? (width - lineW) / 2 : 0;
      const y = this.y + o.leading * 0.22;
      this.draw((p) => {
        for (const t of line) {
          p.drawText(t.token.text, {
            x: x0 + shift + t.x,
            y: y + (t.token.rise ?? 0),
            font: t.token.font,
            size: t.token.size,
            color: t.token.color ?? INK,
          });
        }
      });
    }
  }

  rule(o: { thickness?: number; color?: Color; x?: number; width?: number } = {}) {
    const y = this.y;
    const x = o.x ?? MARGIN;
    const w = o.width ?? TEXT_W;
    this.draw((p) =>
      p.drawLine({
        start: { x, y },
        end: { x: x + w, y },
        thickness: o.thickness ?? 0.5,
        color: o.color ?? RULE,
      }),
    );
  }
}

function layoutTokens(tokens: Token[], width: number) {
  const lines: { token: Token; x: number; width: number }[][] = [[]];
  let x = 0;
  for (const token of tokens) {
    const w = textWidth(token.font, token.text, token.size);
    const line = lines[lines.length - 1];
    const space = line.length && !token.glue ? textWidth(token.font, ' ', token.size) : 0;
    if (line.length && !token.glue && x + space + w > width) {
      lines.push([{ token, x: 0, width: w }]);
      x = w;
      continue;
    }
    line.push({ token, x: x + space, width: w });
    x += space + w;
  }
  return lines.filter((l) => l.length);
}

/** Words of a string as tokens of one style. */
function words(text: string, font: PDFFont, size: number, color?: Color): Token[] {
  return toWinAnsi(text, font)
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({ text: w, font, size, color }));
}

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
      page.drawText(`ISSN ${journal.issnOnline} (Online)  |  Open Access`, {
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

/** The one-page copyright transfer form the reader site offers at /copyright. */
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
  l.text(toWinAnsi(`ISSN ${journal.issnOnline} (Online)  |  ${journal.publisher}`, f.sans), {
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
  doc.setSubject(`${form.subtitle}, ${journal.name} (ISSN ${journal.issnOnline})`);
  doc.setKeywords([`copyright, licence to publish, ${journal.license.name}, ${journal.abbreviation}`]);
  doc.setCreator(`${journal.name} (Colophon)`);
  doc.setProducer('Colophon with pdf-lib');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  doc.setLanguage(journal.language);
  return doc.save();
}
