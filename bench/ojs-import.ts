/**
 * The OJS importer on a large export (issue 26, decision 0066): an export of ISSUES × PER_ISSUE articles, each
 * with an embedded PDF of PDF_KB, generated as a stream to a temporary file (never in memory), then imported by
 * the CLI's code path (`importCommand`) in a child process of its own, whose resident memory and heap are
 * sampled every 100 ms. A smaller export (REFERENCE_MB) runs first in the same way: the peak memory of both
 * shows whether memory grows with the export's size (it must not: sax in pieces, base64 decoded to a file,
 * the file streamed into the blob store).
 *
 *   npm run bench:ojs-import                                  # 2 GB of PDFs, and a 200 MB reference
 *   npm run bench:ojs-import -- --total-mb 500 --pdf-kb 512   # other sizes
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { nativeExport, sampleJournal } from '../tests/fixtures/ojs/make.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};

type ChildResult = { seconds: number; peakRss: number; peakHeap: number; report: string[]; code: number };

async function child(file: string) {
  const { createTestContext } = await import('../server/testing/harness.ts');
  const { importCommand } = await import('../server/ojs/commands.ts');
  const t = await createTestContext();
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 100);
  const started = performance.now();
  const report: string[] = [];
  const code = await importCommand(
    ['ojs', file, '--journal', 'bench'],
    t.services,
    { log: (l) => report.push(l), error: (l) => report.push(l), progress: () => {} },
    { adminUsername: 'admin' },
  );
  const seconds = (performance.now() - started) / 1000;
  sample();
  clearInterval(timer);
  await t.close();
  const result: ChildResult = { seconds, peakRss, peakHeap, report, code };
  process.stdout.write(`\nRESULT ${JSON.stringify(result)}\n`);
}

/** Writes the export to `file` piece by piece; returns its size and how many articles it holds. */
function generate(file: string, totalMb: number, pdfKb: number, perIssue: number) {
  const articles = Math.max(1, Math.round((totalMb * 1024) / pdfKb));
  const issues = Math.max(1, Math.ceil(articles / perIssue));
  const fd = openSync(file, 'w');
  try {
    for (const piece of nativeExport('3.4', sampleJournal({ issues, perIssue, pdfBytes: pdfKb * 1024 })))
      writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
  return { bytes: statSync(file).size, articles: issues * perIssue, issues };
}

function runChild(file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--child', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: '' },
    });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line)
        reject(new Error(`the import's process ended (${code}) without a result:\n${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice(7)));
    });
  });
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  if (args[0] === '--child') return child(args[1]);
  const totalMb = flag('total-mb', 2048);
  const referenceMb = flag('reference-mb', 200);
  const pdfKb = flag('pdf-kb', 1024);
  const perIssue = flag('per-issue', 20);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ojs-'));
  try {
    const rows: string[] = [];
    for (const size of [referenceMb, totalMb]) {
      const file = path.join(dir, `export-${size}.xml`);
      const t0 = performance.now();
      const made = generate(file, size, pdfKb, perIssue);
      const gen = (performance.now() - t0) / 1000;
      console.error(
        `generated ${mb(made.bytes)} (${made.articles} articles) in ${gen.toFixed(0)} s; importing…`,
      );
      const r = await runChild(file);
      if (r.code !== 0) throw new Error(`the import failed:\n${r.report.join('\n')}`);
      rows.push(
        `| ${mb(made.bytes)} | ${made.issues} × ${perIssue} | ${r.seconds.toFixed(0)} | ${(made.articles / r.seconds).toFixed(1)} | ${(made.bytes / 1024 / 1024 / r.seconds).toFixed(1)} | ${mb(r.peakRss)} | ${mb(r.peakHeap)} |`,
      );
      console.error(r.report.slice(0, 4).join('\n'));
      rmSync(file, { force: true });
    }
    console.log('| export | issues × articles | import s | articles/s | MB/s | peak RSS | peak heap |');
    console.log('|---|---|---:|---:|---:|---:|---:|');
    for (const r of rows) console.log(r);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
