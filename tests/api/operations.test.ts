import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  it('answers the request in flight, refuses new ones, says 503 on /readyz, and is idle once it is done', async () => {
    const d = await createTestContext();
    try {
      await d.app.listen({ port: 5201, host: '127.0.0.1' });
      const { port } = d.app.server.address() as AddressInfo;
      const slow = slowRequest(port);
      // The request is being answered once its head is in (its body still coming).
      await vi.waitFor(() => expect(d.services.drain.requests).toBe(1));
      d.services.drain.begin();
      let idle = false;
      const idleNow = d.services.drain.idle().then(() => {
        idle = true;
      });
      const ready = await get(port, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json).toEqual({ status: 'draining', database: 'ok', files: 'ok' });
      expect(ready.connection).toBe('close');
      expect((await get(port, '/healthz')).status).toBe(200);
      const refused = await get(port, '/api/articles');
      expect(refused.status).toBe(503);
      expect(refused.connection).toBe('close');
      expect(refused.json.message).toMatch(/restarting/);
      expect(idle).toBe(false);
      slow.finish();
      const done = await slow.answer;
      expect(done.status).toBe(200);
      expect(done.connection).toBe('close');
      await idleNow;
      expect(d.services.drain.requests).toBe(0);
      // The message was taken in full.
      const messages = await d.services.db.select().from(contactMessages);
      expect(messages.map((m) => m.name)).toEqual(['Slow Sender']);
    } finally {
      await d.close();
    }
  });
});
