import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Drawing, Equation } from '../document.ts';
import { type OmmlNode, UnconvertibleMath, ommlText, ommlToMathml } from '../omml.ts';

/** Before mammoth reads the file: what it drops (equations, drawings, text boxes), swapped for markers it keeps. */

// ---- Before mammoth reads the file: what it drops, swapped for what it keeps ------------------------------

export const MATH_OPEN = '\uE000';
export const MATH_CLOSE = '\uE001';
export const DRAWING_OPEN = '\uE002';
export const DRAWING_CLOSE = '\uE003';
/** The markers left in the text: an equation's index, or a drawing that is not a picture. */
export const MARKER = /\uE000(\d+)\uE001|\uE002(chart|diagram|shape|textbox)\uE003/g;
export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
export const M_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';
export const WP_NS = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
export const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';
export const PIC_NS = 'http://schemas.openxmlformats.org/drawingml/2006/picture';
export const WPS_NS = 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape';
export const C_NS = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
/** Word 2016's newer charts (waterfall, sunburst, …). */
export const CX_NS = 'http://schemas.microsoft.com/office/drawing/2014/chartex';
export const DGM_NS = 'http://schemas.openxmlformats.org/drawingml/2006/diagram';
export const MC_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
export const V_NS = 'urn:schemas-microsoft-com:vml';

export interface XNode extends OmmlNode {
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
export function outermost(root: XNode, ns: string, local: string): XNode[] {
  return Array.from(root.getElementsByTagNameNS(ns, local)).filter((n) => {
    for (let p = n.parentNode; p && p !== root; p = p.parentNode)
      if (p.namespaceURI === ns && p.localName === local) return false;
    return true;
  });
}

export const has = (root: XNode, ns: string, local: string) =>
  root.getElementsByTagNameNS(ns, local).length > 0;

/** The elements of that name: `root` itself if it is one, and those under it. */
export function all(root: XNode, ns: string, local: string): XNode[] {
  const own = root.namespaceURI === ns && root.localName === local ? [root] : [];
  return [...own, ...Array.from(root.getElementsByTagNameNS(ns, local))];
}

export function inside(node: XNode, ns: string, local: string): XNode | null {
  for (let p = node.parentNode; p; p = p.parentNode)
    if (p.namespaceURI === ns && p.localName === local) return p;
  return null;
}

/** A run holding this text (a marker mammoth keeps as text). */
export function markerText(doc: XNode['ownerDocument'], text: string): XNode {
  const t = doc.createElementNS(W_NS, 'w:t');
  t.setAttribute('xml:space', 'preserve');
  t.appendChild(doc.createTextNode(text));
  return t;
}

/**
 * Puts run content (`w:t`, `w:drawing`, `w:pict`) before `ref`: straight into its run, or each in a run of its
 * own (in a paragraph of its own outside a paragraph), so mammoth reads it.
 */
export function placeBefore(ref: XNode, contents: XNode[]) {
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
export function replaceInRun(old: XNode, contents: XNode[]) {
  placeBefore(old, contents);
  old.parentNode?.removeChild(old);
}

/**
 * Replaces each equation of one part (the body, the notes) by a marker, and maps it to MathML; an equation the
 * mapping does not know keeps Word's text and its reason.
 */
export function takeEquations(dom: XNode, equations: (Equation & { reason?: string })[]) {
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
export function takeDrawings(dom: XNode) {
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

export const O_NS = 'urn:schemas-microsoft-com:office:office';

/** A VML drawing of its own (not only a shape type's definition, not a horizontal rule). */
export function isVmlDrawing(pict: XNode): boolean {
  return (Array.from(pict.childNodes) as XNode[]).some(
    (c) =>
      c.nodeType === 1 &&
      c.namespaceURI === V_NS &&
      c.localName !== 'shapetype' &&
      !['t', 'true'].includes(c.getAttributeNS?.(O_NS, 'hr') ?? ''),
  );
}

/** Signs of what the pass before mammoth changes: equations, drawings, text boxes. */
export const PREPARE = /oMath|<\w+:(drawing|pict)\b/;

/** One part (the body, the notes) made ready for mammoth, or null when it has nothing to change. */
export function prepare(xml: string, equations: (Equation & { reason?: string })[]): string | null {
  if (!PREPARE.test(xml)) return null;
  const dom = new DOMParser().parseFromString(xml, 'text/xml') as unknown as XNode;
  takeEquations(dom, equations);
  takeDrawings(dom);
  return new XMLSerializer().serializeToString(dom as never);
}
