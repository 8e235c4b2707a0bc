import { type Block, type Cell, type Inline, type Reference, type Section, inlineText } from '../document.ts';
import type { KnownFront } from './model.ts';
import type { Item } from './blocks.ts';

/** The front matter the journal already knows, sections, references and the citations that point at them. */

// ---- Front matter, sections, references --------------------------------------------------------------

export const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@.]+/gu, ' ')
    .trim();

/** A line before the first section that repeats what the journal knows (title, authors, affiliations, abstract). */
export function isFrontMatter(text: string, known: KnownFront): boolean {
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
export const titleKey = (s: string) => norm(s).replace(/[.@]/g, ' ').replace(/\s+/g, ' ').trim();

export function editDistance(a: string, b: string): number {
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
export const FRONT_LINE = /^(abstract|keywords?|key words|index terms)\b/;
export const KEYWORDS_LINE = /^(keywords?|key words|index terms)\b/;

/** A title page's line (a title, names, affiliations with their addresses): short. */
export const shortLine = (text: string) => text.split(/\s+/).length <= 60;
/** A line of names or affiliations after the title, when no abstract follows to mark the end: not a sentence. */
export const titlePageLine = (text: string) => text.split(/\s+/).length <= 40 && !/[.!?:]$/.test(text.trim());

/**
 * The items before the first section that are the file's own front matter, by their structure (decision 0041):
 * before the first heading that is not the title, an abstract or keywords, (1) a title page followed by an
 * abstract or keywords block is front matter up to the end of that block (the keywords line, else the
 * section); (2) without one, the title (a close match, or Word's Title style), the short lines that follow it,
 * and lines that repeat what the journal knows.
 */
export function frontMatter(
  items: Item[],
  known: KnownFront,
): { head: Item[]; rest: Item[]; front: Set<number> } {
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

export const DROPPED_SECTION = /^(abstract|keywords?|key words|index terms)$/i;
export const REFERENCES =
  /^(\d+\.?\s*)?(references|reference list|bibliography|literature cited|works cited)$/i;

export const DOI = /\b(10\.\d{4,9}\/[^\s"<>]+)/i;

export function findDoi(c: Inline[]): string | null {
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
export function linkDoi(c: Inline[], doi: string): Inline[] {
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

export const LABEL = /^\s*(\[\d+\]|\d+\.|\(\d+\))\s+/;

export function referenceOf(c: Inline[], ordinal: number | null): Reference {
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
export function citedNumbers(inner: string, count: number): number[] | null {
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

export function linkCitations(c: Inline[], count: number): Inline[] {
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

export function mapBlocks(blocks: Block[], f: (c: Inline[]) => Inline[]): Block[] {
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

export function mapSections(sections: Section[], f: (c: Inline[]) => Inline[]): Section[] {
  return sections.map((s) => ({
    ...s,
    title: f(s.title),
    blocks: mapBlocks(s.blocks, f),
    sections: mapSections(s.sections, f),
  }));
}

export function words(blocks: Block[]): number {
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
