/**
 * The job queue's figures (decision 0022): enqueue, pickup latency and throughput of N no-op jobs, on PGlite
 * (in its thread, over the wire protocol) and on the PostgreSQL at DATABASE_URL (or 127.0.0.1), with one
 * queue and with two queues on two pools (two "processes"). A figure, never a timed test.
 *
 *   npm run bench:jobs            (N=500 by default; N=2000 npm run bench:jobs)
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { systemClock } from '../server/clock.ts';
import { type Database, openDatabase } from '../server/db/client.ts';
import { JobQueue } from '../server/jobs/queue.ts';

const N = Number(process.env.N ?? 500);
const log = { info() {}, warn() {}, error: (o: unknown, m?: string) => console.error(m, o) };
const pgUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

function queueOn(database: Database, done: () => void) {
  const q = new JobQueue(database.db, { clock: systemClock, log, listen: database.listen, pollMs: 1000 });
  q.define('noop', async () => done());
  return q;
}

async function run(label: string, databases: Database[]) {
  const first = databases[0];
  // Pickup latency: one job at a time into a started queue (prompt pickup / LISTEN).
  let resolve!: () => void;
  const queues = databases.map((d) => queueOn(d, () => resolve()));
  await Promise.all(queues.map((q) => q.start()));
  const latencies: number[] = [];
  for (let i = 0; i < 20; i++) {
    const ran = new Promise<void>((r) => {
      resolve = r;
    });
    const t0 = performance.now();
    await first.db.transaction((tx) => queues[0].enqueue(tx, 'noop', {}));
    await ran;
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  // Throughput: N jobs enqueued in one transaction, then run by the started queues.
  let left = N;
  const all = new Promise<void>((r) => {
    resolve = () => {
      if (--left === 0) r();
    };
  });
  const t1 = performance.now();
  await first.db.transaction(async (tx) => {
    for (let i = 0; i < N; i++) await queues[0].enqueue(tx, 'noop', { i });
  });
  const enqueued = performance.now() - t1;
  await all;
  const total = performance.now() - t1;
  await Promise.all(queues.map((q) => q.stop()));
  console.log(
    `${label.padEnd(28)} pickup p50 ${latencies[10].toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; ` +
      `enqueue ${N} in ${enqueued.toFixed(0)} ms (${((N / enqueued) * 1000).toFixed(0)}/s); ` +
      `all run in ${total.toFixed(0)} ms (${((N / total) * 1000).toFixed(0)} jobs/s)`,
  );
}

const pglite = await openDatabase({ memory: true });
await run('PGlite, one queue', [pglite]);
await pglite.close();

const name = `colophon_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(pgUrl);
url.pathname = `/${name}`;
try {
  const one = await openDatabase({ url: url.toString() });
  const two = await openDatabase({ url: url.toString() });
  await run('PostgreSQL, one queue', [one]);
  await one.db.execute(sql`delete from jobs`);
  await run('PostgreSQL, two queues', [one, two]);
  await one.close();
  await two.close();
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
