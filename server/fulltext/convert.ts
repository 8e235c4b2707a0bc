import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { imageSize } from 'image-size';
import JSZip from 'jszip';
import { detectKind } from '../files/content-type.ts';
import type {
  Block,
  Cell,
  Drawing,
  Equation,
  Figure,
  FullTextDocument,
  Inline,
  Loss,
  Place,
  Reference,
  Section,
} from './document.ts';
import { inlineText, pictureAt } from './document.ts';
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
  | { type: 'tab' | 'bookmarkStart' | 'commentReference' }
  | { type: 'checkbox'; checked: boolean }
  | { type: 'break'; breakType: string }
  | { type: 'noteReference'; noteType: string; noteId: string };
interface MDocument {
  children: MNode[];
  notes: { resolve(ref: { noteType: string; noteId: string }): { body: MNode[] } | null };
}

// ---- Before mammoth reads the file: what it drops, swapped for what it keeps ------------------------------

const MATH_OPEN = '\uE000';
const MATH_CLOSE = '\uE001';
const DRAWING_OPEN = '\uE002';
const DRAWING_CLOSE = '\uE003';
/** The markers left in the text: an equation's index, or a drawing that is not a picture. */
const MARKER = /\uE000(\d+)\uE001|\uE002(chart|diagram|shape|textbox)\uE003/g;
const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const M_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';
const WP_NS = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const PIC_NS = 'http://schemas.openxmlformats.org/drawingml/2006/picture';
const WPS_NS = 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape';
const C_NS = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
/** Word 2016's newer charts (waterfall, sunburst, …). */
const CX_NS = 'http://schemas.microsoft.com/office/drawing/2014/chartex';
const DGM_NS = 'http://schemas.openxmlformats.org/drawingml/2006/diagram';
const MC_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const V_NS = 'urn:schemas-microsoft-com:vml';

interface XNode extends OmmlNode {
  parentNode: XNode | null;
  ownerDocument: { createElementNS(ns: string, name: string): XNode; createTextNode(t: string): XNode };
  appendChild(n: XNode): XNode;
  insertBefore(n: XNode, ref: XNode): XNode;
  removeChild(n: XNode): XNode;
  replaceChild(n: XNode, old: XNode): XNode;
  setAttribute(name: string, value: string): void;
  getElementsByTagNameNS(ns: string, local: string): ArrayLike<XNode>;
  getAttributeNS?(ns: string, local: string): string | null;
}

/** The elements of that name under `root`, not inside another of them. */
function outermost(root: XNode, ns: string, local: string): XNode[] {
  return Array.from(root.getElementsByTagNameNS(ns, local)).filter((n) => {
    for (let p = n.parentNode; p && p !== root; p = p.parentNode)
      if (p.namespaceURI === ns && p.localName === local) return false;
    return true;
  });
}

const has = (root: XNode, ns: string, local: string) => root.getElementsByTagNameNS(ns, local).length > 0;

/** The elements of that name: `root` itself if it is one, and those under it. */
function all(root: XNode, ns: string, local: string): XNode[] {
  const own = root.namespaceURI === ns && root.localName === local ? [root] : [];
  return [...own, ...Array.from(root.getElementsByTagNameNS(ns, local))];
}

function inside(node: XNode, ns: string, local: string): XNode | null {
  for (let p = node.parentNode; p; p = p.parentNode)
    if (p.namespaceURI === ns && p.localName === local) return p;
  return null;
}

/** A run holding this text (a marker mammoth keeps as text). */
function markerText(doc: XNode['ownerDocument'], text: string): XNode {
  const t = doc.createElementNS(W_NS, 'w:t');
  t.setAttribute('xml:space', 'preserve');
  t.appendChild(doc.createTextNode(text));
  return t;
}

/**
 * Puts run content (`w:t`, `w:drawing`, `w:pict`) before `ref`: straight into its run, or each in a run of its
 * own (in a paragraph of its own outside a paragraph), so mammoth reads it.
 */
function placeBefore(ref: XNode, contents: XNode[]) {
  const parent = ref.parentNode;
  if (!parent) return;
  const doc = ref.ownerDocument;
  const inRun = parent.namespaceURI === W_NS && parent.localName === 'r';
  const inParagraph =
    parent.namespaceURI === W_NS && ['p', 'hyperlink', 'ins', 'smartTag'].includes(parent.localName ?? '');
  for (const content of contents) {
    let node = content;
    if (!inRun) {
      const run = doc.createElementNS(W_NS, 'w:r');
      run.appendChild(content);
      node = run;
      if (!inParagraph) {
        const p = doc.createElementNS(W_NS, 'w:p');
        p.appendChild(run);
        node = p;
      }
    }
    parent.insertBefore(node, ref);
  }
}

/** Run content in the place of `old` (see placeBefore). */
function replaceInRun(old: XNode, contents: XNode[]) {
  placeBefore(old, contents);
  old.parentNode?.removeChild(old);
}

/**
 * Replaces each equation of one part (the body, the notes) by a marker, and maps it to MathML; an equation the
 * mapping does not know keeps Word's text and its reason.
 */
function takeEquations(dom: XNode, equations: (Equation & { reason?: string })[]) {
  const found = [...outermost(dom, M_NS, 'oMathPara'), ...outermost(dom, M_NS, 'oMath')].filter(
    (n) => n.localName === 'oMathPara' || !inside(n, M_NS, 'oMathPara'),
  );
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
    replaceInRun(node, [markerText(node.ownerDocument, `${MATH_OPEN}${index}${MATH_CLOSE}`)]);
  }
}

/**
 * What Word draws that mammoth cannot read (it reads pictures only, and of a drawing with a fallback only the
 * fallback), made readable or marked where it stands (decision 0036):
 * - a text box's text becomes a VML text box mammoth reads, its paragraphs after the one the box is anchored
 *   in, and a marker says the box was there (its frame and place on the page are not kept);
 * - the pictures of a group or canvas become drawings of their own (kept as figures);
 * - a chart, SmartArt diagram or shape leaves a marker: listed where it was.
 * A text box of the older VML kind (mammoth reads its text) gets its marker too.
 */
function takeDrawings(dom: XNode) {
  const doc = dom.ownerDocument ?? (dom as unknown as XNode['ownerDocument']);
  const marker = (what: Drawing) => markerText(doc, `${DRAWING_OPEN}${what}${DRAWING_CLOSE}`);
  // The older kind of text box (VML): mammoth reads its text; the marker says a box was there. (First: the
  // text boxes made below are of this kind.)
  // A VML drawing that is neither a picture nor a text box (a line, an oval) is lost: marked too. A horizontal
  // rule (o:hr) is not content.
  for (const pict of Array.from(dom.getElementsByTagNameNS(W_NS, 'pict'))) {
    if (inside(pict, MC_NS, 'Fallback')) continue;
    if (has(pict, V_NS, 'textbox')) placeBefore(pict, [marker('textbox')]);
    else if (!has(pict, V_NS, 'imagedata') && isVmlDrawing(pict)) placeBefore(pict, [marker('shape')]);
  }
  // The innermost first: a drawing inside a text box is done before the box's text moves.
  for (const drawing of Array.from(dom.getElementsByTagNameNS(W_NS, 'drawing')).reverse()) {
    if (inside(drawing, MC_NS, 'Fallback')) continue;
    let choice = inside(drawing, MC_NS, 'Choice');
    const box = inside(drawing, W_NS, 'txbxContent');
    // In a text box that is itself in a choice: the box's own content, not the alternative.
    if (choice && box && inside(box, MC_NS, 'Choice') === choice) choice = null;
    // With a choice, mammoth reads the fallback: the choice's drawing replaces the whole alternative.
    const unit = (choice && inside(choice, MC_NS, 'AlternateContent')) || drawing;
    const data = drawing.getElementsByTagNameNS(A_NS, 'graphicData')[0];
    const top = data ? (Array.from(data.childNodes) as XNode[]).find((c) => c.nodeType === 1) : undefined;
    if (top?.namespaceURI === PIC_NS && top.localName === 'pic') {
      if (unit !== drawing) replaceInRun(unit, [drawing]);
      continue;
    }
    const out: XNode[] = [];
    const root = top ?? drawing;
    // Pictures in a group or a canvas: each one a drawing of its own, with the alt text Word gave it (those
    // inside a text box stay in its text).
    for (const pic of outermost(root, PIC_NS, 'pic').filter((x) => !inside(x, W_NS, 'txbxContent'))) {
      const props = pic.getElementsByTagNameNS(PIC_NS, 'cNvPr')[0];
      const own = doc.createElementNS(W_NS, 'w:drawing');
      const inline = doc.createElementNS(WP_NS, 'wp:inline');
      const docPr = doc.createElementNS(WP_NS, 'wp:docPr');
      docPr.setAttribute('id', '0');
      docPr.setAttribute('name', props?.getAttribute?.('name') ?? '');
      docPr.setAttribute('descr', props?.getAttribute?.('descr') ?? '');
      docPr.setAttribute('title', props?.getAttribute?.('title') ?? '');
      const graphic = doc.createElementNS(A_NS, 'a:graphic');
      const graphicData = doc.createElementNS(A_NS, 'a:graphicData');
      graphicData.setAttribute('uri', PIC_NS);
      pic.parentNode?.removeChild(pic);
      graphicData.appendChild(pic);
      graphic.appendChild(graphicData);
      inline.appendChild(docPr);
      inline.appendChild(graphic);
      own.appendChild(inline);
      out.push(own);
    }
    // Text boxes: their text, in a VML text box mammoth reads.
    for (const content of outermost(root, W_NS, 'txbxContent')) {
      const pict = doc.createElementNS(W_NS, 'w:pict');
      const box = doc.createElementNS(V_NS, 'v:textbox');
      content.parentNode?.removeChild(content);
      box.appendChild(content);
      pict.appendChild(box);
      out.unshift(marker('textbox'));
      out.push(pict);
    }
    const charts = all(root, C_NS, 'chart').length + all(root, CX_NS, 'chart').length;
    const diagrams = all(root, DGM_NS, 'relIds').length;
    for (let i = 0; i < charts; i++) out.unshift(marker('chart'));
    for (let i = 0; i < diagrams; i++) out.unshift(marker('diagram'));
    // Shapes without text (lines, arrows, boxes), or anything else drawn: one drawing lost.
    const shapes = all(root, WPS_NS, 'wsp').filter(
      (w) => !has(w, WPS_NS, 'txbx') && !has(w, W_NS, 'txbxContent'),
    ).length;
    if (shapes || (!out.length && !charts && !diagrams)) out.unshift(marker('shape'));
    replaceInRun(unit, out);
  }
}

const O_NS = 'urn:schemas-microsoft-com:office:office';

/** A VML drawing of its own (not only a shape type's definition, not a horizontal rule). */
function isVmlDrawing(pict: XNode): boolean {
  return (Array.from(pict.childNodes) as XNode[]).some(
    (c) =>
      c.nodeType === 1 &&
      c.namespaceURI === V_NS &&
      c.localName !== 'shapetype' &&
      !['t', 'true'].includes(c.getAttributeNS?.(O_NS, 'hr') ?? ''),
  );
}

/** Signs of what the pass before mammoth changes: equations, drawings, text boxes. */
const PREPARE = /oMath|<\w+:(drawing|pict)\b/;

/** One part (the body, the notes) made ready for mammoth, or null when it has nothing to change. */
function prepare(xml: string, equations: (Equation & { reason?: string })[]): string | null {
  if (!PREPARE.test(xml)) return null;
  const dom = new DOMParser().parseFromString(xml, 'text/xml') as unknown as XNode;
  takeEquations(dom, equations);
  takeDrawings(dom);
  return new XMLSerializer().serializeToString(dom as never);
}

// ---- Reading the file -------------------------------------------------------------------------------

const UNREADABLE =
  'The Word file could not be read: it is damaged or is not a Word document. Open it in Word, save it again as .docx and upload it again, or publish with the PDF alone.';

async function readDocx(
  data: Buffer,
): Promise<{ doc: MDocument; equations: (Equation & { reason?: string })[] }> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch {
    throw new ConversionError(UNREADABLE);
  }
  if (!zip.file('word/document.xml')) throw new ConversionError(UNREADABLE);
  const equations: (Equation & { reason?: string })[] = [];
  let changed = false;
  try {
    for (const part of ['word/document.xml', 'word/footnotes.xml', 'word/endnotes.xml']) {
      const file = zip.file(part);
      if (!file) continue;
      const prepared = prepare(await file.async('string'), equations);
      if (prepared === null) continue;
      zip.file(part, prepared);
      changed = true;
    }
  } catch (err) {
    if (err instanceof ConversionError) throw err;
    throw new ConversionError(UNREADABLE);
  }
  const rewritten = changed ? await zip.generateAsync({ type: 'nodebuffer' }) : data;
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
  return { doc, equations };
}

// ---- Inline content -----------------------------------------------------------------------------------

type Marks = { b?: true; i?: true; sup?: true; sub?: true };

interface Context {
  equations: (Equation & { reason?: string })[];
  /** Word's note keys in order of their first call: note n is `noteOrder[n - 1]`. */
  noteOrder: string[];
  notes: MDocument['notes'];
  /** Pictures met in tables' cells: an `img` inline's `-fig` is its place here until figures are numbered. */
  pictures: MImage[];
  /** What was not kept as it was, met since the caller last took them (it knows where they are). */
  lost: Exclude<Loss, { kind: 'front' }>[];
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

/**
 * Text of a run: its equation markers become inline equations (one not converted is noted as lost), and a
 * drawing's marker is noted where it stands.
 */
function pushText(out: Inline[], value: string, marks: Marks, ctx: Context) {
  let last = 0;
  for (const m of value.matchAll(MARKER)) {
    if (m.index > last) pushPlain(out, value.slice(last, m.index), marks);
    if (m[2]) ctx.lost.push({ kind: 'drawing', what: m[2] as Drawing, where: '', count: 1 });
    else {
      const eq = Number(m[1]);
      out.push({ t: 'math', eq });
      const reason = ctx.equations[eq]?.reason;
      if (reason) ctx.lost.push({ kind: 'equation', where: '', eq, reason });
    }
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

/**
 * A paragraph's content. Its pictures go to `images` (a paragraph's become figures after it), or with null (in
 * a table's cell) stay where they are, as `img` inlines.
 */
function inlines(nodes: MNode[], ctx: Context, images: MImage[] | null, marks: Marks = {}): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        pushText(out, node.value, marks, ctx);
        break;
      case 'checkbox':
        pushPlain(out, node.checked ? '\u2612' : '\u2610', marks);
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
        if (images) images.push(node);
        else out.push({ t: 'img', fig: -ctx.pictures.push(node) });
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

/**
 * A cell's content: its paragraphs a line each, with their pictures, links and notes where they stand; a list's
 * items with their bullet or number (a cell holds no list of its own here).
 */
function cellText(nodes: MNode[], ctx: Context, nested: { found: boolean }): Inline[] {
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

function tableItem(table: MTable, ctx: Context): Item {
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
  if (sameTitle(text, known.title)) return true;
  if (FRONT_LINE.test(t)) return true;
  if (known.abstract && norm(known.abstract).startsWith(t.slice(0, 200))) return true;
  return known.authors.some(
    (a) =>
      (a.name && t.includes(norm(a.name))) ||
      (a.email && t.includes(a.email.toLowerCase())) ||
      (norm(a.affiliation).length >= 5 && t.includes(norm(a.affiliation))),
  );
}

/** A title's words, without case, accents, punctuation or spacing ("Structural-Health Monitoring." → "structural health monitoring"). */
const titleKey = (s: string) => norm(s).replace(/[.@]/g, ' ').replace(/\s+/g, ' ').trim();

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * The file's title is the journal's, or close to it: the same words but for case, punctuation and spacing, a
 * few letters changed, or a word or two added or left out (a title edited after review).
 */
export function sameTitle(text: string, title: string): boolean {
  const a = titleKey(text);
  const b = titleKey(title);
  if (!a || !b) return false;
  if (a === b) return true;
  if (a.length > 400 || b.length > 400) return false;
  if (editDistance(a, b) <= Math.floor(Math.max(a.length, b.length) * 0.15)) return true;
  const wa = a.split(' ');
  const wb = new Set(b.split(' '));
  const common = new Set(wa.filter((w) => wb.has(w))).size;
  return common >= 3 && (2 * common) / (new Set(wa).size + wb.size) >= 0.8;
}

/** A line or heading that opens the abstract or keywords of a title page. */
const FRONT_LINE = /^(abstract|keywords?|key words|index terms)\b/;
const KEYWORDS_LINE = /^(keywords?|key words|index terms)\b/;

/** A title page's line (a title, names, affiliations with their addresses): short. */
const shortLine = (text: string) => text.split(/\s+/).length <= 60;
/** A line of names or affiliations after the title, when no abstract follows to mark the end: not a sentence. */
const titlePageLine = (text: string) => text.split(/\s+/).length <= 40 && !/[.!?:]$/.test(text.trim());

/**
 * The items before the first section that are the file's own front matter, by their structure (decision 0041):
 * before the first heading that is not the title, an abstract or keywords, (1) a title page followed by an
 * abstract or keywords block is front matter up to the end of that block (the keywords line, else the
 * section); (2) without one, the title (a close match, or Word's Title style), the short lines that follow it,
 * and lines that repeat what the journal knows.
 */
function frontMatter(items: Item[], known: KnownFront): { head: Item[]; rest: Item[]; front: Set<number> } {
  const text = (it: Item) => (it.k === 'heading' || it.k === 'p' ? it.text : '');
  const marker = (it: Item) => (it.k === 'heading' || it.k === 'p') && FRONT_LINE.test(norm(it.text));
  const titleLike = (it: Item) => it.k === 'heading' && (it.level === 0 || sameTitle(it.text, known.title));
  const candidate = (it: Item) =>
    it.k === 'heading' && it.level > 0 && !titleLike(it) && !DROPPED_SECTION.test(it.text.trim());
  let first = items.findIndex(candidate);
  const opens = items.findIndex(marker);
  // A title page before the abstract: its title as a heading (not the journal's words) is not a section.
  if (
    opens > 0 &&
    first >= 0 &&
    first < opens &&
    items.slice(0, opens).filter(candidate).length === 1 &&
    items.slice(0, opens).every((it) => it.k === 'heading' || (it.k === 'p' && shortLine(it.text)))
  )
    first = items.findIndex((it, i) => i > opens && candidate(it));
  const head = first < 0 ? items : items.slice(0, first);
  const rest = first < 0 ? [] : items.slice(first);
  const front = new Set<number>();
  const start = head.findIndex(marker);
  if (
    start >= 0 &&
    head.slice(0, start).every((it) => it.k === 'heading' || (it.k === 'p' && shortLine(it.text)))
  ) {
    let end = head.length;
    const kw = head.findIndex((it, i) => i >= start && KEYWORDS_LINE.test(norm(text(it))));
    if (kw >= 0) {
      // "Keywords: a; b" is one line; a Keywords heading has its line after it.
      const k = head[kw];
      end = k.k === 'heading' && head[kw + 1]?.k === 'p' ? kw + 2 : kw + 1;
    }
    // No section at all: only the abstract (its heading and paragraph, or its one line).
    if (first < 0 && kw < 0) end = head[start].k === 'heading' ? start + 2 : start + 1;
    for (let i = 0; i < Math.min(end, head.length); i++) front.add(i);
  }
  // The title, and the short lines after it (names, affiliations) up to the first sentence.
  const title = head.findIndex(titleLike);
  if (title >= 0 && head.slice(0, title).every((it) => it.k === 'heading' || it.k === 'p')) {
    front.add(title);
    for (let i = title + 1; i < head.length; i++) {
      const it = head[i];
      if (it.k !== 'p' || !titlePageLine(it.text)) break;
      front.add(i);
    }
  }
  head.forEach((it, i) => {
    if (it.k === 'heading' && it.level === 0) front.add(i);
    if ((it.k === 'heading' || it.k === 'p') && isFrontMatter(it.text, known)) front.add(i);
  });
  return { head, rest, front };
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
  const { doc, equations } = await readDocx(data);
  const ctx: Context = { equations, noteOrder: [], notes: doc.notes, pictures: [], lost: [] };
  // Where each loss is is known once the headings are (bold lines may become headings): items' indexes first.
  const pending: { at: number; loss: Exclude<Loss, { kind: 'front' }> }[] = [];

  // 1. The body as a flat list of items.
  let items: Item[] = [];
  for (const node of doc.children) {
    const at = items.length;
    if (node.type === 'paragraph') paragraphItems(node, ctx, items);
    else if (node.type === 'table') items.push(tableItem(node, ctx));
    for (const loss of ctx.lost.splice(0)) pending.push({ at, loss });
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
    return { ...loss, where: heading?.k === 'heading' ? heading.text : '' };
  });
  items = attachCaptions(items);

  // 3. Front matter before the first section is the journal's: the file's copy of it goes, and the editor is told.
  const { head, rest, front } = frontMatter(items, known);
  const leadItems = head.filter((_, i) => !front.has(i));
  const dropped = [...front]
    .sort((a, b) => a - b)
    .map((i) => head[i])
    .map((it) => (it.k === 'heading' || it.k === 'p' ? it.text.trim() : ''))
    .filter(Boolean);
  if (dropped.length) losses.unshift({ kind: 'front', lines: dropped.length, text: dropped.slice(0, 3) });

  // 4. Sections from the headings, their levels counted from the shallowest one used. Figures and tables are
  // numbered as they are met; a picture in a table's cell is a figure too (an `img` inline where it stands).
  const figureImages: { image: MImage; in?: Place }[] = [];
  let tables = 0;
  const claim = (c: Inline[], place: Place): Inline[] =>
    c.map((x) => {
      if (x.t === 'a') return { ...x, c: claim(x.c, place) };
      if (x.t !== 'img' || x.fig > 0) return x;
      return { t: 'img', fig: figureImages.push({ image: ctx.pictures[-x.fig - 1], in: place }) };
    });
  const toBlocks = (list: Item[], place: Place): Block[] => {
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
        const n = figureImages.push(
          place.note ? { image: it.image, in: { note: place.note } } : { image: it.image },
        );
        out.push({ t: 'fig', n, caption: it.caption ?? [] });
      } else if (it.k === 'table') {
        if (Array.isArray(it.block))
          out.push(...it.block.map((b) => (b.t === 'p' ? { ...b, c: claim(b.c, place) } : b)));
        else if (it.block.t === 'table') {
          tables += 1;
          const at = { ...place, table: tables };
          const row = (r: Cell[]) => r.map((cell) => ({ ...cell, c: claim(cell.c, at) }));
          out.push({
            ...it.block,
            n: tables,
            caption: it.caption ?? [],
            head: it.block.head.map(row),
            body: it.block.body.map(row),
          });
        }
      } else if (it.k === 'heading') out.push({ t: 'p', c: it.c });
    }
    return out;
  };
  const lead = toBlocks(leadItems, { section: '' });
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
    if (top) top.section.blocks = toBlocks(top.items, { section: inlineText(top.section.title).trim() });
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

  // 6. Footnotes and endnotes in the order of their calls, read as the body is: paragraphs, lists, tables,
  // pictures (figures of the note), equations.
  const footnotes: Block[][] = [];
  for (let i = 0; i < ctx.noteOrder.length; i++) {
    const [noteType, noteId] = ctx.noteOrder[i].split('-');
    const note = doc.notes.resolve({ noteType, noteId });
    const noteItems: Item[] = [];
    for (const node of note?.body ?? []) {
      if (node.type === 'paragraph') paragraphItems(node, ctx, noteItems);
      else if (node.type === 'table') noteItems.push(tableItem(node, ctx));
    }
    for (const loss of ctx.lost.splice(0)) losses.push({ ...loss, where: '', note: i + 1 });
    const blocks = toBlocks(attachCaptions(noteItems), { note: i + 1 });
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
  for (const [i, { image, in: place }] of figureImages.entries()) {
    const at = place ? ` (a picture in ${pictureAt(place)})` : '';
    let bytes: Buffer;
    try {
      bytes = await image.readAsBuffer();
    } catch {
      // A picture linked to a file outside the Word file (Insert › Pictures › Link to File): not in it.
      throw new ConversionError(
        `Figure ${i + 1} of the Word file${at} is linked to a picture outside the file, not inserted in it. Insert the picture itself (as PNG or JPEG) and upload the file again, or publish with the PDF alone.`,
      );
    }
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
        `Figure ${i + 1} of the Word file${at} is an image browsers cannot show (${image.contentType ?? 'unknown type'}). Insert it as PNG or JPEG and upload the file again, or publish with the PDF alone.`,
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
      ...(place ? { in: place } : {}),
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
    losses: mergeLosses(losses),
    words: words(leadBlocks) + flatWords(sections),
  };
  if (!document.sections.length && !document.lead.length)
    throw new ConversionError('The Word file has no text to convert besides the title page.');
  return { document, images };
}

/** Drawings of one kind at one place make one line ("3 charts in “Results”"); an equation is listed once. */
function mergeLosses(losses: Loss[]): Loss[] {
  const out: Loss[] = [];
  const equations = new Set<number>();
  for (const loss of losses) {
    if (loss.kind === 'equation') {
      if (equations.has(loss.eq)) continue;
      equations.add(loss.eq);
    }
    const same =
      loss.kind === 'drawing' &&
      out.find(
        (x) => x.kind === 'drawing' && x.what === loss.what && x.where === loss.where && x.note === loss.note,
      );
    if (same && same.kind === 'drawing') same.count += loss.count;
    else out.push({ ...loss });
  }
  return out;
}

function flatWords(sections: Section[]): number {
  return sections.reduce(
    (n, s) =>
      n + inlineText(s.title).split(/\s+/).filter(Boolean).length + words(s.blocks) + flatWords(s.sections),
    0,
  );
}
