import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logRequest } from '../../server/accounts/links.ts';
import { currentRequestId, logMixin } from '../../server/request-context.ts';
import { contactMessages } from '../../server/contact/tables.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * Operations (issue 15, decision 0030): /healthz and /readyz, and the drain a SIGTERM starts (server/main.ts
 * calls `services.drain.begin()`; here the test does).
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

describe('/healthz and /readyz', () => {
  it('answer 200, never cached, and are in the OpenAPI document', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok', files: 'ok' });
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.headers.etag).toBeUndefined();
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect(doc.paths['/readyz'].get.responses['503']).toBeDefined();
  });

  it('/readyz says which of the database and the file store does not answer; /healthz asks neither', async () => {
    // (injectOnly: the queue's run after each request would meet the broken database too)
    const db = vi.spyOn(t.services.db, 'execute').mockRejectedValue(new Error('connection refused'));
    try {
      const health = await t.injectOnly({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(db).not.toHaveBeenCalled();
      const ready = await t.injectOnly({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: 'failing', files: 'ok' });
    } finally {
      db.mockRestore();
    }
    const files = vi.spyOn(t.services.files.blobs, 'check').mockRejectedValue(new Error('NoSuchBucket'));
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: 'ok', files: 'failing' });
    } finally {
      files.mockRestore();
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('are not counted against any limit: a client refused elsewhere still gets them', async () => {
    const limited = await createTestContext({ RATE_LIMIT_LOGIN: '2/15m' });
    try {
      for (let i = 0; i < 3; i++)
        await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'nobody', password: 'wrong-password' },
        });
      const refused = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'nobody', password: 'wrong-password' },
      });
      expect(refused.statusCode).toBe(429);
      for (let i = 0; i < 20; i++)
        expect((await limited.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

/** Sends the head of a request now and its body when `finish` is called; resolves with the answer. */
function slowRequest(port: number) {
  const body = JSON.stringify({
    name: 'Slow Sender',
    email: 'slow@example.org',
    subject: 'A message that takes its time',
    message: 'Typed on a slow line, sent while the server is asked to stop.',
  });
  const req = httpRequest({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path: '/contact',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
      );
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  req.flushHeaders();
  return { answer, finish: () => req.end(body.slice(10)) };
}

async function get(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, connection: res.headers.get('connection'), json: await res.json() };
}

describe('draining (after SIGTERM)', () => {
  it('says 503 on /readyz, closes every connection after its answer, and waits for the request in flight', async () => {
    const d = await createTestContext();
    try {
      await d.app.listen({ port: 5201, host: '127.0.0.1' });
      const { port } = d.app.server.address() as AddressInfo;
      const slow = slowRequest(port);
      // The request is being answered once its head is in (its body still coming).
      await vi.waitFor(() => expect(d.services.drain.requests).toBe(1));
      d.services.drain.begin();
      let finished = false;
      const before = d.services.drain.before().then(() => {
        finished = true;
      });
      const ready = await get(port, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json).toEqual({ status: 'draining', database: 'ok', files: 'ok' });
      expect(ready.connection).toBe('close');
      expect((await get(port, '/healthz')).status).toBe(200);
      // What still arrives before the balancer notices is answered, and its connection closed after it.
      const late = await get(port, '/api/papers');
      expect(late.status).toBe(200);
      expect(late.connection).toBe('close');
      expect(finished).toBe(false);
      slow.finish();
      const done = await slow.answer;
      expect(done.status).toBe(200);
      expect(done.connection).toBe('close');
      await before;
      expect(d.services.drain.requests).toBe(0);
      // The message was taken in full.
      const messages = await d.services.db.select().from(contactMessages);
      expect(messages.map((m) => m.name)).toEqual(['Slow Sender']);
    } finally {
      await d.close();
    }
  });
});

describe('request ids', () => {
  /** A context whose services and Fastify log JSON lines into `lines`, as the server's logger does. */
  async function logged() {
    const lines: Record<string, unknown>[] = [];
    const raw: string[] = [];
    const logger = pino(
      { level: 'info', serializers: { req: logRequest }, mixin: logMixin },
      {
        write(line: string) {
          raw.push(line);
          lines.push(JSON.parse(line));
        },
      },
    );
    return { ctx: await createTestContext({}, { logger }), lines, raw };
  }

  it('answers a sane incoming X-Request-Id, and a new id for none or an insane one', async () => {
    const sent = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'lb-7f3a.2026:42' },
    });
    expect(sent.headers['x-request-id']).toBe('lb-7f3a.2026:42');
    const none = await t.app.inject({ method: 'GET', url: '/api/papers' });
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['two words', 'x'.repeat(129), 'line\u0085break', '"quoted"', '-leading-dash']) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    const b = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('is known to the services a request calls, its body arriving later or not', async () => {
    const seen: (string | undefined)[] = [];
    const send = t.services.contact.send.bind(t.services.contact);
    const spy = vi.spyOn(t.services.contact, 'send').mockImplementation(async (...args) => {
      seen.push(currentRequestId());
      await Promise.resolve();
      seen.push(currentRequestId());
      return send(...args);
    });
    try {
      // Over a real connection: a body's stream events come from the socket, not from the request.
      await t.app.listen({ port: 5202, host: '127.0.0.1' });
      const body = JSON.stringify({
        name: 'Reader',
        email: 'reader@example.org',
        message: 'Hello there, editors.',
      });
      const req = httpRequest({
        port: 5202,
        host: '127.0.0.1',
        method: 'POST',
        path: '/contact',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-request-id': 'contact-req-1',
          expect: '100-continue',
        },
      });
      const status = new Promise<number>((resolve, reject) => {
        req.on('response', (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      // The body follows once the server has taken the request: it arrives as later socket data.
      req.once('continue', () => req.end(body));
      req.flushHeaders();
      expect(await status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual(['contact-req-1', 'contact-req-1']);
    expect(currentRequestId()).toBeUndefined();
  });

  it('follows a request into the jobs it queued: stored with the job, in the log lines of its run', async () => {
    const { ctx, lines, raw } = await logged();
    try {
      const user = await ctx.createUser({ role: 'author', status: 'approved' });
      const res = await ctx.injectOnly({
        method: 'POST',
        url: '/api/auth/password-reset',
        headers: { 'x-request-id': 'reset-req-9' },
        payload: { identifier: user.username },
      });
      expect(res.statusCode).toBe(202);
      expect(res.headers['x-request-id']).toBe('reset-req-9');
      const [reset] = await ctx.services.jobs.list('queued');
      expect(reset).toMatchObject({ name: 'accounts.password-reset', requestId: 'reset-req-9' });
      // Run later, as another process would: the run's lines name the request that caused it, and so do
      // the jobs it queued in turn (the e-mail).
      expect(await ctx.runJobs()).toBeGreaterThan(0);
      expect(ctx.mail.map((m) => m.to)).toEqual([user.email]);
      const [job] = await ctx.services.jobs.list('done');
      expect(job).toMatchObject({ name: 'mail.send', requestId: 'reset-req-9' });
      const started = lines.find((l) => String(l.msg).startsWith('job mail.send started'));
      expect(started).toMatchObject({ reqId: 'reset-req-9', job: { id: job.id, name: 'mail.send' } });
      // Fastify's own request lines carry it once (a binding, not repeated by the mixin).
      const completed = raw.filter((l) => l.includes('"request completed"') && l.includes('reset-req-9'));
      expect(completed).toHaveLength(1);
      expect(completed[0].match(/"reqId"/g)).toHaveLength(1);
      // Work outside any request names none.
      await ctx.services.jobs.enqueue(ctx.services.db, 'mail.send', { nothing: true }, { maxAttempts: 1 });
      expect((await ctx.services.jobs.list('queued'))[0].requestId).toBeNull();
    } finally {
      await ctx.close();
    }
  });
});
