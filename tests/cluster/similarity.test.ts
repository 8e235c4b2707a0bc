import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/testing/harness.ts';
import { Cluster, type ClusterNode, submitManuscript } from './harness.ts';

/**
 * Issue 15: "a manuscript submitted through process 1 is on the desk through process 2 and its similarity
 * report is made by whichever process takes the job; process 2 is killed with SIGKILL in the middle of a
 * similarity check and the check still completes once". Three processes of the built server on one
 * PostgreSQL and one object store (the manuscript is stored by one process and read by another), with the
 * similarity checker's background work on: a submission's `manuscript.arrived` event becomes its job in the
 * submission's own transaction (decision 0031).
 */

const T0 = Date.parse('2026-03-02T09:00:00Z');
const LEASE_MS = 5 * 60_000;

let c: Cluster;
const tokens: Record<string, string> = {};

async function signIn(role: 'editor' | 'author', name: string) {
  const services = await c.services();
  const u = await insertUser(services.db, {
    role,
    status: 'approved',
    username: name,
    fullName: `Ann ${name}`,
  });
  const login = await c.api('POST', '/api/auth/login', {
    json: { username: u.username, password: u.password },
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  tokens[role] = login.json.token;
  return u;
}

const submit = (node: ClusterNode, title: string) =>
  submitManuscript(node, tokens.author, title, { name: 'Ann author', email: 'author@example.org' });

/** The similarity jobs of a submission (its arrival event's), and its stored reports. */
async function similarityOf(submissionId: number) {
  const { rows: jobs } = await c.sql.query(
    `select status, attempts, locked_by, last_error from jobs
      where name = 'similarity.index' and payload->>'type' = 'submission' and (payload->>'submissionId')::int = $1`,
    [submissionId],
  );
  const { rows: checks } = await c.sql.query(
    'select submission_file_id, error, plagiarism_percentage from similarity_checks where submission_id = $1',
    [submissionId],
  );
  return { jobs, checks };
}

beforeAll(async () => {
  c = await Cluster.start({
    size: 3,
    time: T0,
    // The processes' files are in the cluster's one object store (the harness's default).
    env: { RATE_LIMIT_LOGIN: 'off', SIMILARITY_BACKGROUND: 'true' },
  });
  await signIn('editor', 'eve_editor');
  await signIn('author', 'al_author');
  // The catch-up passes of a first start (an empty corpus, nothing to read) are done before the tests begin.
  await c.settle();
});
afterAll(() => c?.close());

describe('the similarity check of an arriving manuscript, across three processes', () => {
  it('submitted through process 1: on the desk through process 2, its report made once by one process', async () => {
    const id = await submit(c.node(0), 'Adaptive sampling on three processes');
    const desk = await c.node(1).api('GET', '/api/editor/submissions', { token: tokens.editor });
    expect(desk.status).toBe(200);
    expect(desk.json.submissions.map((s: { id: number }) => s.id)).toContain(id);
    await c.settle();
    const { jobs, checks } = await similarityOf(id);
    expect(jobs).toEqual([{ status: 'done', attempts: 1, locked_by: null, last_error: null }]);
    expect(checks).toHaveLength(1);
    expect(checks[0].error).toBeNull();
    // The stored report, through the third process (read, not made again).
    const report = await c
      .node(2)
      .api('GET', `/api/editor/submissions/${id}/similarity`, { token: tokens.editor });
    expect(report.status, report.text).toBe(200);
    expect((await similarityOf(id)).checks).toHaveLength(1);
  });

  it('process 2 killed with SIGKILL in the middle of a check: another completes it, once', async () => {
    const [one, two, three] = [c.node(0), c.node(1), c.node(2)];
    // Process 2 alone for a moment, so that it is the one that takes the job.
    expect(await one.stop()).toBe(0);
    expect(await three.stop()).toBe(0);
    // The report's write waits behind a lock the test holds: the check is under way, not finished.
    const lock = await c.sql.connect();
    let id = 0;
    try {
      await lock.query('begin');
      await lock.query('lock table similarity_checks in share mode');
      id = await submit(two, 'A check cut short');
      for (;;) {
        const { rows } = await c.sql.query(
          `select count(*)::int as n from pg_locks where not granted and relation = 'similarity_checks'::regclass`,
        );
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const [job] = (await similarityOf(id)).jobs;
      expect(job).toMatchObject({ status: 'running', attempts: 1, locked_by: two.workerId });
      await two.kill();
      // Its backend, waiting on the lock, would notice the closed connection only when it next answers (an
      // autocommitted insert would then be in): ended as the server ends a connection that is gone.
      await c.sql.query(
        `select pg_terminate_backend(pid) from pg_locks where not granted and relation = 'similarity_checks'::regclass`,
      );
    } finally {
      await lock.query('commit');
      lock.release();
    }
    // The others start again: nothing of the killed check committed, and its job stays the dead process's
    // until the lease ends.
    await one.start();
    await three.start();
    let now = await similarityOf(id);
    expect(now.checks).toEqual([]);
    expect(now.jobs[0]).toMatchObject({ status: 'running', locked_by: expect.any(String) });
    await c.setClock(c.time + LEASE_MS + 60_000);
    await c.settle();
    now = await similarityOf(id);
    expect(now.jobs).toHaveLength(1);
    expect(now.jobs[0]).toMatchObject({ status: 'done', attempts: 2, locked_by: null });
    expect(now.checks).toHaveLength(1);
    expect(now.checks[0].error).toBeNull();
    // Process 2 starts again on its folder and finds nothing left to do.
    await two.start();
    await c.settle();
    expect((await similarityOf(id)).jobs[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect((await similarityOf(id)).checks).toHaveLength(1);
  });
});
