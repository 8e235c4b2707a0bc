import { type XmlElement, el } from '../discovery/xml.ts';

/**
 * Word's equations (Office Math Markup, OMML, ECMA-376 part 1 §22.1) mapped to Presentation MathML 3, element
 * by element. The DOM comes from @xmldom/xmldom (mammoth's own XML library); this is only the mapping.
 *
 * Why our own mapping rather than `omml2mathml`: that package reaches a DOM through `get-dom`, which pulls in
 * jsdom 9 (2016) and its unmaintained dependency tree; and owning the mapping lets an equation that holds
 * something it does not know fail loudly (`UnconvertibleMath`), so the editor's preview lists it instead of
 * it being dropped in silence (issue 16: "none lost silently").
 *
 * The result is our XML builder's data (server/discovery/xml.ts) with unprefixed MathML names: the HTML page
 * writes it as it is, the JATS export puts each name in `mml:`.
 */

export const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
const OMML_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

/** Thrown for an OMML element the mapping does not know: the caller keeps the equation's text and says so. */
export class UnconvertibleMath extends Error {}

/** The part of the DOM the mapping reads (xmldom's nodes satisfy it). */
export interface OmmlNode {
  nodeType: number;
  localName?: string | null;
  namespaceURI?: string | null;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<OmmlNode>;
  getAttribute?(name: string): string | null;
}

const ELEMENT = 1;

function kids(node: OmmlNode): OmmlNode[] {
  return Array.from(node.childNodes).filter((n) => n.nodeType === ELEMENT);
}

function name(node: OmmlNode): string {
  return node.localName ?? node.nodeName.replace(/^.*:/, '');
}

const isMath = (node: OmmlNode) => node.namespaceURI === OMML_NS;

function child(node: OmmlNode, local: string): OmmlNode | undefined {
  return kids(node).find((k) => isMath(k) && name(k) === local);
}

/** A property's `m:val` (e.g. `<m:begChr m:val="["/>` inside `<m:dPr>`), or undefined when absent. */
function prop(node: OmmlNode, pr: string, local: string): string | undefined {
  const props = child(node, pr);
  const p = props && child(props, local);
  if (!p) return undefined;
  return p.getAttribute?.('m:val') ?? p.getAttribute?.('val') ?? '';
}

/** OMML's on/off values: present with no value, "1", "on" or "true" mean on. */
function on(value: string | undefined): boolean {
  return value !== undefined && !['0', 'off', 'false'].includes(value);
}

function row(items: readonly (XmlElement | readonly XmlElement[])[]): XmlElement {
  const list = items.flatMap((x) => (Array.isArray(x) ? x : [x as XmlElement]));
  return list.length === 1 ? list[0] : el('mrow', null, list);
}

/** An argument (m:e, m:num, m:sub, …): its math objects in a row. A missing one is an empty row. */
function arg(node: OmmlNode | undefined): XmlElement {
  return node ? row(objects(node)) : el('mrow');
}

function objects(node: OmmlNode): XmlElement[] {
  return kids(node).flatMap(object);
}

/**
 * A math run's look as MathML's `mathvariant`, from OMML's style (`m:sty`: p plain, b bold, i italic, bi bold
 * italic; none: Word's default, letters italic) and script (`m:scr`). Undefined: MathML's own default, which
 * is Word's (a single letter italic, the rest upright).
 */
export function mathVariant(sty: string | undefined, scr: string | undefined): string | undefined {
  const bold = sty === 'b' || sty === 'bi';
  switch (scr) {
    case 'script':
    case 'fraktur':
      return bold ? `bold-${scr}` : scr;
    case 'double-struck':
    case 'monospace':
      return scr;
    case 'sans-serif':
      // Word's sans-serif letters are italic unless the style says plain or bold.
      if (sty === 'p') return 'sans-serif';
      if (sty === 'b') return 'bold-sans-serif';
      return sty === 'bi' ? 'sans-serif-bold-italic' : 'sans-serif-italic';
    default:
      return sty === 'p'
        ? 'normal'
        : sty === 'b'
          ? 'bold'
          : sty === 'bi'
            ? 'bold-italic'
            : sty === 'i'
              ? 'italic'
              : undefined;
  }
}

/**
 * Text of a math run, split into MathML tokens: numbers, identifiers and operators, each with the run's look
 * (identifiers all of it; numbers and operators its weight, as Word draws them).
 */
function tokens(text: string, variant: string | undefined): XmlElement[] {
  const upright = variant === 'normal' || variant === 'bold';
  // A word typed upright ("max", "sin") is one identifier.
  if (upright && /^\p{L}{2,}$/u.test(text)) return [el('mi', { mathvariant: variant }, text)];
  const weight = variant?.includes('bold') ? { mathvariant: 'bold' } : null;
  const out: XmlElement[] = [];
  for (const m of text.matchAll(/\d+(?:[.,]\d+)*|\p{L}\p{M}*|\s+|./gsu)) {
    const t = m[0];
    if (/^\s+$/.test(t)) continue;
    if (/^\d/.test(t)) out.push(el('mn', weight, t));
    else if (/^\p{L}/u.test(t)) out.push(el('mi', variant ? { mathvariant: variant } : null, t));
    else out.push(el('mo', weight, t));
  }
  return out;
}

/** Word's own bold on a math run (`w:rPr/w:b`), which some writers give instead of `m:sty`. */
function wordBold(run: OmmlNode): boolean {
  const rPr = kids(run).find((k) => !isMath(k) && name(k) === 'rPr');
  const b = rPr && kids(rPr).find((k) => name(k) === 'b');
  if (!b) return false;
  return on(b.getAttribute?.('w:val') ?? b.getAttribute?.('val') ?? '');
}

const NARY_DEFAULT = '\u222b';

function object(node: OmmlNode): XmlElement[] {
  const local = name(node);
  // Properties (m:rPr, m:fPr, m:ctrlPr, …) and Word's own run properties are read by their parents.
  if (local.endsWith('Pr')) return [];
  if (!isMath(node)) {
    // A plain Word run inside an equation (text typed as "normal text").
    if (local === 'r') {
      const text = node.textContent ?? '';
      return text.trim() ? [el('mtext', null, text)] : [];
    }
    if (['bookmarkStart', 'bookmarkEnd', 'proofErr', 'rPr'].includes(local)) return [];
    throw new UnconvertibleMath(`unknown element ${node.nodeName}`);
  }
  switch (local) {
    case 'r': {
      const text = kids(node)
        .filter((k) => name(k) === 't')
        .map((k) => k.textContent ?? '')
        .join('');
      const style = prop(node, 'rPr', 'sty') ?? (wordBold(node) ? 'bi' : undefined);
      const normal = child(node, 'rPr') && child(child(node, 'rPr')!, 'nor');
      if (normal) return text.trim() ? [el('mtext', null, text)] : [];
      return tokens(text, mathVariant(style, prop(node, 'rPr', 'scr')));
    }
    case 'f': {
      const type = prop(node, 'fPr', 'type');
      return [
        el(
          'mfrac',
          type === 'noBar'
            ? { linethickness: '0' }
            : type === 'lin' || type === 'skw'
              ? { bevelled: 'true' }
              : null,
          arg(child(node, 'num')),
          arg(child(node, 'den')),
        ),
      ];
    }
    case 'sSup':
      return [el('msup', null, arg(child(node, 'e')), arg(child(node, 'sup')))];
    case 'sSub':
      return [el('msub', null, arg(child(node, 'e')), arg(child(node, 'sub')))];
    case 'sSubSup':
      return [el('msubsup', null, arg(child(node, 'e')), arg(child(node, 'sub')), arg(child(node, 'sup')))];
    case 'sPre':
      return [
        el(
          'mmultiscripts',
          null,
          arg(child(node, 'e')),
          el('mprescripts'),
          arg(child(node, 'sub')),
          arg(child(node, 'sup')),
        ),
      ];
    case 'rad': {
      const deg = child(node, 'deg');
      const hidden =
        on(prop(node, 'radPr', 'degHide')) || !deg || !kids(deg).some((k) => !name(k).endsWith('Pr'));
      return [
        hidden
          ? el('msqrt', null, arg(child(node, 'e')))
          : el('mroot', null, arg(child(node, 'e')), arg(deg)),
      ];
    }
    case 'd': {
      const beg = prop(node, 'dPr', 'begChr') ?? '(';
      const end = prop(node, 'dPr', 'endChr') ?? ')';
      const sep = prop(node, 'dPr', 'sepChr') ?? '|';
      const parts = kids(node).filter((k) => isMath(k) && name(k) === 'e');
      const inner: XmlElement[] = [];
      parts.forEach((p, i) => {
        if (i > 0) inner.push(el('mo', { separator: 'true' }, sep));
        inner.push(arg(p));
      });
      return [
        el(
          'mrow',
          null,
          beg ? el('mo', { fence: 'true', stretchy: 'true' }, beg) : null,
          inner,
          end ? el('mo', { fence: 'true', stretchy: 'true' }, end) : null,
        ),
      ];
    }
    case 'nary': {
      const chr = prop(node, 'naryPr', 'chr') || NARY_DEFAULT;
      const loc = prop(node, 'naryPr', 'limLoc') ?? (chr === NARY_DEFAULT ? 'subSup' : 'undOvr');
      const sub = on(prop(node, 'naryPr', 'subHide')) ? null : arg(child(node, 'sub'));
      const sup = on(prop(node, 'naryPr', 'supHide')) ? null : arg(child(node, 'sup'));
      const op = el('mo', { largeop: 'true' }, chr);
      const under = loc === 'undOvr';
      const limits =
        sub && sup
          ? el(under ? 'munderover' : 'msubsup', null, op, sub, sup)
          : sub
            ? el(under ? 'munder' : 'msub', null, op, sub)
            : sup
              ? el(under ? 'mover' : 'msup', null, op, sup)
              : op;
      return [el('mrow', null, limits, arg(child(node, 'e')))];
    }
    case 'func':
      return [el('mrow', null, arg(child(node, 'fName')), el('mo', null, '\u2061'), arg(child(node, 'e')))];
    case 'acc': {
      const chr = prop(node, 'accPr', 'chr') || '\u0302';
      return [el('mover', { accent: 'true' }, arg(child(node, 'e')), el('mo', null, spacingAccent(chr)))];
    }
    case 'bar': {
      const top = prop(node, 'barPr', 'pos') === 'top';
      return [
        top
          ? el('mover', { accent: 'true' }, arg(child(node, 'e')), el('mo', null, '\u203e'))
          : el('munder', { accentunder: 'true' }, arg(child(node, 'e')), el('mo', null, '_')),
      ];
    }
    case 'groupChr': {
      const chr = prop(node, 'groupChrPr', 'chr') || '\u23df';
      const top = prop(node, 'groupChrPr', 'pos') === 'top';
      return [el(top ? 'mover' : 'munder', null, arg(child(node, 'e')), el('mo', null, chr))];
    }
    case 'limLow':
      return [el('munder', null, arg(child(node, 'e')), arg(child(node, 'lim')))];
    case 'limUpp':
      return [el('mover', null, arg(child(node, 'e')), arg(child(node, 'lim')))];
    case 'box':
      return [arg(child(node, 'e'))];
    case 'borderBox':
      return [el('menclose', { notation: 'box' }, arg(child(node, 'e')))];
    case 'phant':
      return [el('mphantom', null, arg(child(node, 'e')))];
    case 'm':
      return [
        el(
          'mtable',
          null,
          kids(node)
            .filter((k) => isMath(k) && name(k) === 'mr')
            .map((r) =>
              el(
                'mtr',
                null,
                kids(r)
                  .filter((k) => isMath(k) && name(k) === 'e')
                  .map((e) => el('mtd', null, arg(e))),
              ),
            ),
        ),
      ];
    case 'eqArr':
      return [
        el(
          'mtable',
          { columnalign: 'left' },
          kids(node)
            .filter((k) => isMath(k) && name(k) === 'e')
            .map((e) => el('mtr', null, el('mtd', null, arg(e)))),
        ),
      ];
    case 'e':
      return [arg(node)];
    case 'oMath':
      return objects(node);
    default:
      throw new UnconvertibleMath(`unknown element m:${local}`);
  }
}

/** Word stores accents as combining marks; MathML's `<mover accent>` wants the spacing form. */
function spacingAccent(chr: string): string {
  const map: Record<string, string> = {
    '\u0302': '^',
    '\u0303': '~',
    '\u0304': '\u00af',
    '\u0305': '\u00af',
    '\u0307': '\u02d9',
    '\u0308': '\u00a8',
    '\u20d7': '\u2192',
    '\u0301': '\u00b4',
    '\u0300': '`',
    '\u030c': '\u02c7',
  };
  return map[chr] ?? chr;
}

/**
 * One equation (`m:oMath`, or `m:oMathPara` holding one or more) as a `<math>` element. Throws
 * UnconvertibleMath when it holds something the mapping does not know.
 */
export function ommlToMathml(node: OmmlNode, display: boolean): XmlElement {
  const maths =
    name(node) === 'oMathPara' ? kids(node).filter((k) => isMath(k) && name(k) === 'oMath') : [node];
  const body =
    maths.length === 1
      ? objects(maths[0])
      : [
          el(
            'mtable',
            null,
            maths.map((m) => el('mtr', null, el('mtd', null, row(objects(m))))),
          ),
        ];
  return el('math', display ? { display: 'block' } : null, row(body));
}

/** The equation's text as Word shows it, for readers of the preview when it could not be converted. */
export function ommlText(node: OmmlNode): string {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
}
