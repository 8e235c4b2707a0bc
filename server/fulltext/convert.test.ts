/**
 * The converter from the outside: real Word fixtures through convertDocx, then the page and the JATS. One file
 * (about 720 lines): the cases share the fixtures, the known front matter and the structure counts read from
 * the Word XML; split by step, each file would rebuild them.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { journalDefaults } from '../../content/journal.ts';
import { validateWithSchema } from '../../tests/api/discovery-helpers.ts';
import {
  ARTICLE_PROBLEMS,
  ARTICLE_TEXTS,
  KNOWN,
  PROBLEMS_PROBLEMS,
  PROBLEMS_TEXTS,
} from '../../tests/fixtures/fulltext/manuscripts.ts';
import { JATS_DOCTYPE, jatsArticle } from '../discovery/jats.ts';
import type { Work } from '../discovery/works.ts';
import { renderXml } from '../discovery/xml.ts';
import { readZipDirectory, readZipEntry, replaceZipEntries } from '../content/zip.ts';
import { fixture } from '../testing/harness.ts';
import { writeManuscriptDocx, type ManuscriptBlock } from '../seed/word.ts';
import { ConversionError, type KnownFront, convertDocx, sameTitle } from './convert.ts';
import { type FullTextDocument, inlineText, problemsOf } from './document.ts';
import { fullTextHtml } from './html.ts';
import { jatsBody } from './jats.ts';

const fulltextFixture = (name: string) =>
  readFileSync(new URL(`../../tests/fixtures/fulltext/${name}`, import.meta.url));

/** The real manuscript's front matter as the journal holds it. */
const MANUSCRIPT_KNOWN: KnownFront = {
  title: 'Energy-aware task offloading for battery-powered IoT gateways',
  abstract: '',
  keywords: '',
  authors: [
    { name: 'Priya Raman', email: 'p.raman@example.org', affiliation: 'Coimbatore Institute of Engineering' },
    { name: 'Daniel Okafor', email: 'd.okafor@example.org', affiliation: 'University of Lagos' },
  ],
};

/** The real manuscript's source text (manuscript.html): headings and paragraphs after the title page. */
function manuscriptTexts(): string[] {
  const html = fixture('manuscript.html').toString('utf8');
  const blocks = [...html.matchAll(/<(h2|p)>(.*?)<\/\1>/gs)].map((m) =>
    m[2]
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .trim(),
  );
  const start = blocks.findIndex((b) => b.startsWith('1. Introduction'));
  // References are compared without their label ("[1] "), which the conversion keeps apart.
  return blocks.slice(start).map((b) => b.replace(/^\[\d+\]\s+/, ''));
}

const BLOCK =
  /<\/?(p|li|h\d|td|th|tr|caption|figcaption|title|label|div|section|ol|ul|table|fig|sec|list|list-item|ref|mixed-citation|table-wrap|disp-formula|thead|tbody|nav|details|summary|fn|break|br)\b[^>]*>/g;

/** Plain text of markup: block elements apart, inline ones run together, entities decoded, equations left out. */
function textOf(markup: string): string {
  return markup
    .replace(/<(math|mml:math)\b.*?<\/\1>/gs, ' ')
    .replace(BLOCK, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** Every expected text found in `haystack`, each after the previous one. */
function expectInOrder(haystack: string, texts: string[]) {
  let at = 0;
  for (const t of texts) {
    const found = haystack.indexOf(t, at);
    expect(found, `"${t}" after position ${at}`).toBeGreaterThanOrEqual(0);
    at = found + t.length;
  }
}

const journal = journalDefaults({ email: 'office@example.org' });

function work(known: KnownFront): Work {
  const date = new Date('2026-01-15T00:00:00Z');
  return {
    id: 7,
    journalId: 1,
    title: known.title,
    abstract: known.abstract || 'An abstract.',
    keywords: known.keywords
      .split(';')
      .map((k) => k.trim())
      .filter(Boolean),
    firstPage: 1,
    lastPage: 10,
    doi: '10.1234/test.7',
    articleType: 'Research Article',
    subtitle: '',
    language: '',
    licenseUrl: '',
    copyrightHolder: '',
    copyrightYear: null,
    references: [],
    status: 'published',
    publicationDate: '2026-01-15',
    createdAt: date,
    updatedAt: date,
    hasPdf: true,
    issue: { id: 1, number: 1, title: 'Issue', description: '', publicationDate: null, updatedAt: date },
    volume: { id: 1, number: 3, title: 'Volume 3', year: 2026, updatedAt: date },
    authors: known.authors,
    url: 'https://journal.example/article/7',
    pdfUrl: 'https://journal.example/api/articles/7/download',
  };
}

function jatsOf(doc: FullTextDocument, known: KnownFront): string {
  const root = jatsArticle(work(known), journal, {
    namespace: null,
    dtdVersion: '1.1',
    fullText: jatsBody(doc, { figureUrl: (n) => `https://journal.example/article/7/figures/${n}` }),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${JATS_DOCTYPE}\n${renderXml(root, { declaration: false })}`;
}

const htmlOf = (doc: FullTextDocument) => fullTextHtml(doc, { figureUrl: (n) => `/article/7/figures/${n}` });

const problemKeys = (doc: FullTextDocument) =>
  problemsOf(doc).map((p) =>
    p.kind === 'alt'
      ? `alt:${p.figure}`
      : p.kind === 'doi'
        ? `doi:${p.reference}`
        : p.kind === 'equation'
          ? `equation:${p.eq}`
          : p.kind,
  );

describe('the test manuscript with every structure (article.docx)', () => {
  let doc: FullTextDocument;
  let images: Buffer[];
  let html: string;
  let jats: string;
  /** The file is indented between elements; assertions read it on one line. */
  let flat: string;
  beforeAll(async () => {
    ({ document: doc, images } = await convertDocx(fulltextFixture('article.docx'), KNOWN));
    html = htmlOf(doc);
    jats = jatsOf(doc, KNOWN);
    flat = jats.replace(/>\s+</g, '><');
  });

  it('keeps every heading, paragraph, list item, caption and reference, in order, in the HTML and the JATS', () => {
    expectInOrder(textOf(html.slice(html.indexOf('fulltext-body'))), ARTICLE_TEXTS);
    expectInOrder(textOf(jats.slice(jats.indexOf('<body>'))), ARTICLE_TEXTS);
  });

  it('leaves out the title page and the abstract: front matter is the journal’s', () => {
    expect(textOf(html)).not.toContain('University of Porto');
    expect(textOf(html)).not.toContain(KNOWN.abstract);
    expect(doc.lead).toEqual([]);
  });

  it('makes three levels of sections from the heading styles', () => {
    expect(doc.sections.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    expect(doc.sections[0].sections[0].id).toBe('s1-1');
    expect(doc.sections[0].sections[0].sections[0].id).toBe('s1-1-1');
    expect(html).toContain('<h4 id="s1-1-1-title">1.1.1 Scope</h4>');
    expect(flat).toContain('<sec id="s1-1-1"><title>1.1.1 Scope</title>');
  });

  it('keeps the marks and the link', () => {
    expect(html).toContain('<em>sample</em>');
    expect(html).toContain('<strong>measured</strong>');
    expect(html).toContain('E<sub>tx</sub>');
    expect(html).toContain('10<sup>3</sup>');
    expect(html).toContain('<a href="https://example.org/data">the data set</a>');
    expect(flat).toContain('<italic>sample</italic>');
    expect(flat).toContain(
      '<ext-link ext-link-type="uri" xlink:href="https://example.org/data">the data set</ext-link>',
    );
  });

  it('keeps the numbered and the bulleted list', () => {
    expect(html).toMatch(/<ol><li><p>A sampling rule driven by strain.<\/p><\/li>/);
    expect(html).toMatch(/<ul><li><p>the strain rate,<\/p><\/li>/);
    expect(flat).toContain('<list list-type="order">');
    expect(flat).toContain('<list list-type="bullet">');
  });

  it('keeps the table with its merged header cells and its caption', () => {
    const table = doc.sections[1].blocks.find((b) => b.t === 'table');
    expect(table?.t === 'table' && table.head.map((r) => r.map((c) => [c.colspan, c.rowspan]))).toEqual([
      [
        [1, 2],
        [2, 1],
      ],
      [
        [1, 1],
        [1, 1],
      ],
    ]);
    expect(html).toContain('<caption id="table-1-caption">Table 1. Sampling rates by condition.</caption>');
    expect(html).toMatch(
      /<th rowspan="2" scope="col"><strong>Condition<\/strong><\/th><th colspan="2" scope="colgroup">/,
    );
    expect(flat).toMatch(
      /<table-wrap id="t1"><caption><p>Table 1\. Sampling rates by condition\.<\/p><\/caption><table><thead>/,
    );
  });

  it('extracts both figures, with their sizes, captions and the alt text the file has', () => {
    expect(images).toHaveLength(2);
    expect(doc.figures.map((f) => [f.name, f.width, f.height, f.alt])).toEqual([
      ['figure-1.png', 480, 270, 'Bar chart of strain on four spans; span four is highest.'],
      ['figure-2.png', 480, 270, ''],
    ]);
    expect(html).toContain(
      '<img src="/article/7/figures/figure-1.png" alt="Bar chart of strain on four spans; span four is highest." width="480" height="270" loading="lazy" decoding="async" />',
    );
    expect(flat).toContain(
      '<graphic xlink:href="https://journal.example/article/7/figures/figure-1.png" mimetype="image" mime-subtype="png"><alt-text>',
    );
  });

  it('converts the three equations to MathML, one inline and two displayed', () => {
    expect(doc.equations.map((e) => [e.display, e.math !== null])).toEqual([
      [false, true],
      [true, true],
      [true, true],
    ]);
    expect(doc.losses.filter((l) => l.kind === 'equation')).toEqual([]);
    expect(html).toContain(
      '<math xmlns="http://www.w3.org/1998/Math/MathML"><mfrac><mi>a</mi><mi>b</mi></mfrac></math>',
    );
    expect(html).toMatch(
      /<div class="fulltext-equation" id="equation-2" role="group" aria-label="Equation 2" tabindex="0"><math display="block" xmlns="[^"]+">.*<munderover><mo largeop="true">∑<\/mo>/,
    );
    expect(html).toContain('<msqrt><msup><mi>x</mi><mn>2</mn></msup></msqrt>');
    expect(flat).toContain('<inline-formula><mml:math><mml:mfrac>');
    expect(flat).toContain('<disp-formula id="e3"><mml:math display="block">');
  });

  it('links the footnotes both ways', () => {
    expect(doc.footnotes).toHaveLength(2);
    expect(html).toContain('<a href="#fn-1" id="fn-1-call" aria-label="Note 1">1</a>');
    expect(html).toMatch(
      /<li id="fn-1"><p>Strain is measured with foil gauges. <a href="#fn-1-call" class="fulltext-back"/,
    );
    expect(flat).toContain('<xref ref-type="fn" rid="fn1">1</xref>');
    expect(flat).toContain('<fn id="fn1"><label>1</label><p>Strain is measured with foil gauges.</p></fn>');
  });

  it('keeps the references as written, links their DOIs and the citations both ways', () => {
    expect(doc.references.map((r) => [r.label, r.doi])).toEqual([
      ['[1]', '10.1000/jsens.2019.1'],
      ['[2]', null],
      ['[3]', '10.1109/JSEN.2021.42'],
      ['[4]', null],
    ]);
    expect(html).toContain('<a href="https://doi.org/10.1000/jsens.2019.1">doi:10.1000/jsens.2019.1</a>');
    expect(html).toContain(
      '<a href="https://doi.org/10.1109/JSEN.2021.42">https://doi.org/10.1109/JSEN.2021.42</a>',
    );
    expect(html).toContain('<a href="#ref-1" id="cite-1" class="fulltext-cite">[1]</a>');
    expect(html).toContain('<a href="#ref-2" id="cite-2" class="fulltext-cite">[2, 3]</a>');
    expect(html).toMatch(/<li id="ref-3">.*?<a href="#cite-2" class="fulltext-back"/);
    // Reference 4 is never cited: no back link.
    expect(html).toMatch(/<li id="ref-4">(?:(?!fulltext-back).)*?<\/li>/);
    expect(flat).toContain('<xref ref-type="bibr" rid="r2 r3">[2, 3]</xref>');
    expect(flat).toContain(
      '<ext-link ext-link-type="doi" xlink:href="10.1000/jsens.2019.1">doi:10.1000/jsens.2019.1</ext-link>',
    );
  });

  it('lists exactly the planted problems', () => {
    expect(problemKeys(doc)).toEqual(ARTICLE_PROBLEMS);
  });

  it('is valid JATS (Journal Publishing 1.1 with MathML 3)', () => {
    const result = validateWithSchema('jats', jats);
    expect(result.ok, result.output).toBe(true);
  });

  it('has a contents list of the sections, the notes and the references', () => {
    expect(html).toContain(
      '<li><a href="#s1">1. Introduction</a><ol><li><a href="#s1-1">1.1 Contributions</a>',
    );
    expect(html).toContain(
      '<li><a href="#fulltext-notes">Notes</a></li><li><a href="#fulltext-references">References</a></li>',
    );
  });
});

describe('the manuscript with the other problems (problems.docx)', () => {
  let doc: FullTextDocument;
  beforeAll(async () => {
    ({ document: doc } = await convertDocx(fulltextFixture('problems.docx'), KNOWN));
  });

  it('lists exactly the planted problems', () => {
    expect(problemKeys(doc)).toEqual(PROBLEMS_PROBLEMS);
    expect(problemsOf(doc).map((p) => p.message)).toEqual([
      'Text before the first heading is outside any section (“Draft 3, please do not circulate.”): give it a heading in the Word file, or remove it if it repeats the title page.',
      "An equation in “1 Background” could not be converted (unknown element m:zzz); it is shown as Word's text “qx+y”.",
      'A table in “2 Data” could not be kept as it is: it holds another table, whose content is kept in its cell (its links and pictures too), cells apart by “|” and rows by “;”.',
    ]);
  });

  it('finds headings typed as bold lines, and loses no text', () => {
    expect(doc.sections.map((s) => s.id)).toEqual(['s1', 's2']);
    const html = htmlOf(doc);
    expectInOrder(textOf(html.slice(html.indexOf('fulltext-body'))), PROBLEMS_TEXTS);
    expect(textOf(html)).toContain('min | 3; max | 9');
    // The unconverted equation is shown as Word's text.
    expect(html).toContain('<span class="fulltext-equation__text">qx+y</span>');
  });

  it('is still valid JATS', () => {
    const result = validateWithSchema('jats', jatsOf(doc, KNOWN));
    expect(result.ok, result.output).toBe(true);
  });
});

describe('the real manuscript (LibreOffice .docx)', () => {
  let doc: FullTextDocument;
  beforeAll(async () => {
    ({ document: doc } = await convertDocx(fixture('manuscript.docx'), MANUSCRIPT_KNOWN));
  });

  it('keeps every heading, paragraph and reference of the source, in order, in the HTML and the JATS', () => {
    const texts = manuscriptTexts();
    expect(texts.length).toBeGreaterThan(10);
    const html = htmlOf(doc);
    const jats = jatsOf(doc, MANUSCRIPT_KNOWN);
    expectInOrder(textOf(html.slice(html.indexOf('fulltext-body'))), texts);
    expectInOrder(textOf(jats.slice(jats.indexOf('<body>'))), texts);
    const result = validateWithSchema('jats', jats);
    expect(result.ok, result.output).toBe(true);
  });

  it('drops the title page and the abstract, and lists the references without a DOI', () => {
    expect(doc.lead).toEqual([]);
    expect(doc.sections.map((s) => s.title)).toHaveLength(5);
    expect(problemKeys(doc)).toEqual(['front', 'doi:1', 'doi:2', 'doi:3']);
  });
});

describe('drawings made in Word', () => {
  it('lists a chart or shape drawn in Word (not a picture) as lost, never dropping it in silence', async () => {
    const zip = editDocx(fulltextFixture('article.docx'));
    const xml = zip.part('word/document.xml')!;
    const shape = '<w:p><w:r><w:drawing><wp:inline><wps:wsp/></wp:inline></w:drawing></w:r></w:p>';
    zip.set('word/document.xml', xml.replace('</w:body>', `${shape}${shape}</w:body>`));
    const { document: doc } = await convertDocx(zip.bytes(), KNOWN);
    expect(problemKeys(doc)).toEqual([
      ...ARTICLE_PROBLEMS.slice(0, 2),
      'drawing',
      ...ARTICLE_PROBLEMS.slice(2),
    ]);
    expect(problemsOf(doc).find((p) => p.kind === 'drawing')?.message).toBe(
      '2 shapes drawn in Word in “References” could not be kept (they are not pictures): insert them as PNG or JPEG pictures and upload the file again.',
    );
  });
});

describe('an empty table', () => {
  it('is neither kept nor listed as a table whose rows differ: it holds nothing', async () => {
    const zip = editDocx(fulltextFixture('article.docx'));
    const xml = zip.part('word/document.xml')!;
    zip.set('word/document.xml', xml.replace('</w:body>', '<w:tbl><w:tblGrid/></w:tbl><w:p/></w:body>'));
    const { document: doc } = await convertDocx(zip.bytes(), KNOWN);
    expect(problemKeys(doc)).toEqual(ARTICLE_PROBLEMS);
    expect(doc.sections.flatMap((x) => x.blocks).filter((b) => b.t === 'table')).toHaveLength(1);
  });
});

describe('files that cannot be converted', () => {
  it('refuses a ZIP that is not a Word document, and a damaged one', async () => {
    await expect(convertDocx(fixture('supplementary.zip'), KNOWN)).rejects.toThrow(ConversionError);
    const cut = fulltextFixture('article.docx').subarray(0, 4000);
    await expect(convertDocx(cut, KNOWN)).rejects.toThrow(/could not be read/);
  });

  it('refuses a Word file with nothing but a title page', async () => {
    const { writeManuscriptDocx } = await import('../seed/word.ts');
    const onlyTitle = await writeManuscriptDocx([{ title: KNOWN.title }, { p: 'Ana Lopes' }]);
    await expect(convertDocx(onlyTitle, KNOWN)).rejects.toThrow(/no text to convert/);
  });
});

// ---- Structures kept from the Word file to the JATS and the page, or listed where they are (issue 22, item 8) ----

interface Counts {
  figures: number;
  tables: number;
  links: number;
  notes: number;
  equations: number;
}

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/** What the Word file holds, read from its XML: pictures, tables (inside tables too), links, note calls, equations. */
async function sourceCounts(data: Buffer): Promise<Counts> {
  const zip = editDocx(data);
  const part = async (path: string) => zip.part(path) ?? '';
  const body = await part('word/document.xml');
  const all = body + (await part('word/footnotes.xml')) + (await part('word/endnotes.xml'));
  return {
    figures: count(all, /<pic:pic\b/g),
    tables: count(all, /<w:tbl>/g),
    links: count(all, /<w:hyperlink\b[^>]*\br:id=/g),
    notes: count(body, /<w:(footnote|endnote)Reference\b/g),
    equations: count(all, /<m:oMath>/g),
  };
}

const jatsCounts = (jats: string): Counts => ({
  figures: count(jats, /<(inline-)?graphic\b/g),
  tables: count(jats, /<table-wrap\b/g),
  links: count(jats, /<ext-link\b/g),
  notes: count(jats, /<fn[ >]/g),
  equations: count(jats, /<mml:math\b/g),
});

const htmlCounts = (html: string): Counts => ({
  figures: count(html, /<img\b/g),
  tables: count(html, /<table\b/g),
  links: count(html, /<a href="(https?|mailto):/g),
  notes: count(html, /<li id="fn-\d+"/g),
  equations: count(html, /<math\b/g),
});

const NO_ALT = 'has no alt text: describe it for readers who cannot see it.';

/** Each Word file, what it holds, what of it is not kept (and so listed), and the editor's list. */
const STRUCTURES: {
  file: string;
  source: Counts;
  notKept?: Partial<Counts>;
  problems: string[];
}[] = [
  {
    file: 'cell-pictures.docx',
    source: { figures: 4, tables: 1, links: 2, notes: 0, equations: 0 },
    problems: [`Figure 3 (a picture in a cell of table 1, in “1. Controls”) ${NO_ALT}`],
  },
  {
    file: 'note-pictures.docx',
    source: { figures: 2, tables: 0, links: 0, notes: 2, equations: 1 },
    problems: [`Figure 2 (a picture in note 2) ${NO_ALT}`],
  },
  {
    file: 'note-table.docx',
    source: { figures: 1, tables: 1, links: 1, notes: 1, equations: 0 },
    problems: [],
  },
  {
    file: 'nested-links.docx',
    source: { figures: 1, tables: 2, links: 3, notes: 1, equations: 1 },
    notKept: { tables: 1 },
    problems: [
      'A table in “1. Sources” could not be kept as it is: it holds another table, whose content is kept in its cell (its links and pictures too), cells apart by “|” and rows by “;”.',
    ],
  },
  {
    file: 'bold-math.docx',
    source: { figures: 0, tables: 0, links: 0, notes: 0, equations: 3 },
    problems: [],
  },
  {
    file: 'drawings.docx',
    // The group's picture; the text boxes' link (one of the two in the file).
    source: { figures: 2, tables: 0, links: 2, notes: 1, equations: 0 },
    problems: [
      '2 text boxes in “1. Layout”: the text is kept, as paragraphs after the one the boxes are anchored in; the frames and their places on the page are not. Check that the text reads in the right place.',
      'A chart made in Word in “2. Results” could not be kept (it is not a picture): insert it as a PNG or JPEG picture and upload the file again.',
      'A SmartArt diagram in “2. Results” could not be kept (it is not a picture): insert it as a PNG or JPEG picture and upload the file again.',
      // The arrow, the group's line and the VML line; not the horizontal rule.
      '3 shapes drawn in Word in “2. Results” could not be kept (they are not pictures): insert them as PNG or JPEG pictures and upload the file again.',
      'A shape drawn in Word in note 1 could not be kept (it is not a picture): insert it as a PNG or JPEG picture and upload the file again.',
    ],
  },
];

describe('every structure of the Word file kept in the JATS and the page, or listed where it is', () => {
  const converted = new Map<
    string,
    { doc: FullTextDocument; images: Buffer[]; html: string; jats: string }
  >();
  beforeAll(async () => {
    for (const { file } of STRUCTURES) {
      const { document: doc, images } = await convertDocx(fulltextFixture(file), KNOWN);
      converted.set(file, { doc, images, html: htmlOf(doc), jats: jatsOf(doc, KNOWN) });
    }
  });

  for (const s of STRUCTURES) {
    it(`${s.file}: counts figures, tables, links, notes and equations from the Word file to the JATS and the page`, async () => {
      const { doc, images, html, jats } = converted.get(s.file)!;
      expect(await sourceCounts(fulltextFixture(s.file))).toEqual(s.source);
      const kept = Object.fromEntries(
        Object.entries(s.source).map(([k, n]) => [k, n - (s.notKept?.[k as keyof Counts] ?? 0)]),
      );
      expect(jatsCounts(jats)).toEqual(kept);
      expect(htmlCounts(html)).toEqual(kept);
      expect(images).toHaveLength(kept.figures);
      expect(doc.figures).toHaveLength(kept.figures);
      expect(problemsOf(doc).map((p) => p.message)).toEqual(s.problems);
      const valid = validateWithSchema('jats', jats);
      expect(valid.ok, valid.output).toBe(true);
    });
  }

  it('keeps pictures in table cells where they stand, with their alt text (<inline-graphic> in <td>)', () => {
    const { doc, html, jats } = converted.get('cell-pictures.docx')!;
    const flat = jats.replace(/>\s+</g, '><');
    expect(doc.figures.map((f) => [f.name, f.alt, f.in])).toEqual([
      ['figure-1.png', 'Red square: stop', { section: '1. Controls', table: 1 }],
      ['figure-2.png', 'Green square: start', { section: '1. Controls', table: 1 }],
      ['figure-3.png', '', { section: '1. Controls', table: 1 }],
      ['figure-4.png', 'The panel, three buttons in a row.', undefined],
    ]);
    expect(html).toContain(
      '<td><img class="fulltext-inline-figure" id="figure-1" src="/article/7/figures/figure-1.png" alt="Red square: stop" width="64" height="64" loading="lazy" decoding="async" /></td><td>Stop</td><td><a href="https://example.org/manual/stop">Stopping</a></td>',
    );
    expect(flat).toContain(
      '<td><inline-graphic xlink:href="https://journal.example/article/7/figures/figure-1.png" mimetype="image" mime-subtype="png"><alt-text>Red square: stop</alt-text></inline-graphic></td>',
    );
    expect(flat).toContain('<fig id="f4">');
    // A list in a cell keeps its numbers.
    expect(html).toContain('<td>1. Hold<br />2. Release</td>');
  });

  it('refuses a picture linked to a file outside the Word file with a clear message, saying where it is', async () => {
    const zip = editDocx(fulltextFixture('cell-pictures.docx'));
    const xml = zip.part('word/document.xml')!;
    const id = /<a:blip r:embed="([^"]+)"/.exec(xml)![1];
    zip.set('word/document.xml', xml.replace(`r:embed="${id}"`, `r:link="${id}"`));
    const rels = zip.part('word/_rels/document.xml.rels')!;
    zip.set(
      'word/_rels/document.xml.rels',
      rels.replace(
        new RegExp(`(<Relationship Id="${id}"[^>]*?)Target="[^"]*"`),
        '$1Target="file:///C:/pictures/icon.png" TargetMode="External"',
      ),
    );
    await expect(convertDocx(zip.bytes(), KNOWN)).rejects.toThrow(
      new ConversionError(
        'Figure 1 of the Word file (a picture in a cell of table 1, in “1. Controls”) is linked to a picture outside the file, not inserted in it. Insert the picture itself (as PNG or JPEG) and upload the file again, or publish with the PDF alone.',
      ),
    );
  });

  it('names where a picture browsers cannot show is when it refuses the file', async () => {
    const zip = editDocx(fulltextFixture('cell-pictures.docx'));
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    for (const path of zip.names()) if (path.startsWith('word/media/')) zip.set(path, gif);
    await expect(convertDocx(zip.bytes(), KNOWN)).rejects.toThrow(
      'Figure 1 of the Word file (a picture in a cell of table 1, in “1. Controls”) is an image browsers cannot show (image/png).',
    );
  });

  it('keeps pictures and equations in footnotes and endnotes, as figures of the note', () => {
    const { doc, html, jats } = converted.get('note-pictures.docx')!;
    const flat = jats.replace(/>\s+</g, '><');
    expect(doc.figures.map((f) => [f.alt, f.in])).toEqual([
      ['Photograph of the steel bracket.', { note: 1 }],
      ['', { note: 2 }],
    ]);
    expect(flat).toMatch(
      /<fn id="fn1"><label>1<\/label><p>Mounted as shown, at a height <inline-formula><mml:math>.*?<\/mml:math><\/inline-formula> m:<\/p><p><fig id="f1"><graphic /,
    );
    expect(flat).toMatch(/<fn id="fn2"><label>2<\/label><p>The logger’s screen:<\/p><p><fig id="f2">/);
    expect(html).toMatch(
      /<li id="fn-1"><p>Mounted as shown.*?<\/p><figure class="fulltext-figure" id="figure-1"><img /,
    );
    // The back link follows the note's figure.
    expect(html).toMatch(/<li id="fn-2">.*?<\/figure><p> <a href="#fn-2-call" class="fulltext-back"/);
  });

  it('keeps a table inside a note, its link and its picture', () => {
    const { html, jats } = converted.get('note-table.docx')!;
    const flat = jats.replace(/>\s+</g, '><');
    expect(flat).toMatch(/<fn id="fn1"><label>1<\/label><p>Doses given<\/p><p><table-wrap id="t1">/);
    expect(flat).toContain(
      '<td>none; see <ext-link ext-link-type="uri" xlink:href="https://example.org/protocol">the protocol</ext-link></td>',
    );
    expect(html).toMatch(/<li id="fn-1"><p>Doses given<\/p><div class="fulltext-table" id="table-1"/);
    expect(html).toContain('<td><img class="fulltext-inline-figure" id="figure-1"');
  });

  it('keeps the links, picture, note call and equation of a table inside a table, in its cell', () => {
    const { doc, html } = converted.get('nested-links.docx')!;
    const table = doc.sections[0].blocks.find((b) => b.t === 'table');
    expect(table?.t === 'table' && inlineText(table.body[0][1].c, doc.equations)).toBe(
      'Archive A | 19981; Archive B | n2;  | open',
    );
    expect(html).toContain(
      '<td><a href="https://example.org/a">Archive A</a> | 1998<sup class="fulltext-note-call"><a href="#fn-1" id="fn-1-call" aria-label="Note 1">1</a></sup>; <a href="https://example.org/b">Archive B</a> | <math display="block" xmlns="http://www.w3.org/1998/Math/MathML"><msup><mi>n</mi><mn>2</mn></msup></math>; <img class="fulltext-inline-figure" id="figure-1"',
    );
    expect(html).toContain('<td><a href="https://example.org/south">South archive</a></td>');
  });

  it('gives bold and other styled symbols of Word equations their mathvariant', () => {
    const { html, jats } = converted.get('bold-math.docx')!;
    for (const [variant, symbol] of [
      ['bold', 'e'],
      ['bold-italic', 'v'],
      ['bold-italic', 'u'],
      ['script', 'L'],
      ['double-struck', 'R'],
    ]) {
      expect(html).toContain(`<mi mathvariant="${variant}">${symbol}</mi>`);
      expect(jats).toContain(`<mml:mi mathvariant="${variant}">${symbol}</mml:mi>`);
    }
  });

  it('keeps the text of text boxes (with a fallback or without) and the picture of a group', () => {
    const { doc, html } = converted.get('drawings.docx')!;
    const text = textOf(html);
    expect(text).toContain('Sidebar one: the site’s history.');
    expect(text).not.toContain('Sidebar one: the site’s history. Sidebar one');
    expect(html).toContain('Sidebar two, with <a href="https://example.org/site">a link</a>');
    expect(doc.figures.map((f) => f.alt)).toEqual(['Two bars.', 'A photograph inside a group.']);
  });
});

describe('a Word file whose front matter differs from what the journal holds', () => {
  /** The submission as the journal holds it: its title edited after review, by other authors than the file's. */
  const SUBMISSION: KnownFront = {
    title: 'Adaptive sampling for structural health monitoring',
    abstract: 'An abstract the editor rewrote.',
    keywords: 'sampling',
    authors: [{ name: 'Joana Reis', email: 'joana@example.org', affiliation: 'University of Lisbon' }],
  };
  const CLOSE = 'Adaptive Sampling for Structural-Health Monitoring of Bridges';
  const titlePage = (heading: (text: string) => ManuscriptBlock, title = CLOSE): ManuscriptBlock[] => [
    heading(title),
    { p: 'Ana Lopes, Ravi Menon' },
    { p: 'University of Porto; IIT Madras' },
  ];
  const body = (heading: (text: string) => ManuscriptBlock): ManuscriptBlock[] => [
    heading('Abstract'),
    { p: 'We sample bridges adaptively, and save energy.' },
    { p: 'Keywords: sampling; monitoring' },
    heading('1. Introduction'),
    { p: 'Bridges age [1].' },
    heading('2. Method'),
    { p: 'The rule has three inputs [2].' },
    heading('References'),
    { p: '[1] A. Author, "Ageing bridges," 2019, doi:10.1000/bridges.1.' },
    { p: '[2] B. Author, "Sampling rules," 2020.' },
  ];

  async function check(blocks: ManuscriptBlock[], title = CLOSE) {
    const { document: doc } = await convertDocx(await writeManuscriptDocx(blocks), SUBMISSION);
    const text = textOf(htmlOf(doc));
    expect(doc.lead).toEqual([]);
    expect(doc.sections.map((s) => inlineText(s.title))).toEqual(['1. Introduction', '2. Method']);
    for (const gone of [
      title,
      'Ana Lopes',
      'University of Porto',
      'Abstract',
      'We sample bridges',
      'Keywords',
    ])
      expect(text).not.toContain(gone);
    expect(doc.references.map((r) => [r.label, r.doi])).toEqual([
      ['[1]', '10.1000/bridges.1'],
      ['[2]', null],
    ]);
    expect(problemKeys(doc)).toEqual(['front', 'doi:2']);
    const notice = problemsOf(doc)[0].message;
    expect(notice).toContain(`“${title.split(' ').slice(0, 8).join(' ')}`);
    expect(notice).toContain('“Ana Lopes, Ravi Menon”');
    expect(notice).toContain('left out');
  }

  it('drops the title page and abstract when the title is a Heading 1 above Heading 2 sections, and finds the references', async () => {
    const h1 = (text: string): ManuscriptBlock => ({ h: 1, text });
    const h2 = (text: string): ManuscriptBlock => ({ h: 2, text });
    await check([...titlePage(h1), ...body(h2)]);
  });

  it('drops a title page rewritten beyond a close match when an abstract follows it', async () => {
    const h1 = (text: string): ManuscriptBlock => ({ h: 1, text });
    const h2 = (text: string): ManuscriptBlock => ({ h: 2, text });
    const rewritten = 'Sensors that rest: a working title';
    await check([...titlePage(h1, rewritten), ...body(h2)], rewritten);
  });

  it('drops the title page and abstract when headings are bold lines', async () => {
    const bold = (text: string): ManuscriptBlock => ({ boldLine: text });
    await check([...titlePage(bold), ...body(bold)]);
  });

  it('drops the file’s own author block (other authors than the journal’s) without listing it as outside any section', async () => {
    const { document: doc } = await convertDocx(fulltextFixture('article.docx'), SUBMISSION);
    expect(doc.lead).toEqual([]);
    expect(textOf(htmlOf(doc))).not.toContain('Ana Lopes');
    expect(problemKeys(doc)).toEqual(ARTICLE_PROBLEMS);
  });

  it('matches a title whatever its case, punctuation and spacing, or a close edit of it, and nothing else', () => {
    const title = SUBMISSION.title;
    expect(sameTitle('ADAPTIVE  Sampling for Structural-Health Monitoring.', title)).toBe(true);
    expect(sameTitle('Adaptive sampling for structural helth monitoring', title)).toBe(true);
    expect(sameTitle('Adaptive sampling for structural health monitoring of bridges', title)).toBe(true);
    expect(sameTitle('Introduction', title)).toBe(false);
    expect(sameTitle('Sampling', title)).toBe(false);
  });
});

/** A .docx to change in a test, with our own ZIP stack (decision 0044): parts read and replaced, the rest copied. */
function editDocx(data: Buffer) {
  const directory = readZipDirectory(data);
  const changes = new Map<string, Uint8Array>();
  return {
    names: () => directory.entries.map((e) => e.name),
    part(name: string): string | null {
      const entry = directory.entries.find((e) => e.name === name);
      return entry ? readZipEntry(data, entry, 64 * 1024 * 1024).toString('utf8') : null;
    },
    set(name: string, content: string | Uint8Array) {
      changes.set(name, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    },
    bytes: () => replaceZipEntries(data, directory, changes),
  };
}
