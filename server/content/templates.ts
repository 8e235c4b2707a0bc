import type { JournalSettings } from '../../common/journal.ts';
import { zip } from './zip.ts';

/**
 * The manuscript templates offered on /instructions, built from the journal settings so the name and ISSN
 * come from one place: a Word document (.docx, Office Open XML) and a LaTeX source (.tex). Both apply the
 * instructions' layout: A4, 2.54 cm margins, 12 pt serif, 1.5 line spacing, line numbers, IEEE references.
 */

export const TEMPLATE_FILES = {
  'manuscript-template.docx': {
    mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    build: (journal: JournalSettings) => manuscriptDocx(journal),
  },
  'manuscript-template.tex': {
    mediaType: 'application/x-tex; charset=utf-8',
    build: (journal: JournalSettings) => Buffer.from(manuscriptTex(journal), 'utf8'),
  },
} as const;
export type TemplateFile = keyof typeof TEMPLATE_FILES;

export function isTemplateFile(name: string): name is TemplateFile {
  return Object.hasOwn(TEMPLATE_FILES, name);
}

/** "CJEI-manuscript-template.docx": what the download is saved as. */
export function templateFilename(journal: JournalSettings, file: TemplateFile): string {
  return `${journal.abbreviation.replace(/[^A-Za-z0-9]+/g, '-')}-${file}`;
}

// ---------- The words, shared by both templates ----------

interface Section {
  heading: string;
  paragraphs: string[];
  subsections?: { heading: string; paragraphs: string[] }[];
}

function templateText(journal: JournalSettings) {
  const sections: Section[] = [
    {
      heading: 'Introduction',
      paragraphs: [
        'State the problem, why it matters and what is already known, and end with the contribution of this work and the organisation of the article. Cite references by number in square brackets, in the order in which they are first cited [1], [2].',
        'This template sets the layout the journal asks for: A4 pages with 2.54 cm margins on all sides, a single column of 12-point serif text with 1.5 line spacing, and continuous line numbers. Replace the guidance in each section with your own text.',
      ],
    },
    {
      heading: 'Related Work',
      paragraphs: [
        'Discuss the most relevant earlier work and explain how this work differs from it. Prefer recent, peer-reviewed sources, and give the DOI of every reference that has one [3].',
      ],
    },
    {
      heading: 'Methods',
      paragraphs: [
        'Describe the method, materials, data and experimental set-up in enough detail for others to repeat the work. Define each abbreviation at its first use and use SI units.',
      ],
      subsections: [
        {
          heading: 'Equations',
          paragraphs: [
            'Number displayed equations consecutively, in parentheses at the right margin, and refer to them as Equation (1). Write variables in italics and vectors in bold.',
          ],
        },
        {
          heading: 'Data and Code',
          paragraphs: [
            'Name the data sets and software used, with versions, and cite them like publications. State where the data and code supporting the results can be found.',
          ],
        },
      ],
    },
    {
      heading: 'Results',
      paragraphs: [
        'Present the results clearly, with figures and tables where they help. Supply figures at a resolution of at least 300 dpi (vector graphics for charts and line drawings), place each caption below its figure and each table title above its table, and cite every figure and table in the text, for example Figure 1 and Table 1.',
      ],
    },
    {
      heading: 'Discussion',
      paragraphs: [
        'Interpret the results, compare them with earlier work, and state the limitations of the study and threats to its validity.',
      ],
    },
    {
      heading: 'Conclusions',
      paragraphs: ['Summarise the main findings and their significance, and suggest directions for future work.'],
    },
  ];
  return {
    header: `Manuscript submitted to the ${journal.name}${journal.issnOnline ? ` (ISSN ${journal.issnOnline})` : ''}`,
    title: 'Title of the Manuscript: Concise, Specific and Under Twenty Words',
    authors: [
      { name: 'First Author', affiliations: '1', corresponding: true },
      { name: 'Second Author', affiliations: '2', corresponding: false },
      { name: 'Third Author', affiliations: '1,2', corresponding: false },
    ],
    affiliations: [
      'Department, Institution, City, Postal Code, Country',
      'Department, Institution, City, Postal Code, Country',
    ],
    correspondence: 'Corresponding author: first.author@institution.example',
    abstract:
      'A single paragraph of 150 to 250 words stating the problem, the method, the main results and the main conclusion. Do not cite references or use undefined abbreviations in the abstract. For double-anonymous review, submit the title page with the author names as a separate file and remove them from the manuscript.',
    keywords: 'first keyword, second keyword, third keyword, fourth keyword, fifth keyword (4 to 5 keywords)',
    sections,
    equation: { tex: 'E = \\sum_{i=1}^{n} w_i \\, x_i', text: 'E = Σ wᵢ xᵢ, summed over i = 1 … n' },
    figureCaption:
      'Figure 1. A caption that explains the figure without the main text. Supply figures at 300 dpi or more.',
    tableTitle: 'Table 1. A title that explains the table without the main text.',
    table: [
      ['Method', 'Accuracy (%)', 'Time (ms)'],
      ['Baseline', '91.2', '14.8'],
      ['Proposed', '94.6', '12.1'],
    ],
    declarations: [
      ['Author contributions', 'Conceptualisation, A.B.; methodology, A.B. and C.D.; software, C.D.; writing (original draft), A.B.; writing (review and editing), all authors. All authors have read and agreed to the published version.'],
      ['Funding', 'This research was funded by [funder], grant number [number]. Or: This research received no external funding.'],
      ['Conflicts of interest', 'The authors declare no conflict of interest.'],
      ['Data availability', 'The data supporting the results are available at [repository, with DOI].'],
      ['Ethics approval and consent', 'Where the study involved people, animals or personal data: the approving committee, the approval number and date, and how consent was obtained.'],
      ['Use of generative AI', 'State whether and how generative AI tools were used in preparing the manuscript, or that none were used.'],
      ['Acknowledgements', 'People who helped with the work but do not qualify as authors.'],
    ] as [string, string][],
    references: [
      'A. Kumar, L. Chen and R. Okafor, "Adaptive sampling for low-power sensor networks," IEEE Trans. Ind. Inform., vol. 19, no. 4, pp. 5120–5131, 2023, doi: 10.1109/TII.2023.0000000.',
      'M. Silva and J. Park, "Property-based testing of embedded controllers," in Proc. 45th Int. Conf. Softw. Eng. (ICSE), Melbourne, Australia, 2023, pp. 210–221.',
      'S. Russell and P. Norvig, Artificial Intelligence: A Modern Approach, 4th ed. Hoboken, NJ, USA: Pearson, 2021.',
      'R. Mehta, "Rooftop photovoltaic output, Coimbatore, 2019–2023," Zenodo, 2024, doi: 10.5281/zenodo.0000000.',
    ],
  };
}

// ---------- Word (.docx) ----------

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Run = string | { text: string; bold?: boolean; italic?: boolean; sup?: boolean };

function run(r: Run): string {
  const { text, bold, italic, sup } = typeof r === 'string' ? { text: r } : r;
  const props = [bold ? '<w:b/>' : '', italic ? '<w:i/>' : '', sup ? '<w:vertAlign w:val="superscript"/>' : ''].join('');
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r>`;
}

function para(runs: Run | Run[], style?: string, extra = ''): string {
  const list = Array.isArray(runs) ? runs : [runs];
  const pPr = style || extra ? `<w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${extra}</w:pPr>` : '';
  return `<w:p>${pPr}${list.map(run).join('')}</w:p>`;
}

function docxTable(rows: string[][]): string {
  const border = (side: string) => `<w:${side} w:val="single" w:sz="6" w:space="0" w:color="000000"/>`;
  const cell = (text: string, header: boolean) =>
    `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${para(header ? { text, bold: true } : text, 'TableText')}</w:tc>`;
  return [
    '<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:jc w:val="center"/>',
    `<w:tblBorders>${border('top')}${border('bottom')}${border('insideH')}</w:tblBorders></w:tblPr>`,
    '<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>',
    ...rows.map(
      (row, i) => `<w:tr>${i === 0 ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${row.map((c) => cell(c, i === 0)).join('')}</w:tr>`,
    ),
    '</w:tbl>',
  ].join('');
}

const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

function documentXml(journal: JournalSettings): string {
  const t = templateText(journal);
  const body: string[] = [];
  body.push(para(t.title, 'Title'));
  body.push(
    para(
      t.authors.flatMap((a, i) => [
        a.name,
        { text: `${a.affiliations}${a.corresponding ? ',*' : ''}`, sup: true },
        i < t.authors.length - 2 ? ', ' : i === t.authors.length - 2 ? ' and ' : '',
      ]),
      'Authors',
    ),
  );
  for (const [i, aff] of t.affiliations.entries()) {
    body.push(para([{ text: String(i + 1), sup: true }, ` ${aff}`], 'Affiliation'));
  }
  body.push(para([{ text: '*', sup: true }, ` ${t.correspondence}`], 'Affiliation'));
  body.push(para([{ text: 'Abstract: ', bold: true }, t.abstract], 'Abstract'));
  body.push(para([{ text: 'Keywords: ', bold: true }, t.keywords], 'Abstract'));

  t.sections.forEach((section, i) => {
    body.push(para(`${i + 1}. ${section.heading}`, 'Heading1'));
    for (const p of section.paragraphs) body.push(para(p));
    section.subsections?.forEach((sub, j) => {
      body.push(para(`${i + 1}.${j + 1}. ${sub.heading}`, 'Heading2'));
      for (const p of sub.paragraphs) body.push(para(p));
      if (sub.heading === 'Equations') {
        body.push(
          para(
            [{ text: t.equation.text, italic: true }, '\u2003(1)'],
            'Equation',
          ),
        );
      }
    });
    if (section.heading === 'Results') {
      body.push(para('[Insert Figure 1 here: at least 300 dpi, or a vector graphic.]', 'Figure'));
      body.push(para(t.figureCaption, 'Caption'));
      body.push(para(t.tableTitle, 'Caption'));
      body.push(docxTable(t.table));
      body.push(para(''));
    }
  });

  body.push(para('Declarations', 'Heading1'));
  for (const [label, text] of t.declarations) body.push(para([{ text: `${label}: `, bold: true }, text]));
  body.push(para('References', 'Heading1'));
  for (const [i, ref] of t.references.entries()) body.push(para(`[${i + 1}] ${ref}`, 'Reference'));

  const sectPr = [
    '<w:sectPr>',
    '<w:headerReference w:type="default" r:id="rId3"/>',
    '<w:footerReference w:type="default" r:id="rId4"/>',
    '<w:pgSz w:w="11906" w:h="16838"/>',
    // 2.54 cm = 1 inch = 1440 twentieths of a point, on every side.
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>',
    '<w:lnNumType w:countBy="1" w:distance="284" w:restart="continuous"/>',
    '</w:sectPr>',
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W_NS}><w:body>${body.join('')}${sectPr}</w:body></w:document>`;
}

// Word refuses a document whose elements are out of the schema's order (pPr: keepNext before
// suppressLineNumbers before spacing before jc; rPr: b, i, color, sz, vertAlign, lang), so keep that order.
function stylesXml(): string {
  const style = (id: string, name: string, pPr: string, rPr: string, extra = '') =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>${extra}<w:pPr>${pPr}</w:pPr><w:rPr>${rPr}</w:rPr></w:style>`;
  const noLines = '<w:suppressLineNumbers/>';
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    `<w:styles ${W_NS}>`,
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:eastAsia="Times New Roman" w:cs="Times New Roman"/><w:sz w:val="24"/><w:szCs w:val="24"/><w:lang w:val="en-GB"/></w:rPr></w:rPrDefault>',
    '<w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="360" w:lineRule="auto"/><w:jc w:val="both"/></w:pPr></w:pPrDefault></w:docDefaults>',
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>',
    style('Title', 'Title', '<w:spacing w:before="240" w:after="240"/><w:jc w:val="center"/>', '<w:b/><w:sz w:val="32"/><w:szCs w:val="32"/>'),
    style('Authors', 'Authors', '<w:jc w:val="center"/>', ''),
    style('Affiliation', 'Affiliation', '<w:spacing w:after="0"/><w:jc w:val="center"/>', '<w:sz w:val="20"/><w:szCs w:val="20"/>'),
    style('Abstract', 'Abstract', '<w:spacing w:before="240"/><w:ind w:left="567" w:right="567"/>', '<w:sz w:val="22"/><w:szCs w:val="22"/>'),
    style('Heading1', 'heading 1', '<w:keepNext/><w:spacing w:before="360" w:after="120"/><w:jc w:val="left"/><w:outlineLvl w:val="0"/>', '<w:b/><w:sz w:val="26"/><w:szCs w:val="26"/>'),
    style('Heading2', 'heading 2', '<w:keepNext/><w:spacing w:before="240" w:after="120"/><w:jc w:val="left"/><w:outlineLvl w:val="1"/>', '<w:b/><w:i/>'),
    style('Equation', 'Equation', '<w:jc w:val="center"/>', ''),
    style('Figure', 'Figure', `<w:keepNext/>${noLines}<w:pBdr><w:top w:val="dashed" w:sz="6" w:space="12" w:color="808080"/><w:bottom w:val="dashed" w:sz="6" w:space="12" w:color="808080"/></w:pBdr><w:spacing w:before="240" w:after="240"/><w:jc w:val="center"/>`, '<w:color w:val="595959"/>'),
    style('Caption', 'caption', '<w:keepNext/><w:spacing w:after="240"/><w:jc w:val="center"/>', '<w:sz w:val="20"/><w:szCs w:val="20"/>'),
    style('TableText', 'Table Text', `${noLines}<w:spacing w:before="60" w:after="60" w:line="240" w:lineRule="auto"/><w:jc w:val="center"/>`, '<w:sz w:val="20"/><w:szCs w:val="20"/>'),
    style('Reference', 'Reference', '<w:ind w:left="567" w:hanging="567"/><w:jc w:val="left"/>', '<w:sz w:val="22"/><w:szCs w:val="22"/>'),
    style('Header', 'header', `${noLines}<w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="right"/>`, '<w:color w:val="595959"/><w:sz w:val="18"/><w:szCs w:val="18"/>'),
    style('Footer', 'footer', `${noLines}<w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="center"/>`, '<w:sz w:val="20"/><w:szCs w:val="20"/>'),
    '</w:styles>',
  ].join('');
}

function manuscriptDocx(journal: JournalSettings): Buffer {
  const t = templateText(journal);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const header = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr ${W_NS}>${para(t.header, 'Header')}</w:hdr>`;
  const pageField =
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
  const footer = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:ftr ${W_NS}><w:p><w:pPr><w:pStyle w:val="Footer"/></w:pPr>${pageField}</w:p></w:ftr>`;
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const ct = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
  return zip([
    {
      name: '[Content_Types].xml',
      data: [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
        '<Default Extension="xml" ContentType="application/xml"/>',
        `<Override PartName="/word/document.xml" ContentType="${ct}.document.main+xml"/>`,
        `<Override PartName="/word/styles.xml" ContentType="${ct}.styles+xml"/>`,
        `<Override PartName="/word/settings.xml" ContentType="${ct}.settings+xml"/>`,
        `<Override PartName="/word/header1.xml" ContentType="${ct}.header+xml"/>`,
        `<Override PartName="/word/footer1.xml" ContentType="${ct}.footer+xml"/>`,
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>',
        '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>',
        '</Types>',
      ].join(''),
    },
    {
      name: '_rels/.rels',
      data: [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">',
        rel('rId1', 'officeDocument', 'word/document.xml'),
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>',
        rel('rId3', 'extended-properties', 'docProps/app.xml'),
        '</Relationships>',
      ].join(''),
    },
    { name: 'word/document.xml', data: documentXml(journal) },
    {
      name: 'word/_rels/document.xml.rels',
      data: [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">',
        rel('rId1', 'styles', 'styles.xml'),
        rel('rId2', 'settings', 'settings.xml'),
        rel('rId3', 'header', 'header1.xml'),
        rel('rId4', 'footer', 'footer1.xml'),
        '</Relationships>',
      ].join(''),
    },
    { name: 'word/styles.xml', data: stylesXml() },
    {
      name: 'word/settings.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:settings ${W_NS}><w:defaultTabStop w:val="709"/><w:characterSpacingControl w:val="doNotCompress"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`,
    },
    { name: 'word/header1.xml', data: header },
    { name: 'word/footer1.xml', data: footer },
    {
      name: 'docProps/core.xml',
      data: [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
        `<dc:title>${xmlEscape(`${journal.name}: manuscript template`)}</dc:title>`,
        `<dc:creator>${xmlEscape(journal.publisher)}</dc:creator>`,
        '<dc:language>en-GB</dc:language>',
        `<dcterms:created xsi:type="dcterms:W3CDTF">${now}</dcterms:created>`,
        `<dcterms:modified xsi:type="dcterms:W3CDTF">${now}</dcterms:modified>`,
        '</cp:coreProperties>',
      ].join(''),
    },
    {
      name: 'docProps/app.xml',
      data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Colophon</Application></Properties>',
    },
  ]);
}

// ---------- LaTeX (.tex) ----------

/** Escapes LaTeX's special characters in plain text. */
export function texEscape(s: string): string {
  return s
    .replace(/\\/g, '\\textbackslash{}')
    .replace(/([#$%&_{}])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\textasciicircum{}')
    .replace(/–/g, '--')
    .replace(/—/g, '---')
    .replace(/"([^"]*)"/g, "``$1''");
}

export function manuscriptTex(journal: JournalSettings): string {
  const t = templateText(journal);
  const lines: string[] = [
    `% Manuscript template of the ${journal.name}${journal.issnOnline ? ` (ISSN ${journal.issnOnline})` : ''}.`,
    `% ${journal.publisher}`,
    '% Compile with pdflatex (or lualatex or xelatex).',
    '% Layout: A4, 2.54 cm margins, 12 pt Times, 1.5 line spacing, line numbers, IEEE-style numbered references.',
    '\\documentclass[12pt,a4paper]{article}',
    '\\usepackage[utf8]{inputenc}',
    '\\usepackage[T1]{fontenc}',
    '\\usepackage{newtxtext,newtxmath}',
    '\\usepackage[margin=2.54cm]{geometry}',
    '\\usepackage{setspace}',
    '\\onehalfspacing',
    '\\usepackage{lineno}',
    '\\linenumbers',
    '\\usepackage{amsmath}',
    '\\usepackage{graphicx}',
    '\\usepackage{booktabs}',
    '\\usepackage[font=small]{caption}',
    '\\usepackage{fancyhdr}',
    '\\usepackage[hidelinks]{hyperref}',
    '',
    '\\pagestyle{fancy}',
    '\\fancyhf{}',
    `\\rhead{\\footnotesize ${texEscape(t.header)}}`,
    '\\cfoot{\\thepage}',
    '\\renewcommand{\\headrulewidth}{0pt}',
    '',
    `\\title{${texEscape(t.title)}}`,
    `\\author{${t.authors
      .map((a) => `${texEscape(a.name)}\\textsuperscript{${a.affiliations}${a.corresponding ? ',*' : ''}}`)
      .join(', ')}\\\\[1ex]`,
    ...t.affiliations.map((aff, i) => `  \\small\\textsuperscript{${i + 1}}${texEscape(aff)}\\\\`),
    `  \\small\\textsuperscript{*}${texEscape(t.correspondence)}}`,
    '\\date{}',
    '',
    '\\begin{document}',
    '\\maketitle',
    '',
    '\\begin{abstract}',
    texEscape(t.abstract),
    '\\end{abstract}',
    '',
    `\\noindent\\textbf{Keywords:} ${texEscape(t.keywords)}`,
    '',
  ];
  for (const section of t.sections) {
    lines.push(`\\section{${texEscape(section.heading)}}`);
    for (const p of section.paragraphs) lines.push(texEscape(p), '');
    for (const sub of section.subsections ?? []) {
      lines.push(`\\subsection{${texEscape(sub.heading)}}`);
      for (const p of sub.paragraphs) lines.push(texEscape(p), '');
      if (sub.heading === 'Equations') {
        lines.push('\\begin{equation}', `  ${t.equation.tex}`, '  \\label{eq:example}', '\\end{equation}', '');
      }
    }
    if (section.heading === 'Results') {
      lines.push(
        '\\begin{figure}[htbp]',
        '  \\centering',
        '  % \\includegraphics[width=0.8\\linewidth]{figure1.pdf} % 300 dpi or more, or a vector graphic',
        '  \\fbox{\\parbox[c][4cm][c]{0.7\\linewidth}{\\centering Insert Figure 1 here}}',
        `  \\caption{${texEscape(t.figureCaption.replace(/^Figure 1\. /, ''))}}`,
        '  \\label{fig:example}',
        '\\end{figure}',
        '',
        '\\begin{table}[htbp]',
        '  \\centering',
        `  \\caption{${texEscape(t.tableTitle.replace(/^Table 1\. /, ''))}}`,
        '  \\label{tab:example}',
        '  \\begin{tabular}{lrr}',
        '    \\toprule',
        `    ${t.table[0].map(texEscape).join(' & ')} \\\\`,
        '    \\midrule',
        ...t.table.slice(1).map((row) => `    ${row.map(texEscape).join(' & ')} \\\\`),
        '    \\bottomrule',
        '  \\end{tabular}',
        '\\end{table}',
        '',
      );
    }
  }
  lines.push('\\section*{Declarations}');
  for (const [label, text] of t.declarations) lines.push(`\\paragraph{${texEscape(label)}} ${texEscape(text)}`, '');
  lines.push('\\begin{thebibliography}{9}');
  for (const [i, ref] of t.references.entries()) lines.push(`\\bibitem{ref${i + 1}} ${texEscape(ref)}`);
  lines.push('\\end{thebibliography}', '', '\\end{document}', '');
  return lines.join('\n');
}
