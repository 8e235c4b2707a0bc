import {
  AlignmentType,
  Document,
  EndnoteReferenceRun,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Math as MathBlock,
  type MathComponent,
  Packer,
  Paragraph,
  type ParagraphChild,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { DemoArticle } from '../../content/demo-articles.ts';
import { barChartPng } from './png.ts';

/**
 * Writes a manuscript as a Word file (.docx) with the `docx` library: the demo articles' full texts (seed)
 * and the test manuscripts (tests/fixtures/fulltext) come from the same writer, in the forms authors use:
 * heading styles, Word's own lists, tables with header rows and merged cells, pictures with alt text and
 * captions, footnotes and Word equations.
 */

/** A picture where it stands: a figure (its own paragraph), or in a table's cell or a note. */
export interface Picture {
  png: Buffer;
  width: number;
  height: number;
  alt?: string;
}

export type Run =
  | string
  | { text: string; b?: boolean; i?: boolean; sup?: boolean; sub?: boolean }
  | { link: string; text: string }
  /** A note: its text, or its runs (a picture among them). */
  | { footnote: string | Run[] }
  | { endnote: string | Run[] }
  | { picture: Picture }
  | { math: MathComponent[] };

export type ManuscriptBlock =
  | { title: string }
  | { h: 1 | 2 | 3; text: string }
  /** A heading typed as a bold line (no heading style), as some authors do. */
  | { boldLine: string }
  | { p: Run[] | string; style?: string }
  | { list: 'bullet' | 'number'; items: (Run[] | string)[] }
  | {
      table: {
        caption: string;
        head: { text: string; span?: number; rows?: number }[][];
        /** Cells' text, or their runs (links, pictures). */
        body: (string | Run[])[][];
      };
    }
  | { figure: Picture & { caption: string } }
  | { equation: MathComponent[] };

function image(p: Picture): ImageRun {
  return new ImageRun({
    type: 'png',
    data: p.png,
    transformation: { width: p.width, height: p.height },
    // No description at all when the author gave none: the test manuscripts plant a figure without one.
    altText: { name: 'Figure', description: p.alt ?? '', title: '' },
  });
}

function runs(content: Run[] | string, notes: Map<number, Run[] | string>): ParagraphChild[] {
  const list = typeof content === 'string' ? [content] : content;
  return list.map((r) => {
    if (typeof r === 'string') return new TextRun(r);
    if ('link' in r)
      return new ExternalHyperlink({
        link: r.link,
        children: [new TextRun({ text: r.text, style: 'Hyperlink' })],
      });
    if ('footnote' in r) {
      const id = notes.size + 1;
      notes.set(id, r.footnote);
      return new FootnoteReferenceRun(id);
    }
    if ('endnote' in r)
      return new EndnoteReferenceRun({ children: [new Paragraph({ children: runs(r.endnote, notes) })] });
    if ('picture' in r) return image(r.picture);
    if ('math' in r) return new MathBlock({ children: r.math });
    return new TextRun({ text: r.text, bold: r.b, italics: r.i, superScript: r.sup, subScript: r.sub });
  });
}

export async function writeManuscriptDocx(blocks: readonly ManuscriptBlock[]): Promise<Buffer> {
  const notes = new Map<number, Run[] | string>();
  const children: (Paragraph | Table)[] = [];
  let listInstance = 0;
  for (const block of blocks) {
    if ('title' in block) children.push(new Paragraph({ text: block.title, heading: HeadingLevel.TITLE }));
    else if ('h' in block) {
      const heading = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3][block.h - 1];
      children.push(new Paragraph({ text: block.text, heading }));
    } else if ('boldLine' in block)
      children.push(new Paragraph({ children: [new TextRun({ text: block.boldLine, bold: true })] }));
    else if ('p' in block)
      children.push(new Paragraph({ children: runs(block.p, notes), style: block.style }));
    else if ('list' in block) {
      listInstance += 1;
      for (const item of block.items) {
        children.push(
          new Paragraph({
            children: runs(item, notes),
            numbering: {
              reference: block.list === 'number' ? 'numbered' : 'bullets',
              level: 0,
              instance: listInstance,
            },
          }),
        );
      }
    } else if ('table' in block) {
      const t = block.table;
      children.push(new Paragraph({ text: t.caption, style: 'Caption' }));
      children.push(
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: [
            ...t.head.map(
              (row) =>
                new TableRow({
                  tableHeader: true,
                  children: row.map(
                    (cell) =>
                      new TableCell({
                        columnSpan: cell.span,
                        rowSpan: cell.rows,
                        children: [
                          new Paragraph({ children: [new TextRun({ text: cell.text, bold: true })] }),
                        ],
                      }),
                  ),
                }),
            ),
            ...t.body.map(
              (row) =>
                new TableRow({
                  children: row.map(
                    (cell) => new TableCell({ children: [new Paragraph({ children: runs(cell, notes) })] }),
                  ),
                }),
            ),
          ],
        }),
      );
    } else if ('figure' in block) {
      const f = block.figure;
      children.push(
        new Paragraph({
          alignment: AlignmentType.CENTER,
          children: [image(f)],
        }),
      );
      children.push(new Paragraph({ text: f.caption, style: 'Caption' }));
    } else if ('equation' in block)
      children.push(new Paragraph({ children: [new MathBlock({ children: block.equation })] }));
  }
  const doc = new Document({
    creator: 'Colophon',
    styles: {
      paragraphStyles: [
        {
          id: 'Caption',
          name: 'Caption',
          basedOn: 'Normal',
          next: 'Normal',
          run: { italics: true, size: 20 },
        },
      ],
    },
    numbering: {
      config: [
        {
          reference: 'numbered',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
        },
        {
          reference: 'bullets',
          levels: [{ level: 0, format: LevelFormat.BULLET, text: '\u2022', alignment: AlignmentType.START }],
        },
      ],
    },
    footnotes: Object.fromEntries(
      [...notes].map(([id, content]) => [
        id,
        { children: [new Paragraph({ children: runs(content, notes) })] },
      ]),
    ),
    sections: [{ children }],
  });
  return Packer.toBuffer(doc);
}

/**
 * A demo article (content/demo-articles.ts) as the Word file its authors would have sent: title page,
 * abstract, numbered sections with their tables and figures (bar charts drawn from the figures' data, each
 * with alt text that gives the values), funding, data availability and the numbered reference list.
 */
export function demoManuscript(article: DemoArticle): ManuscriptBlock[] {
  const blocks: ManuscriptBlock[] = [
    { title: article.title },
    { p: article.authors.map((a) => `${a.name}`).join(', ') },
    { p: [...new Set(article.authors.map((a) => a.affiliation))].join('; ') },
    { h: 1, text: 'Abstract' },
    { p: article.abstract },
    { p: [{ text: 'Keywords: ', b: true }, article.keywords] },
  ];
  let tables = 0;
  let figures = 0;
  article.sections.forEach((section, i) => {
    blocks.push({ h: 1, text: `${i + 1}. ${section.heading}` });
    for (const p of section.paragraphs) blocks.push({ p });
    if (section.table) {
      tables += 1;
      blocks.push({
        table: {
          caption: `Table ${tables}. ${section.table.caption}`,
          head: [section.table.columns.map((text) => ({ text }))],
          body: section.table.rows,
        },
      });
    }
    if (section.figure) {
      figures += 1;
      const f = section.figure;
      blocks.push({
        figure: {
          png: barChartPng(f.bars.map((b) => b.value)),
          width: 480,
          height: 270,
          alt: `Bar chart of ${f.unit}: ${f.bars.map((b) => `${b.label} ${b.value}`).join('; ')}.`,
          caption: `Figure ${figures}. ${f.caption}`,
        },
      });
    }
  });
  blocks.push({ h: 1, text: 'Funding' }, { p: article.funding });
  blocks.push({ h: 1, text: 'Data availability' }, { p: article.dataAvailability });
  blocks.push({ h: 1, text: 'References' }, { list: 'number', items: article.references });
  return blocks;
}
