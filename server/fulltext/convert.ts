import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { imageSize } from 'image-size';
import JSZip from 'jszip';
import { detectKind } from '../files/content-type.ts';
import type {
  Block,
  Cell,
  Equation,
  Figure,
  FullTextDocument,
  Inline,
  Loss,
  Reference,
  Section,
} from './document.ts';
import { inlineText } from './document.ts';
import { type OmmlNode, UnconvertibleMath, ommlText, ommlToMathml } from './omml.ts';

/**
 * A Word file (.docx) → the structured document (document.ts). mammoth reads the file into its document
 * model (paragraphs with their styles and numbering, runs with their marks, tables with spans, images with
 * their alt text, notes); this module maps that model, and Word's equations (which mammoth drops), onto
 * ours. It parses nothing itself: XML through @xmldom/xmldom, the ZIP through JSZip, images' sizes through
 * image-size.
 */

/** What the journal already knows: front matter comes from here, and the file's copy of it is left out. */
export interface KnownFront {
  title: string;
  abstract: string;
  keywords: string;
  authors: { name: string; email: string; affiliation: string }[];
}

export interface Conversion {
  document: FullTextDocument;
  /** The figures' images, in order (`document.figures[i]` describes `images[i]`). */
  images: Buffer[];
}

/** A Word file that cannot be converted: the message says why, for the person who uploaded it. */
export class ConversionError extends Error {}

// ---- mammoth's document model (lib/documents.js), the part we read -------------------------------------

interface MText {
  type: 'text';
  value: string;
}
interface MRun {
  type: 'run';
  children: MNode[];
  isBold: boolean;
  isItalic: boolean;
  verticalAlignment: 'baseline' | 'superscript' | 'subscript';
}
interface MHyperlink {
  type: 'hyperlink';
  children: MNode[];
  href?: string;
  anchor?: string;
}
interface MImage {
  type: 'image';
  altText?: string;
  contentType?: string;
  readAsBuffer(): Promise<Buffer>;
}
interface MParagraph {
  type: 'paragraph';
  children: MNode[];
  styleId: string | null;
  styleName: string | null;
  numbering: { level: string; isOrdered: boolean } | null;
}
interface MTableCell {
  type: 'tableCell';
  children: MNode[];
  colSpan: number;
  rowSpan: number;
}
interface MTableRow {
  type: 'tableRow';
  children: MTableCell[];
  isHeader: boolean;
}
interface MTable {
  type: 'table';
  children: MTableRow[];
}
type MNode =
  | MText
  | MRun
  | MHyperlink
  | MImage
  | MParagraph
  | MTable
  | MTableRow
  | MTableCell
  | { type: 'tab' | 'checkbox' | 'bookmarkStart' | 'commentReference' }
  | { type: 'break'; breakType: string }
  | { type: 'noteReference'; noteType: string; noteId: string };
interface MDocument {
  children: MNode[];
  notes: { resolve(ref: { noteType: string; noteId: string }): { body: MNode[] } | null };
}

// ---- Equations: Word's OMML, which mammoth ignores, swapped for markers it keeps --------------------------

const MATH_OPEN = '\uE000';
const MATH_CLOSE = '\uE001';
const MARKER = /\uE000(\d+)\uE001/g;
const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const M_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

interface XNode extends OmmlNode {
  parentNode: XNode | null;
  ownerDocument: { createElementNS(ns: string, name: string): XNode; createTextNode(t: string): XNode };
  appendChild(n: XNode): XNode;
  replaceChild(n: XNode, old: XNode): XNode;
  setAttribute(name: string, value: string): void;
  getElementsByTagNameNS(ns: string, local: string): ArrayLike<XNode>;
}

/**
 * Replaces each equation of one part (the body, the footnotes) by a run holding a marker, and maps it to
 * MathML; an equation the mapping does not know keeps Word's text and its reason.
 */
function takeEquations(xml: string, equations: (Equation & { reason?: string })[]): string {
  const dom = new DOMParser().parseFromString(xml, 'text/xml') as unknown as XNode;
  const outer = (local: string) =>
    Array.from(dom.getElementsByTagNameNS(M_NS, local)).filter((n) => {
      for (let p = n.parentNode; p; p = p.parentNode) if (p.namespaceURI === M_NS) return false;
      return true;
    });
  const found = [...outer('oMathPara'), ...outer('oMath')];
  if (!found.length) return xml;
  for (const node of found) {
    const paragraph = node.parentNode;
    // A paragraph holding nothing but the equation is a displayed equation.
    const alone =
      node.localName === 'oMathPara' ||
      (paragraph?.localName === 'p' &&
        Array.from(paragraph.childNodes).every(
          (c) => c === node || c.nodeType !== 1 || c.localName === 'pPr' || !(c.textContent ?? '').trim(),
        ));
    const text = ommlText(node);
    let math: Equation['math'] = null;
    let reason: string | undefined;
    try {
      math = ommlToMathml(node, alone);
    } catch (err) {
      if (!(err instanceof UnconvertibleMath)) throw err;
      reason = err.message;
    }
    const index = equations.push({ display: alone, math, text, ...(reason ? { reason } : {}) }) - 1;
    const doc = node.ownerDocument;
    const run = doc.createElementNS(W_NS, 'w:r');
    const t = doc.createElementNS(W_NS, 'w:t');
    t.setAttribute('xml:space', 'preserve');
    t.appendChild(doc.createTextNode(`${MATH_OPEN}${index}${MATH_CLOSE}`));
    run.appendChild(t);
    // An equation outside a paragraph (rare) gets one of its own, so mammoth reads the marker.
    if (
      paragraph?.namespaceURI === W_NS &&
      ['p', 'hyperlink', 'ins', 'smartTag'].includes(paragraph.localName ?? '')
    ) {
      paragraph.replaceChild(run, node);
    } else if (paragraph) {
      const p = doc.createElementNS(W_NS, 'w:p');
      p.appendChild(run);
      paragraph.replaceChild(p, node);
    }
  }
  return new XMLSerializer().serializeToString(dom as never);
}

// ---- Reading the file -------------------------------------------------------------------------------

const UNREADABLE =
  'The Word file could not be read: it is damaged or is not a Word document. Open it in Word, save it again as .docx and upload it again, or publish with the PDF alone.';

/** Charts, SmartArt diagrams and shapes drawn in Word: mammoth reads pictures only, so these are counted as lost. */
const DRAWINGS = /<(c:chart|dgm:relIds|wps:wsp|wpg:wgp)\b/g;

async function readDocx(
  data: Buffer,
): Promise<{ doc: MDocument; equations: (Equation & { reason?: string })[]; drawings: number }> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch {
    throw new ConversionError(UNREADABLE);
  }
  if (!zip.file('word/document.xml')) throw new ConversionError(UNREADABLE);
  const equations: (Equation & { reason?: string })[] = [];
  let drawings = 0;
  try {
    drawings = ((await zip.file('word/document.xml')!.async('string')).match(DRAWINGS) ?? []).length;
    for (const part of ['word/document.xml', 'word/footnotes.xml', 'word/endnotes.xml']) {
      const file = zip.file(part);
      if (!file) continue;
      const xml = await file.async('string');
      if (xml.includes('oMath')) zip.file(part, takeEquations(xml, equations));
    }
  } catch (err) {
    if (err instanceof ConversionError) throw err;
    throw new ConversionError(UNREADABLE);
  }
  const rewritten = equations.length ? await zip.generateAsync({ type: 'nodebuffer' }) : data;
  let doc: MDocument | undefined;
  // Loaded on the first conversion, not with the server (decision 0021: start-up and idle memory).
  const mammoth = (await import('mammoth')).default;
  try {
    await mammoth.convertToHtml(
      { buffer: rewritten },
      {
        transformDocument: (d: MDocument) => {
          doc = d;
          return d;
        },
        // The HTML is not used: images are read from the document model, never inlined as data URIs.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
  } catch {
    throw new ConversionError(UNREADABLE);
  }
  if (!doc) throw new ConversionError(UNREADABLE);
  return { doc, equations, drawings };
}

// ---- Inline content -----------------------------------------------------------------------------------

type Marks = { b?: true; i?: true; sup?: true; sub?: true };

interface Context {
  equations: (Equation & { reason?: string })[];
  /** Word's note keys in order of their first call: note n is `noteOrder[n - 1]`. */
  noteOrder: string[];
  notes: MDocument['notes'];
}

/** Only web and mail links reach readers; anything else in a Word link (file:, javascript:) keeps its text. */
export function safeHref(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim());
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** Text of a run, its equation markers turned into inline equations. */
function pushText(out: Inline[], value: string, marks: Marks) {
  let last = 0;
  for (const m of value.matchAll(MARKER)) {
    if (m.index > last) pushPlain(out, value.slice(last, m.index), marks);
    out.push({ t: 'math', eq: Number(m[1]) });
    last = m.index + m[0].length;
  }
  if (last < value.length) pushPlain(out, value.slice(last), marks);
}

const sameMarks = (a: Marks, b: Marks) => a.b === b.b && a.i === b.i && a.sup === b.sup && a.sub === b.sub;

function pushPlain(out: Inline[], value: string, marks: Marks) {
  if (!value) return;
  const prev = out.at(-1);
  if (prev?.t === 'text' && sameMarks(prev, marks)) prev.v += value;
  else out.push({ t: 'text', v: value, ...marks });
}

function inlines(nodes: MNode[], ctx: Context, images: MImage[], marks: Marks = {}): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        pushText(out, node.value, marks);
        break;
      case 'tab':
        pushPlain(out, ' ', marks);
        break;
      case 'break':
        if (node.breakType === 'line') out.push({ t: 'br' });
        break;
      case 'run': {
        const m: Marks = { ...marks };
        if (node.isBold) m.b = true;
        if (node.isItalic) m.i = true;
        if (node.verticalAlignment === 'superscript') m.sup = true;
        if (node.verticalAlignment === 'subscript') m.sub = true;
        for (const x of inlines(node.children, ctx, images, m)) {
          if (x.t !== 'text') out.push(x);
          else {
            const { t: _t, v, ...own } = x;
            pushPlain(out, v, own);
          }
        }
        break;
      }
      case 'hyperlink': {
        const inner = inlines(node.children, ctx, images, marks);
        const href = safeHref(node.href);
        if (href && inlineText(inner).trim()) out.push({ t: 'a', href, c: inner });
        else out.push(...inner);
        break;
      }
      case 'noteReference': {
        const key = `${node.noteType}-${node.noteId}`;
        let n = ctx.noteOrder.indexOf(key) + 1;
        if (!n) n = ctx.noteOrder.push(key);
        out.push({ t: 'fn', n });
        break;
      }
      case 'image':
        images.push(node);
        break;
      default:
        break;
    }
  }
  return out;
}

/** Leading and trailing spaces off a paragraph's runs. */
function trim(content: Inline[]): Inline[] {
  const out = content.map((x) => ({ ...x })) as Inline[];
  while (out[0]?.t === 'text' && !out[0].v.trim()) out.shift();
  while (out.at(-1)?.t === 'br') out.pop();
  while (out.at(-1)?.t === 'text' && !(out.at(-1) as { v: string }).v.trim()) out.pop();
  const first = out[0];
  if (first?.t === 'text') first.v = first.v.replace(/^\s+/, '');
  const last = out.at(-1);
  if (last?.t === 'text') last.v = last.v.replace(/\s+$/, '');
  return out;
}

// ---- Blocks -------------------------------------------------------------------------------------------

type Item =
  | { k: 'heading'; level: number; c: Inline[]; text: string }
  | { k: 'p'; c: Inline[]; text: string; caption: 'figure' | 'table' | 'any' | null; allBold: boolean }
  | { k: 'li'; level: number; ordered: boolean; c: Inline[] }
  | { k: 'fig'; image: MImage; caption?: Inline[] }
  | { k: 'eq'; eq: number }
  | { k: 'table'; block: Block | Block[]; caption?: Inline[] };

function headingLevel(p: MParagraph): number | null {
  const m = /^heading\s*(\d)$/i.exec(p.styleName ?? '') ?? /^heading(\d)$/i.exec(p.styleId ?? '');
  if (m) return Number(m[1]);
  if (/^(title|subtitle)$/i.test(p.styleName ?? p.styleId ?? '')) return 0;
  return null;
}

const FIGURE_CAPTION = /^(figure|fig\.?)\s*\d+/i;
const TABLE_CAPTION = /^table\s*\d+/i;

function captionKind(p: MParagraph, text: string): 'figure' | 'table' | 'any' | null {
  if (FIGURE_CAPTION.test(text)) return 'figure';
  if (TABLE_CAPTION.test(text)) return 'table';
  return /caption/i.test(p.styleName ?? p.styleId ?? '') ? 'any' : null;
}

function allBold(c: Inline[]): boolean {
  const texts = c.filter((x) => x.t === 'text' && x.v.trim());
  return (
    texts.length > 0 &&
    c.every((x) => x.t !== 'text' || !x.v.trim() || x.b === true) &&
    c.every((x) => x.t === 'text')
  );
}

function paragraphItems(p: MParagraph, ctx: Context, out: Item[]) {
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

function cellText(nodes: MNode[], ctx: Context, nested: { found: boolean }): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    let part: Inline[] = [];
    if (node.type === 'paragraph') part = trim(inlines(node.children, ctx, []));
    else if (node.type === 'table') {
      // A table inside a cell cannot be kept as one (JATS and readers' tables do not nest): its text stays.
      nested.found = true;
      part = [
        {
          t: 'text',
          v: node.children
            .map((r) =>
              r.children.map((cell) => inlineText(cellText(cell.children, ctx, nested))).join(' | '),
            )
            .join('; '),
        },
      ];
    }
    if (!part.length) continue;
    if (out.length) out.push({ t: 'br' });
    out.push(...part);
  }
  return out;
}

function tableItem(table: MTable, ctx: Context, losses: Loss[]): Item {
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
  const ragged = rows.length === 0 || width.some((w) => w !== width[0]);
  if (ragged || nested.found) {
    losses.push({
      kind: 'table',
      where: '',
      text: ragged
        ? 'its rows have different numbers of cells, so its text is kept as paragraphs'
        : 'it holds another table, whose text is kept in its cell',
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
function attachCaptions(items: Item[]): Item[] {
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

// ---- Front matter, sections, references --------------------------------------------------------------

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@.]+/gu, ' ')
    .trim();

/** A line before the first section that repeats what the journal knows (title, authors, affiliations, abstract). */
function isFrontMatter(text: string, known: KnownFront): boolean {
  const t = norm(text);
  if (!t) return true;
  if (t === norm(known.title)) return true;
  if (/^(abstract|keywords?|key words|index terms)\b/.test(t)) return true;
  if (known.abstract && norm(known.abstract).startsWith(t.slice(0, 200))) return true;
  return known.authors.some(
    (a) =>
      (a.name && t.includes(norm(a.name))) ||
      (a.email && t.includes(a.email.toLowerCase())) ||
      (norm(a.affiliation).length >= 5 && t.includes(norm(a.affiliation))),
  );
}

const DROPPED_SECTION = /^(abstract|keywords?|key words|index terms)$/i;
const REFERENCES = /^(\d+\.?\s*)?(references|reference list|bibliography|literature cited|works cited)$/i;

const DOI = /\b(10\.\d{4,9}\/[^\s"<>]+)/i;

function findDoi(c: Inline[]): string | null {
  for (const x of c) {
    if (x.t === 'a') {
      const m = DOI.exec(decodeURIComponent(x.href));
      if (m) return m[1].replace(/[.,;)\]]+$/, '');
    }
  }
  const m = DOI.exec(inlineText(c));
  return m ? m[1].replace(/[.,;)\]]+$/, '') : null;
}

/** The DOI in a reference's text becomes a link to doi.org, unless it is one already. */
function linkDoi(c: Inline[], doi: string): Inline[] {
  if (c.some((x) => x.t === 'a' && x.href.toLowerCase().includes(doi.toLowerCase()))) return c;
  const out: Inline[] = [];
  let done = false;
  for (const x of c) {
    const at = !done && x.t === 'text' ? x.v.toLowerCase().indexOf(doi.toLowerCase()) : -1;
    if (at < 0 || x.t !== 'text') {
      out.push(x);
      continue;
    }
    // "https://doi.org/10.…" written out: the whole address is the link.
    const before = x.v.slice(0, at);
    const prefix = /(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)$/i.exec(before)?.[0] ?? '';
    const { t: _t, v: _v, ...marks } = x;
    if (before.length > prefix.length) out.push({ ...x, v: before.slice(0, before.length - prefix.length) });
    out.push({
      t: 'a',
      href: `https://doi.org/${doi}`,
      c: [{ t: 'text', v: prefix + x.v.slice(at, at + doi.length), ...marks }],
    });
    const after = x.v.slice(at + doi.length);
    if (after) out.push({ ...x, v: after });
    done = true;
  }
  return out;
}

const LABEL = /^\s*(\[\d+\]|\d+\.|\(\d+\))\s+/;

function referenceOf(c: Inline[], ordinal: number | null): Reference {
  let label = ordinal ? `${ordinal}.` : '';
  let content = c;
  const first = c[0];
  const m = first?.t === 'text' ? LABEL.exec(first.v) : null;
  if (m && first?.t === 'text') {
    label = m[1];
    content = [{ ...first, v: first.v.slice(m[0].length) }, ...c.slice(1)];
  }
  const doi = findDoi(content);
  return { label, c: doi ? linkDoi(content, doi) : content, doi };
}

/** "[2, 4–6]" → [2, 4, 5, 6]; null when it is not a citation of these references. */
function citedNumbers(inner: string, count: number): number[] | null {
  const out: number[] = [];
  for (const part of inner.split(',')) {
    const range = /^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$/.exec(part);
    if (!range) return null;
    const from = Number(range[1]);
    const to = range[2] ? Number(range[2]) : from;
    if (from < 1 || to > count || to < from || to - from > 50) return null;
    for (let n = from; n <= to; n++) out.push(n);
  }
  return out;
}

function linkCitations(c: Inline[], count: number): Inline[] {
  const out: Inline[] = [];
  for (const x of c) {
    if (x.t === 'a') {
      out.push({ ...x, c: linkCitations(x.c, count) });
      continue;
    }
    if (x.t !== 'text' || x.sup || x.sub) {
      out.push(x);
      continue;
    }
    let last = 0;
    for (const m of x.v.matchAll(/\[([\d,\s–-]+)\]/g)) {
      const refs = citedNumbers(m[1], count);
      if (!refs) continue;
      if (m.index > last) out.push({ ...x, v: x.v.slice(last, m.index) });
      out.push({ t: 'cite', v: m[0], refs });
      last = m.index + m[0].length;
    }
    if (last === 0) out.push(x);
    else if (last < x.v.length) out.push({ ...x, v: x.v.slice(last) });
  }
  return out;
}

function mapBlocks(blocks: Block[], f: (c: Inline[]) => Inline[]): Block[] {
  return blocks.map((b) => {
    switch (b.t) {
      case 'p':
        return { ...b, c: f(b.c) };
      case 'list':
        return { ...b, items: b.items.map((item) => mapBlocks(item, f)) };
      case 'table': {
        const row = (r: Cell[]) => r.map((cell) => ({ ...cell, c: f(cell.c) }));
        return { ...b, caption: f(b.caption), head: b.head.map(row), body: b.body.map(row) };
      }
      case 'fig':
        return { ...b, caption: f(b.caption) };
      default:
        return b;
    }
  });
}

function mapSections(sections: Section[], f: (c: Inline[]) => Inline[]): Section[] {
  return sections.map((s) => ({
    ...s,
    title: f(s.title),
    blocks: mapBlocks(s.blocks, f),
    sections: mapSections(s.sections, f),
  }));
}

function words(blocks: Block[]): number {
  let n = 0;
  const count = (c: Inline[]) => {
    n += inlineText(c).split(/\s+/).filter(Boolean).length;
  };
  for (const b of blocks) {
    if (b.t === 'p') count(b.c);
    else if (b.t === 'list') n += b.items.reduce((sum, item) => sum + words(item), 0);
    else if (b.t === 'table') for (const r of [...b.head, ...b.body]) for (const c of r) count(c.c);
  }
  return n;
}

// ---- The whole conversion ------------------------------------------------------------------------------

export async function convertDocx(data: Buffer, known: KnownFront): Promise<Conversion> {
  const { doc, equations, drawings } = await readDocx(data);
  const ctx: Context = { equations, noteOrder: [], notes: doc.notes };
  // Where each loss is is known once the headings are (bold lines may become headings): items' indexes first.
  const pending: { at: number; loss: Loss }[] = [];

  // 1. The body as a flat list of items.
  let items: Item[] = [];
  for (const node of doc.children) {
    if (node.type === 'paragraph') {
      const before = items.length;
      paragraphItems(node, ctx, items);
      for (const it of items.slice(before)) {
        const eqs =
          it.k === 'eq'
            ? [it.eq]
            : 'c' in it
              ? it.c.filter((x) => x.t === 'math').map((x) => (x as { eq: number }).eq)
              : [];
        for (const eq of eqs) {
          const reason = equations[eq]?.reason;
          if (reason) pending.push({ at: before, loss: { kind: 'equation', where: '', eq, reason } });
        }
      }
    } else if (node.type === 'table') {
      const found: Loss[] = [];
      items.push(tableItem(node, ctx, found));
      for (const loss of found) pending.push({ at: items.length - 1, loss });
    }
  }

  // 2. Headings: Word's heading styles, else (manuscripts typed without them) short lines all in bold.
  if (!items.some((it) => it.k === 'heading' && it.level > 0)) {
    items = items.map((it) => {
      if (it.k !== 'p' || !it.allBold || it.caption || it.text.length > 120 || /[.:;,]$/.test(it.text))
        return it;
      const numbered = /^(\d+(?:\.\d+)*)\.?\s/.exec(it.text);
      return { k: 'heading', level: numbered ? numbered[1].split('.').length : 1, c: it.c, text: it.text };
    });
  }
  const losses: Loss[] = pending.map(({ at, loss }) => {
    const heading = items.slice(0, at + 1).findLast((it) => it.k === 'heading' && it.level > 0);
    return { ...loss, where: heading?.k === 'heading' ? heading.text : 'the text before the first heading' };
  });
  if (drawings) losses.push({ kind: 'drawing', count: drawings });
  items = attachCaptions(items);

  // 3. Front matter before the first section is the journal's: the file's copy of it goes.
  const firstHeading = items.findIndex(
    (it) => it.k === 'heading' && it.level > 0 && norm(it.text) !== norm(known.title),
  );
  const head = firstHeading < 0 ? items : items.slice(0, firstHeading);
  const rest = firstHeading < 0 ? [] : items.slice(firstHeading);
  const leadItems = head.filter((it) => {
    if (it.k === 'heading') return !(it.level === 0 || isFrontMatter(it.text, known));
    if (it.k === 'p') return !isFrontMatter(it.text, known);
    return true;
  });

  // 4. Sections from the headings, their levels counted from the shallowest one used.
  let figures = 0;
  let tables = 0;
  const toBlocks = (list: Item[]): Block[] => {
    const out: Block[] = [];
    const stack: { level: number; list: Extract<Block, { t: 'list' }> }[] = [];
    for (const it of list) {
      if (it.k === 'li') {
        while (stack.length && stack.at(-1)!.level > it.level) stack.pop();
        const top = stack.at(-1);
        if (!top || top.level < it.level) {
          const created: Extract<Block, { t: 'list' }> = { t: 'list', ordered: it.ordered, items: [] };
          if (top?.list.items.length) top.list.items.at(-1)!.push(created);
          else out.push(created);
          stack.push({ level: it.level, list: created });
        }
        stack.at(-1)!.list.items.push([{ t: 'p', c: it.c }]);
        continue;
      }
      stack.length = 0;
      if (it.k === 'p') out.push({ t: 'p', c: it.c });
      else if (it.k === 'eq') out.push({ t: 'eq', eq: it.eq });
      else if (it.k === 'fig') {
        figures += 1;
        out.push({ t: 'fig', n: figures, caption: it.caption ?? [] });
        figureImages.push(it.image);
      } else if (it.k === 'table') {
        if (Array.isArray(it.block)) out.push(...it.block);
        else if (it.block.t === 'table') {
          tables += 1;
          out.push({ ...it.block, n: tables, caption: it.caption ?? [] });
        }
      } else if (it.k === 'heading') out.push({ t: 'p', c: it.c });
    }
    return out;
  };
  const figureImages: MImage[] = [];
  const lead = toBlocks(leadItems);
  const levels = rest
    .filter((it) => it.k === 'heading' && it.level > 0)
    .map((it) => (it as { level: number }).level);
  const base = levels.length ? Math.min(...levels) : 1;
  const roots: Section[] = [];
  const open: { depth: number; section: Section; items: Item[] }[] = [];
  // A section's own text ends at the next heading, whatever its level: it is mapped then, so figures and
  // tables are numbered in reading order.
  const finish = () => {
    const top = open.at(-1);
    if (top) top.section.blocks = toBlocks(top.items);
  };
  for (const it of rest) {
    if (it.k === 'heading' && it.level > 0) {
      const depth = Math.min(it.level - base + 1, (open.at(-1)?.depth ?? 0) + 1);
      finish();
      while (open.length && open.at(-1)!.depth >= depth) open.pop();
      const parent = open.at(-1)?.section;
      const siblings = parent ? parent.sections : roots;
      const section: Section = {
        id: `${parent ? `${parent.id}-` : 's'}${siblings.length + 1}`,
        title: it.c,
        blocks: [],
        sections: [],
      };
      siblings.push(section);
      open.push({ depth, section, items: [] });
    } else if (open.length) open.at(-1)!.items.push(it);
  }
  finish();

  // 5. The abstract and keywords are the journal's; the reference list is the last section of its name.
  let sections = roots.filter((s) => !DROPPED_SECTION.test(inlineText(s.title).trim()));
  const references: Reference[] = [];
  let referencesTitle = 'References';
  const refAt = sections.findLastIndex((s) => REFERENCES.test(inlineText(s.title).trim()));
  if (refAt >= 0) {
    const refSection = sections[refAt];
    referencesTitle = inlineText(refSection.title).trim();
    for (const b of refSection.blocks) {
      if (b.t === 'p') references.push(referenceOf(b.c, null));
      else if (b.t === 'list')
        b.items.forEach((item, i) => {
          const p = item.find((x) => x.t === 'p');
          if (p && p.t === 'p') references.push(referenceOf(p.c, b.ordered ? i + 1 : null));
        });
    }
    sections = [...sections.slice(0, refAt), ...sections.slice(refAt + 1)];
  }
  // Renumber the top-level sections' ids after the dropped ones, so anchors read s1, s2, … in order.
  const renumber = (list: Section[], prefix: string): Section[] =>
    list.map((s, i) => {
      const id = `${prefix}${i + 1}`;
      return { ...s, id, sections: renumber(s.sections, `${id}-`) };
    });
  sections = renumber(sections, 's');

  // 6. Footnotes in the order of their calls.
  const footnotes: Block[][] = [];
  for (let i = 0; i < ctx.noteOrder.length; i++) {
    const [noteType, noteId] = ctx.noteOrder[i].split('-');
    const note = doc.notes.resolve({ noteType, noteId });
    const blocks: Block[] = [];
    for (const node of note?.body ?? []) {
      if (node.type !== 'paragraph') continue;
      const c = trim(inlines(node.children, ctx, []));
      if (inlineText(c, equations).trim()) blocks.push({ t: 'p', c });
    }
    footnotes.push(blocks.length ? blocks : [{ t: 'p', c: [{ t: 'text', v: '' }] }]);
  }

  // 7. Numbered citations ("[2]") link to their references when the list is numbered.
  const numbered = references.length > 0 && references.every((r) => /\d/.test(r.label));
  const cite = (c: Inline[]) => (numbered ? linkCitations(c, references.length) : c);
  sections = mapSections(sections, cite);
  const leadBlocks = mapBlocks(lead, cite);
  const footnoteBlocks = footnotes.map((f) => mapBlocks(f, cite));

  // 8. The figures' pictures: only PNG and JPEG, by their bytes, with their sizes.
  const images: Buffer[] = [];
  const figureList: Figure[] = [];
  for (const [i, image] of figureImages.entries()) {
    const bytes = await image.readAsBuffer();
    const kind = detectKind(bytes);
    let size = { width: 0, height: 0 };
    try {
      const s = imageSize(bytes);
      size = { width: s.width ?? 0, height: s.height ?? 0 };
    } catch {
      // Not an image the size reader knows: refused below.
    }
    if ((kind !== 'png' && kind !== 'jpeg') || !size.width || !size.height) {
      throw new ConversionError(
        `Figure ${i + 1} of the Word file is an image browsers cannot show (${image.contentType ?? 'unknown type'}). Insert it as PNG or JPEG and upload the file again, or publish with the PDF alone.`,
      );
    }
    images.push(bytes);
    figureList.push({
      fileId: null,
      mediaType: kind === 'png' ? 'image/png' : 'image/jpeg',
      name: `figure-${i + 1}.${kind === 'png' ? 'png' : 'jpg'}`,
      width: size.width,
      height: size.height,
      alt: (image.altText ?? '').trim(),
    });
  }

  const document: FullTextDocument = {
    version: 1,
    lead: leadBlocks,
    sections,
    footnotes: footnoteBlocks,
    references,
    referencesTitle,
    figures: figureList,
    equations: equations.map(({ display, math, text }) => ({ display, math, text })),
    losses,
    words: words(leadBlocks) + flatWords(sections),
  };
  if (!document.sections.length && !document.lead.length)
    throw new ConversionError('The Word file has no text to convert besides the title page.');
  return { document, images };
}

function flatWords(sections: Section[]): number {
  return sections.reduce(
    (n, s) =>
      n + inlineText(s.title).split(/\s+/).filter(Boolean).length + words(s.blocks) + flatWords(s.sections),
    0,
  );
}
