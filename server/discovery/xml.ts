/**
 * A small XML builder: elements are data (`el(name, attrs, ...children)`), and `renderXml` is the only
 * place that turns them into text, escaping every text node and attribute value on the way. No caller
 * concatenates markup, so a title with `&` or `<` (or a stray control character pasted from a PDF) can
 * never break a document.
 */

export type XmlAttrValue = string | number | boolean | null | undefined;
export type XmlAttrs = Record<string, XmlAttrValue>;

export interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attrs: XmlAttrs;
  readonly children: readonly XmlChild[];
}

/** Text, an element, nothing (skipped), or a list of these (flattened): convenient for optional parts. */
export type XmlChild = XmlElement | string | number | null | undefined | false | readonly XmlChild[];

export function el(name: string, attrs: XmlAttrs | null = null, ...children: XmlChild[]): XmlElement {
  return { kind: 'element', name, attrs: attrs ?? {}, children };
}

/** An element holding one text value, or nothing at all when the value is empty. */
export function textEl(
  name: string,
  value: string | number | null | undefined,
  attrs: XmlAttrs | null = null,
) {
  if (value === null || value === undefined) return null;
  const text = String(value);
  return text.trim() === '' ? null : el(name, attrs, text);
}

/** Each element among the children (lists flattened) replaced by `f` of it; text and gaps as they are. */
export function mapChildren(children: readonly XmlChild[], f: (e: XmlElement) => XmlElement): XmlChild[] {
  return flatten(children).map((c) => (typeof c === 'string' ? c : f(c)));
}

/** Characters XML 1.0 does not allow at all (control characters, lone surrogates, U+FFFE/U+FFFF). */
const INVALID_XML_CHARS = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeText(value: string): string {
  return value
    .replace(INVALID_XML_CHARS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

function flatten(children: readonly XmlChild[], out: (XmlElement | string)[] = []) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flatten(c, out);
    else if (typeof c === 'number') out.push(String(c));
    else out.push(c as XmlElement | string);
  }
  return out;
}

function renderAttrs(attrs: XmlAttrs): string {
  let s = '';
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (!NAME.test(k)) throw new Error(`Not an XML attribute name: ${k}`);
    s += ` ${k}="${escapeAttr(v === true ? k : String(v))}"`;
  }
  return s;
}

function renderNode(node: XmlElement, indent: string | null, depth: number): string {
  if (!NAME.test(node.name)) throw new Error(`Not an XML element name: ${node.name}`);
  const open = `<${node.name}${renderAttrs(node.attrs)}`;
  const children = flatten(node.children);
  if (!children.length) return `${open}/>`;
  // Elements with text inside are written on one line (no whitespace is added to mixed content); elements
  // holding only elements are indented one child per line when `indent` is set.
  const mixed = children.some((c) => typeof c === 'string');
  if (mixed || indent === null) {
    const inner = children
      .map((c) => (typeof c === 'string' ? escapeText(c) : renderNode(c, null, 0)))
      .join('');
    return `${open}>${inner}</${node.name}>`;
  }
  const pad = `\n${indent.repeat(depth + 1)}`;
  const inner = children.map((c) => pad + renderNode(c as XmlElement, indent, depth + 1)).join('');
  return `${open}>${inner}\n${indent.repeat(depth)}</${node.name}>`;
}

/** The document as text, with the XML declaration; indented with two spaces unless `pretty` is false. */
export function renderXml(root: XmlElement, opts: { pretty?: boolean; declaration?: boolean } = {}): string {
  const body = renderNode(root, opts.pretty === false ? null : '  ', 0);
  return `${opts.declaration === false ? '' : '<?xml version="1.0" encoding="UTF-8"?>\n'}${body}\n`;
}
