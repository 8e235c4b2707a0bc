import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../server/clock.ts';
import { DEFAULT_LEASE_MS } from '../../server/jobs/queue.ts';
import { insertUser } from '../../server/testing/harness.ts';
import { Cluster, type ClusterNode, submitManuscript } from './harness.ts';

/**
 * Issue 22: "A server process dies when PostgreSQL restarts". Two processes on one PostgreSQL database, ten
 * readers and two submitters, and every server connection of the database ended under them
 * (`pg_terminate_backend`, what a restart or a fail-over does to a process's connections; not a restart of the
 * shared PostgreSQL server, which other databases use). No process exits, no request answers 500 (503 with
 * Retry-After during the gap), no submission answered 201 is lost, and both processes' LISTEN connections
 * (the change feed's and the job queue's) and the queue's work come back by themselves.
 */

const T0 = Date.parse('2026-05-04T09:00:00Z');
let c: Cluster;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  c = await Cluster.start({ size: 2, time: T0, env: { RATE_LIMIT_LOGIN: 'off' } });
  const services = await c.services();
  for (const role of ['editor', 'author'] as const) {
    const u = await insertUser(services.db, { role, status: 'approved', username: `restart_${role}` });
    const login = await c.api('POST', '/api/auth/login', {
      json: { username: u.username, password: u.password },
    });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
    tokens[role] = login.json.token;
  }
  await c.settle();
});
afterAll(() => c?.close());

/** Ends every server connection of the cluster's database but the one asking. */
async function terminateAll(): Promise<number> {
  const { rows } = await c.sql.query(
    `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()) t`,
  );
  return rows[0].n as number;
}

/** The LISTEN connections of the database, by channel. */
async function listeners(): Promise<Record<string, number>> {
  const { rows } = await c.sql.query(
    `select query, count(*)::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'listen %' group by query`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      String(r.query)
        .replace(/^listen\s+/i, '')
        .replace(/"/g, ''),
      r.n,
    ]),
  );
}

/** Polls `check` (a condition on the database, not a pause) until it holds or `ms` pass. */
async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(
        `${what}: still ${JSON.stringify(v)}\n${c.nodes.map((n) => `--- ${n.name}:\n${n.output()}`).join('\n')}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Answer = { who: string; url: string; status: number; retryAfter: string | null; text: string };

describe('every database connection ended under load', () => {
  it('keeps both processes up, answers 503 (never 500) in the gap, loses no submission, and recovers', async () => {
    const answers: Answer[] = [];
    const accepted: number[] = [];
    let stop = false;
    const record = (who: string, url: string, res: { status: number; headers: Headers; text: string }) =>
      answers.push({
        who,
        url,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        text: res.text.slice(0, 300),
      });

    // Readers: the desk (editor), the public article list (kept, but its version is read), and pages.
    const reads: [string, string | undefined][] = [
      ['/api/editor/submissions', tokens.editor],
      ['/api/articles/public/articles', undefined],
      ['/api/submissions/mine', tokens.author],
      ['/', undefined],
      ['/volumes', undefined],
    ];
    const reader = async (i: number) => {
      for (let n = 0; !stop; n++) {
        const [url, token] = reads[(i + n) % reads.length];
        try {
          record(`reader ${i}`, url, await c.api('GET', url, token ? { token } : {}));
        } catch (err) {
          // No answer at all (the process is gone): recorded, and this reader stops.
          answers.push({ who: `reader ${i}`, url, status: 0, retryAfter: null, text: String(err) });
          return;
        }
      }
    };
    const submitter = async (i: number) => {
      for (let n = 0; !stop; n++) {
        const title = `Submitted under a restart ${i}-${n}`;
        try {
          accepted.push(
            await submitManuscript(c, tokens.author, title, { name: 'Ann Author', email: 'ann@example.org' }),
          );
          answers.push({ who: `submitter ${i}`, url: 'submit', status: 201, retryAfter: null, text: '' });
        } catch (err) {
          const m = /: (\d{3}) /.exec(String((err as Error).message));
          answers.push({
            who: `submitter ${i}`,
            url: 'submit',
            status: m ? Number(m[1]) : 0,
            retryAfter: null,
            text: String(err).slice(0, 300),
          });
          if (!m) return;
        }
      }
    };
    const load = [
      ...Array.from({ length: 10 }, (_, i) => reader(i)),
      ...Array.from({ length: 2 }, (_, i) => submitter(i)),
    ];
    // Under load: every connection ended, five times over (the gap a restart makes, and the reconnections).
    await eventually(
      'answers before the first cut',
      async () => answers.length,
      (n) => n >= 40,
    );
    const ended: number[] = [];
    for (let round = 0; round < 5; round++) {
      const before = answers.length;
      ended.push(await terminateAll());
      await eventually(
        'answers after a cut',
        async () => answers.length,
        (n) => n >= before + 15 || answers.some((a) => a.status === 0),
      );
    }
    stop = true;
    await Promise.all(load);

    // Both processes are up.
    const output = c.nodes.map((n) => n.output()).join('\n');
    expect(
      c.running.map((n: ClusterNode) => n.name),
      output,
    ).toEqual(['process 1', 'process 2']);
    expect(output).not.toMatch(/Unhandled 'error' event/);
    expect(ended.every((n) => n > 0)).toBe(true);
    const byStatus: Record<string, number> = {};
    for (const a of answers)
      byStatus[`${a.url === 'submit' ? 'submit' : 'read'} ${a.status}`] =
        (byStatus[`${a.url === 'submit' ? 'submit' : 'read'} ${a.status}`] ?? 0) + 1;
    console.info('answers under the cuts:', JSON.stringify(byStatus));
    // No 500, no dropped connection: 200/201, or 503 with Retry-After.
    const wrong = answers.filter((a) => ![200, 201, 503].includes(a.status));
    expect(wrong, JSON.stringify(wrong.slice(0, 5))).toEqual([]);
    const refused = answers.filter((a) => a.status === 503 && a.url !== 'submit');
    expect(refused.filter((a) => a.retryAfter !== '30')).toEqual([]);
    expect(accepted.length).toBeGreaterThan(0);

    // Every submission answered 201 was committed.
    const { rows } = await c.sql.query('select id from submissions where id = any($1::int[])', [accepted]);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([...accepted].sort((a, b) => a - b));

    // Both processes LISTEN again, for the change feed and for the job queue.
    await eventually(
      'LISTEN connections back',
      listeners,
      (l) => l.colophon_changes === 2 && l.colophon_jobs === 2,
    );
    // And answer again, through each process: a read, a submission, its queued e-mail sent.
    for (const node of c.nodes) {
      const desk = await node.api('GET', '/api/editor/submissions', { token: tokens.editor });
      expect(desk.status).toBe(200);
      const page = await node.api('GET', '/');
      expect(page.status).toBe(200);
      await submitManuscript(node, tokens.author, `After the restart, through ${node.name}`, {
        name: 'Ann Author',
        email: 'ann@example.org',
      });
    }
    // A job that was running when its connections ended, and whose outcome could not be written (or whose
    // handler never heard back from the database), is taken over by the other process once its lease ends
    // (decision 0022): the clock passes the lease, so that what is checked is that no job is lost.
    await c.setClock(T0 + DEFAULT_LEASE_MS + MINUTE);
    await c.settle();
    const failed = await c.sql.query(`select name, last_error from jobs where status = 'failed'`);
    expect(failed.rows).toEqual([]);
  });
});
