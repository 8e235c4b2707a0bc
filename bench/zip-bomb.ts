/**
 * `npm run bench:zip-bomb`: the server's resident memory while Word "zip bombs" are uploaded (issue 22, item
 * 13; decision 0034). A 1 GB document.xml in about a megabyte, three at once to the article's Word file
 * (`POST /api/editor/articles/{id}/fulltext`), then the same bomb lying about its size (headers say 1 MB),
 * then the same to the manuscript submission and the plagiarism check. Prints the resident memory before, its
 * peak (sampled every 10 ms) and after, and each answer. Figures only, no budget: the guard refuses before
 * anything inflates, so the peak should stay within a few tens of MB of the start.
 */
import { wordZipBomb } from '../server/files/testing.ts';
import { createTestContext, fixture, postMultipart } from '../server/testing/harness.ts';

const MB = 1024 * 1024;
const mb = (n: number) => `${Math.round(n / MB)} MB`;

const t = await createTestContext();
const editor = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
const volume = await t.app.inject({
  method: 'POST',
  url: '/api/editor/volume',
  headers: editor,
  payload: { title: 'Vol', volume_number: 1, year: 2026 },
});
const issue = await t.app.inject({
  method: 'POST',
  url: '/api/editor/issue',
  headers: editor,
  payload: { title: 'Iss', description: 'D', volume_id: volume.json().volume.id },
});
const article = await postMultipart(
  t.app,
  '/api/articles/admin/upload',
  editor,
  {
    title: 'An article',
    abstract: 'Its abstract.',
    keywords: 'bombs',
    pages: '1-2',
    doi: '10.5555/bench.bomb',
    issue_id: String(issue.json().issue.id),
    authors: JSON.stringify([
      { name: 'A. Author', email: 'a@example.org', affiliation: 'X', superscript: '' },
    ]),
  },
  { pdf: { name: 'a.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' } },
);
const articleId = article.json().article.id as number;

const honest = wordZipBomb({ inflated: 1024 * MB });
const lying = wordZipBomb({ inflated: 1024 * MB, declared: MB - 1 });
console.log(`bomb: ${(honest.length / MB).toFixed(1)} MB expanding to 1024 MB`);

async function measure(label: string, work: () => Promise<{ statusCode: number; body: string }[]>) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  const answers = await work();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `${label}: rss ${mb(before)} → peak ${mb(peak)} → after ${mb(process.memoryUsage().rss)}, ${ms.toFixed(0)} ms; ` +
      answers.map((a) => `${a.statusCode} ${JSON.parse(a.body).message?.slice(0, 70)}…`).join(' | '),
  );
}

const fulltext = (data: Buffer) =>
  postMultipart(
    t.app,
    `/api/editor/articles/${articleId}/fulltext`,
    editor,
    {},
    { word: { name: 'a.docx', data } },
  );
await measure('three at once to the article’s Word file', () =>
  Promise.all([fulltext(honest), fulltext(honest), fulltext(honest)]),
);
await measure('three at once, lying about their size', () =>
  Promise.all([fulltext(lying), fulltext(lying), fulltext(lying)]),
);
await measure('as a manuscript and to the plagiarism check', () =>
  Promise.all([
    postMultipart(
      t.app,
      '/api/submission/submit',
      editor,
      {
        title: 'Bomb',
        articleType: 'Research Article',
        keywords: 'k',
        abstract: 'a',
        authors: JSON.stringify([{ name: 'A', email: 'a@example.org', affiliation: 'X', superscript: '' }]),
      },
      { submissionFile: { name: 'a.docx', data: lying } },
    ),
    postMultipart(t.app, '/api/plagiarism', editor, {}, { file: { name: 'a.docx', data: lying } }),
  ]),
);
await t.close();
