import { type XmlChild, type XmlElement, el, mapChildren } from '../discovery/xml.ts';
import type { Block, Cell, Equation, FullTextDocument, Inline, Section } from './document.ts';

/**
 * The structured document as JATS `<body>` and `<back>` (Journal Publishing 1.1 with MathML 3): sections,
 * paragraphs, lists, tables, figures, equations in `mml:`, footnotes and the reference list. The front matter
 * is the catalogue's (server/discovery/jats.ts), which puts these two after it.
 */

export interface JatsBodyOptions {
  /** The absolute address of a figure's image (its stable address beside the article). */
  figureUrl: (name: string) => string;
}

/** MathML elements with their names in `mml:`, as JATS wants them. */
export function prefixMath(node: XmlElement): XmlElement {
  return el(`mml:${node.name}`, node.attrs, mapChildren(node.children, prefixMath));
}

function formula(eq: Equation | undefined): XmlChild {
  if (!eq) return null;
  return eq.math ? prefixMath(eq.math) : eq.text;
}

/** A figure's picture: its address, its kind, its alt text. */
function picture(tag: 'graphic' | 'inline-graphic', n: number, doc: FullTextDocument, opts: JatsBodyOptions) {
  const figure = doc.figures[n - 1];
  if (!figure) return null;
  const [, subtype] = figure.mediaType.split('/');
  return el(
    tag,
    { 'xlink:href': opts.figureUrl(figure.name), mimetype: 'image', 'mime-subtype': subtype },
    figure.alt ? el('alt-text', null, figure.alt) : null,
  );
}

/** Inline content; `inCell` keeps line breaks (`<break/>` is allowed in table cells, not in paragraphs). */
function inline(
  c: readonly Inline[],
  doc: FullTextDocument,
  opts: JatsBodyOptions,
  inCell = false,
): XmlChild[] {
  return c.map((x): XmlChild => {
    switch (x.t) {
      case 'text': {
        let node: XmlChild = x.v;
        if (x.sub) node = el('sub', null, node);
        if (x.sup) node = el('sup', null, node);
        if (x.i) node = el('italic', null, node);
        if (x.b) node = el('bold', null, node);
        return node;
      }
      case 'a': {
        const doi = /^https:\/\/doi\.org\/(10\..+)$/.exec(x.href)?.[1];
        // A link holds text only: a picture in it follows it.
        const text = x.c.filter((y) => y.t !== 'img');
        const pictures = x.c.filter((y) => y.t === 'img');
        return [
          text.length
            ? el(
                'ext-link',
                doi
                  ? { 'ext-link-type': 'doi', 'xlink:href': decodeURIComponent(doi) }
                  : { 'ext-link-type': 'uri', 'xlink:href': x.href },
                inline(text, doc, opts, inCell),
              )
            : null,
          inline(pictures, doc, opts, inCell),
        ];
      }
      case 'img':
        return picture('inline-graphic', x.fig, doc, opts);
      case 'fn':
        return el('xref', { 'ref-type': 'fn', rid: `fn${x.n}` }, String(x.n));
      case 'cite':
        return el('xref', { 'ref-type': 'bibr', rid: x.refs.map((n) => `r${n}`).join(' ') }, x.v);
      case 'math':
        return el('inline-formula', null, formula(doc.equations[x.eq]));
      default:
        // a line break: allowed in table cells, a space in paragraphs
        return inCell ? el('break') : ' ';
    }
  });
}

function cell(tag: 'th' | 'td', c: Cell, doc: FullTextDocument, opts: JatsBodyOptions): XmlElement {
  return el(
    tag,
    { colspan: c.colspan > 1 ? c.colspan : null, rowspan: c.rowspan > 1 ? c.rowspan : null },
    inline(c.c, doc, opts, true),
  );
}

function blocks(list: readonly Block[], doc: FullTextDocument, opts: JatsBodyOptions): XmlElement[] {
  return list.map((b): XmlElement => {
    switch (b.t) {
      case 'p':
        return el('p', null, inline(b.c, doc, opts));
      case 'list':
        return el(
          'list',
          { 'list-type': b.ordered ? 'order' : 'bullet' },
          b.items.map((item) => el('list-item', null, item.length ? blocks(item, doc, opts) : el('p'))),
        );
      case 'table':
        return el(
          'table-wrap',
          { id: `t${b.n}` },
          b.caption.length ? el('caption', null, el('p', null, inline(b.caption, doc, opts))) : null,
          el(
            'table',
            null,
            b.head.length
              ? el(
                  'thead',
                  null,
                  b.head.map((r) =>
                    el(
                      'tr',
                      null,
                      r.map((c) => cell('th', c, doc, opts)),
                    ),
                  ),
                )
              : null,
            el(
              'tbody',
              null,
              b.body.map((r) =>
                el(
                  'tr',
                  null,
                  r.map((c) => cell('td', c, doc, opts)),
                ),
              ),
            ),
          ),
        );
      case 'fig':
        return el(
          'fig',
          { id: `f${b.n}` },
          b.caption.length ? el('caption', null, el('p', null, inline(b.caption, doc, opts))) : null,
          picture('graphic', b.n, doc, opts),
        );
      default:
        // a displayed equation
        return el('disp-formula', { id: `e${b.eq + 1}` }, formula(doc.equations[b.eq]));
    }
  });
}

function section(s: Section, doc: FullTextDocument, opts: JatsBodyOptions): XmlElement {
  return el(
    'sec',
    { id: s.id },
    el('title', null, inline(s.title, doc, opts)),
    blocks(s.blocks, doc, opts),
    s.sections.map((sub) => section(sub, doc, opts)),
  );
}

/** `<body>` and `<back>` (the latter only when there are notes or references). */
export function jatsBody(doc: FullTextDocument, opts: JatsBodyOptions): XmlElement[] {
  const body = el(
    'body',
    null,
    blocks(doc.lead, doc, opts),
    doc.sections.map((s) => section(s, doc, opts)),
  );
  const notes = doc.footnotes.length
    ? el(
        'fn-group',
        null,
        doc.footnotes.map((f, i) =>
          el(
            'fn',
            { id: `fn${i + 1}` },
            el('label', null, String(i + 1)),
            // A note holds paragraphs only: its lists, tables, figures and equations each go in one.
            blocks(f, doc, opts).map((b) => (b.name === 'p' ? b : el('p', null, b))),
          ),
        ),
      )
    : null;
  const refs = doc.references.length
    ? el(
        'ref-list',
        null,
        el('title', null, doc.referencesTitle),
        doc.references.map((r, i) =>
          el(
            'ref',
            { id: `r${i + 1}` },
            r.label ? el('label', null, r.label) : null,
            el('mixed-citation', null, inline(r.c, doc, opts)),
          ),
        ),
      )
    : null;
  return [body, ...(notes || refs ? [el('back', null, notes, refs)] : [])];
}
