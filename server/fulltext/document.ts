import type { XmlElement } from '../discovery/xml.ts';

/**
 * The structured document a Word file becomes (decision 0028): kept as JSON with the article, and the one
 * source of the HTML full text and of the JATS body. Only the body and back matter: front matter (title,
 * authors, abstract, keywords, dates, DOI, licence) is always what the journal knows, never the file's.
 */

/** Inline text. Marks sit on text runs (no nesting to reconcile); links hold their own runs. */
export type Inline =
  | { t: 'text'; v: string; b?: true; i?: true; sup?: true; sub?: true }
  | { t: 'a'; href: string; c: Inline[] }
  /** A footnote's call: `n` is the note's number (1, 2, …). */
  | { t: 'fn'; n: number }
  /** An inline equation: index into `equations`. */
  | { t: 'math'; eq: number }
  /** A numbered in-text citation ("[2, 3]") as written, pointing at reference numbers. */
  | { t: 'cite'; v: string; refs: number[] }
  /**
   * A picture kept where it stands, in a table's cell (JATS `<inline-graphic>`): `fig` is its number in
   * `figures` (1, 2, …), as a figure block's `n`.
   */
  | { t: 'img'; fig: number }
  | { t: 'br' };

export interface Cell {
  c: Inline[];
  colspan: number;
  rowspan: number;
}

export type Block =
  | { t: 'p'; c: Inline[] }
  | { t: 'list'; ordered: boolean; items: Block[][] }
  /** `n` numbers the tables (1, 2, …): its id and address. */
  | { t: 'table'; n: number; caption: Inline[]; head: Cell[][]; body: Cell[][] }
  /** `n` numbers the figures; the picture is `figures[n - 1]`. */
  | { t: 'fig'; n: number; caption: Inline[] }
  /** A display equation: index into `equations`. */
  | { t: 'eq'; eq: number };

export interface Section {
  /** "s1", "s1-2", …: stable anchors and JATS ids. */
  id: string;
  title: Inline[];
  blocks: Block[];
  sections: Section[];
}

export interface Figure {
  /** The stored image (stored_files row); null until the converted document is stored. */
  fileId: number | null;
  mediaType: string;
  /** The file name under /article/{id}/figures/: "figure-1.png". */
  name: string;
  width: number;
  height: number;
  /** The Word file's alt text, or the editor's; '' when nobody gave one (the preview asks for it). */
  alt: string;
  /** Where a picture that is not a figure of its own stands (in a table's cell, in a note), for the editor's list. */
  in?: Place;
}

/**
 * Where something is, for the editor: the title of its section as written ('' before the first heading), and
 * when it is in a note or a table, their numbers.
 */
export interface Place {
  section?: string;
  note?: number;
  table?: number;
}

export interface Equation {
  display: boolean;
  /** MathML (unprefixed names), or null when it could not be converted. */
  math: XmlElement | null;
  /** Word's text of the equation: what a reader sees when there is no MathML. */
  text: string;
}

export interface Reference {
  /** The label as written ("[1]", "1."), or '' when the list is not numbered. */
  label: string;
  /** The reference as written, its DOI and links as links. */
  c: Inline[];
  /** The DOI found in it, bare (10.xxxx/…), or null. */
  doi: string | null;
}

/** What Word draws that is not a picture: charts, SmartArt diagrams, shapes, and text boxes (shapes with text). */
export type Drawing = 'chart' | 'diagram' | 'shape' | 'textbox';

/**
 * What the conversion could not keep as it was: each is listed for the editor before publishing, with where
 * it is (`where`: the section's title as written, '' before the first heading; `note`: in that note).
 */
export type Loss =
  | { kind: 'table'; where: string; note?: number; text: string }
  | { kind: 'equation'; where: string; note?: number; eq: number; reason: string }
  /**
   * Drawn in Word, not a picture: a chart, diagram or shape is lost; a text box's text is kept (as paragraphs
   * after the one it is anchored in), its frame and position are not. `count` of them at that place. A document
   * converted before these were located has `count` alone.
   */
  | { kind: 'drawing'; what?: Drawing; where?: string; note?: number; count: number }
  /**
   * The file's own front matter (title, authors, affiliations, abstract, keywords), left out because the article
   * page shows the journal's: `lines` of it, the first of them in `text`. A notice, not a loss of the body.
   */
  | { kind: 'front'; lines: number; text: string[] };

export interface FullTextDocument {
  version: 1;
  /** Text before the first heading that is not the journal's front matter. */
  lead: Block[];
  sections: Section[];
  /** Footnotes in order of their calls: note n is `footnotes[n - 1]`. */
  footnotes: Block[][];
  references: Reference[];
  /** The heading of the reference list as written ("References"). */
  referencesTitle: string;
  figures: Figure[];
  equations: Equation[];
  losses: Loss[];
  /** Words in the body, for the bench and the editor's summary. */
  words: number;
}

/** One thing that needs a person before publishing (the editor's preview lists them). */
export type Problem =
  | { kind: 'alt'; figure: number; message: string }
  | { kind: 'table'; message: string }
  | { kind: 'equation'; eq: number; message: string }
  | { kind: 'outside'; message: string }
  /** The file's title page and abstract, left out for the journal's own (a notice). */
  | { kind: 'front'; message: string }
  | { kind: 'drawing'; message: string }
  /** A text box: its text is kept, its frame and place on the page are not (a notice, not a loss of text). */
  | { kind: 'textbox'; message: string }
  | { kind: 'doi'; reference: number; message: string };

export function inlineText(inlines: readonly Inline[], equations?: readonly Equation[]): string {
  return inlines
    .map((x) => {
      switch (x.t) {
        case 'text':
        case 'cite':
          return x.v;
        case 'a':
          return inlineText(x.c, equations);
        case 'fn':
          return String(x.n);
        case 'math':
          return equations?.[x.eq]?.text ?? '';
        case 'img':
          return '';
        default:
          // a line break
          return ' ';
      }
    })
    .join('');
}

function excerpt(text: string, words = 8): string {
  const all = text.trim().split(/\s+/);
  return all.length > words ? `${all.slice(0, words).join(' ')}…` : all.join(' ');
}

/** Where a loss is, as the editor reads it: "in “2 Data”", "before the first heading", "in note 3". */
function at(place: { where?: string; note?: number }): string {
  if (place.note) return `in note ${place.note}`;
  return place.where ? `in “${place.where}”` : 'before the first heading';
}

/** Where a picture that is not a figure of its own stands: "a cell of table 2, in “2 Data”", "note 3". */
export function pictureAt(place: Place): string {
  const parts = [
    place.table ? `a cell of table ${place.table}` : null,
    place.note ? `note ${place.note}` : place.section ? `“${place.section}”` : null,
  ].filter(Boolean);
  return parts.join(', in ') || 'the text before the first heading';
}

const DRAWN: Record<Exclude<Drawing, 'textbox'>, [one: string, many: string]> = {
  chart: ['A chart made in Word', 'charts made in Word'],
  diagram: ['A SmartArt diagram', 'SmartArt diagrams'],
  shape: ['A shape drawn in Word', 'shapes drawn in Word'],
};

/** A drawing's line says what happened to it: a chart, diagram or shape is lost; a text box's text is kept. */
function drawingProblem(loss: Extract<Loss, { kind: 'drawing' }>): Problem {
  const one = loss.count === 1;
  if (!loss.what)
    // A document converted before drawings were told apart and located.
    return {
      kind: 'drawing',
      message: `${one ? 'A chart, shape or diagram' : `${loss.count} charts, shapes or diagrams`} drawn in Word could not be kept: insert ${one ? 'it' : 'them'} as PNG or JPEG pictures and upload the file again.`,
    };
  if (loss.what === 'textbox')
    return {
      kind: 'textbox',
      message: `${one ? 'A text box' : `${loss.count} text boxes`} ${at(loss)}: the text is kept, as paragraphs after the one ${one ? 'the box is' : 'the boxes are'} anchored in; the ${one ? 'frame and its place' : 'frames and their places'} on the page are not. Check that the text reads in the right place.`,
    };
  const [singular, plural] = DRAWN[loss.what];
  return {
    kind: 'drawing',
    message: `${one ? singular : `${loss.count} ${plural}`} ${at(loss)} could not be kept (${one ? 'it is not a picture' : 'they are not pictures'}): insert ${one ? 'it as a PNG or JPEG picture' : 'them as PNG or JPEG pictures'} and upload the file again.`,
  };
}

/** The problems of a converted document, in reading order. Derived, so a fix (alt text) removes its line. */
export function problemsOf(doc: FullTextDocument): Problem[] {
  const out: Problem[] = [];
  if (doc.lead.length) {
    const first = doc.lead.find((b) => b.t === 'p');
    out.push({
      kind: 'outside',
      message: `Text before the first heading is outside any section${
        first && first.t === 'p' ? ` (“${excerpt(inlineText(first.c, doc.equations))}”)` : ''
      }: give it a heading in the Word file, or remove it if it repeats the title page.`,
    });
  }
  doc.figures.forEach((f, i) => {
    if (!f.alt.trim())
      out.push({
        kind: 'alt',
        figure: i + 1,
        message: `Figure ${i + 1}${f.in ? ` (a picture in ${pictureAt(f.in)})` : ''} has no alt text: describe it for readers who cannot see it.`,
      });
  });
  for (const loss of doc.losses) {
    if (loss.kind === 'front') {
      const lines = loss.text.map((t) => `“${excerpt(t)}”`).join(', ');
      const more = loss.lines > loss.text.length ? ', …' : '';
      out.unshift({
        kind: 'front',
        message: `The Word file's own title page and abstract were left out (${loss.lines} ${loss.lines === 1 ? 'line' : 'lines'}: ${lines}${more}): the article page shows the journal's title, authors, affiliations, abstract and keywords instead. Check that they are right.`,
      });
    } else if (loss.kind === 'drawing') out.push(drawingProblem(loss));
    else if (loss.kind === 'table')
      out.push({
        kind: 'table',
        message: `A table ${at(loss)} could not be kept as it is: ${loss.text}.`,
      });
    else
      out.push({
        kind: 'equation',
        eq: loss.eq,
        message: `An equation ${at(loss)} could not be converted (${loss.reason}); it is shown as Word's text “${excerpt(doc.equations[loss.eq]?.text ?? '', 12)}”.`,
      });
  }
  doc.references.forEach((r, i) => {
    if (!r.doi)
      out.push({
        kind: 'doi',
        reference: i + 1,
        message: `Reference ${r.label || i + 1} has no DOI: “${excerpt(inlineText(r.c), 10)}”.`,
      });
  });
  return out;
}
