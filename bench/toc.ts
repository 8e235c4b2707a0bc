/**
 * `npm run bench:toc` (after `npm run build`): an issue's table of contents with 300 articles (three authors
 * each, a DOI each), rendered by the production build with React's production build (`NODE_ENV=production`),
 * through the whole page pipeline (Fastify, the React Router bridge, the root and route loaders, rendering,
 * route data). Prints medians over BENCH_RUNS requests (default 50, after 10 warm-ups):
 *
 * - the whole request through Fastify, CPU time of this process (the database is PGlite, in this process too);
 * - the same with the loaders' service calls answered from memory;
 * - that again through React Router's request handler alone (what rendering the page costs: loaders from
 *   memory, rendering, the route data), the body read as bytes;
 * - the HTML's size and the route data inlined in it (the `streamController.enqueue` scripts).
 *
 * Figures only: never a timed test.
 */
import { performance } from 'node:perf_hooks';
import { createRequestHandler } from 'react-router';
import { articleAuthors, articles, issues, volumes } from '../server/catalog/tables.ts';
import { loadProductionBuild } from '../server/http/ssr.ts';
import { createTestContext } from '../server/testing/harness.ts';
import type { WebContext } from '../server/web-context.ts';
import { median } from './lib/report.ts';

if (process.env.NODE_ENV !== 'production') {
  console.error('Run with NODE_ENV=production (npm run bench:toc): React must load its production build.');
  process.exit(1);
}

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 300);
const WORDS =
  'adaptive robust federated neural sensor grid turbine secure edge cloud model learning control wind solar fault detection graph privacy network latency embedded vision'.split(
    ' ',
  );
const word = (i: number, k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
const SURNAMES = [
  'Okafor',
  'Lindqvist',
  'Raghavan',
  'Costa',
  'Nakamura',
  'Bello',
  'Novak',
  'Haddad',
  'Moreau',
];
const personOf = (i: number) =>
  `${String.fromCharCode(65 + (i % 26))}. ${SURNAMES[i % SURNAMES.length]}-${i}`;

const t = await createTestContext({}, { pages: true });
const { db } = t.services;
const [volume] = await db
  .insert(volumes)
  .values({ title: 'Volume 90', volumeNumber: 90, year: 2026 })
  .returning({ id: volumes.id });
const [issue] = await db
  .insert(issues)
  .values({
    volumeId: volume.id,
    issueNumber: 1,
    title: 'A long issue',
    description: 'Three hundred articles.',
  })
  .returning({ id: issues.id });
const ids = (
  await db
    .insert(articles)
    .values(
      Array.from({ length: ARTICLES }, (_, i) => ({
        issueId: issue.id,
        title:
          `${word(i, 1)} ${word(i, 2)} ${word(i, 3)} for ${word(i, 4)} ${word(i, 5)} systems: a study ${i}`.replace(
            /^./,
            (c) => c.toUpperCase(),
          ),
        articleType: i % 5 ? 'Research Article' : 'Review Article',
        abstract: `An abstract about ${word(i, 6)} ${word(i, 7)}. `.repeat(10),
        keywords: `${word(i, 1)}, ${word(i, 2)}`,
        firstPage: i * 10 + 1,
        lastPage: i * 10 + 10,
        doi: `10.5555/toc.${i}`,
        status: 'published' as const,
        publicationDate: `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`,
      })),
    )
    .returning({ id: articles.id })
).map((r) => r.id);
await db.insert(articleAuthors).values(
  ids.flatMap((articleId, i) =>
    [0, 1, 2].map((p) => ({
      articleId,
      position: p,
      name: personOf(i * 3 + p),
      email: `a${i}.${p}@example.org`,
      affiliation: `University ${p}`,
      superscript: String(p + 1),
    })),
  ),
);

const url = '/volumes?volume=90&issue=1';

/** One page request, answering its HTML (as text or bytes: decoding is left out of the timing). */
type Fetch = () => Promise<string | Uint8Array>;

async function run(label: string, fetchPage: Fetch) {
  const cpu: number[] = [];
  const wall: number[] = [];
  let answer: string | Uint8Array = '';
  for (let i = 0; i < 10 + RUNS; i++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    answer = await fetchPage();
    const w1 = performance.now();
    const c1 = process.cpuUsage(c0);
    if (i >= 10) {
      cpu.push((c1.user + c1.system) / 1000);
      wall.push(w1 - w0);
    }
  }
  const html = typeof answer === 'string' ? answer : new TextDecoder().decode(answer);
  const data = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1])
    .filter((s) => s.includes('streamController.enqueue'))
    .join('');
  const entries = (html.match(/class="toc-entry"/g) ?? []).length;
  if (process.env.BENCH_DUMP) (await import('node:fs')).writeFileSync(process.env.BENCH_DUMP, html);
  const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB`;
  console.log(
    `${label.padEnd(46)} CPU ${median(cpu).toFixed(1).padStart(5)} ms   wall ${median(wall).toFixed(1).padStart(5)} ms   HTML ${kb(html)}   route data ${kb(data)}   (${entries} entries)`,
  );
}

/** Through Fastify and the page bridge (light-my-request reads the answer into a string: some CPU is its). */
const throughFastify: Fetch = async () => {
  const res = await t.app.inject({ method: 'GET', url });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  return res.body;
};

/** React Router's request handler alone, called as the page bridge calls it (server/http/ssr.ts). */
const handle = createRequestHandler(await loadProductionBuild(), 'production');
const context: WebContext = {
  services: t.services,
  auth: null,
  journal: { id: 1, prefix: '' },
  clientIp: '127.0.0.1',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  secure: false,
  nonce: 'YmVuY2gtbm9uY2U=',
  documentHtml: null,
};
const throughRouter: Fetch = async () => {
  const res = await handle(new Request(`http://journal.test${url}`), context as never);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
};

console.log(
  `\nTable of contents of ${ARTICLES} articles (${url}), medians of ${RUNS} requests, NODE_ENV=production\n`,
);
if (!process.env.BENCH_RENDER_ONLY) await run('whole request, loaders on PGlite (Fastify)', throughFastify);

// The same page with every service call the loaders make answered from memory: what is left is React
// Router, rendering and the route data.
const { catalog, settings } = t.services;
const remember = <T extends object, K extends keyof T>(target: T, key: K) => {
  const original = (target[key] as (...args: unknown[]) => Promise<unknown>).bind(target);
  const memo = new Map<string, Promise<unknown>>();
  (target as Record<K, unknown>)[key] = (...args: unknown[]) => {
    const k = JSON.stringify(args);
    if (!memo.has(k)) memo.set(k, original(...args));
    return memo.get(k);
  };
};
remember(catalog, 'browseIndex');
remember(catalog, 'issueArticles');
remember(settings, 'journal');
if (!process.env.BENCH_RENDER_ONLY) await run('service calls from memory (Fastify)', throughFastify);
await run('service calls from memory (React Router only)', throughRouter);

await t.close();
