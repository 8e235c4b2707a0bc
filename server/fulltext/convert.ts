import { imageSize } from 'image-size';
import { detectKind } from '../files/content-type.ts';
import {
  type Block,
  type Cell,
  type Figure,
  type FullTextDocument,
  type Inline,
  type Loss,
  type Place,
  type Reference,
  type Section,
  inlineText,
  pictureAt,
} from './document.ts';
import { type KnownFront, ConversionError, type MImage, readDocx } from './convert/model.ts';
import type { Context } from './convert/inline.ts';
import { type Item, paragraphItems, tableItem, attachCaptions } from './convert/blocks.ts';
import {
  frontMatter,
  DROPPED_SECTION,
  REFERENCES,
  referenceOf,
  linkCitations,
  mapBlocks,
  mapSections,
  words,
} from './convert/references.ts';

export { ConversionError, type KnownFront } from './convert/model.ts';
export { sameTitle } from './convert/references.ts';
export { safeHref } from './convert/inline.ts';

/**
 * A Word file (.docx) → the structured document (document.ts). mammoth reads the file into its document
 * model (paragraphs with their styles and numbering, runs with their marks, tables with spans, images with
 * their alt text, notes); this module maps that model, and Word's equations (which mammoth drops), onto
 * ours. It parses nothing itself: XML through @xmldom/xmldom, the ZIP through our own reader (content/zip.ts,
 * decision 0044), images' sizes through image-size. The steps sit in convert/: model.ts (mammoth's model and
 * reading the file), equations.ts (what mammoth drops), inline.ts, blocks.ts (and tables), references.ts (front
 * matter, sections, references).
 */

export interface Conversion {
  document: FullTextDocument;
  /** The figures' images, in order (`document.figures[i]` describes `images[i]`). */
  images: Buffer[];
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
