import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { serverBuildStale } from '../../scripts/build-server.mjs';
import { ManualClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { type Database, openDatabase } from '../../server/db/client.ts';
import { openBlobStore } from '../../server/files/stores.ts';
import { createServices, type Services } from '../../server/services.ts';
import { fixture, multipart, scratchDatabase, silentLog } from '../../server/testing/harness.ts';
import { startS3Server, type TestS3Server } from '../../server/testing/s3-server.ts';

/**
 * Real server processes of the built server (`npm run build`) on one fresh PostgreSQL database: what issue 15
 * promises (any number of interchangeable processes on one PostgreSQL) tested as it runs, not in one process.
 *
 * Each process is `tests/cluster/node.mjs`: the production start (`openRuntime` + `startServer`, as `npm start`)
 * with a ManualClock the test moves over IPC, on a data folder of its own (its lock and .eml outbox; the folder
 * lock holds per folder, decision 0026), all with the same SESSION_SECRET and PUBLIC_URL, as behind a load
 * balancer. By default the uploaded files are in one bucket of an S3-protocol test server (s3rver on loopback)
 * that every process shares, as issue 15 deploys them (`s3: false`: each process's own DATA_DIR/files). A
 * process can be stopped (SIGTERM: the graceful shutdown), killed (SIGKILL) and started again on its folder.
 *
 * Time: the cluster has one time (`cluster.time`); `setClock` moves every running process to it, and a
 * process started later starts at it. Move it only when `settle()` has returned (nothing due is left), unless
 * a test means to overtake a job's lease: a job still running when the clock jumps past its lease is taken
 * over by the other process, as if its own had died.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(root, 'tests', 'cluster', 'node.mjs');

/** The PostgreSQL server the cluster's database is made on (any database on it: only the server is used). */
export const serverUrl = () =>
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export const SESSION_SECRET = 'cluster-test-secret-that-is-long-enough-0123456789';
export const ADMIN_PASSWORD = 'admin-pass-123';
export const PUBLIC_URL = 'http://journal.test';

/** The environment every process gets (on top of PATH and HOME), before the cluster's and the process's own. */
const BASE_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  SESSION_SECRET,
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD,
  PUBLIC_URL,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  SIMILARITY_GRAMMAR: 'false',
};

export interface OutboxMail {
  file: string;
  messageId: string;
  to: string;
  subject: string;
}

/** The headers of an .eml file the outbox transport wrote (folded lines unfolded). */
function readEml(file: string): OutboxMail {
  const text = readFileSync(file, 'utf8');
  const head = text.slice(0, text.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1].trim() ?? '';
  return { file, messageId: header('Message-ID'), to: header('To'), subject: header('Subject') };
}

interface Ready {
  port: number;
  pid: number;
  workerId: string;
}

/** One server process of the cluster. */
export class ClusterNode {
  private child: ChildProcess | null = null;
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> = Promise.resolve({
    code: null,
    signal: null,
  });
  private log = '';
  private nextId = 0;
  private readonly replies = new Map<number, () => void>();
  private readonly holdingWaiters: ((m: { to: string; subject: string }) => void)[] = [];
  /** Set while the process runs (its port changes on a restart when the cluster uses ephemeral ports). */
  ready: Ready | null = null;

  constructor(
    private readonly cluster: Cluster,
    readonly index: number,
    readonly dataDir: string,
    private readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get name() {
    return `process ${this.index + 1}`;
  }

  get running() {
    return this.ready !== null;
  }

  get url() {
    if (!this.ready) throw new Error(`${this.name} is not running`);
    return `http://127.0.0.1:${this.ready.port}`;
  }

  /** The job queue's name for this process in `jobs.locked_by` (its claims). */
  get workerId() {
    if (!this.ready) throw new Error(`${this.name} is not running`);
    return this.ready.workerId;
  }

  /** What the process printed (the last 64 KB), for failure messages. */
  output() {
    return this.log;
  }

  /** Starts the process on its data folder at the cluster's time; resolves once the site listens. */
  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.name} is already running`);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.tmpdir(),
      ...BASE_ENV,
      ...this.cluster.env,
      ...this.env,
      DATABASE_URL: this.cluster.databaseUrl,
      DATA_DIR: this.dataDir,
      PORT: String(this.port),
      CLUSTER_CLOCK: String(this.cluster.time),
    };
    const child = fork(ENTRY, [], { cwd: root, env, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    this.child = child;
    const keep = (d: Buffer) => {
      this.log = (this.log + d.toString()).slice(-65_536);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.log += `[${this.name} exited: ${signal ?? `code ${code}`}]\n`;
        this.child = null;
        this.ready = null;
        resolve({ code, signal });
      }),
    );
    child.on('message', (msg: { type: string; id?: number } & Record<string, unknown>) => {
      if (msg.type === 'done') this.replies.get(msg.id!)?.();
      else if (msg.type === 'holding') {
        for (const w of this.holdingWaiters.splice(0)) w(msg as never);
      } else if (msg.type === 'ready') this.ready = msg as unknown as Ready;
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (msg: { type: string }) => {
        if (msg.type === 'ready') {
          child.off('message', onMessage);
          resolve();
        }
      };
      child.on('message', onMessage);
      void this.exited.then(() => reject(new Error(`${this.name} exited before it was ready:\n${this.log}`)));
    });
  }

  /**
   * SIGTERM: the graceful shutdown (requests and running jobs finish); resolves with the exit code once the
   * process has exited.
   */
  async stop(): Promise<number | null> {
    if (!this.child) return null;
    this.child.kill('SIGTERM');
    return (await this.exited).code;
  }

  /** SIGKILL: the process dies where it is (its claimed jobs stay "running" until their lease runs out). */
  async kill(): Promise<void> {
    if (!this.child) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  private ask(msg: Record<string, unknown>): Promise<void> {
    const child = this.child;
    if (!child) throw new Error(`${this.name} is not running`);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.replies.set(id, () => {
        this.replies.delete(id);
        resolve();
      });
      child.send({ ...msg, id }, (err) => err && reject(err));
      void this.exited.then(() => reject(new Error(`${this.name} exited before it answered`)));
    });
  }

  /** Sets this process's clock (the cluster's `setClock` moves all of them). */
  setClock(at: number | Date): Promise<void> {
    return this.ask({ type: 'clock', at: typeof at === 'number' ? at : at.getTime() });
  }

  /** From now on a message to `to` is held before it is written or sent, forever (null: none held). */
  hold(to: string | null): Promise<void> {
    return this.ask({ type: 'hold', to });
  }

  /** Resolves when this process reaches a held message (see `hold`). */
  holding(): Promise<{ to: string; subject: string }> {
    return new Promise((resolve) => this.holdingWaiters.push(resolve));
  }

  /** The messages this process wrote to its .eml outbox, oldest first. */
  outbox(): OutboxMail[] {
    const dir = path.join(this.dataDir, 'outbox');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.eml') && !f.startsWith('.'))
      .sort()
      .map((f) => readEml(path.join(dir, f)));
  }

  /** A request to this process's API: JSON in and out, a bearer token if given. */
  async api(
    method: string,
    url: string,
    opts: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; json: any; text: string; headers: Headers }> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body) body = new Uint8Array(opts.body);
    const res = await fetch(`${this.url}${url}`, { method, headers, body });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, json, text, headers: res.headers };
  }
}

/**
 * An author's manuscript (the test PDF, one author) submitted through `via` (a process, or the cluster's next
 * in turn); its id. Anything but 201 throws, with the answer.
 */
export async function submitManuscript(
  via: Pick<ClusterNode, 'api'>,
  token: string,
  title: string,
  author: { name: string; email: string },
): Promise<number> {
  const body = await multipart(
    {
      title,
      articleType: 'Research Article',
      keywords: 'sensors, sampling',
      abstract: 'We study adaptive sampling.',
      authors: JSON.stringify([{ ...author, affiliation: 'Authorton', superscript: '1' }]),
    },
    { submissionFile: { name: 'draft.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' } },
  );
  const res = await via.api('POST', '/api/submission/submit', {
    token,
    body: body.payload,
    headers: body.headers,
  });
  if (res.status !== 201) throw new Error(`submit "${title}": ${res.status} ${res.text}`);
  return res.json.id as number;
}

export interface ClusterOptions {
  /** How many processes (default 2). */
  size?: number;
  /** The clock's start (default: now). */
  time?: number | Date;
  /** Environment of every process (on top of the defaults above), and of single ones by index. */
  env?: Record<string, string>;
  envOf?: Record<number, Record<string, string>>;
  /** Start every process at once (default true; they start together, as a deployment's would). */
  start?: boolean;
  /**
   * Keep the uploaded files in the bucket `journal` of an S3-protocol test server (s3rver, started on
   * loopback for the cluster and stopped with it), every process (and `services()`) with its S3_* variables:
   * the object store issue 15 shares between processes. Default true; `false`: each process's DATA_DIR/files.
   */
  s3?: boolean;
}

/** The bucket of the cluster's S3 test server. */
export const CLUSTER_BUCKET = 'journal';

/**
 * The port of the cluster's `i`th server (0: any free one). CLUSTER_PORTS names the first of a fixed range
 * (a helper's ports): the processes take CLUSTER_PORTS, +1, ...; the S3 test server the one after them.
 */
export function clusterPort(i: number): number {
  const first = Number(process.env.CLUSTER_PORTS ?? 0);
  return first ? first + i : 0;
}

/** N server processes on one fresh PostgreSQL database; `close()` stops them and drops it. */
export class Cluster {
  readonly nodes: ClusterNode[] = [];
  /** For the test's own queries on the cluster's database. */
  readonly sql: pg.Pool;
  private control: { database: Database; services: Services; clock: ManualClock } | null = null;
  private readonly base: string;
  /** The round-robin's next turn (`next()`). */
  private turn = 0;

  /** The cluster's S3 test server, when its files are in object storage (the default; `s3: false`: null). */
  s3: TestS3Server | null = null;

  private constructor(
    readonly databaseUrl: string,
    private readonly drop: () => Promise<void>,
    public time: number,
    readonly env: Record<string, string>,
  ) {
    this.sql = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    this.sql.on('error', () => undefined); // a connection cut by the final DROP ... WITH (FORCE)
    this.base = mkdtempSync(path.join(os.tmpdir(), 'colophon-cluster-'));
  }

  static async start(opts: ClusterOptions = {}): Promise<Cluster> {
    if (serverBuildStale() || !existsSync(path.join(root, 'build', 'server', 'index.js'))) {
      throw new Error(
        'The cluster tests run the built server, and the build is missing or older than the sources: run "npm run build" first.',
      );
    }
    let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
    try {
      scratch = await scratchDatabase(serverUrl());
    } catch (err) {
      throw new Error(
        `The cluster tests need PostgreSQL, and none answers at ${serverUrl()} (${(err as Error).message}). Start it, or set TEST_DATABASE_URL.`,
      );
    }
    const time = opts.time === undefined ? Date.now() : new Date(opts.time).getTime();
    const size = opts.size ?? 2;
    let s3: TestS3Server | null = null;
    if (opts.s3 !== false) {
      try {
        s3 = await startS3Server([CLUSTER_BUCKET], clusterPort(size));
      } catch (err) {
        await scratch.drop().catch(() => undefined);
        throw err;
      }
    }
    // The S3 variables first: a test's own `env` may still change them (another bucket, a prefix).
    const cluster = new Cluster(scratch.url, scratch.drop, time, {
      ...(s3?.env(CLUSTER_BUCKET) ?? {}),
      ...(opts.env ?? {}),
    });
    cluster.s3 = s3;
    // Fixed ports when CLUSTER_PORTS names a first one (a helper's range), otherwise any free one.
    for (let i = 0; i < size; i++) {
      const dir = path.join(cluster.base, `node-${i + 1}`);
      cluster.nodes.push(new ClusterNode(cluster, i, dir, clusterPort(i), opts.envOf?.[i] ?? {}));
    }
    if (opts.start !== false) await cluster.startAll();
    return cluster;
  }

  /** Starts every process that is not running, together (the cluster is closed if one fails to start). */
  async startAll(): Promise<void> {
    try {
      await Promise.all(this.nodes.filter((n) => !n.running).map((n) => n.start()));
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  node(n: number): ClusterNode {
    return this.nodes[n];
  }

  /** The running processes in turn, as a round-robin load balancer hands out requests. */
  next(): ClusterNode {
    const running = this.running;
    if (!running.length) throw new Error('no process of the cluster is running');
    return running[this.turn++ % running.length];
  }

  /** A request to the next process in turn (`ClusterNode.api`). */
  api(...args: Parameters<ClusterNode['api']>) {
    return this.next().api(...args);
  }

  get running() {
    return this.nodes.filter((n) => n.running);
  }

  /** The process holding this job-queue worker id (`jobs.locked_by`), if it is one of ours. */
  byWorker(workerId: string | null): ClusterNode | undefined {
    return this.nodes.find((n) => n.ready?.workerId === workerId);
  }

  /**
   * Moves the cluster's time, every running process's clock (and the control services') to it, then wakes
   * their job queues as a commit would (NOTIFY on the queue's channel): what fell due runs now. With `only`,
   * just those processes' clocks move (the cluster's time stays).
   */
  async setClock(at: number | Date, only?: ClusterNode[]): Promise<void> {
    const ms = typeof at === 'number' ? at : at.getTime();
    if (!only) {
      this.time = ms;
      this.control?.clock.set(ms);
    }
    await Promise.all((only ?? this.running).map((n) => n.setClock(ms)));
    await this.wake();
  }

  /** NOTIFY on the job queue's channel: every listening process looks for due work. */
  async wake(): Promise<void> {
    await this.sql.query(`select pg_notify('colophon_jobs', '')`);
  }

  /**
   * Waits until no job is due at the cluster's time (or `time`), queued or running, waking the queues every
   * half second meanwhile: a held job, or one a killed process claimed, keeps it waiting until a clock passes
   * its lease. Throws after `ms`, naming the jobs still pending and what each process printed.
   */
  async settle(opts: { ms?: number; time?: number } = {}): Promise<void> {
    const time = new Date(opts.time ?? this.time).toISOString();
    const end = Date.now() + (opts.ms ?? 60_000);
    for (;;) {
      const { rows } = await this.sql.query(
        `select id, name, status, attempts, locked_by, last_error from jobs
          where status in ('queued', 'running') and run_at <= $1::timestamptz order by id`,
        [time],
      );
      if (!rows.length) return;
      if (Date.now() > end) {
        throw new Error(
          `The cluster did not settle: jobs still due at ${time}: ${JSON.stringify(rows)}\n${this.nodes
            .map((n) => `--- ${n.name}:\n${n.output()}`)
            .join('\n')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 500));
      await this.wake();
    }
  }

  /**
   * The services of the test's own process on the cluster's database, at the cluster's time, with no job
   * queue running (what they queue is run by the server processes): to set up data, and to change it while
   * every server is down. Opened on first use, closed with the cluster.
   */
  async services(): Promise<Services> {
    if (!this.control) {
      const config = loadConfig({
        ...BASE_ENV,
        ...this.env,
        DATA_DIR: path.join(this.base, 'control'),
        DATABASE_URL: this.databaseUrl,
      });
      const database = await openDatabase({ url: this.databaseUrl });
      const clock = new ManualClock(this.time);
      const blobs = await openBlobStore(config, silentLog);
      const services = createServices(config, database, silentLog, { clock, blobs });
      this.control = { database, services, clock };
    }
    return this.control.services;
  }

  /** Kills every process, closes the control services, drops the database and removes the data folders. */
  async close(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.kill()));
    await this.control?.database.close().catch(() => undefined);
    await this.sql.end().catch(() => undefined);
    await this.drop().catch(() => undefined);
    await this.s3?.stop().catch(() => undefined);
    rmSync(this.base, { recursive: true, force: true });
  }
}
