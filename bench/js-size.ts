/**
 * JavaScript shipped per public page, and layout shift. Run after `npm run build` with `npm run bench:js`.
 *
 * Each page is loaded once in a fresh Chromium context (empty cache) against the production server on a
 * temporary data folder. Counted: every script response (raw bytes, and gzip level 9 computed here with
 * zlib, whatever the server sent), and, apart, the inline <script> text in the HTML (the route data React
 * Router hydrates from). CLS is the sum of layout-shift entries without recent input, observed from the
 * first byte until the page is idle, at 1280 and 390 px wide.
 *
 * Exits 1 if the article page's scripts exceed ARTICLE_BUDGET_GZIP. Figures only: never a timed test.
 */
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/env.ts';
import { startServer } from './server.ts';

const ARTICLE_BUDGET_GZIP = 120 * 1024;

const STATIC_PAGES = [
  '/',
  '/home',
  '/login',
  '/regist',
  '/about',
  '/overview',
  '/indexing',
  '/editorial-board',
  '/instructions',
  '/apc',
  '/ethics',
  '/copyright',
  '/contact',
  '/open-special-issues',
  '/closed-special-issues',
  '/subscription',
  '/volumes',
];

interface Row {
  path: string;
  status: string;
  scripts: number;
  raw: number;
  gzip: number;
  inlineRaw: number;
  inlineGzip: number;
  cls1280: number;
  cls390: number;
}

const gz = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;
const kb = (n: number) => (n / 1024).toFixed(1);

/** Records layout shifts from the very start of the document. */
const CLS_OBSERVER = `
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

async function measure(browser: Browser, baseURL: string, path: string, width: number) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height: width === 390 ? 844 : 800 },
  });
  await context.addInitScript(CLS_OBSERVER);
  const page = await context.newPage();
  const bodies: Promise<Buffer | null>[] = [];
  const names: string[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (response.request().resourceType() === 'script' || /javascript/.test(type)) {
      // A script that failed to load is no figure: reported as missing (a rebuild under the server?).
      bodies.push(response.ok() ? response.body().catch(() => null) : Promise.resolve(null));
      names.push(new URL(response.url()).pathname.replace(/^.*\//, ''));
    }
  });
  const response = await page.goto(path, { waitUntil: 'networkidle' });
  // Late shifts (fonts, images) land within a moment of idle.
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent ?? '').join('\n'),
  );
  const finalPath = new URL(page.url()).pathname;
  const status = `${response?.request().redirectedFrom() ? '3xx→' : ''}${response?.status() ?? '-'}${finalPath !== path ? ` ${finalPath}` : ''}`;
  const loaded = await Promise.all(bodies);
  const scripts = loaded.filter((b): b is Buffer => b !== null);
  const each = loaded.map((b, i) => ({ name: names[i], gzip: b ? gz(b) : 0 }));
  await context.close();
  return { status, scripts, each, missing: loaded.length - scripts.length, inline, cls };
}

async function firstArticleId(baseURL: string): Promise<number | null> {
  const res = await fetch(`${baseURL}/api/articles/public/articles`);
  if (!res.ok) return null;
  const volumes = (await res.json()) as { issues: { articles: { id: number }[] }[] }[];
  return volumes.flatMap((v) => v.issues.flatMap((i) => i.articles.map((a) => a.id)))[0] ?? null;
}

async function main() {
  const server = await startServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const id = await firstArticleId(server.url);
    const articlePath = `/article/${id ?? 1}`;
    const pages = [...STATIC_PAGES, articlePath, `/download/${id ?? 1}`, '/no-such-page'];

    const rows: Row[] = [];
    let articleScripts: { name: string; gzip: number }[] = [];
    for (const path of pages) {
      const wide = await measure(browser, server.url, path, 1280);
      if (path === articlePath) articleScripts = wide.each;
      const narrow = await measure(browser, server.url, path, 390);
      rows.push({
        path,
        status: wide.missing ? `${wide.status} (${wide.missing} scripts failed)` : wide.status,
        scripts: wide.scripts.length,
        raw: wide.scripts.reduce((sum, b) => sum + b.length, 0),
        gzip: wide.scripts.reduce((sum, b) => sum + gz(b), 0),
        inlineRaw: Buffer.byteLength(wide.inline),
        inlineGzip: wide.inline ? gz(wide.inline) : 0,
        cls1280: wide.cls,
        cls390: narrow.cls,
      });
    }

    const header = [
      'page',
      'status',
      'scripts',
      'raw KB',
      'gzip KB',
      'inline KB',
      'inline gz KB',
      'CLS 1280',
      'CLS 390',
    ];
    const table = rows.map((r) => [
      r.path,
      r.status,
      String(r.scripts),
      kb(r.raw),
      kb(r.gzip),
      kb(r.inlineRaw),
      kb(r.inlineGzip),
      r.cls1280.toFixed(3),
      r.cls390.toFixed(3),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(
      `\nJavaScript per page (gzip level 9 computed locally; inline = <script> text in the HTML)\n`,
    );
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of table) console.log(line(row));

    console.log(`\nThe article page's scripts, largest first (gzip KB):`);
    for (const s of [...articleScripts].sort((a, b) => b.gzip - a.gzip)) {
      console.log(`  ${kb(s.gzip).padStart(6)}  ${s.name}`);
    }

    const article = rows.find((r) => r.path === articlePath)!;
    const over = article.gzip > ARTICLE_BUDGET_GZIP;
    if (rows.some((r) => r.status.includes('failed'))) {
      console.log(
        '\nSome scripts failed to load: the figures above are incomplete (was the site rebuilt meanwhile?).',
      );
      process.exitCode = 1;
    }
    console.log(
      `\nArticle page (${articlePath}, ${article.status}): ${kb(article.gzip)} KB gzipped of a ${kb(ARTICLE_BUDGET_GZIP)} KB budget: ${over ? 'OVER BUDGET' : 'within budget'}` +
        `${article.status.startsWith('404') ? ' (the page answers 404: not built yet?)' : ''}`,
    );
    const worstCls = rows.reduce((a, b) =>
      Math.max(b.cls1280, b.cls390) > Math.max(a.cls1280, a.cls390) ? b : a,
    );
    console.log(
      `Largest CLS: ${Math.max(worstCls.cls1280, worstCls.cls390).toFixed(3)} on ${worstCls.path} (good: ≤ 0.1)`,
    );
    if (over) process.exitCode = 1;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
