/**
 * `npm run bench:http`: the reader-facing site under load, as `npm start` serves it (issue 13).
 *
 * For each database (PGlite, then PostgreSQL on a fresh database of the server at --pg, dropped after):
 *   1. `node scripts/start.mjs` on an empty data folder (cold start, fresh folder): the server seeds the demo
 *      volume (5 articles). A reader account is registered and approved through the API.
 *   2. Demo size: every target measured (below).
 *   3. The server stops; 1,995 more articles go into its tables in bulk (bench/lib/seed.ts: one issue of
 *      300, the others of 20; 2,000 published articles in all), then VACUUM ANALYZE.
 *   4. `node scripts/start.mjs` again on that folder (cold start, existing folder); every target measured at
 *      2,000 articles; memory after the run.
 *   5. Several journals (issue 24): the server stops; the first journal moves to the path /j01 (so `/` is the
 *      site's home), 19 more journals are made at /j02 … /j20 by the site admin's service, each with 2,000
 *      articles (40,000 in all); started again, every target is measured in the first journal (/j01/…),
 *      and `site-home` is the site's home listing the 20 journals. Lighthouse (mobile) on home, /volumes
 *      and the article page of the last size measured.
 *
 * Each target: the product's answer is fetched once with the headers the load sends (a browser's, with
 * Accept-Encoding: gzip, deflate, br; the session cookie for the signed-in page) and served byte for byte
 * from memory by a bare Fastify route in another process (the reference). The load (autocannon, its own
 * process, 50 connections on loopback) runs A B B A: product, reference, reference, product, after a
 * warm-up of each. Rates are answers / (first request to last answer). Server CPU per request is the
 * utime+stime of the server process (all its threads) over a product phase, until its queue drained,
 * divided by the requests sent.
 *
 *   npm run bench:http                                  # everything (about 20 minutes)
 *   npm run bench:http -- --db=pglite --sizes=full      # one database, 2,000 articles only
 *   npm run bench:http -- --db=pglite --sizes=journals  # one database, 20 journals × 2,000 articles only
 *   npm run bench:http -- --targets=article,signed-in --duration=5 --connections=50
 *   npm run bench:http -- --lighthouse=off --no-build   # no Lighthouse, the current build as it is
 *   npm run bench:http -- --db=pglite --sizes=demo --targets=article,home,volumes --lighthouse=off \
 *     --memory=off --no-build --duration=1                # the short run of .ci/run (under a minute)
 *
 * Prints tables and writes the figures to bench/results/http-<date>.json (or --out=FILE).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import pg from 'pg';
import { pgliteCopy } from '../server/db/client.ts';
import { makeSpare } from '../server/db/pglite-files.mjs';
import { withJournal } from '../server/db/scope.ts';
import { openBlobStore } from '../server/files/stores.ts';
import { openRuntime } from '../server/lifecycle.ts';
import { createServices } from '../server/services.ts';
import { ADMIN, SERVER_ENV } from '../tests/e2e/env.ts';
import { BROWSER_HEADERS, JSON_HEADERS, rawGet } from './lib/http-client.ts';
import { type LighthouseResult, lighthouseMobile } from './lib/lighthouse.ts';
import { type LoadGenerator, type LoadResult, startLoadGenerator } from './lib/load.ts';
import { cpuMs, memoryMiB, waitQuiet } from './lib/proc.ts';
import { type RecordedAnswer, startReference } from './lib/reference.ts';
import { commitMeasured, log, median, numberFlag, sum, uptime } from './lib/report.ts';
import { seedArchive } from './lib/seed.ts';
import { type BenchServer, startServer } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// ---- Options ------------------------------------------------------------------------------------------
const TARGETS = [
  'article',
  'home',
  'root',
  'volumes',
  'toc',
  'search',
  'api',
  'signed-in',
  'site-home',
] as const;
type TargetName = (typeof TARGETS)[number];
const DATABASES = ['pglite', 'postgres'] as const;
type DatabaseKind = (typeof DATABASES)[number];
const SIZES = ['demo', 'full', 'journals'] as const;
type Size = (typeof SIZES)[number];
const SIZE_LABEL: Record<Size, string> = {
  demo: 'demo size (5 articles)',
  full: '2,000 articles',
  journals: '20 journals × 2,000 articles (40,000)',
};
/** At the `journals` size, the journals' count and the first journal's new path (its pages are measured there). */
const JOURNALS = 20;
const FIRST_JOURNAL_PATH = 'j01';
const prefixAt = (size: Size) => (size === 'journals' ? `/${FIRST_JOURNAL_PATH}` : '');
const LIGHTHOUSE_PAGES = ['home', 'volumes', 'article'] as const;

const flags = new Map<string, string>();
for (const arg of process.argv.slice(2)) {
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
  if (!m) {
    console.error(`Unknown argument ${arg}: see the comment at the top of bench/http.ts.`);
    process.exit(2);
  }
  flags.set(m[1], m[2] ?? 'true');
}
function listFlag<T extends string>(name: string, allowed: readonly T[], fallback: readonly T[]): T[] {
  const value = flags.get(name);
  if (value === undefined) return [...fallback];
  if (value === 'off' || value === '') return [];
  const items = value.split(',').map((s) => s.trim());
  const wrong = items.filter((i) => !allowed.includes(i as T));
  if (wrong.length) {
    console.error(`--${name}: unknown ${wrong.join(', ')} (choose from ${allowed.join(', ')}).`);
    process.exit(2);
  }
  return items as T[];
}
const options = {
  databases: listFlag('db', DATABASES, DATABASES),
  sizes: listFlag('sizes', SIZES, SIZES),
  targets: listFlag('targets', TARGETS, TARGETS),
  lighthouse: listFlag('lighthouse', LIGHTHOUSE_PAGES, LIGHTHOUSE_PAGES),
  /** `--memory=off`: no idle memory (a minute or more of waiting per size) and no plagiarism check. */
  memory: flags.get('memory') !== 'off',
  /** Seconds per measured phase, and per warm-up run (whole seconds: autocannon stops on its 1 s tick). */
  duration: Math.ceil(numberFlag(flags, 'duration', 2)),
  warmup: Math.ceil(numberFlag(flags, 'warmup', 1)),
  connections: numberFlag(flags, 'connections', 50),
  /** How many times A B B A runs per target. */
  rounds: numberFlag(flags, 'rounds', 1),
  query: flags.get('q') ?? 'learning',
  build: !flags.has('no-build'),
  pg: flags.get('pg') ?? process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  out:
    flags.get('out') ??
    path.join('bench', 'results', `http-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
};

/** The archive added at full size: with the demo's 5 articles, 2,000; one issue of 300. */
const FULL_LAYOUT = {
  issueSizes: [300, ...Array.from({ length: 84 }, () => 20), 15],
  issuesPerVolume: 4,
  firstVolumeNumber: 2,
  firstYear: 2026,
};
const READER = {
  username: 'bench_reader',
  password: 'bench-reader-password-1',
  email: 'bench_reader@example.org',
  fullName: 'Bench Reader',
  contactNumber: '+91 44 1234 5678',
  institution: 'Bench University',
  role: 'researcher',
};

// ---- Helpers ------------------------------------------------------------------------------------------

async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    ...init,
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      accept: 'application/json',
      ...init.headers,
    },
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** Registers the bench's reader through the API and has the admin approve it (once per data folder). */
async function createReader(base: string) {
  const reg = await json(`${base}/api/auth/register`, { method: 'POST', body: JSON.stringify(READER) });
  if (reg.status !== 201)
    throw new Error(`registering the reader: ${reg.status} ${JSON.stringify(reg.body)}`);
  const admin = await json(`${base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  if (admin.status !== 200) throw new Error(`admin login: ${admin.status} ${JSON.stringify(admin.body)}`);
  const auth = { authorization: `Bearer ${admin.body.token}` };
  const pending = await json(`${base}/api/editor/pending-users`, { headers: auth });
  const id = (pending.body as { id: number; username: string }[]).find(
    (u) => u.username === READER.username,
  )?.id;
  if (!id) throw new Error('the registered reader is not among the pending accounts');
  const ok = await json(`${base}/api/editor/approve-user/${id}`, { method: 'POST', headers: auth });
  if (ok.status !== 200) throw new Error(`approving the reader: ${ok.status} ${JSON.stringify(ok.body)}`);
}

/** Signs the reader in through the API; returns the Cookie header a browser would then send. */
async function readerCookie(base: string): Promise<string> {
  const res = await json(`${base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ username: READER.username, password: READER.password }),
  });
  const setCookie = res.headers.get('set-cookie');
  if (res.status !== 200 || !setCookie)
    throw new Error(`reader login: ${res.status} ${JSON.stringify(res.body)}`);
  return setCookie.split(';')[0];
}

interface Target {
  name: TargetName;
  path: string;
  headers: Record<string, string>;
  note?: string;
}

/** Every target's address, found in the public catalogue the server answers with. */
async function findTargets(site: string, cookie: string, size: Size): Promise<Target[]> {
  const prefix = prefixAt(size);
  const base = `${site}${prefix}`;
  const tree = await json(`${base}/api/articles/public/articles`);
  if (tree.status !== 200) throw new Error(`GET /api/articles/public/articles: ${tree.status}`);
  type Tree = { volume_number: number; issues: { issue_number: number; articles: { id: number }[] }[] }[];
  const volumes = [...(tree.body as Tree)].sort((a, b) => a.volume_number - b.volume_number);
  const issues = volumes.flatMap((v) => v.issues.map((i) => ({ volume: v.volume_number, ...i })));
  const articleCount = sum(issues.map((i) => i.articles.length));
  // The first article of the first issue: the same demo article at both sizes (it has a PDF).
  const article = issues.find((i) => i.articles.length)?.articles[0];
  if (!article) throw new Error('the catalogue has no published article');
  const largest = issues.reduce((a, b) => (b.articles.length > a.articles.length ? b : a));
  const all: Target[] = (
    [
      { name: 'article', path: `/article/${article.id}`, headers: BROWSER_HEADERS },
      { name: 'home', path: '/home', headers: BROWSER_HEADERS },
      { name: 'root', path: '/', headers: BROWSER_HEADERS },
      { name: 'volumes', path: '/volumes', headers: BROWSER_HEADERS },
      {
        name: 'toc',
        path: `/volumes?volume=${largest.volume}&issue=${largest.issue_number}`,
        headers: BROWSER_HEADERS,
        note: `${largest.articles.length} articles`,
      },
      { name: 'search', path: `/search?q=${encodeURIComponent(options.query)}`, headers: BROWSER_HEADERS },
      {
        name: 'api',
        path: '/api/articles/public/articles',
        headers: JSON_HEADERS,
        note: `${articleCount} articles`,
      },
      { name: 'signed-in', path: `/article/${article.id}`, headers: { ...BROWSER_HEADERS, cookie } },
    ] satisfies Target[]
  ).map((t): Target => ({ ...t, path: `${prefix}${t.path}` }));
  // The site's home, listing every journal: only where no journal is at the root.
  if (size === 'journals')
    all.push({ name: 'site-home', path: '/', headers: BROWSER_HEADERS, note: `${JOURNALS} journals` });
  return all;
}

interface Phase extends LoadResult {
  side: 'product' | 'reference';
  /** Server CPU over the phase until the server was quiet again, ms. */
  cpuMs: number;
  /** How long the server kept working after the load stopped (its queue), ms. */
  drainMs: number;
}

interface SideSummary {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  cpuPerRequestMs: number;
}

interface TargetResult {
  name: TargetName;
  path: string;
  note?: string;
  answer: {
    status: number;
    bytes: number;
    contentType?: string;
    contentEncoding?: string;
    etag?: string;
    cacheControl?: string;
    vary?: string;
  };
  product?: SideSummary;
  reference?: SideSummary;
  /** Median over the pairs of product rps / reference rps. */
  ratio?: number;
  phases: Phase[];
  error?: string;
}

function summarise(phases: Phase[]): SideSummary {
  return {
    rps: median(phases.map((p) => p.rps)),
    p50: median(phases.map((p) => p.p50)),
    p99: Math.max(...phases.map((p) => p.p99)),
    errors: sum(phases.map((p) => p.errors)),
    timeouts: sum(phases.map((p) => p.timeouts)),
    non2xx: sum(phases.map((p) => p.non2xx)),
    cpuPerRequestMs: sum(phases.map((p) => p.cpuMs)) / Math.max(1, sum(phases.map((p) => p.sent))),
  };
}

async function phase(
  load: LoadGenerator,
  side: Phase['side'],
  base: string,
  pid: number,
  target: Target,
  duration: number,
): Promise<Phase> {
  const before = cpuMs(pid);
  const result = await load.run({
    url: `${base}${target.path}`,
    connections: options.connections,
    duration,
    headers: target.headers,
  });
  const drainMs = await waitQuiet(pid, { windowMs: 250 });
  return { side, ...result, cpuMs: cpuMs(pid) - before, drainMs };
}

/** Every target on one running server: record the answers, start the reference, run A B B A each. */
async function measureTargets(
  load: LoadGenerator,
  server: BenchServer,
  pid: number,
  size: Size,
): Promise<TargetResult[]> {
  const cookie = await readerCookie(`${server.url}${prefixAt(size)}`);
  const targets = (await findTargets(server.url, cookie, size)).filter((t) =>
    options.targets.includes(t.name),
  );
  const results: TargetResult[] = [];
  const answers: RecordedAnswer[] = [];
  for (const target of targets) {
    const res = await rawGet(`${server.url}${target.path}`, target.headers);
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    };
    results.push({
      name: target.name,
      path: target.path,
      note: target.note,
      answer: {
        status: res.status,
        bytes: res.body.length,
        contentType: header('content-type'),
        contentEncoding: header('content-encoding'),
        etag: header('etag'),
        cacheControl: header('cache-control'),
        vary: header('vary'),
      },
      phases: [],
      ...(res.status === 200 ? {} : { error: `answered ${res.status} when recorded: not measured` }),
    });
    answers.push({
      path: target.path,
      signedIn: 'cookie' in target.headers,
      status: res.status,
      contentType: header('content-type'),
      contentEncoding: header('content-encoding'),
      body: res.body,
    });
  }
  const reference = await startReference(answers);
  try {
    for (const [k, target] of targets.entries()) {
      const result = results[k];
      if (result.error) {
        log(`  ${target.name}: ${result.error}`);
        continue;
      }
      const sides = {
        product: { base: server.url, pid },
        reference: { base: reference.url, pid: reference.pid },
      };
      await phase(load, 'product', sides.product.base, pid, target, options.warmup);
      await phase(load, 'reference', sides.reference.base, reference.pid, target, options.warmup);
      const order = Array.from(
        { length: options.rounds },
        () => ['product', 'reference', 'reference', 'product'] as const,
      ).flat();
      for (const side of order) {
        const s = sides[side];
        result.phases.push(await phase(load, side, s.base, s.pid, target, options.duration));
      }
      const product = result.phases.filter((p) => p.side === 'product');
      const ref = result.phases.filter((p) => p.side === 'reference');
      result.product = summarise(product);
      result.reference = summarise(ref);
      result.ratio = median(product.map((p, i) => p.rps / ref[i].rps));
      log(
        `  ${target.name.padEnd(9)} ${result.product.rps.toFixed(0).padStart(6)}/s vs ${result.reference.rps.toFixed(0).padStart(6)}/s  ratio ${result.ratio.toFixed(4)}  p99 ${result.product.p99} ms  CPU ${result.product.cpuPerRequestMs.toFixed(2)} ms/req`,
      );
    }
  } finally {
    await reference.close();
  }
  return results;
}

/** 1,995 articles into the stopped server's database, through the services' own tables. */
async function seedFull(env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const { lock, database } = await openRuntime('bench seed', { ...env } as NodeJS.ProcessEnv);
  try {
    await seedArchive(database.db, FULL_LAYOUT);
    // As the server's maintenance timer would: PGlite has no autovacuum (the search index's pending list).
    await database.db.execute(sql.raw('VACUUM ANALYZE'));
  } finally {
    await database.close();
    lock.release();
  }
  return performance.now() - t0;
}

/**
 * Several journals into the stopped server's database (issue 24): the first journal moves to /j01 (with its
 * 2,000 articles: seeded here too when the `full` size was not measured), and 19 more are made as the site
 * admin makes them (`journalAdmin.create`, the e2e admin their first editor), each given 2,000 articles in
 * its own scope.
 */
async function seedJournals(env: Record<string, string>, firstHasArchive: boolean): Promise<number> {
  const t0 = performance.now();
  const { config, lock, database } = await openRuntime('bench seed', { ...env } as NodeJS.ProcessEnv);
  const quiet = pino({ level: 'warn' });
  const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, quiet, {
    blobs: await openBlobStore(config, quiet),
  });
  try {
    if (!firstHasArchive) await withJournal(1, () => seedArchive(database.db, FULL_LAYOUT));
    await services.journalAdmin.moveToPath(1, FIRST_JOURNAL_PATH);
    for (let n = 2; n <= JOURNALS; n++) {
      const tag = `j${String(n).padStart(2, '0')}`;
      const journal = await services.journalAdmin.create({
        title: `Bench Journal ${n}`,
        path: tag,
        editor: ADMIN.username,
      });
      await withJournal(journal.id, () =>
        seedArchive(database.db, {
          ...FULL_LAYOUT,
          // 305 + 84 × 20 + 15: 2,000 articles, as the first journal has with its demo volume.
          issueSizes: [305, ...FULL_LAYOUT.issueSizes.slice(1)],
          firstVolumeNumber: 1,
          doiTag: `bench.${tag}`,
        }),
      );
    }
    await database.db.execute(sql.raw('VACUUM ANALYZE'));
  } finally {
    await database.close();
    lock.release();
  }
  return performance.now() - t0;
}

/**
 * Resident memory of the server process and its worker processes (MiB): `settled` once the CPU is quiet
 * after start, `idle` once its worker processes have also been let go (a minute without work, decision
 * 0021) and it has had 10 s without a request, `afterRun` once quiet after the load, `peak` the server process's own VmHWM.
 */
interface MemoryFigures {
  settled: number;
  idle: number;
  afterRun: number;
  peak: number;
}

/**
 * Waits for the CPU to be quiet, the worker processes to be let go (at most 90 s) and 10 s without a request
 * (the server collects its garbage once it falls quiet: server/http/idle-gc.ts); the memory then.
 */
async function idleMemory(pid: number): Promise<number> {
  await waitQuiet(pid, { windowMs: 1000, threshold: 0.02 });
  const end = performance.now() + 90_000;
  while (memoryMiB(pid).workers > 0 && performance.now() < end) await new Promise((r) => setTimeout(r, 1000));
  await new Promise((r) => setTimeout(r, 10_000));
  return memoryMiB(pid).rss;
}

/** A plagiarism check with grammar by the reader, then the memory (settled, then idle). */
async function checkMemory(base: string, pid: number): Promise<NonNullable<DatabaseResult['afterCheckMiB']>> {
  const login = await json(`${base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ username: READER.username, password: READER.password }),
  });
  if (login.status !== 200) throw new Error(`reader login: ${login.status} ${JSON.stringify(login.body)}`);
  const form = new FormData();
  form.append(
    'file',
    new Blob([readFileSync(path.join(root, 'tests/fixtures/manuscripts/manuscript.pdf'))], {
      type: 'application/pdf',
    }),
    'manuscript.pdf',
  );
  const t0 = performance.now();
  const res = await fetch(`${base}/api/plagiarism`, {
    method: 'POST',
    headers: { authorization: `Bearer ${login.body.token}`, origin: base },
    body: form,
  });
  const checkMs = performance.now() - t0;
  if (res.status !== 200) throw new Error(`plagiarism check: ${res.status} ${await res.text()}`);
  await waitQuiet(pid, { windowMs: 1000, threshold: 0.02 });
  const settled = memoryMiB(pid).rss;
  return { settled, idle: await idleMemory(pid), checkMs };
}

interface DatabaseResult {
  database: DatabaseKind;
  mode?: string;
  coldStartMs: { fresh?: number; existing?: number; journals?: number };
  seedMs?: number;
  journalsSeedMs?: number;
  memoryMiB: Partial<Record<Size, MemoryFigures>>;
  /** After a plagiarism check with grammar (issue 13: back under 400 MB): quiet, then workers released. */
  afterCheckMiB?: { settled: number; idle: number; checkMs: number };
  sizes: Partial<Record<Size, TargetResult[]>>;
  lighthouse: LighthouseResult[];
  uptime: { start: string; end?: string };
  error?: string;
}

/** What a run leaves behind until it ends: removed on Ctrl-C too (server.ts stops the server and exits). */
const leftovers = { dataDirs: new Set<string>(), databases: new Set<string>() };
async function dropDatabase(name: string) {
  const admin = new pg.Client({ connectionString: options.pg });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  leftovers.databases.delete(name);
}
process.once('SIGINT', () => {
  for (const dir of leftovers.dataDirs) rmSync(dir, { recursive: true, force: true });
  for (const name of leftovers.databases) void dropDatabase(name).catch(() => undefined);
});

async function runDatabase(load: LoadGenerator, kind: DatabaseKind): Promise<DatabaseResult> {
  const out: DatabaseResult = {
    database: kind,
    coldStartMs: {},
    memoryMiB: {},
    sizes: {},
    lighthouse: [],
    uptime: { start: uptime() },
  };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-bench-http-'));
  leftovers.dataDirs.add(dataDir);
  let dbName: string | undefined;
  let server: BenchServer | undefined;
  // The e2e servers' settings (rate limits off, the e2e admin account, NODE_ENV=production as start.mjs sets
  // it anyway), with the demo volume.
  const env: Record<string, string> = { ...SERVER_ENV, SEED_DEMO: 'true', DATA_DIR: dataDir };
  try {
    if (kind === 'postgres') {
      const name = `colophon_bench_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: options.pg });
      try {
        await admin.connect();
      } catch (err) {
        throw new Error(
          `PostgreSQL at ${options.pg} cannot be reached (${(err as Error).message}): start it, set --pg, or run --db=pglite.`,
        );
      }
      await admin.query(`CREATE DATABASE ${name}`);
      dbName = name;
      leftovers.databases.add(name);
      await admin.end();
      const url = new URL(options.pg);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
    }
    const start = async (label: 'fresh' | 'existing' | 'journals') => {
      const s = await startServer(env, { dataDir, readyPath: '/', pollMs: 20 });
      out.coldStartMs[label] = s.startMs;
      out.mode ??= /Mode: (.*)/.exec(s.output())?.[1];
      log(
        `${kind}: started on ${label === 'fresh' ? 'an empty' : label === 'journals' ? 'the 20 journals’' : 'the seeded'} data folder, first 200 on / after ${s.startMs.toFixed(0)} ms (${out.mode ?? 'mode not printed'})`,
      );
      return s;
    };
    const measure = async (size: Size, s: BenchServer) => {
      const pid = s.pid!;
      // Without the idle wait, the start's background work (the demo PDFs indexed by the similarity worker
      // process) is let finish before measuring.
      await waitQuiet(pid, { windowMs: 1000, threshold: 0.02, descendantsToo: !options.memory });
      const settled = memoryMiB(pid).rss;
      const idle = options.memory ? await idleMemory(pid) : Number.NaN;
      log(`${kind}, ${SIZE_LABEL[size]}: ${settled.toFixed(0)} MiB once quiet, idle ${fmt(idle)} MiB`);
      out.sizes[size] = await measureTargets(load, s, pid, size);
      await waitQuiet(pid, { windowMs: 1000, threshold: 0.02 });
      const after = memoryMiB(pid);
      out.memoryMiB[size] = { settled, idle, afterRun: after.rss, peak: after.peak };
    };

    if (kind === 'pglite') {
      // The installation as `npm run build` leaves it: the spare copy a new data folder takes (decision
      // 0059). The previous run's start took it, and a server this bench keeps busy never makes the next.
      const copy = pgliteCopy();
      if (!copy || !(await makeSpare(copy, { sync: true })))
        log('pglite: no spare copy of the database (the first start copies its files)');
    }
    server = await start('fresh');
    await createReader(server.url);
    if (options.sizes.includes('demo')) await measure('demo', server);
    if (options.sizes.includes('full')) {
      await server.stop();
      server = undefined;
      out.seedMs = await seedFull(env);
      log(`${kind}: 1,995 articles seeded in ${(out.seedMs / 1000).toFixed(1)} s`);
      server = await start('existing');
      await measure('full', server);
    }
    let last: Size = options.sizes.includes('full') ? 'full' : 'demo';
    if (options.sizes.includes('journals')) {
      await server.stop();
      server = undefined;
      out.journalsSeedMs = await seedJournals(env, options.sizes.includes('full'));
      log(
        `${kind}: ${JOURNALS} journals of 2,000 articles seeded in ${(out.journalsSeedMs / 1000).toFixed(1)} s`,
      );
      server = await start('journals');
      await measure('journals', server);
      last = 'journals';
    }
    if (options.memory) {
      out.afterCheckMiB = await checkMemory(server.url, server.pid!);
      log(
        `${kind}: after a plagiarism check (${(out.afterCheckMiB.checkMs / 1000).toFixed(1)} s): ${out.afterCheckMiB.settled.toFixed(0)} MiB once quiet, ${out.afterCheckMiB.idle.toFixed(0)} MiB once idle`,
      );
    }
    const article = (await findTargets(server.url, '', last)).find((t) => t.name === 'article')!.path;
    const pages = { home: `${prefixAt(last)}/`, volumes: `${prefixAt(last)}/volumes`, article };
    for (const page of options.lighthouse) {
      const at = pages[page];
      log(`${kind}: Lighthouse (mobile) on ${at}`);
      out.lighthouse.push(await lighthouseMobile(`${server.url}${at}`));
    }
  } catch (err) {
    out.error = (err as Error).stack ?? String(err);
    console.error(`${kind}: ${out.error}`);
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    leftovers.dataDirs.delete(dataDir);
    if (dbName) await dropDatabase(dbName);
    out.uptime.end = uptime();
  }
  return out;
}

// ---- Output -------------------------------------------------------------------------------------------
const fmt = (n: number | null | undefined, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n) ? '–' : n.toFixed(digits);
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function table(head: string[], rows: string[][], right: boolean[]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(
    `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
  );
  for (const r of rows) console.log(line(r));
}

function printDatabase(r: DatabaseResult) {
  const name = r.database === 'pglite' ? 'PGlite' : 'PostgreSQL';
  for (const size of SIZES) {
    const results = r.sizes[size];
    if (!results) continue;
    console.log(`\n### ${name}, ${SIZE_LABEL[size]}\n`);
    table(
      [
        'target',
        'answer',
        'product req/s',
        'reference req/s',
        'ratio',
        'p50 ms',
        'p99 ms',
        'ref p50/p99',
        'CPU ms/req',
        'ref CPU',
        'err/timeout/non-2xx',
      ],
      results.map((t) => [
        `${t.name}${t.note ? ` (${t.note})` : ''}`,
        [
          t.answer.status,
          kib(t.answer.bytes),
          t.answer.contentEncoding,
          t.answer.etag ? 'ETag' : undefined,
          t.answer.cacheControl?.includes('max-age') ? 'max-age' : undefined,
        ]
          .filter(Boolean)
          .join(' '),
        fmt(t.product?.rps),
        fmt(t.reference?.rps),
        t.ratio === undefined ? (t.error ?? '–') : t.ratio.toFixed(4),
        fmt(t.product?.p50),
        fmt(t.product?.p99),
        t.reference ? `${t.reference.p50}/${t.reference.p99}` : '–',
        fmt(t.product?.cpuPerRequestMs, 2),
        fmt(t.reference?.cpuPerRequestMs, 3),
        t.product ? `${t.product.errors}/${t.product.timeouts}/${t.product.non2xx}` : '–',
      ]),
      [false, false, true, true, true, true, true, true, true, true, true],
    );
  }
  // Does a page's cost grow with the archive, and with the number of journals?
  const pairs: [Size, Size, string, string][] = [
    ['demo', 'full', 'demo size against 2,000 articles', '2,000'],
    ['full', 'journals', 'one journal of 2,000 articles against 20 of them', '20 journals'],
  ];
  for (const [small, large, title, column] of pairs) {
    const a = r.sizes[small];
    const b = r.sizes[large];
    if (!a || !b) continue;
    console.log(`\n${name}: server CPU per request, ${title}\n`);
    table(
      ['target', `${small} ms/req`, `${column} ms/req`, '×'],
      b.map((t) => {
        const d = a.find((x) => x.name === t.name)?.product?.cpuPerRequestMs;
        const f = t.product?.cpuPerRequestMs;
        return [t.name, fmt(d, 2), fmt(f, 2), d && f ? (f / d).toFixed(1) : '–'];
      }),
      [false, true, true, true],
    );
  }
  console.log(
    `\n${name}: ${r.mode ? `mode ${r.mode}; ` : ''}cold start to the first 200 on /: empty data folder ${fmt(r.coldStartMs.fresh)} ms, seeded folder ${fmt(r.coldStartMs.existing)} ms, 20 journals ${fmt(r.coldStartMs.journals)} ms`,
  );
  for (const size of SIZES) {
    const m = r.memoryMiB[size];
    if (m)
      console.log(
        `  memory (${size}, server and its worker processes): once quiet after start ${fmt(m.settled)} MiB, idle ${fmt(m.idle)} MiB, after the run ${fmt(m.afterRun)} MiB, peak of the server process ${fmt(m.peak)} MiB`,
      );
  }
  const c = r.afterCheckMiB;
  if (c)
    console.log(
      `  memory after a plagiarism check with grammar (${fmt(c.checkMs)} ms): ${fmt(c.settled)} MiB once quiet, ${fmt(c.idle)} MiB once idle`,
    );
  for (const l of r.lighthouse) {
    console.log(
      `  Lighthouse mobile ${l.url.replace(/^http:\/\/[^/]+/, '')}: ${l.score ?? `failed (${l.error})`}` +
        (l.score === null
          ? ''
          : ` (FCP ${fmt(l.metrics.fcp)} ms, LCP ${fmt(l.metrics.lcp)} ms, TBT ${fmt(l.metrics.tbt)} ms, CLS ${fmt(l.metrics.cls, 3)}, transfer ${kib(l.transferBytes ?? 0)}, compression would save ${kib(l.compressionSavings ?? 0)})`),
    );
  }
  console.log(`  load: ${r.uptime.start}  →  ${r.uptime.end}`);
  if (r.error) console.log(`  FAILED: ${r.error.split('\n')[0]}`);
}

// ---- Run ----------------------------------------------------------------------------------------------
const startedAt = new Date();
const loadAtStart = uptime();
console.log(`bench:http on ${os.cpus().length} cores, ${loadAtStart}`);
if (options.build) {
  log('building the site (npm run build; --no-build to use the current build)');
  const built = spawnSync(process.execPath, ['node_modules/@react-router/dev/bin.js', 'build'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (built.status !== 0) {
    console.error(`The build failed:\n${built.stdout}${built.stderr}`);
    process.exit(1);
  }
}
const load = startLoadGenerator();
const results: DatabaseResult[] = [];
try {
  for (const kind of options.databases) results.push(await runDatabase(load, kind));
} finally {
  load.close();
}

const commit = commitMeasured();
console.log(
  `\n## bench:http, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}: ${options.connections} connections, ${options.duration} s phases (A B B A × ${options.rounds}), warm-up ${options.warmup} s`,
);
for (const r of results) printDatabase(r);
// One line per database and size: the kept pages' ratios (what .ci/run prints).
console.log('');
for (const r of results)
  for (const size of SIZES) {
    const measured = r.sizes[size];
    if (measured)
      console.log(
        `ratios ${r.database} ${size}: ${measured.map((t) => `${t.name} ${t.ratio === undefined ? '–' : t.ratio.toFixed(2)}`).join(', ')}; cold start ${fmt(size === 'full' ? r.coldStartMs.existing : size === 'journals' ? r.coldStartMs.journals : r.coldStartMs.fresh)} ms`,
      );
  }
const report = {
  date: startedAt.toISOString(),
  commit,
  node: process.version,
  cores: os.cpus().length,
  uptime: { start: loadAtStart, end: uptime() },
  options,
  results,
};
mkdirSync(path.dirname(options.out), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(report, null, 1)}\n`);
console.log(`\nFigures written to ${options.out}`);
process.exit(results.some((r) => r.error) ? 1 : 0);
