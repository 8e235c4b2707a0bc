/**
 * `npm run bench:fulltext` (after `npm run build`): the full text of issue 16 (decision 0028).
 *
 * - conversion time (Word file → structured document) of the test manuscripts, the real LibreOffice
 *   manuscript and a generated 10,000-word article with 10 figures, 2 tables and 60 references;
 * - making its HTML and its JATS from the structured document;
 * - the article page with that full text, rendered by the production build through the whole page pipeline:
 *   the HTML's size (raw and gzipped), how much of it is route data, and the `.data` a navigation in the
 *   browser fetches; beside the same article without a full text.
 *
 * The page's JavaScript is `npm run bench:js` (the full text adds none: it is HTML). Figures only.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { issues, volumes } from '../server/catalog/tables.ts';
import { el, renderXml } from '../server/discovery/xml.ts';
import { MEDIA_TYPES } from '../server/files/content-type.ts';
import type { CheckedUpload } from '../server/files/uploads.ts';
import { convertDocx } from '../server/fulltext/convert.ts';
import { fullTextHtml } from '../server/fulltext/html.ts';
import { jatsBody } from '../server/fulltext/jats.ts';
import { barChartPng } from '../server/seed/png.ts';
import { type ManuscriptBlock, writeManuscriptDocx } from '../server/seed/word.ts';
import { createTestContext, fixture } from '../server/testing/harness.ts';
import { KNOWN } from '../tests/fixtures/fulltext/manuscripts.ts';
import { median } from './lib/report.ts';

if (process.env.NODE_ENV !== 'production') {
  console.error(
    'Run with NODE_ENV=production (npm run bench:fulltext): React must load its production build.',
  );
  process.exit(1);
}

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function time<T>(runs: number, f: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  let value = await f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    value = await f();
    times.push(performance.now() - start);
  }
  return { ms: median(times), value };
}

const WORDS =
  'the gateway sensor energy model reading battery radio schedule network latency field node forecast threshold measured adaptive interval uplink budget cell drying soil rate results show that our method'.split(
    ' ',
  );
const sentence = (i: number) =>
  `${Array.from({ length: 18 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ')}.`.replace(
    /^./,
    (c) => c.toUpperCase(),
  );

/** About 10,000 words: 10 sections of 10 paragraphs of 100 words (with citations), 10 figures, 2 tables. */
function longManuscript(): ManuscriptBlock[] {
  const blocks: ManuscriptBlock[] = [
    { title: KNOWN.title },
    { h: 1, text: 'Abstract' },
    { p: KNOWN.abstract },
  ];
  let s = 0;
  for (let sec = 1; sec <= 10; sec++) {
    blocks.push({ h: 1, text: `${sec}. Section ${sec}` });
    for (let p = 0; p < 10; p++) {
      if (p === 5) blocks.push({ h: 2, text: `${sec}.1 Part ${sec}` });
      const text = Array.from({ length: 5 }, () => sentence(s++)).join(' ');
      blocks.push({ p: `${text} [${((sec * 10 + p) % 60) + 1}]` });
    }
    blocks.push({
      figure: {
        png: barChartPng([sec, 10 - sec, 5, 7]),
        width: 480,
        height: 270,
        alt: `Bar chart ${sec}.`,
        caption: `Figure ${sec}. Results of section ${sec}.`,
      },
    });
    if (sec % 5 === 0) {
      blocks.push({
        table: {
          caption: `Table ${sec / 5}. Measurements.`,
          head: [[{ text: 'Node' }, { text: 'Uplinks' }, { text: 'Energy (J)' }, { text: 'Life (months)' }]],
          body: Array.from({ length: 12 }, (_, r) => [
            `N${r}`,
            String(20 + r),
            (r * 1.7).toFixed(1),
            String(30 + r),
          ]),
        },
      });
    }
  }
  blocks.push({ h: 1, text: 'References' });
  for (let r = 1; r <= 60; r++)
    blocks.push({
      p: `[${r}] A. Author${r}, "A study of ${WORDS[r % WORDS.length]} networks," J. Test, ${2000 + (r % 25)}, doi:10.5555/bench.${r}.`,
    });
  return blocks;
}

const fixtures: [string, Buffer][] = [
  [
    'article.docx (test manuscript: every structure)',
    readFileSync(new URL('../tests/fixtures/fulltext/article.docx', import.meta.url)),
  ],
  [
    'problems.docx (test manuscript: the problems)',
    readFileSync(new URL('../tests/fixtures/fulltext/problems.docx', import.meta.url)),
  ],
  ['manuscript.docx (LibreOffice, 7 pages)', fixture('manuscript.docx')],
];
const long = await writeManuscriptDocx(longManuscript());
fixtures.push(['10,000 words, 10 figures, 2 tables, 60 references', long]);

console.log(`\nConversion (Word file → structured document), medians of ${RUNS} runs after one warm-up\n`);
console.log('| manuscript | size | words | ms |\n|---|---:|---:|---:|');
for (const [name, data] of fixtures) {
  const { ms, value } = await time(RUNS, () => convertDocx(data, KNOWN));
  console.log(
    `| ${name} | ${kb(data.length)} | ${value.document.words.toLocaleString('en')} | ${ms.toFixed(1)} |`,
  );
}

const { document: doc, images } = await convertDocx(long, KNOWN);
const html = await time(RUNS, () =>
  fullTextHtml(doc, { figureUrl: (n) => `/article/1/figures/${n}`, level: 3 }),
);
const jats = await time(RUNS, () =>
  renderXml(
    el(
      'article',
      null,
      jatsBody(doc, { figureUrl: (n) => `https://journal.example/article/1/figures/${n}` }),
    ),
  ),
);
console.log(
  `\nFrom the 10,000-word document: HTML ${html.ms.toFixed(1)} ms (${kb(html.value.length)}), JATS body ${jats.ms.toFixed(1)} ms (${kb(jats.value.length)})`,
);

// The article page with and without that full text, through the production build.
const t = await createTestContext({}, { pages: true });
const [volume] = await t.services.db
  .insert(volumes)
  .values({ title: 'Volume 90', volumeNumber: 90, year: 2026 })
  .returning({ id: volumes.id });
const [{ id: issueId }] = await t.services.db
  .insert(issues)
  .values({ volumeId: volume.id, issueNumber: 1, title: 'Bench', description: 'Bench' })
  .returning({ id: issues.id });
const pdf: CheckedUpload = {
  field: 'pdf',
  filename: 'a.pdf',
  data: fixture('manuscript.pdf'),
  kind: 'pdf',
  mediaType: 'application/pdf',
};
const insert = (doi: string) =>
  t.services.files.withStoredFiles([pdf], (tx, [file]) =>
    t.services.catalog.insertArticle(tx, null, {
      issueId,
      title: KNOWN.title,
      abstract: 'An abstract of about a hundred words. '.repeat(12),
      keywords: KNOWN.keywords,
      firstPage: 1,
      lastPage: 30,
      doi,
      authors: KNOWN.authors.map((a) => ({ ...a, superscript: '' })),
      file,
    }),
  );
const plain = await insert('10.5555/bench.plain');
const withText = await insert('10.5555/bench.full');
const word: CheckedUpload = {
  field: 'word',
  filename: 'long.docx',
  data: long,
  kind: 'docx',
  mediaType: MEDIA_TYPES.docx,
};
await t.services.fulltext.store(null, { articleId: withText }, word, KNOWN);
void images;

// Each request its own address (an ignored query), so the page cache never answers: every one is rendered.
let fresh = 0;
const page = async (url: string) => {
  fresh += 1;
  const res = await t.app.inject({
    method: 'GET',
    url: `${url}?bench=${fresh}`,
    headers: { 'user-agent': 'Mozilla/5.0 bench' },
  });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  return res.rawPayload;
};
/** The route data inlined in a page: React Router's `streamController.enqueue(…)` scripts. */
const routeData = (body: Buffer) =>
  [...body.toString('utf8').matchAll(/streamController\.enqueue\((.*?)\);<\/script>/gs)].reduce(
    (n, m) => n + m[1].length,
    0,
  );

console.log('\nThe article page (production build, every request rendered), medians of the render time\n');
console.log(
  '| article | HTML | gzipped | route data in it | .data (a navigation) | render ms |\n|---|---:|---:|---:|---:|---:|',
);
for (const [name, id] of [
  ['without full text', plain],
  ['with the 10,000-word full text', withText],
] as const) {
  const { ms, value } = await time(RUNS, () => page(`/article/${id}`));
  const data = await page(`/article/${id}.data`);
  console.log(
    `| ${name} | ${kb(value.length)} | ${kb(gzipSync(value).length)} | ${kb(routeData(value))} | ${kb(data.length)} | ${ms.toFixed(1)} |`,
  );
}
await t.close();
