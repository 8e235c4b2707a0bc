import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, Cluster } from './harness.ts';

/**
 * Issue 15's operations across real processes (decision 0030): sign-in limits counted in the database, so
 * that failed logins spread round-robin over three processes hit the limit at the configured count; and a
 * SIGTERM that drains a process (readyz 503 at once, the request in flight answered, then the listener closed, exit 0).
 */

const T0 = Date.parse('2026-04-06T09:00:00Z');
let c: Cluster;

beforeAll(async () => {
  c = await Cluster.start({
    size: 3,
    time: T0,
    // Addresses from X-Forwarded-For (as behind a load balancer), so a test can be several clients.
    env: { TRUST_PROXY: 'true', RATE_LIMIT_LOGIN: '10/15m', RATE_LIMIT_LOGIN_USER: '5/15m' },
  });
});
afterAll(() => c?.close());

const login = (username: string, password: string, address: string, requestId?: string) =>
  c.api('POST', '/api/auth/login', {
    json: { username, password },
    headers: { 'x-forwarded-for': address, ...(requestId ? { 'x-request-id': requestId } : {}) },
  });

describe('failed sign-ins spread round-robin over three processes', () => {
  it('hit the per-address allowance at its tenth attempt, whichever process counts it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++)
      statuses.push((await login(`nobody-${i}`, 'wrong-password', '198.51.100.10')).status);
    // RATE_LIMIT_LOGIN=10/15m: ten attempts (each of the three processes saw three or four), then 429 on all.
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429, 429]);
  });

  it('refuse an address after five wrong passwords for one account, and tell the holder once', async () => {
    const attacker = '203.0.113.66';
    let time = T0;
    for (let i = 1; i <= 5; i++) {
      expect((await login('admin', 'not-the-password', attacker, `guess-${i}`)).status).toBe(401);
      // Each wrong password doubles that address's wait for that account (1 s, 2 s, 4 s, 8 s): waited out.
      time += 2 ** (i - 1) * 1000;
      await c.setClock(time);
    }
    // The fifth is the limit: every process refuses that address for that account, right password or not.
    for (let i = 0; i < 3; i++) {
      const refused = await login('admin', ADMIN_PASSWORD, attacker);
      expect(refused.status).toBe(429);
      expect(refused.json.message).toMatch(/wait 15 minutes/);
    }
    // The owner, from another address, signs in at once through any process.
    for (let i = 0; i < 3; i++) expect((await login('admin', ADMIN_PASSWORD, '192.0.2.8')).status).toBe(200);
    await c.settle();
    const { rows } = await c.sql.query(
      `select status from mail_log where subject like 'Failed sign-ins to your%' order by id`,
    );
    expect(rows).toEqual([{ status: 'sent' }]);
    // Its job names the request that caused it (the fifth guess), whichever process ran it.
    const jobs = await c.sql.query(`select request_id, status from jobs where name = 'mail.send'`);
    expect(jobs.rows).toEqual([{ request_id: 'guess-5', status: 'done' }]);
  });
});

/**
 * Sends a POST /contact whose body waits: resolves `started` once the process has taken the request (its
 * `100 Continue`: the request is being answered, its body still to come), and `answer` with the answer.
 */
function slowContact(url: string) {
  const body = JSON.stringify({
    name: 'Slow Sender',
    email: 'slow@example.org',
    message: 'Sent over a slow line while the process was told to stop.',
  });
  const req = httpRequest(`${url}/contact`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const started = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const answer = new Promise<{ status: number; connection?: string; json: { message?: string } }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            json: JSON.parse(text),
          }),
        );
      });
      req.on('error', reject);
    },
  );
  req.flushHeaders();
  return { started, answer, finish: () => req.end(body) };
}

describe('SIGTERM', () => {
  it('drains a process: readyz 503 at once, connections closed after their answers, the request in flight answered, exit 0', async () => {
    const node = c.node(1);
    const url = node.url;
    expect((await node.api('GET', '/readyz')).json).toEqual({ status: 'ok', database: 'ok', files: 'ok' });
    const slow = slowContact(url);
    await slow.started;
    const exited = node.stop();
    // The signal lands: from then on readyz says draining (the request above is still being answered).
    await vi.waitFor(
      async () => {
        const ready = await fetch(`${url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toEqual({ status: 'draining', database: 'ok', files: 'ok' });
        expect(ready.headers.get('connection')).toBe('close');
      },
      { timeout: 10_000, interval: 50 },
    );
    // A request that still reaches it is answered, and its connection closed after it.
    const late = await fetch(`${url}/api/papers`);
    expect(late.status).toBe(200);
    expect(late.headers.get('connection')).toBe('close');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // The other processes go on answering.
    for (const other of [c.node(0), c.node(2)]) expect((await other.api('GET', '/readyz')).status).toBe(200);
    slow.finish();
    const answered = await slow.answer;
    expect(answered.status).toBe(200);
    expect(answered.connection).toBe('close');
    expect(await exited).toBe(0);
    const { rows } = await c.sql.query(`select name from contact_messages`);
    expect(rows).toEqual([{ name: 'Slow Sender' }]);
    expect(node.output()).toMatch(/SIGTERM received: draining/);
  });
});
