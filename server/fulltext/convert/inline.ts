import { type Drawing, type Equation, type Inline, type Loss, inlineText } from '../document.ts';
import type { MImage, MNode, MDocument } from './model.ts';
import { MARKER } from './equations.ts';

/** Runs, links and marks → our inline content. */

// ---- Inline content -----------------------------------------------------------------------------------

export type Marks = { b?: true; i?: true; sup?: true; sub?: true };

export interface Context {
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
export function pushText(out: Inline[], value: string, marks: Marks, ctx: Context) {
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

export const sameMarks = (a: Marks, b: Marks) =>
  a.b === b.b && a.i === b.i && a.sup === b.sup && a.sub === b.sub;

export function pushPlain(out: Inline[], value: string, marks: Marks) {
  if (!value) return;
  const prev = out.at(-1);
  if (prev?.t === 'text' && sameMarks(prev, marks)) prev.v += value;
  else out.push({ t: 'text', v: value, ...marks });
}

/**
 * A paragraph's content. Its pictures go to `images` (a paragraph's become figures after it), or with null (in
 * a table's cell) stay where they are, as `img` inlines.
 */
export function inlines(nodes: MNode[], ctx: Context, images: MImage[] | null, marks: Marks = {}): Inline[] {
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
export function trim(content: Inline[]): Inline[] {
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
