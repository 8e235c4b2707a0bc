import { type Block, type Cell, type Inline, inlineText } from '../document.ts';
import type { MImage, MParagraph, MTable, MNode } from './model.ts';
import { type Context, inlines, trim } from './inline.ts';

/** Paragraphs, headings, captions and tables → our blocks. */

// ---- Blocks -------------------------------------------------------------------------------------------

export type Item =
  | { k: 'heading'; level: number; c: Inline[]; text: string }
  | { k: 'p'; c: Inline[]; text: string; caption: 'figure' | 'table' | 'any' | null; allBold: boolean }
  | { k: 'li'; level: number; ordered: boolean; c: Inline[] }
  | { k: 'fig'; image: MImage; caption?: Inline[] }
  | { k: 'eq'; eq: number }
  | { k: 'table'; block: Block | Block[]; caption?: Inline[] };

export function headingLevel(p: MParagraph): number | null {
  const m = /^heading\s*(\d)$/i.exec(p.styleName ?? '') ?? /^heading(\d)$/i.exec(p.styleId ?? '');
  if (m) return Number(m[1]);
  if (/^(title|subtitle)$/i.test(p.styleName ?? p.styleId ?? '')) return 0;
  return null;
}

export const FIGURE_CAPTION = /^(figure|fig\.?)\s*\d+/i;
export const TABLE_CAPTION = /^table\s*\d+/i;

export function captionKind(p: MParagraph, text: string): 'figure' | 'table' | 'any' | null {
  if (FIGURE_CAPTION.test(text)) return 'figure';
  if (TABLE_CAPTION.test(text)) return 'table';
  return /caption/i.test(p.styleName ?? p.styleId ?? '') ? 'any' : null;
}

export function allBold(c: Inline[]): boolean {
  const texts = c.filter((x) => x.t === 'text' && x.v.trim());
  return (
    texts.length > 0 &&
    c.every((x) => x.t !== 'text' || !x.v.trim() || x.b === true) &&
    c.every((x) => x.t === 'text')
  );
}

export function paragraphItems(p: MParagraph, ctx: Context, out: Item[]) {
  const images: MImage[] = [];
  const c = trim(inlines(p.children, ctx, images));
  const text = inlineText(c).trim();
  const level = headingLevel(p);
  if (level !== null && text) out.push({ k: 'heading', level, c, text });
  else if (c.length === 1 && c[0].t === 'math' && ctx.equations[c[0].eq]?.display)
    out.push({ k: 'eq', eq: c[0].eq });
  else if (p.numbering && text) {
    out.push({ k: 'li', level: Number(p.numbering.level) || 0, ordered: p.numbering.isOrdered, c });
  } else if (text || c.some((x) => x.t === 'math')) {
    out.push({ k: 'p', c, text, caption: captionKind(p, text), allBold: allBold(c) });
  }
  for (const image of images) out.push({ k: 'fig', image });
}

/**
 * A cell's content: its paragraphs a line each, with their pictures, links and notes where they stand; a list's
 * items with their bullet or number (a cell holds no list of its own here).
 */
export function cellText(nodes: MNode[], ctx: Context, nested: { found: boolean }): Inline[] {
  const out: Inline[] = [];
  let item = 0;
  for (const node of nodes) {
    let part: Inline[] = [];
    if (node.type === 'paragraph') {
      part = trim(inlines(node.children, ctx, null));
      const list = node.numbering;
      item = list?.isOrdered ? item + 1 : 0;
      if (list && part.length) part.unshift({ t: 'text', v: list.isOrdered ? `${item}. ` : '\u2022 ' });
    } else if (node.type === 'table') {
      // A table inside a cell cannot be kept as one (JATS's cells hold no table): its content stays in the
      // cell, cells apart by " | " and rows by "; ", with its links, pictures, notes and equations.
      nested.found = true;
      node.children
        .filter((r) => r.type === 'tableRow')
        .forEach((r, i) => {
          if (i) part.push({ t: 'text', v: '; ' });
          r.children
            .filter((c) => c.type === 'tableCell')
            .forEach((cell, j) => {
              if (j) part.push({ t: 'text', v: ' | ' });
              for (const x of cellText(cell.children, ctx, nested))
                part.push(x.t === 'br' ? { t: 'text', v: ' ' } : x);
            });
        });
    }
    if (!part.length) continue;
    if (out.length) out.push({ t: 'br' });
    out.push(...part);
  }
  return out;
}

export function tableItem(table: MTable, ctx: Context): Item {
  const nested = { found: false };
  const rows = table.children
    .filter((r) => r.type === 'tableRow')
    .map((r) => ({
      header: r.isHeader,
      cells: r.children
        .filter((c) => c.type === 'tableCell')
        .map<Cell>((c) => ({
          c: cellText(c.children, ctx, nested),
          colspan: c.colSpan || 1,
          rowspan: c.rowSpan || 1,
        })),
    }));
  // Rows must fill the same number of columns once spans are counted; a ragged grid is not a table.
  const width: number[] = [];
  rows.forEach((r, i) => {
    let col = width[i] ?? 0;
    for (const cell of r.cells) {
      for (let k = 1; k < cell.rowspan; k++) width[i + k] = (width[i + k] ?? 0) + cell.colspan;
      col += cell.colspan;
    }
    width[i] = col;
  });
  // A table without rows holds nothing: nothing to keep, nothing lost.
  if (!rows.length) return { k: 'table', block: [] };
  const ragged = width.some((w) => w !== width[0]);
  if (ragged || nested.found) {
    ctx.lost.push({
      kind: 'table',
      where: '',
      text: ragged
        ? 'its rows have different numbers of cells, so its text is kept as paragraphs'
        : 'it holds another table, whose content is kept in its cell (its links and pictures too), cells apart by “|” and rows by “;”',
    });
  }
  if (ragged) {
    return {
      k: 'table',
      block: rows.map<Block>((r) => ({
        t: 'p',
        c: r.cells.flatMap((cell, i) => (i ? [{ t: 'text' as const, v: ' | ' }, ...cell.c] : cell.c)),
      })),
    };
  }
  let headCount = 0;
  while (headCount < rows.length && rows[headCount].header) headCount++;
  // No row marked "repeat as header row": a bold first row is one all the same.
  if (!headCount && rows.length > 1 && rows[0].cells.every((c) => allBold(c.c))) headCount = 1;
  return {
    k: 'table',
    block: {
      t: 'table',
      n: 0,
      caption: [],
      head: rows.slice(0, headCount).map((r) => r.cells),
      body: rows.slice(headCount).map((r) => r.cells),
    },
  };
}

/** Attaches captions to their figures (the line after, else before) and tables (the line before, else after). */
export function attachCaptions(items: Item[]): Item[] {
  const taken = new Set<number>();
  const free = (i: number, kind: 'figure' | 'table') => {
    const it = items[i];
    return it?.k === 'p' && !taken.has(i) && (it.caption === kind || it.caption === 'any');
  };
  items.forEach((it, i) => {
    if (it.k !== 'table' || Array.isArray(it.block)) return;
    const at = free(i - 1, 'table') ? i - 1 : free(i + 1, 'table') ? i + 1 : -1;
    if (at >= 0) {
      taken.add(at);
      it.caption = (items[at] as { c: Inline[] }).c;
    }
  });
  items.forEach((it, i) => {
    if (it.k !== 'fig') return;
    const at = free(i + 1, 'figure') ? i + 1 : free(i - 1, 'figure') ? i - 1 : -1;
    if (at >= 0) {
      taken.add(at);
      it.caption = (items[at] as { c: Inline[] }).c;
    }
  });
  return items.filter((_, i) => !taken.has(i));
}
