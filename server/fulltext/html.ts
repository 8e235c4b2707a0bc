import sanitizeHtml from 'sanitize-html';
import { type XmlChild, type XmlElement, el, mapChildren, renderXml } from '../discovery/xml.ts';
import {
  type Block,
  type Cell,
  type FullTextDocument,
  type Inline,
  type Section,
  inlineText,
} from './document.ts';
import { MATHML_NS } from './omml.ts';

/**
 * The structured document as the article page's HTML: a contents list (a side column on wide screens, a
 * collapsible list on phones: both plain HTML, no script), the sections, figures with their sizes set and
 * lazy loading, tables in a box of their own that scrolls, MathML as the browser draws it, and notes and
 * references linked both ways. Built as data with the XML builder (every text and attribute escaped in one
 * place), then passed through an allow-list sanitiser all the same: this is text from a Word file.
 */

export interface HtmlOptions {
  /** Where a figure's image is served ("/article/12/figures/figure-1.png"). */
  figureUrl: (name: string) => string;
  /** The heading level of the sections (2 unless given; under the article page's "Full text" h2, 3). */
  level?: number;
  /**
   * The article page's section around the text: its "Full text" heading and the links to the other formats
   * (made here, on the server, so the page's script carries none of it: decision 0011's budget).
   */
  page?: { pdfHref: string | null; jatsHref: string };
}

/** An HTML element; never self-closing unless void (HTML parsers read `<td/>` as an opening tag). */
const VOID = new Set(['img', 'br']);
function h(
  name: string,
  attrs: Record<string, string | number | boolean | null | undefined> | null,
  ...children: XmlChild[]
): XmlElement {
  return VOID.has(name) ? el(name, attrs, ...children) : el(name, attrs, ...children, '');
}

interface State {
  doc: FullTextDocument;
  opts: HtmlOptions;
  /** The id of the first call of each note and of the first citation of each reference: their back links. */
  noteCalls: Map<number, string>;
  refCites: Map<number, string>;
  cites: number;
}

function mathHtml(node: XmlElement, top = true): XmlElement {
  const children = mapChildren(node.children, (c) => mathHtml(c, false));
  return h(node.name, top ? { ...node.attrs, xmlns: MATHML_NS } : node.attrs, ...children);
}

function equation(state: State, index: number): XmlChild {
  const eq = state.doc.equations[index];
  if (!eq) return null;
  return eq.math ? mathHtml(eq.math) : h('span', { class: 'fulltext-equation__text' }, eq.text);
}

/** A figure's picture, its size set (no layout shift) and loaded when near. */
function picture(state: State, n: number, attrs: Record<string, string> = {}): XmlElement | null {
  const f = state.doc.figures[n - 1];
  if (!f) return null;
  return h('img', {
    ...attrs,
    src: state.opts.figureUrl(f.name),
    alt: f.alt,
    width: f.width,
    height: f.height,
    loading: 'lazy',
    decoding: 'async',
  });
}

function inline(c: readonly Inline[], state: State): XmlChild[] {
  return c.map((x): XmlChild => {
    switch (x.t) {
      case 'text': {
        let node: XmlChild = x.v;
        if (x.sub) node = h('sub', null, node);
        if (x.sup) node = h('sup', null, node);
        if (x.i) node = h('em', null, node);
        if (x.b) node = h('strong', null, node);
        return node;
      }
      case 'a':
        return h('a', { href: x.href }, inline(x.c, state));
      case 'fn': {
        const first = !state.noteCalls.has(x.n);
        const id = first ? `fn-${x.n}-call` : null;
        if (id) state.noteCalls.set(x.n, id);
        return h(
          'sup',
          { class: 'fulltext-note-call' },
          h('a', { href: `#fn-${x.n}`, id, 'aria-label': `Note ${x.n}` }, String(x.n)),
        );
      }
      case 'cite': {
        state.cites += 1;
        const id = `cite-${state.cites}`;
        for (const n of x.refs) if (!state.refCites.has(n)) state.refCites.set(n, id);
        return h('a', { href: `#ref-${x.refs[0]}`, id, class: 'fulltext-cite' }, x.v);
      }
      case 'math':
        return equation(state, x.eq);
      case 'img':
        return picture(state, x.fig, { class: 'fulltext-inline-figure', id: `figure-${x.fig}` });
      default:
        // a line break
        return h('br', null);
    }
  });
}

function cell(tag: 'th' | 'td', c: Cell, state: State, scope?: string): XmlElement {
  return h(
    tag,
    {
      colspan: c.colspan > 1 ? c.colspan : null,
      rowspan: c.rowspan > 1 ? c.rowspan : null,
      scope: scope ?? null,
    },
    inline(c.c, state),
  );
}

function blocks(list: readonly Block[], state: State): XmlElement[] {
  return list.map((b): XmlElement => {
    switch (b.t) {
      case 'p':
        return h('p', null, inline(b.c, state));
      case 'list':
        return h(
          b.ordered ? 'ol' : 'ul',
          null,
          b.items.map((item) => h('li', null, blocks(item, state))),
        );
      case 'table': {
        const id = `table-${b.n}`;
        const caption = b.caption.length ? inline(b.caption, state) : `Table ${b.n}`;
        // The caption is the table's own (read with it); the box around it scrolls a wide table on its own
        // and can be reached by keyboard to do so.
        return h(
          'div',
          { class: 'fulltext-table', id, role: 'region', 'aria-labelledby': `${id}-caption`, tabindex: 0 },
          h(
            'table',
            null,
            h('caption', { id: `${id}-caption` }, caption),
            b.head.length
              ? h(
                  'thead',
                  null,
                  b.head.map((r) =>
                    h(
                      'tr',
                      null,
                      r.map((c) => cell('th', c, state, c.colspan > 1 ? 'colgroup' : 'col')),
                    ),
                  ),
                )
              : null,
            h(
              'tbody',
              null,
              b.body.map((r) =>
                h(
                  'tr',
                  null,
                  r.map((c) => cell('td', c, state)),
                ),
              ),
            ),
          ),
        );
      }
      case 'fig':
        return h(
          'figure',
          { class: 'fulltext-figure', id: `figure-${b.n}` },
          picture(state, b.n),
          b.caption.length ? h('figcaption', null, inline(b.caption, state)) : null,
        );
      default:
        // a displayed equation
        // A wide equation scrolls in its box, which a keyboard can reach to do so.
        return h(
          'div',
          {
            class: 'fulltext-equation',
            id: `equation-${b.eq + 1}`,
            role: 'group',
            'aria-label': `Equation ${b.eq + 1}`,
            tabindex: 0,
          },
          equation(state, b.eq),
        );
    }
  });
}

function section(s: Section, depth: number, state: State): XmlElement {
  const level = Math.min((state.opts.level ?? 2) + depth - 1, 6);
  return h(
    'section',
    { id: s.id, 'aria-labelledby': `${s.id}-title` },
    h(`h${level}`, { id: `${s.id}-title` }, inline(s.title, state)),
    blocks(s.blocks, state),
    s.sections.map((sub) => section(sub, depth + 1, state)),
  );
}

/** The contents list: each section (by its plain title) and the notes and references. */
function contents(doc: FullTextDocument): XmlElement {
  const list = (sections: readonly Section[]): XmlElement =>
    h(
      'ol',
      null,
      sections.map((s) =>
        h(
          'li',
          null,
          h('a', { href: `#${s.id}` }, inlineText(s.title, doc.equations)),
          s.sections.length ? list(s.sections) : null,
        ),
      ),
    );
  const extra = [
    doc.footnotes.length ? h('li', null, h('a', { href: '#fulltext-notes' }, 'Notes')) : null,
    doc.references.length
      ? h('li', null, h('a', { href: '#fulltext-references' }, doc.referencesTitle))
      : null,
  ];
  const top = list(doc.sections);
  return h('ol', null, ...(top.children as XmlChild[]), ...extra);
}

function backLink(id: string | undefined, label: string): XmlChild {
  return id ? [' ', h('a', { href: `#${id}`, class: 'fulltext-back', 'aria-label': label }, '↩')] : null;
}

/** The article's full text as HTML (sanitised), and the section titles of its contents list. */
export function fullTextHtml(doc: FullTextDocument, opts: HtmlOptions): string {
  const state: State = { doc, opts, noteCalls: new Map(), refCites: new Map(), cites: 0 };
  // The body first: it records which call each note and reference links back to.
  const body = [...blocks(doc.lead, state), ...doc.sections.map((s) => section(s, 1, state))];
  const level = opts.level ?? 2;
  const notes = doc.footnotes.length
    ? h(
        'section',
        { id: 'fulltext-notes', 'aria-labelledby': 'fulltext-notes-title', class: 'fulltext-notes' },
        h(`h${level}`, { id: 'fulltext-notes-title' }, 'Notes'),
        h(
          'ol',
          null,
          doc.footnotes.map((f, i) => {
            const content = blocks(f, state);
            const back = backLink(state.noteCalls.get(i + 1), `Back to the text of note ${i + 1}`);
            const last = content.at(-1);
            // The back link ends the note's last paragraph (or follows its table, figure or list).
            if (last && last.name === 'p')
              content[content.length - 1] = h('p', null, ...(last.children as XmlChild[]), back);
            else if (back) content.push(h('p', null, back));
            return h('li', { id: `fn-${i + 1}` }, content);
          }),
        ),
      )
    : null;
  const refs = doc.references.length
    ? h(
        'section',
        {
          id: 'fulltext-references',
          'aria-labelledby': 'fulltext-references-title',
          class: 'fulltext-references',
        },
        h(`h${level}`, { id: 'fulltext-references-title' }, doc.referencesTitle),
        h(
          'ol',
          null,
          doc.references.map((r, i) =>
            h(
              'li',
              { id: `ref-${i + 1}` },
              r.label ? [h('span', { class: 'fulltext-references__label' }, r.label), ' '] : null,
              inline(r.c, state),
              backLink(state.refCites.get(i + 1), `Back to the first citation of reference ${i + 1}`),
            ),
          ),
        ),
      )
    : null;
  const toc = contents(doc);
  const root = h(
    'div',
    { class: 'fulltext' },
    // Wide screens: a side column that stays in view. Phones: a list that opens and closes (no script).
    h(
      'nav',
      { class: 'fulltext-toc fulltext-toc--side', 'aria-labelledby': 'fulltext-toc-title' },
      h(`h${level}`, { id: 'fulltext-toc-title', class: 'fulltext-toc__title' }, 'Contents'),
      toc,
    ),
    h(
      'details',
      { class: 'fulltext-toc fulltext-toc--phone' },
      h('summary', null, 'Contents'),
      h('nav', { 'aria-label': 'Contents' }, toc),
    ),
    h('div', { class: 'fulltext-body' }, body, notes, refs),
  );
  const page = opts.page;
  const whole = page
    ? h(
        'section',
        { 'aria-labelledby': 'full-text-title', class: 'article-section article-fulltext', id: 'full-text' },
        h(
          'div',
          { class: 'article-fulltext__head' },
          h('h2', { id: 'full-text-title' }, 'Full text'),
          h(
            'p',
            { class: 'article-fulltext__formats' },
            'Download: ',
            page.pdfHref ? h('a', { href: page.pdfHref }, 'PDF') : null,
            h('a', { href: page.jatsHref, download: 'download' }, 'JATS XML'),
          ),
        ),
        root,
      )
    : root;
  return sanitizeFullText(renderXml(whole, { pretty: false, declaration: false }).trim());
}

const MATH_TAGS = [
  'math',
  'mrow',
  'mi',
  'mn',
  'mo',
  'mtext',
  'mspace',
  'ms',
  'mfrac',
  'msqrt',
  'mroot',
  'msup',
  'msub',
  'msubsup',
  'munder',
  'mover',
  'munderover',
  'mmultiscripts',
  'mprescripts',
  'none',
  'mtable',
  'mtr',
  'mtd',
  'menclose',
  'mphantom',
  'mstyle',
  'mpadded',
  'merror',
  'semantics',
  'annotation',
];

const FULLTEXT_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'div',
    'section',
    'nav',
    'details',
    'summary',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'em',
    'strong',
    'sup',
    'sub',
    'a',
    'br',
    'ol',
    'ul',
    'li',
    'table',
    'caption',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'figure',
    'figcaption',
    'img',
    'span',
    ...MATH_TAGS,
  ],
  allowedAttributes: {
    '*': ['id', 'class', 'aria-labelledby', 'aria-label', 'role'],
    a: ['href', 'download'],
    img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    div: ['tabindex'],
    math: ['xmlns', 'display'],
    mo: ['fence', 'stretchy', 'separator', 'largeop', 'accent', 'mathvariant'],
    mi: ['mathvariant'],
    mn: ['mathvariant'],
    mtext: ['mathvariant'],
    mfrac: ['linethickness', 'bevelled'],
    mover: ['accent'],
    munder: ['accentunder'],
    mtable: ['columnalign'],
    menclose: ['notation'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  // Figures are served by the site itself: a relative address or this site's, never a data: URL.
  allowProtocolRelative: false,
  parser: { lowerCaseTags: false, lowerCaseAttributeNames: false },
};

export function sanitizeFullText(html: string): string {
  return sanitizeHtml(html, FULLTEXT_HTML);
}
