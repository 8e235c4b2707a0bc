/**
 * `npm run bench:similarity` — figures for the similarity and grammar checker (issue 5). Prints tables;
 * asserts nothing. Sections (all by default, or `-- --only=accuracy,speed,check,grammar,simtext`):
 *
 *   accuracy  400 Brown samples indexed; 100 held-out samples × {verbatim, light, heavy, clean} with planted
 *             passages of 30–300 words: word-level precision/recall/F1 per kind, error of the percentage.
 *             Also a small grid of parameters (k, w, gap, anchor) to show the trade-offs.
 *   speed     10,000 synthetic documents (a bigram model of the corpus, ~2,000 words each) in PGlite:
 *             the similarity step for 8,000-word manuscripts (both candidate queries), and indexing one
 *             article. The corpus is cached in the temp folder between runs (`--fresh` rebuilds it).
 *   check     the whole check of 8,000-word PDFs through SimilarityService (worker threads, grammar
 *             included), p50/p95, with the latency of HTTP requests to this process meanwhile.
 *   grammar   false flags per 100 words on clean edited prose; share of injected errors caught.
 *   simtext   a sample of matches compared with Debian's sim_text (similarity-tester).
 *
 * Options: --docs=N (synthetic corpus size, default 10000), --checks=N (whole checks, default 12),
 * --fresh, --pg (use DATABASE_URL instead of PGlite for the speed section).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../../server/db/client.ts';
import type { FileService } from '../../server/files/service.ts';
import { type AlignParams, DEFAULT_ALIGN } from '../../server/similarity/align.ts';
import { type PreparedText, alignAll, defaultPrepareOptions, prepareText } from '../../server/similarity/engine.ts';
import { DEFAULT_WINNOW, type WinnowParams } from '../../server/similarity/fingerprint.ts';
import { CORE_RULES, type RawIssue, bodySentences, grammarChunks, scoreGrammar, spellingWords } from '../../server/similarity/grammar.ts';
import { WorkerPool } from '../../server/similarity/pool.ts';
import { SimilarityService, matchAgainstCorpus } from '../../server/similarity/service.ts';
import { type CandidateQuery, SimilarityStore } from '../../server/similarity/store.ts';
import { textPdf } from '../../server/similarity/testing.ts';
import { normalizeText, tokenize } from '../../server/similarity/text.ts';
import {
  type BrownDoc,
  type PlantKind,
  type TestDoc,
  bigramGenerator,
  brownTokens,
  loadBrown,
  makeTestDoc,
  rng,
} from './corpus.ts';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const only = args.only ? new Set(String(args.only).split(',')) : null;
const want = (s: string) => !only || only.has(s);
const SYNTH_DOCS = Number(args.docs ?? 10_000);
const CHECKS = Number(args.checks ?? 12);
const silent = { info() {}, warn() {}, error() {} };

// ---- Helpers -----------------------------------------------------------------------------------------

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const median = (xs: number[]) => quantile(xs, 0.5);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const ms = (x: number) => `${f(x, 1)} ms`;

function table(title: string, rows: Record<string, string | number>[]) {
  console.log(`\n### ${title}\n`);
  if (!rows.length) return console.log('(no rows)');
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');

interface Split {
  indexed: BrownDoc[];
  held: BrownDoc[];
  vocabulary: string[];
}

function split(): Split {
  const brown = loadBrown().map((d) => ({ ...d, paragraphs: d.paragraphs.map((p) => normalizeText(p)) }));
  const r = rng(42);
  const shuffled = r.shuffle(brown);
  const vocabulary = brownTokens()
    .flat()
    .filter((w) => /^[a-z]{2,}$/.test(w));
  return { indexed: shuffled.slice(0, 400), held: shuffled.slice(400), vocabulary };
}

async function indexBrown(store: SimilarityStore, docs: BrownDoc[], winnow: WinnowParams) {
  const ids: number[] = [];
  const times: number[] = [];
  for (const [i, d] of docs.entries()) {
    const t0 = performance.now();
    const text = d.paragraphs.join('\n\n');
    const p = prepareText(text, defaultPrepareOptions({ excludeBibliography: false, vocabulary: true, winnow }));
    const r = await store.upsert({
      sourceKind: 'article',
      sourceId: i + 1,
      groupKey: `article:${i + 1}`,
      title: `Brown ${d.id} (${d.category})`,
      published: true,
      text: p.text,
      wordHashes: p.wordHashes,
      fingerprints: p.fingerprints,
      vocabulary: p.vocabulary ?? [],
      contentSha256: `brown-${d.id}`,
    });
    ids.push(r.id);
    times.push(performance.now() - t0);
  }
  return { ids, times };
}

// ---- Accuracy ----------------------------------------------------------------------------------------

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  errors: number[];
  reported: number[];
  docs: number;
}

async function evaluate(
  store: SimilarityStore,
  ids: number[],
  tests: TestDoc[],
  opts: { align: AlignParams; winnow: WinnowParams; maxCandidates?: number },
) {
  const byKind = new Map<PlantKind, Tally>();
  const times: number[] = [];
  const details: { doc: TestDoc; prepared: PreparedText; coverage: Map<number, number> }[] = [];
  for (const doc of tests) {
    const t0 = performance.now();
    const prepared = prepareText(doc.text, defaultPrepareOptions({ winnow: opts.winnow }));
    const res = await matchAgainstCorpus(
      store,
      prepared,
      { maxCandidates: opts.maxCandidates ?? 200, query: 'any', excludeGroup: null, align: opts.align },
      (p) => alignAll(p.manuscript, p.sources, p.params),
    );
    times.push(performance.now() - t0);
    const tokens = tokenize(doc.text);
    const truth = new Int32Array(tokens.words.length).fill(-1);
    for (const p of doc.planted) {
      for (let i = 0; i < truth.length; i++) if (tokens.starts[i] >= p.start && tokens.starts[i] < p.end) truth[i] = ids[p.source];
    }
    const tally = byKind.get(doc.kind) ?? { tp: 0, fp: 0, fn: 0, errors: [], reported: [], docs: 0 };
    let planted = 0;
    for (let i = 0; i < truth.length; i++) {
      const o = res.score.owner[i];
      if (truth[i] !== -1) planted++;
      if (o !== -1 && o === truth[i]) tally.tp++;
      else {
        if (o !== -1) tally.fp++;
        if (truth[i] !== -1) tally.fn++;
      }
    }
    const counted = prepared.wordCount - Array.from(prepared.mask).filter((m) => m === 2).length;
    const reported = (res.score.matchedWords / counted) * 100;
    tally.errors.push(reported - (planted / counted) * 100);
    tally.reported.push(reported);
    tally.docs++;
    byKind.set(doc.kind, tally);
    // Coverage per source (not exclusive), for the sim_text comparison.
    const coverage = new Map<number, number>();
    for (const m of res.matches) {
      const covered = new Set<number>();
      for (const p of m.passages) for (let i = p.mStart; i < p.mEnd; i++) covered.add(i);
      coverage.set(m.key, covered.size);
    }
    details.push({ doc, prepared, coverage });
  }
  return { byKind, times, details };
}

function accuracyRows(byKind: Map<PlantKind, Tally>) {
  return (['verbatim', 'light', 'heavy', 'clean'] as PlantKind[]).map((kind) => {
    const t = byKind.get(kind)!;
    const p = t.tp / (t.tp + t.fp || 1);
    const r = t.tp / (t.tp + t.fn || 1);
    const abs = t.errors.map(Math.abs);
    return {
      kind,
      docs: t.docs,
      precision: kind === 'clean' ? '—' : f(p, 4),
      recall: kind === 'clean' ? '—' : f(r, 4),
      F1: kind === 'clean' ? '—' : f((2 * p * r) / (p + r || 1), 4),
      'mean |%err|': f(mean(abs), 2),
      'max |%err|': f(Math.max(...abs), 2),
      'within ±1 pt': `${f((abs.filter((e) => e <= 1).length / abs.length) * 100, 1)} %`,
      'mean reported %': f(mean(t.reported), 2),
    };
  });
}

async function accuracy(s: Split) {
  console.log(`\n## Accuracy (Brown corpus: ${s.indexed.length} indexed, ${s.held.length} held out)  load ${load()}`);
  const r = rng(7);
  const tests: TestDoc[] = [];
  for (const base of s.held) {
    for (const kind of ['verbatim', 'light', 'heavy', 'clean'] as PlantKind[]) tests.push(makeTestDoc(base, kind, s.indexed, s.vocabulary, r));
  }
  const changed = tests.filter((t) => normalizeText(t.text) !== t.text).length;
  if (changed) console.log(`(warning: ${changed} test texts change under normalisation)`);

  const all: { name: string; winnow: WinnowParams; align: AlignParams }[] = [
    { name: 'default', winnow: DEFAULT_WINNOW, align: DEFAULT_ALIGN },
    { name: 'gap 4', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, gapWords: 4 } },
    { name: 'gap 8', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, gapWords: 8 } },
    { name: 'gap 24', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, gapWords: 24 } },
    { name: 'density 0.3', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, minDensity: 0.3 } },
    { name: 'density 0.5', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, minDensity: 0.5 } },
    { name: 'seed 4', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, seedWords: 4 } },
    { name: 'anchor 8', winnow: DEFAULT_WINNOW, align: { ...DEFAULT_ALIGN, anchorWords: 8 } },
    { name: 'k 4, w 5', winnow: { k: 4, w: 5 }, align: DEFAULT_ALIGN },
    { name: 'k 6, w 3', winnow: { k: 6, w: 3 }, align: DEFAULT_ALIGN },
  ];
  const configs = want('accuracy') ? all : all.slice(0, 1);
  const grid: Record<string, string | number>[] = [];
  let result: Awaited<ReturnType<typeof evaluate>> | null = null;
  let defaultDb: { database: Database; store: SimilarityStore; ids: number[] } | null = null;
  const dbs = new Map<string, { database: Database; store: SimilarityStore; ids: number[]; indexMs: number[] }>();
  for (const c of configs) {
    const key = `${c.winnow.k}/${c.winnow.w}`;
    let entry = dbs.get(key);
    if (!entry) {
      const database = await openDatabase({ memory: true });
      const store = new SimilarityStore(database.db);
      const { ids, times } = await indexBrown(store, s.indexed, c.winnow);
      entry = { database, store, ids, indexMs: times };
      dbs.set(key, entry);
    }
    const ev = await evaluate(entry.store, entry.ids, tests, c);
    if (c.name === 'default') {
      result = ev;
      defaultDb = entry;
    }
    const rows = accuracyRows(ev.byKind);
    const byName = Object.fromEntries(rows.map((x) => [x.kind, x]));
    grid.push({
      config: c.name,
      'k/w': key,
      'verbatim F1': byName.verbatim.F1,
      'light F1': byName.light.F1,
      'heavy F1': byName.heavy.F1,
      'light P/R': `${byName.light.precision}/${byName.light.recall}`,
      'max |%err| (v/l)': `${byName.verbatim['max |%err|']}/${byName.light['max |%err|']}`,
      'clean mean %': byName.clean['mean reported %'],
      'check median': ms(median(ev.times)),
    });
  }
  table('Accuracy per kind (default parameters: k=5, w=4, seed 3, gap 16, density 0.4, anchor 6, min 8 words)', accuracyRows(result!.byKind));
  table('Parameter grid (same 400 test documents)', grid);
  const idx = dbs.get(`${DEFAULT_WINNOW.k}/${DEFAULT_WINNOW.w}`)!;
  console.log(
    `\nIndexing the 400 samples (~2,000 words each; prepare + store): median ${ms(median(idx.indexMs))}, p95 ${ms(quantile(idx.indexMs, 0.95))}`,
  );
  for (const e of dbs.values()) if (e !== defaultDb) await e.database.close();
  return { ...result!, ...defaultDb!, tests };
}

// ---- sim_text cross-check ----------------------------------------------------------------------------

function simText(details: Awaited<ReturnType<typeof evaluate>>['details'], store: SimilarityStore, ids: number[]) {
  return (async () => {
    console.log(`\n## Cross-check with sim_text (similarity-tester, -r 8: verbatim runs of 8+ words)  load ${load()}`);
    try {
      execFileSync('sim_text', ['-v'], { stdio: 'pipe' });
    } catch {
      console.log('sim_text is not installed (apt-get install -y similarity-tester): skipped.');
      return;
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'simtext-'));
    const r = rng(3);
    const rows: Record<string, string | number>[] = [];
    for (const kind of ['verbatim', 'light', 'heavy', 'clean'] as PlantKind[]) {
      const sample = r.shuffle(details.filter((d) => d.doc.kind === kind)).slice(0, 10);
      const pairs: { ours: number; theirs: number }[] = [];
      for (const d of sample) {
        const sources = new Set<number>([...d.doc.planted.map((p) => ids[p.source]), ...d.coverage.keys()]);
        const texts = await store.texts([...sources]);
        const m = path.join(dir, 'manuscript.txt');
        // sim_text reads words; one word per line keeps its tokenisation equal to ours.
        writeFileSync(m, tokenize(d.doc.text).words.join('\n'));
        for (const id of sources) {
          const src = path.join(dir, `source-${id}.txt`);
          writeFileSync(src, tokenize(texts.get(id) ?? '').words.join('\n'));
          const out = execFileSync('sim_text', ['-e', '-p', '-t', '1', '-r', '8', m, '/', src], { encoding: 'utf8' });
          const match = /manuscript\.txt consists for (\d+) % of .*source-\d+\.txt material/.exec(out);
          const theirs = match ? Number(match[1]) : 0;
          const ours = ((d.coverage.get(id) ?? 0) / d.prepared.wordCount) * 100;
          pairs.push({ ours, theirs });
        }
      }
      const both = pairs.filter((p) => p.ours > 0 && p.theirs > 0).length;
      rows.push({
        kind,
        'docs/pairs': `${sample.length}/${pairs.length}`,
        'mean ours %': f(mean(pairs.map((p) => p.ours)), 2),
        'mean sim_text %': f(mean(pairs.map((p) => p.theirs)), 2),
        'mean |diff|': f(mean(pairs.map((p) => Math.abs(p.ours - p.theirs))), 2),
        'found by both': both,
        'ours only': pairs.filter((p) => p.ours > 0 && p.theirs === 0).length,
        'sim_text only': pairs.filter((p) => p.theirs > 0 && p.ours === 0).length,
      });
    }
    rmSync(dir, { recursive: true, force: true });
    table('Per manuscript–source pair: share of the manuscript matched (ours: passages incl. bridged edits; sim_text: integer %)', rows);
  })();
}

// ---- Speed: similarity step and indexing on 10,000 documents -------------------------------------------

async function openSpeedDb(s: Split): Promise<{ database: Database; store: SimilarityStore; synthIds: number[] }> {
  const usePg = args.pg === 'true' && process.env.DATABASE_URL;
  const dir = path.join(os.tmpdir(), `colophon-similarity-bench-v2-${DEFAULT_WINNOW.k}-${DEFAULT_WINNOW.w}-${SYNTH_DOCS}`);
  if (args.fresh === 'true' && !usePg) rmSync(dir, { recursive: true, force: true });
  const database = usePg
    ? await openDatabase({ url: process.env.DATABASE_URL! })
    : await openDatabase({ dir: path.join(dir, 'pglite') });
  const store = new SimilarityStore(database.db);
  const stats = await store.stats();
  if (stats.documents >= SYNTH_DOCS + s.indexed.length && existsSync(path.join(dir, 'complete'))) {
    console.log(`(synthetic corpus reused from ${dir}: ${stats.documents} documents, ${stats.fingerprints} fingerprints)`);
  } else {
    if (stats.documents) await database.db.execute(sql`truncate similarity_documents, similarity_fingerprints, similarity_vocabulary cascade`);
    console.log(`Building the synthetic corpus (${SYNTH_DOCS} documents) in ${usePg ? 'PostgreSQL' : dir} …`);
    const t0 = performance.now();
    await indexBrown(store, s.indexed, DEFAULT_WINNOW);
    const generate = bigramGenerator(brownTokens(), rng(11));
    const r = rng(12);
    for (let i = 0; i < SYNTH_DOCS; i++) {
      const text = normalizeText(generate(r.int(1500, 2500)).join('\n\n'));
      const p = prepareText(text, defaultPrepareOptions({ excludeBibliography: false, vocabulary: true }));
      await store.upsert({
        sourceKind: 'submission_version',
        sourceId: i + 1,
        groupKey: `synthetic:${i + 1}`,
        title: `Synthetic ${i + 1}`,
        published: i % 2 === 0,
        text: p.text,
        wordHashes: p.wordHashes,
        fingerprints: p.fingerprints,
        vocabulary: p.vocabulary ?? [],
        contentSha256: `synthetic-${i}`,
      });
      if ((i + 1) % 1000 === 0) console.log(`  ${i + 1} documents, ${f((performance.now() - t0) / 1000, 0)} s`);
    }
    if (database.kind === 'pglite') await database.db.execute(sql.raw('VACUUM ANALYZE'));
    else await database.db.execute(sql.raw('ANALYZE'));
    if (!usePg) writeFileSync(path.join(dir, 'complete'), new Date().toISOString());
    console.log(`Built in ${f((performance.now() - t0) / 1000, 0)} s.`);
  }
  const rows = (await database.db.execute(
    sql`select id from similarity_documents where source_kind = 'submission_version' order by id limit 2000`,
  )) as unknown as { rows: { id: number }[] };
  return { database, store, synthIds: rows.rows.map((x) => Number(x.id)) };
}

/** An 8,000-word manuscript: four held-out samples, with passages planted from the corpus. */
async function bigManuscript(s: Split, store: SimilarityStore, synthIds: number[], seed: number): Promise<string> {
  const r = rng(seed);
  const bases = r.shuffle(s.held).slice(0, 4);
  const paragraphs = bases.flatMap((b) => b.paragraphs);
  const sources = await store.texts([r.pick(synthIds), r.pick(synthIds), r.pick(synthIds)]);
  for (const text of sources.values()) {
    const words = text.split(/\s+/);
    const n = r.int(60, 250);
    const at = r.int(0, words.length - n);
    paragraphs.splice(r.int(0, paragraphs.length), 0, words.slice(at, at + n).join(' '));
  }
  const brownPassage = r.pick(s.indexed).paragraphs.slice(0, 6).join(' ');
  paragraphs.splice(r.int(0, paragraphs.length), 0, brownPassage);
  let words = 0;
  const out: string[] = [];
  for (const p of paragraphs) {
    if (words >= 8000) break;
    out.push(p);
    words += p.split(/\s+/).length;
  }
  return out.join('\n\n');
}

async function speed(s: Split) {
  console.log(`\n## Speed: similarity step against ${SYNTH_DOCS} synthetic + ${s.indexed.length} Brown documents  load ${load()}`);
  const { database, store, synthIds } = await openSpeedDb(s);
  const stats = await store.stats();
  console.log(`Corpus: ${stats.documents} documents, ${stats.fingerprints} fingerprints, ${stats.words} vocabulary words (${database.kind}).`);
  const rows: Record<string, string | number>[] = [];
  const manuscripts = await Promise.all(Array.from({ length: 25 }, (_, i) => bigManuscript(s, store, synthIds, 100 + i)));
  for (const query of ['any', 'unnest'] as CandidateQuery[]) {
    const total: number[] = [];
    const fp: number[] = [];
    const cand: number[] = [];
    const al: number[] = [];
    const ncand: number[] = [];
    const words: number[] = [];
    const cpu: number[] = [];
    // One warm-up run (plans, caches), then the measured ones.
    for (const [i, text] of [manuscripts[0], ...manuscripts].entries()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const p = prepareText(text, defaultPrepareOptions());
      const t1 = performance.now();
      const res = await matchAgainstCorpus(store, p, { maxCandidates: 200, query, excludeGroup: null, align: DEFAULT_ALIGN }, (x) =>
        alignAll(x.manuscript, x.sources, x.params),
      );
      const t2 = performance.now();
      const c = process.cpuUsage(c0);
      if (i === 0) continue;
      total.push(t2 - t0);
      fp.push(t1 - t0);
      cand.push(res.candidatesMs);
      al.push(res.alignMs);
      ncand.push(res.candidates.length);
      words.push(p.wordCount);
      cpu.push((c.user + c.system) / 1000);
    }
    rows.push({
      query: query === 'any' ? 'hash = ANY($1)' : 'unnest($1) join',
      runs: total.length,
      words: f(mean(words), 0),
      'total median': ms(median(total)),
      'total p95': ms(quantile(total, 0.95)),
      'CPU median': ms(median(cpu)),
      fingerprint: ms(median(fp)),
      'candidates (query+read words)': ms(median(cand)),
      'align+score': ms(median(al)),
      candidates: f(median(ncand), 0),
    });
  }
  table('Similarity step for ~8,000-word manuscripts (tokenise + fingerprint + query + align + credit), main thread', rows);

  // Indexing one article: prepare + store (extraction excluded: see the check section for it).
  const generate = bigramGenerator(brownTokens(), rng(99));
  const r = rng(98);
  const prep: number[] = [];
  const storeMs: number[] = [];
  for (let i = 0; i < 21; i++) {
    const text = normalizeText(generate(8000).join('\n\n'));
    const t0 = performance.now();
    const p = prepareText(text, defaultPrepareOptions({ excludeBibliography: false, vocabulary: true }));
    const t1 = performance.now();
    await store.upsert({
      sourceKind: 'article',
      sourceId: 1_000_000 + i,
      groupKey: `bench:${i}`,
      title: 'bench',
      published: true,
      text: p.text,
      wordHashes: p.wordHashes,
      fingerprints: p.fingerprints,
      vocabulary: p.vocabulary ?? [],
      contentSha256: `bench-${r.next()}`,
    });
    const t2 = performance.now();
    if (i > 0) {
      prep.push(t1 - t0);
      storeMs.push(t2 - t1);
    }
  }
  for (let i = 0; i < 21; i++) await store.remove('article', 1_000_000 + i);
  table('Indexing one 8,000-word article into the 10,000-document corpus (extraction excluded)', [
    {
      runs: prep.length,
      'tokenise+fingerprint median': ms(median(prep)),
      'store (doc + ~3,200 fingerprints + vocabulary) median': ms(median(storeMs)),
      'total median': ms(median(prep.map((x, i) => x + storeMs[i]))),
      'total p95': ms(quantile(prep.map((x, i) => x + storeMs[i]), 0.95)),
    },
  ]);
  return { database, store, synthIds };
}

// ---- Whole checks through the service ----------------------------------------------------------------

async function wholeCheck(s: Split, ctx: { database: Database; store: SimilarityStore; synthIds: number[] }) {
  console.log(`\n## Whole check of 8,000-word PDFs through SimilarityService (workers, grammar included)  load ${load()}`);
  const pdfs: Buffer[] = [];
  for (let i = 0; i < CHECKS + 1; i++) {
    const text = await bigManuscript(s, ctx.store, ctx.synthIds, 500 + i);
    pdfs.push(await textPdf(text.split('\n\n')));
  }
  // An HTTP server in this process, and a client in another process asking it every 20 ms: the latency
  // a page request would see while checks run.
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const rows: Record<string, string | number>[] = [];
  for (const grammarWorkers of [1, 2]) {
    const service = new SimilarityService(ctx.database.db, {
      files: {} as FileService,
      log: silent,
      options: { grammarWorkers, workers: 1 },
    });
    const cold = performance.now();
    await service.check({ data: pdfs[0] }, { viewer: 'editor' });
    const coldMs = performance.now() - cold;
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const http=require('http');const lat=[];const t=setInterval(()=>{const s=process.hrtime.bigint();http.get('http://127.0.0.1:${port}/',r=>{r.resume();r.on('end',()=>lat.push(Number(process.hrtime.bigint()-s)/1e6))}).on('error',()=>{})},20);process.on('message',()=>{clearInterval(t);process.send(lat);});`,
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] },
    );
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const totals: number[] = [];
    const parts = { extract: [] as number[], similarity: [] as number[], grammar: [] as number[] };
    const cpu: number[] = [];
    let words = 0;
    for (const pdf of pdfs.slice(1)) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const report = await service.check({ data: pdf }, { viewer: 'editor' });
      totals.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      parts.extract.push(report.timings.extractMs);
      parts.similarity.push(report.timings.similarityMs);
      parts.grammar.push(report.timings.grammarMs);
      words = report.words.total;
    }
    loop.disable();
    const latencies: number[] = await new Promise((resolve) => {
      client.once('message', (m) => resolve(m as number[]));
      client.send('stop');
    });
    client.kill();
    await service.close();
    rows.push({
      'grammar workers': grammarWorkers,
      runs: totals.length,
      words,
      'first (cold) check': ms(coldMs),
      'total p50': ms(median(totals)),
      'total p95': ms(quantile(totals, 0.95)),
      'process CPU p50': ms(median(cpu)),
      'extract p50': ms(median(parts.extract)),
      'similarity p50': ms(median(parts.similarity)),
      'grammar p50': ms(median(parts.grammar)),
      'HTTP latency p50/p99/max': `${f(median(latencies), 1)}/${f(quantile(latencies, 0.99), 1)}/${f(Math.max(...latencies), 1)} ms`,
      'event-loop delay p99': ms(loop.percentile(99) / 1e6),
    });
  }
  server.close();
  table('Whole checks (each run a different PDF: harper caches repeated sentences)', rows);
}

// ---- Grammar -----------------------------------------------------------------------------------------

type ErrorKind = 'agreement' | 'a/an' | 'their/there' | 'doubled word' | 'misspelling';

function inject(sentence: string, kind: ErrorKind, r: ReturnType<typeof rng>): { text: string; start: number; end: number } | null {
  const swaps: Record<string, [RegExp, (m: string) => string][]> = {
    agreement: [
      [/\b(he|she|it) (is|was|has|does)\b/i, (m) => m.replace(/\b(is|was|has|does)$/, (v) => ({ is: 'are', was: 'were', has: 'have', does: 'do' })[v]!)],
      [/\b(they|we) (are|were|have|do)\b/i, (m) => m.replace(/\b(are|were|have|do)$/, (v) => ({ are: 'is', were: 'was', have: 'has', do: 'does' })[v]!)],
      [/\bthere (is|was)\b/i, (m) => m.replace(/(is|was)$/, (v) => (v === 'is' ? 'are' : 'were'))],
    ],
    'a/an': [
      [/\ba (?=[bcdfgjklmnpqrstvwxz]\w+)/, () => 'an '],
      [/\ban (?=[aeio]\w+)/, () => 'a '],
    ],
    'their/there': [
      [/\btheir\b/, () => 'there'],
      [/\bthere\b/, () => 'their'],
    ],
    'doubled word': [[/\b(the|a|of|to|in|and|is|was) /, (m) => `${m}${m}`]],
    misspelling: [
      [
        /\b[a-z]{7,}\b/,
        (m) => {
          const i = r.int(1, m.length - 3);
          return m.slice(0, i) + m[i + 1] + m[i] + m.slice(i + 2);
        },
      ],
    ],
  };
  for (const [re, fn] of r.shuffle(swaps[kind])) {
    const m = re.exec(sentence);
    if (!m) continue;
    const replacement = fn(m[0]);
    if (replacement === m[0]) continue;
    return {
      text: sentence.slice(0, m.index) + replacement + sentence.slice(m.index + m[0].length),
      start: m.index,
      end: m.index + replacement.length,
    };
  }
  return null;
}

async function grammarBench(s: Split, store: SimilarityStore) {
  console.log(`\n## Grammar (harper.js ${'2.10'} in a worker)  load ${load()}`);
  const pool = new WorkerPool({
    name: 'grammar',
    entry: new URL('../../server/similarity/grammar-worker.ts', import.meta.url),
    size: 1,
    maxQueue: 10_000,
    idleMs: 60_000,
  });
  for (const rules of ['core', 'all'] as const) await grammarRun(s, store, pool, rules);
  await pool.close();
}

async function grammarRun(s: Split, store: SimilarityStore, pool: WorkerPool, rules: 'core' | 'all') {
  console.log(`\n#### harper rules: ${rules}${rules === 'core' ? ` (${CORE_RULES.length} rules, the service's default)` : ' (every rule)'}`);
  const lint = async (body: string) => {
    const sentences = bodySentences(body);
    const raw: RawIssue[] = [];
    for (const c of grammarChunks(body, sentences, 1200)) {
      const issues = await pool.run<RawIssue[]>('lint', { text: c.text, rules: rules === 'all' ? 'all' : [...CORE_RULES] });
      raw.push(...issues.map((i) => ({ ...i, start: i.start + c.offset, end: i.end + c.offset })));
    }
    const known = await store.knownWords(spellingWords(body, sentences, raw), 2);
    return { sentences, raw, result: scoreGrammar(body, sentences, raw, known) };
  };
  // Clean, edited prose: held-out samples (their words are partly in the indexed samples' vocabulary).
  const clean = s.held.slice(0, 15);
  let words = 0;
  let flags = 0;
  let rawCounted = 0;
  const byRule = new Map<string, number>();
  const t0 = performance.now();
  const cleanSentences: string[] = [];
  for (const d of clean) {
    const body = d.paragraphs.join('\n\n');
    const { result, sentences, raw } = await lint(body);
    words += result.words;
    flags += result.issues.length;
    rawCounted += raw.length;
    for (const i of result.issues) byRule.set(`${i.kind}/${i.rule}`, (byRule.get(`${i.kind}/${i.rule}`) ?? 0) + 1);
    const flagged = new Set(result.issues.map((i) => sentences.findIndex(([a, b]) => i.start >= a && i.start < b)));
    sentences.forEach(([a, b], k) => {
      const text = body.slice(a, b).trim();
      if (!flagged.has(k) && text.split(/\s+/).length >= 6 && !/[\u201c\u201d"]/.test(text)) cleanSentences.push(text);
    });
  }
  const lintMs = performance.now() - t0;
  table('Clean edited prose (15 held-out Brown samples, vocabulary from the 400 indexed)', [
    {
      words,
      'all harper flags': rawCounted,
      'counted flags': flags,
      'counted flags / 100 words': f((flags / words) * 100, 3),
      'lint speed': `${f(words / (lintMs / 1000), 0)} words/s`,
    },
  ]);
  table(
    'Counted flags on clean prose by rule (top 12)',
    [...byRule.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([rule, n]) => ({ rule, flags: n })),
  );

  // Injected errors: one per sentence, in sentences without a flag of their own.
  const r = rng(5);
  const rows: Record<string, string | number>[] = [];
  let caught = 0;
  let total = 0;
  for (const kind of ['agreement', 'a/an', 'their/there', 'doubled word', 'misspelling'] as ErrorKind[]) {
    const cases: { text: string; start: number; end: number }[] = [];
    for (const sentence of r.shuffle(cleanSentences)) {
      const c = inject(sentence, kind, r);
      if (c) cases.push(c);
      if (cases.length >= 40) break;
    }
    let body = '';
    const spans: [number, number][] = [];
    for (const c of cases) {
      spans.push([body.length + c.start, body.length + c.end]);
      body += `${c.text}\n\n`;
    }
    const { result } = await lint(body);
    const hits = spans.filter(([a, b]) => result.issues.some((i) => i.start < b + 1 && i.end > a - 1)).length;
    caught += hits;
    total += spans.length;
    rows.push({ error: kind, injected: spans.length, caught: hits, rate: `${f((hits / (spans.length || 1)) * 100, 1)} %` });
  }
  rows.push({ error: 'all', injected: total, caught, rate: `${f((caught / total) * 100, 1)} %` });
  table('Injected common errors (one per sentence)', rows);
}

// ---- Main --------------------------------------------------------------------------------------------

console.log(`# Similarity benchmark  (${os.cpus().length} cores, Node ${process.version}, load average ${load()})`);
const data = split();
let acc: Awaited<ReturnType<typeof accuracy>> | null = null;
if (want('accuracy') || want('simtext') || want('grammar')) acc = await accuracy(data);
if (acc && want('simtext')) await simText(acc.details, acc.store, acc.ids);
if (acc && want('grammar')) await grammarBench(data, acc.store);
if (acc) await acc.database.close();
if (want('speed') || want('check')) {
  const ctx = want('speed') ? await speed(data) : await openSpeedDb(data);
  if (want('check')) await wholeCheck(data, ctx);
  await ctx.database.close();
}
console.log(`\nDone. Load average at the end: ${load()}`);
