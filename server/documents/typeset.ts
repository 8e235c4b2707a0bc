import {
  type Color,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
  rgb,
  StandardFonts,
  setWordSpacing,
} from 'pdf-lib';

/**
 * Our small typesetter on pdf-lib (decision 0049): the standard fonts, word wrap with justification, mixed
 * styles, and a layout that places blocks top to bottom and starts a new page when one does not fit. It sets
 * the copyright transfer form (copyright-form-layout.ts) and the seed's demo articles
 * (server/seed/article-layout.ts). Output is deterministic for the same input, so the content-addressed
 * blob store keeps one copy and the demo PDFs can be kept in the installation's cache.
 */

// A4 with the 2.54 cm margins the instructions for authors ask for.
export const PAGE_W = 595.28;
export const PAGE_H = 841.89;
export const MARGIN = 72;
export const TEXT_W = PAGE_W - 2 * MARGIN;
export const TOP = PAGE_H - MARGIN;
export const BOTTOM = MARGIN;

export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.35, 0.37, 0.42);
export const ACCENT = rgb(0.08, 0.27, 0.45);
export const RULE = rgb(0.6, 0.62, 0.66);
export const PANEL = rgb(0.94, 0.95, 0.97);

export interface Fonts {
  serif: PDFFont;
  serifBold: PDFFont;
  serifItalic: PDFFont;
  sans: PDFFont;
  sansBold: PDFFont;
  sansOblique: PDFFont;
}

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
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
export function fitSize(text: string, font: PDFFont, size: number, width: number, min = 5): number {
  let s = size;
  while (s > min && textWidth(font, text, s) > width) s -= 0.25;
  return s;
}

/** A mixed-style piece of text for `RichText`: superscripts, bold labels and ordinary words. */
export interface Token {
  text: string;
  font: PDFFont;
  size: number;
  rise?: number;
  color?: Color;
  /** Attached to the previous token without a space (superscripts, punctuation). */
  glue?: boolean;
}

export type Op = (page: PDFPage) => void;

// ---- Layout engine ---------------------------------------------------------------------------------

/**
 * Places blocks top to bottom and starts a new page when one does not fit. Drawing is recorded, not done,
 * so the page count is known before headers and footers ("pp. 13-16") are drawn.
 */
export class Layout {
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

export function layoutTokens(tokens: Token[], width: number) {
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
export function words(text: string, font: PDFFont, size: number, color?: Color): Token[] {
  return toWinAnsi(text, font)
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({ text: w, font, size, color }));
}
