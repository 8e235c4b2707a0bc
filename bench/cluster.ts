/**
 * `npm run bench:cluster`: 1, 2 and 3 processes of the build on one PostgreSQL database, behind nginx
 * (issue 15's "the anonymous article page and the JSON API with 1, 2 and 3 processes on one PostgreSQL").
 *
 *   1. A fresh database on the --pg server (dropped at the end) and a bucket of an S3 test server (s3rver on
 *      loopback). Three processes of `node scripts/start.mjs` (as `npm start`), as docs/deploy.md deploys them:
 *      each its own data folder, the same SESSION_SECRET, PUBLIC_URL and S3_*, TRUST_PROXY=true; the e2e
 *      servers' environment (rate limits off) and the demo volume. The first seeds, the others then start
 *      together.
 *   2. One nginx (bench/lib/nginx.ts, Debian's package, run in the foreground from a folder of its own) with a
 *      server block per size: round-robin over process 1, over 1-2, over 1-3, keep-alive to the upstreams.
 *      Checked before measuring, through the 3-process block: a sign-in by the page form (its origin check
 *      sees the port nginx passes on in Host) and a 3 MB article upload, downloaded through process 1.
 *   3. For each target (the anonymous article page, the public JSON catalogue): `--rounds` rounds, each
 *      measuring every side once, right after a `--warmup` of that side, in alternating order (1 direct,
 *      1, 2, 3 behind the balancer; then 3, 2, 1, 1 direct), so the sides of a round share the machine's
 *      moment. The figure per side is the median over the rounds; the ratio to one process is the median of
 *      the rounds' ratios (N processes behind the balancer / 1 behind it), and the balancer's own cost is
 *      "1 behind" against "1 direct". CPU: of the serving processes (and by process), of the balancer, and
 *      how busy the whole machine was.
 *
 *   npm run build && npm run bench:cluster
 *   npm run bench:cluster -- --rounds=5 --duration=3 --connections=50 --ports=5440
 *   npm run bench:cluster -- --page-cache=off         # nothing kept (PAGE_CACHE_SIZE=0): every answer rendered
 *
 * --balancer=caddy: Caddy (bench/lib/caddy.ts) instead of nginx, with the guide's reverse_proxy block.
 * --ports=P: the processes on P, P+1, P+2, the balancer on P+10, P+11, P+12, the S3 test server on P+20
 * (default: free ports).
 * Prints a table and writes the figures to bench/results/cluster-<date>.json (or --out=FILE).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { serverBuildStale } from '../scripts/build-server.mjs';
import { startS3Server, type TestS3Server } from '../server/testing/s3-server.ts';
import { ADMIN, SERVER_ENV } from '../tests/e2e/env.ts';
import { startCaddy } from './lib/caddy.ts';
import { BROWSER_HEADERS, JSON_HEADERS, rawGet } from './lib/http-client.ts';
import { type LoadGenerator, type LoadResult, startLoadGenerator } from './lib/load.ts';
import { type Balancer, startBalancer } from './lib/nginx.ts';
import { cpuMs, descendants } from './lib/proc.ts';
import { commitMeasured, log, median, numberFlag, sum, uptime } from './lib/report.ts';
import { type BenchServer, freePort, startServer } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// ---- Options ------------------------------------------------------------------------------------------
const flags = new Map<string, string>();
for (const arg of process.argv.slice(2)) {
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
  if (!m) {
    console.error(`Unknown argument ${arg}: see the comment at the top of bench/cluster.ts.`);
    process.exit(2);
  }
  flags.set(m[1], m[2] ?? 'true');
}
const TARGETS = ['article', 'api'] as const;
type TargetName = (typeof TARGETS)[number];
const options = {
  targets: (flags.get('targets')?.split(',') ?? [...TARGETS]) as TargetName[],
  /** Seconds per measured phase and per warm-up (whole seconds: autocannon stops on its 1 s tick). */
  duration: Math.ceil(numberFlag(flags, 'duration', 3)),
  warmup: Math.ceil(numberFlag(flags, 'warmup', 2)),
  rounds: numberFlag(flags, 'rounds', 5),
  connections: numberFlag(flags, 'connections', 50),
  pageCache: flags.get('page-cache') !== 'off',
  balancer: flags.get('balancer') ?? 'nginx',
  ports: flags.has('ports') ? numberFlag(flags, 'ports', 1) : 0,
  pg: flags.get('pg') ?? process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  out:
    flags.get('out') ??
    path.join('bench', 'results', `cluster-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
};
if (options.balancer !== 'nginx' && options.balancer !== 'caddy') {
  console.error('--balancer: nginx or caddy.');
  process.exit(2);
}
for (const t of options.targets) {
  if (!TARGETS.includes(t)) {
    console.error(`--targets: unknown ${t} (choose from ${TARGETS.join(', ')}).`);
    process.exit(2);
  }
}
const SIZES = [1, 2, 3] as const;
type Side = 'direct' | 1 | 2 | 3;
const SIDES: Side[] = ['direct', 1, 2, 3];
const sideName = (s: Side) => (s === 'direct' ? '1 process, direct' : `${s} behind ${options.balancer}`);

// ---- Helpers ------------------------------------------------------------------------------------------

/** CPU of processes and their children (the similarity workers, nginx's workers), ms; gone ones count 0. */
function treeCpuMs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    for (const p of [pid, ...descendants(pid)]) {
      try {
        total += cpuMs(p);
      } catch {
        // ended meanwhile
      }
    }
  }
  return total;
}

/** The whole machine's busy and total jiffies (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = sum(fields);
  const idle = fields[3] + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Waits until the processes (and their children) use under 5 % of a core over 500 ms, at most `ms`. */
async function quiet(pids: number[], ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  let before = treeCpuMs(pids);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 500));
    const now = treeCpuMs(pids);
    if (now - before <= 25) return;
    before = now;
  }
}

interface Target {
  name: TargetName;
  path: string;
  headers: Record<string, string>;
}

interface Phase extends LoadResult {
  side: Side;
  round: number;
  /** CPU of the Colophon processes serving this side, and of nginx (master and workers), ms. */
  serverCpuMs: number;
  /** The same by process (process 1 first): round-robin gives each about the same share of the requests. */
  serverCpuMsByProcess: number[];
  nginxCpuMs: number;
  /** Share of the machine's CPU (all cores) busy during the phase, 0-1. */
  machineBusy: number;
}

interface SideSummary {
  side: string;
  rps: number;
  p50: number;
  p99: number;
  /** Median over the rounds of this side's rate / the 1-process-behind-nginx rate. */
  ratio: number;
  serverCpuPerRequestMs: number;
  /** Each serving process's CPU over its share of the requests (sent / N), ms. */
  serverCpuPerRequestByProcessMs: number[];
  nginxCpuPerRequestMs: number;
  machineBusy: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

interface TargetResult {
  name: TargetName;
  path: string;
  answer: { status: number; bytes: number; contentEncoding?: string };
  sides: SideSummary[];
  phases: Phase[];
}

/**
 * What the measured GETs do not show: a page form and an upload through nginx. The sign-in form's origin
 * check compares the browser's Origin with Host, so nginx must pass the port on (`$http_host`; `$host`
 * would drop it: the same post sent straight to a process with such a Host is shown refused). The upload is larger than nginx's
 * default 1 MB body limit and lands in the shared bucket, so another process serves it.
 */
async function checkThroughBalancer(lb: Balancer, direct: BenchServer[]) {
  const form = new URLSearchParams({ username: ADMIN.username, password: ADMIN.password });
  const post = (base: string, headers: Record<string, string>) =>
    fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: form,
    });
  const origin = lb.url(3);
  const signedIn = await post(origin, { origin });
  if (signedIn.status !== 302 && signedIn.status !== 303)
    throw new Error(
      `the sign-in form through ${options.balancer} answered ${signedIn.status}, not a redirect`,
    );
  const hostWithoutPort = await post(direct[0].url, { origin, host: '127.0.0.1' });
  // Refused: 400 by React Router's own check of forwarded actions (which logs an error), or 403 by ours.
  if (hostWithoutPort.status !== 400 && hostWithoutPort.status !== 403)
    throw new Error(
      `the sign-in form with a Host that lost its port answered ${hostWithoutPort.status}, not a refusal`,
    );

  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  const token = ((await login.json()) as { token: string }).token;
  const auth = { authorization: `Bearer ${token}` };
  const issues = (await (await fetch(`${origin}/api/editor/issues`, { headers: auth })).json()) as {
    id: number;
  }[];
  const pdf = Buffer.concat([
    readFileSync(path.join(root, 'tests/fixtures/manuscripts/manuscript.pdf')),
    Buffer.from(`\n%${'x'.repeat(3 * 1024 * 1024)}\n%%EOF\n`),
  ]);
  // Twice, so that the round-robin gives it to two processes; each is downloaded from process 1.
  for (let k = 0; k < 2; k++) {
    const body = new FormData();
    const fields: Record<string, string> = {
      title: `An article uploaded through nginx (${k + 1})`,
      abstract: 'Three megabytes, more than nginx takes by default.',
      keywords: 'load balancer, upload',
      pages: '1-4',
      doi: `10.5555/bench.nginx.${k + 1}`,
      issue_id: String(issues[0].id),
      authors: JSON.stringify([
        { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University' },
      ]),
    };
    for (const [name, v] of Object.entries(fields)) body.append(name, v);
    body.append('pdf', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'through-nginx.pdf');
    const up = await fetch(`${origin}/api/articles/admin/upload`, { method: 'POST', headers: auth, body });
    if (up.status !== 201)
      throw new Error(`the upload through ${options.balancer} answered ${up.status}: ${await up.text()}`);
    const id = ((await up.json()) as { article: { id: number } }).article.id;
    const got = await fetch(`${direct[0].url}/api/articles/${id}/download`, { headers: auth });
    const bytes = Buffer.from(await got.arrayBuffer());
    if (got.status !== 200 || !bytes.equals(pdf))
      throw new Error(
        `the PDF uploaded through ${options.balancer} came back ${got.status}, ${bytes.length} bytes`,
      );
  }
}

// ---- Run ----------------------------------------------------------------------------------------------
if (serverBuildStale() || !existsSync(path.join('build', 'server', 'index.js'))) {
  console.error(
    'bench:cluster runs the built server, and the build is missing or older than the sources: run "npm run build" first.',
  );
  process.exit(1);
}

const startedAt = new Date();
const loadAtStart = uptime();
console.log(`bench:cluster on ${os.cpus().length} cores, ${loadAtStart}`);

const dbName = `colophon_bench_cluster_${randomBytes(5).toString('hex')}`;
const dataDirs: string[] = [];
const servers: BenchServer[] = [];
let balancer: Balancer | undefined;
let load: LoadGenerator | undefined;
let s3: TestS3Server | undefined;
let dbCreated = false;

async function cleanUp() {
  load?.close();
  await balancer?.stop().catch(() => undefined);
  await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
  await s3?.stop().catch(() => undefined);
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  if (dbCreated) {
    const admin = new pg.Client({ connectionString: options.pg });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).finally(() => admin.end());
  }
}
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

const results: TargetResult[] = [];
let failure: string | undefined;
try {
  const admin = new pg.Client({ connectionString: options.pg });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL at ${options.pg} cannot be reached (${(err as Error).message}): start it, or set --pg.`,
    );
  }
  await admin.query(`CREATE DATABASE ${dbName}`);
  dbCreated = true;
  await admin.end();
  const dbUrl = new URL(options.pg);
  dbUrl.pathname = `/${dbName}`;

  const serverPorts = options.ports
    ? [0, 1, 2].map((i) => options.ports + i)
    : await Promise.all([0, 1, 2].map(() => freePort()));
  const lbPorts = options.ports
    ? [10, 11, 12].map((i) => options.ports + i)
    : await Promise.all([0, 1, 2].map(() => freePort()));
  const publicUrl = `http://127.0.0.1:${lbPorts[2]}`;
  s3 = await startS3Server(['journal'], options.ports ? options.ports + 20 : 0);
  const env: Record<string, string> = {
    ...SERVER_ENV,
    ...s3.env('journal'),
    SEED_DEMO: 'true',
    DATABASE_URL: dbUrl.toString(),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    TRUST_PROXY: 'true',
    SIMILARITY_GRAMMAR: 'false',
    // One byte: nothing fits, every answer is rendered or queried. (The README's "0 turns the cache off" is
    // refused by the configuration today: "is not a size".)
    ...(options.pageCache ? {} : { PAGE_CACHE_SIZE: '0' }),
  };
  const start = (i: number) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `colophon-bench-cluster-${i + 1}-`));
    dataDirs.push(dataDir);
    return startServer(env, { dataDir, readyPath: '/', port: serverPorts[i], publicUrl, pollMs: 50 });
  };
  // The first seeds the demo volume; the other two start together on the seeded database.
  servers.push(await start(0));
  servers.push(...(await Promise.all([start(1), start(2)])));
  log(
    `3 processes started on PostgreSQL (${servers.map((s) => `${s.url} ${(s.startMs / 1000).toFixed(1)} s`).join(', ')})`,
  );
  const pids = servers.map((s) => s.pid!);
  await quiet(pids, 120_000); // the first start indexes the demo PDFs
  // Caddy's active health check asks /readyz (docs/deploy.md): only when the build answers it.
  const readyz = (await fetch(`${servers[0].url}/readyz`).catch(() => null))?.status === 200;
  balancer =
    options.balancer === 'caddy'
      ? await startCaddy(serverPorts, lbPorts, readyz)
      : await startBalancer(serverPorts, lbPorts);
  log(
    `${balancer.version}${options.balancer === 'caddy' ? (readyz ? ' (health checks on /readyz)' : ' (no /readyz in this build: no health checks)') : ''}: ${SIZES.map((n) => `${n} on ${balancer!.url(n)}`).join(', ')}`,
  );
  await checkThroughBalancer(balancer, servers);
  log(
    `through ${options.balancer}: a sign-in by the page form, a 3 MB upload, its download through another process: fine`,
  );
  load = startLoadGenerator();

  const base = (side: Side) => (side === 'direct' ? servers[0].url : balancer!.url(side));
  const serving = (side: Side) => (side === 'direct' ? [pids[0]] : pids.slice(0, side));

  const tree = await (await fetch(`${servers[0].url}/api/articles/public/articles`)).json();
  const articleId = (tree as { issues: { articles: { id: number }[] }[] }[])
    .flatMap((v) => v.issues)
    .flatMap((i) => i.articles)[0]?.id;
  if (!articleId) throw new Error('the catalogue has no published article');
  const targets: Target[] = [
    { name: 'article' as const, path: `/article/${articleId}`, headers: BROWSER_HEADERS },
    { name: 'api' as const, path: '/api/articles/public/articles', headers: JSON_HEADERS },
  ].filter((t) => options.targets.includes(t.name));

  for (const target of targets) {
    // Every side answers 200, and every process behind nginx the same bytes.
    const answers = await Promise.all(SIDES.map((s) => rawGet(`${base(s)}${target.path}`, target.headers)));
    for (const [k, a] of answers.entries()) {
      if (a.status !== 200)
        throw new Error(`${target.path} answered ${a.status} through ${sideName(SIDES[k])}`);
    }
    const first = answers[0];
    const result: TargetResult = {
      name: target.name,
      path: target.path,
      answer: {
        status: first.status,
        bytes: first.body.length,
        contentEncoding: [first.headers['content-encoding']].flat()[0],
      },
      sides: [],
      phases: [],
    };
    const phase = async (side: Side, round: number, duration: number): Promise<Phase> => {
      const servingPids = serving(side);
      const cpu0 = treeCpuMs(servingPids);
      const each0 = servingPids.map((pid) => treeCpuMs([pid]));
      const nginx0 = treeCpuMs([balancer!.pid]);
      const m0 = machineTicks();
      const r = await load!.run({
        url: `${base(side)}${target.path}`,
        connections: options.connections,
        duration,
        headers: target.headers,
      });
      await quiet([...servingPids, balancer!.pid], 5_000);
      const m1 = machineTicks();
      return {
        ...r,
        side,
        round,
        serverCpuMs: treeCpuMs(servingPids) - cpu0,
        serverCpuMsByProcess: servingPids.map((pid, i) => treeCpuMs([pid]) - each0[i]),
        nginxCpuMs: side === 'direct' ? 0 : treeCpuMs([balancer!.pid]) - nginx0,
        machineBusy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total),
      };
    };
    // Each measured phase right after a warm-up of its own side: a process that sat idle while other sides
    // were measured (process 3 for three sides of four) answers its first requests after a pause slower
    // (measured: 3-4 ms of CPU per uncached page against process 1's 0.9 without this).
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 ? [...SIDES].reverse() : SIDES;
      for (const side of order) {
        await phase(side, -1, options.warmup);
        result.phases.push(await phase(side, round, options.duration));
      }
    }
    for (const side of SIDES) {
      const ps = result.phases.filter((p) => p.side === side);
      const ratios = ps.map((p) => {
        const one = result.phases.find((q) => q.round === p.round && q.side === 1)!;
        return p.rps / one.rps;
      });
      result.sides.push({
        side: sideName(side),
        rps: median(ps.map((p) => p.rps)),
        p50: median(ps.map((p) => p.p50)),
        p99: median(ps.map((p) => p.p99)),
        ratio: median(ratios),
        serverCpuPerRequestMs: sum(ps.map((p) => p.serverCpuMs)) / Math.max(1, sum(ps.map((p) => p.sent))),
        serverCpuPerRequestByProcessMs: ps[0].serverCpuMsByProcess.map(
          (_, i) =>
            sum(ps.map((p) => p.serverCpuMsByProcess[i])) /
            Math.max(1, sum(ps.map((p) => p.sent)) / ps[0].serverCpuMsByProcess.length),
        ),
        nginxCpuPerRequestMs: sum(ps.map((p) => p.nginxCpuMs)) / Math.max(1, sum(ps.map((p) => p.sent))),
        machineBusy: median(ps.map((p) => p.machineBusy)),
        errors: sum(ps.map((p) => p.errors)),
        timeouts: sum(ps.map((p) => p.timeouts)),
        non2xx: sum(ps.map((p) => p.non2xx)),
      });
    }
    for (const s of result.sides) {
      log(
        `  ${target.name.padEnd(7)} ${s.side.padEnd(18)} ${s.rps.toFixed(0).padStart(6)}/s  ×${s.ratio.toFixed(2)}  p99 ${s.p99} ms  CPU ms/req by process ${s.serverCpuPerRequestByProcessMs.map((x) => x.toFixed(3)).join(' ')}`,
      );
    }
    results.push(result);
  }
} catch (err) {
  failure = (err as Error).stack ?? String(err);
  console.error(failure);
} finally {
  await cleanUp();
}

// ---- Output -------------------------------------------------------------------------------------------
const loadAtEnd = uptime();
const commit = commitMeasured();
console.log(
  `\n## bench:cluster, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}: ${os.cpus().length} cores, ${options.connections} connections, ${options.duration} s phases, ${options.rounds} rounds, page cache ${options.pageCache ? 'on' : 'off'}\n`,
);
console.log(
  `| target | side | req/s | × 1 process | p50 ms | p99 ms | server CPU ms/req | ${options.balancer} CPU ms/req | machine busy | err/timeout/non-2xx |`,
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  const what = `${r.name} (${(r.answer.bytes / 1024).toFixed(1)} KiB ${r.answer.contentEncoding ?? 'identity'})`;
  for (const s of r.sides) {
    console.log(
      `| ${what} | ${s.side} | ${s.rps.toFixed(0)} | ${s.ratio.toFixed(2)} | ${s.p50} | ${s.p99} | ${s.serverCpuPerRequestMs.toFixed(3)} | ${s.nginxCpuPerRequestMs.toFixed(3)} | ${(s.machineBusy * 100).toFixed(0)} % | ${s.errors}/${s.timeouts}/${s.non2xx} |`,
    );
  }
}
console.log(`\nload: ${loadAtStart}  →  ${loadAtEnd}`);
if (failure) console.log(`FAILED: ${failure.split('\n')[0]}`);
mkdirSync(path.dirname(options.out), { recursive: true });
writeFileSync(
  options.out,
  `${JSON.stringify(
    {
      date: startedAt.toISOString(),
      commit,
      node: process.version,
      cores: os.cpus().length,
      uptime: { start: loadAtStart, end: loadAtEnd },
      options,
      results,
      error: failure,
    },
    null,
    1,
  )}\n`,
);
console.log(`Figures written to ${options.out}`);
process.exit(failure ? 1 : 0);
