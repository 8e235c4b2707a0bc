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
import { fixture } from '../testing/harness.ts';
import { ConversionError, type KnownFront, convertDocx } from './convert.ts';
import { type FullTextDocument, problemsOf } from './document.ts';
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
    expect(doc.losses).toEqual([]);
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
      'A table in “2 Data” could not be kept as it is: it holds another table, whose text is kept in its cell.',
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
    expect(problemKeys(doc)).toEqual(['doi:1', 'doi:2', 'doi:3']);
  });
});

describe('drawings made in Word', () => {
  it('lists a chart or shape drawn in Word (not a picture) as lost, never dropping it in silence', async () => {
    const JSZip = (await import('jszip')).default;
    const zip = await JSZip.loadAsync(fulltextFixture('article.docx'));
    const xml = await zip.file('word/document.xml')!.async('string');
    const shape = '<w:p><w:r><w:drawing><wp:inline><wps:wsp/></wp:inline></w:drawing></w:r></w:p>';
    zip.file('word/document.xml', xml.replace('</w:body>', `${shape}${shape}</w:body>`));
    const { document: doc } = await convertDocx(await zip.generateAsync({ type: 'nodebuffer' }), KNOWN);
    expect(problemKeys(doc)).toEqual([...ARTICLE_PROBLEMS.slice(0, 1), 'drawing', ...ARTICLE_PROBLEMS.slice(1)]);
    expect(problemsOf(doc).find((p) => p.kind === 'drawing')?.message).toBe(
      '2 charts, shapes or diagrams drawn in Word could not be kept: insert them as PNG or JPEG pictures and upload the file again.',
    );
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
