import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import type { Db } from '../../server/db/client.ts';
import { MetricsService, monthOf, visitorKey } from '../../server/metrics/service.ts';
import { type TestContext, createTestContext, silentLog } from '../../server/testing/harness.ts';
import { SETUP_TIMEOUT, createVolume, publishArticle } from './discovery-helpers.ts';

/**
 * Usage counts (issue 6): views and downloads per article and month, robots and double clicks (the same
 * visitor within 30 seconds, as COUNTER counts) left out; the public metrics endpoint; the article page's
 * view beacon (issue 13) and the batched writes behind it (decision 0019).
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let t: TestContext;
let token = '';
let articleId = 0;
let otherId = 0;
let metrics: MetricsService;

beforeAll(async () => {
  t = await createTestContext();
  token = await t.login('admin', 'admin-pass-123');
  const [issueId] = await createVolume(t, token, { number: 3, year: 2026, issues: 1 });
  articleId = await publishArticle(t, token, { issueId, title: 'Counted', doi: '10.5555/count.1' });
  otherId = await publishArticle(t, token, { issueId, title: 'Counted too', doi: '10.5555/count.2' });
  metrics = new MetricsService(t.services.db, { log: silentLog });
}, SETUP_TIMEOUT);
afterAll(() => t?.close());

const at = (iso: string) => new Date(iso);
const reader = { ip: '203.0.113.7', userAgent: FIREFOX };

describe('who is counted', () => {
  it('leaves robots out, and requests without a user agent', async () => {
    expect(visitorKey({ ip: '1.2.3.4', userAgent: GOOGLEBOT })).toBeNull();
    expect(visitorKey({ ip: '1.2.3.4', userAgent: 'curl/8.5.0' })).toBeNull();
    expect(visitorKey({ ip: '1.2.3.4', userAgent: '' })).toBeNull();
    expect(visitorKey({ ip: '1.2.3.4' })).toBeNull();
    expect(await metrics.record('view', articleId, { ip: '1.2.3.4', userAgent: GOOGLEBOT })).toBe(false);
    expect((await metrics.articleMetrics(articleId)).totals).toEqual({ views: 0, downloads: 0 });
  });

  it('tells visitors apart by session when signed in, else by address and browser', () => {
    const a = visitorKey({ ip: '1.2.3.4', userAgent: FIREFOX });
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(visitorKey({ ip: '1.2.3.4', userAgent: SAFARI })).not.toBe(a);
    expect(visitorKey({ ip: '1.2.3.5', userAgent: FIREFOX })).not.toBe(a);
    // The same session from another network is the same visitor; the address is then irrelevant.
    expect(visitorKey({ sessionId: 's1', ip: '1.2.3.4', userAgent: FIREFOX })).toBe(
      visitorKey({ sessionId: 's1', ip: '9.9.9.9', userAgent: SAFARI }),
    );
    expect(visitorKey({ sessionId: 's1', ip: '1.2.3.4', userAgent: FIREFOX })).not.toBe(a);
  });
});

describe('the 30-second rule', () => {
  it('counts a repeat within 30 seconds once, and again after 30 seconds', async () => {
    const v = { ...reader, ip: '203.0.113.30' };
    expect(await metrics.record('view', otherId, v, at('2026-04-10T10:00:00Z'))).toBe(true);
    expect(await metrics.record('view', otherId, v, at('2026-04-10T10:00:10Z'))).toBe(false);
    // Measured from the previous click, as COUNTER does: a reader clicking every 20 s is one view.
    expect(await metrics.record('view', otherId, v, at('2026-04-10T10:00:29Z'))).toBe(false);
    expect(await metrics.record('view', otherId, v, at('2026-04-10T10:01:00Z'))).toBe(true);
    // Another visitor, and another kind, are counted on their own.
    expect(
      await metrics.record('view', otherId, { ...v, userAgent: SAFARI }, at('2026-04-10T10:01:01Z')),
    ).toBe(true);
    expect(await metrics.record('download', otherId, v, at('2026-04-10T10:01:02Z'))).toBe(true);
    expect(await metrics.record('download', otherId, v, at('2026-04-10T10:01:05Z'))).toBe(false);
    const m = await metrics.articleMetrics(otherId);
    expect(m.months).toEqual([{ month: '2026-04', views: 3, downloads: 1 }]);
  });

  it('counts two simultaneous requests of one visitor once', async () => {
    const v = { ...reader, ip: '203.0.113.31' };
    const when = at('2026-05-02T08:00:00Z');
    const results = await Promise.all([
      metrics.record('view', otherId, v, when),
      metrics.record('view', otherId, v, when),
      metrics.record('view', otherId, v, when),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await metrics.articleMetrics(otherId)).months.at(-1)).toEqual({
      month: '2026-05',
      views: 1,
      downloads: 0,
    });
  });
});

describe('months', () => {
  it('files each request under its UTC month, across the turn of a month and of a year', async () => {
    expect(monthOf(at('2026-01-31T23:59:59Z'))).toBe('2026-01-01');
    expect(monthOf(at('2026-02-01T00:00:00Z'))).toBe('2026-02-01');
    const v = { ...reader, ip: '203.0.113.40' };
    await metrics.record('view', articleId, v, at('2025-12-31T23:59:40Z'));
    // 30 s later, past midnight: a new click, in the new month and year.
    await metrics.record('view', articleId, v, at('2026-01-01T00:00:10Z'));
    // 10 s later still: a double click, counted nowhere.
    await metrics.record('view', articleId, v, at('2026-01-01T00:00:20Z'));
    await metrics.record('download', articleId, v, at('2026-01-31T23:59:59Z'));
    await metrics.record('download', articleId, v, at('2026-02-01T00:00:30Z'));
    const m = await metrics.articleMetrics(articleId);
    expect(m.months).toEqual([
      { month: '2025-12', views: 1, downloads: 0 },
      { month: '2026-01', views: 1, downloads: 1 },
      { month: '2026-02', views: 0, downloads: 1 },
    ]);
    expect(m.totals).toEqual({ views: 2, downloads: 2 });
    const totals = await metrics.totals([articleId, otherId, 999_999]);
    expect(totals.get(articleId)).toEqual({ views: 2, downloads: 2 });
    expect(totals.get(999_999)).toEqual({ views: 0, downloads: 0 });
  });
});

describe('never in the way', () => {
  it('logs a failed write and lets the request go on', async () => {
    const warnings: unknown[] = [];
    const failing = {
      execute: () => Promise.reject(Object.assign(new Error('disk full'), { code: '53100' })),
    } as unknown as Db;
    const broken = new MetricsService(failing, {
      log: { ...silentLog, warn: (obj: unknown) => warnings.push(obj) },
    });
    expect(() => broken.track('view', articleId, reader)).not.toThrow();
    await broken.settled();
    expect(warnings).toHaveLength(1);
  });

  it('leaves out the requests for an article deleted before the batch is written', async () => {
    const fresh = new MetricsService(t.services.db, { log: silentLog });
    expect(await fresh.record('view', 987_654, reader)).toBe(false);
  });
});

describe('batched writes', () => {
  /** A service on the test database that counts the statements it runs. */
  function counting(clock: ManualClock, flushMs?: number) {
    const statements = { n: 0 };
    const db = new Proxy(t.services.db, {
      get(target, key, receiver) {
        if (key === 'execute') {
          return (...args: unknown[]) => {
            statements.n++;
            return (target.execute as (...a: unknown[]) => unknown)(...args);
          };
        }
        return Reflect.get(target, key, receiver);
      },
    }) as Db;
    return { metrics: new MetricsService(db, { log: silentLog, clock, flushMs }), statements };
  }

  it('holds views until the batch is written, in one statement, double clicks folded in memory', async () => {
    const id = await publishArticle(t, token, {
      issueId: (await t.services.catalog.article(articleId)).issue_id,
      title: 'Batched',
      doi: '10.5555/count.batch',
    });
    const clock = new ManualClock(at('2026-06-30T23:59:20Z'));
    const { metrics: batched, statements } = counting(clock);
    const a = { ...reader, ip: '198.51.100.1' };
    const b = { ...reader, ip: '198.51.100.2' };
    batched.track('view', id, a);
    batched.track('view', id, a); // a double click
    batched.track('view', id, b);
    batched.track('view', id, { ...a, userAgent: GOOGLEBOT }); // a robot
    batched.track('download', id, a);
    clock.advance(10_000);
    batched.track('view', id, a); // 10 s after the previous: still a double click
    clock.advance(30_000); // 23:59:30 + 30 s: July, and 30 s after a's previous view
    batched.track('view', id, a);
    expect((await t.services.metrics.articleMetrics(id)).totals).toEqual({ views: 0, downloads: 0 });
    await batched.settled();
    expect(statements.n).toBe(1);
    expect((await t.services.metrics.articleMetrics(id)).months).toEqual([
      { month: '2026-06', views: 2, downloads: 1 },
      { month: '2026-07', views: 1, downloads: 0 },
    ]);

    // The next batch: the 30 s are measured from the visitor's last request in the batch before.
    clock.advance(20_000);
    batched.track('view', id, a); // 20 s after a's last: not counted
    batched.track('view', id, b); // 60 s after b's last: counted
    await batched.settled();
    expect(statements.n).toBe(2);
    expect((await t.services.metrics.articleMetrics(id)).totals).toEqual({ views: 4, downloads: 1 });
    // Nothing held, nothing written.
    await batched.settled();
    expect(statements.n).toBe(2);
  });

  it('writes on its own a few seconds after the first request of a batch', async () => {
    const id = await publishArticle(t, token, {
      issueId: (await t.services.catalog.article(articleId)).issue_id,
      title: 'Batched on a timer',
      doi: '10.5555/count.timer',
    });
    const { metrics: batched } = counting(new ManualClock(), 50);
    batched.track('view', id, { ...reader, ip: '198.51.100.3' });
    batched.track('view', id, { ...reader, ip: '198.51.100.4' });
    await vi.waitFor(async () => expect((await t.services.metrics.articleMetrics(id)).totals.views).toBe(2), {
      timeout: 5_000,
      interval: 20,
    });
  });
});

describe('several server processes on one database (decision 0030)', () => {
  /** Each process holds its own batch in memory; they share the database (on PostgreSQL, a pool's connections). */
  const processes = (n: number, start: Date) =>
    Array.from({ length: n }, () => {
      const clock = new ManualClock(start);
      return { clock, metrics: new MetricsService(t.services.db, { log: silentLog, clock }) };
    });
  const article = (title: string, doi: string) =>
    t.services.catalog
      .article(articleId)
      .then((a) => publishArticle(t, token, { issueId: a.issue_id, title, doi }));

  it('count a visitor seen by three processes within 30 s once, whatever the order of their writes', async () => {
    const id = await article('Across processes', '10.5555/count.procs');
    const [a, b, c] = processes(3, at('2026-03-10T10:00:00Z'));
    a.metrics.track('view', id, reader);
    b.clock.advance(10_000);
    b.metrics.track('view', id, reader);
    c.clock.advance(25_000);
    c.metrics.track('view', id, reader);
    // The three batches are written at once (on PostgreSQL on three connections).
    await Promise.all([c.metrics.settled(), a.metrics.settled(), b.metrics.settled()]);
    expect((await metrics.articleMetrics(id)).totals.views).toBe(1);
    // A process that writes later, with the visitor's request of 20 s after the last one: still one.
    a.clock.set(at('2026-03-10T10:00:45Z'));
    a.metrics.track('view', id, reader);
    await a.metrics.settled();
    expect((await metrics.articleMetrics(id)).totals.views).toBe(1);
    // 30 s after the previous request, through yet another process: counted.
    b.clock.set(at('2026-03-10T10:01:15Z'));
    b.metrics.track('view', id, reader);
    await b.metrics.settled();
    expect((await metrics.articleMetrics(id)).totals.views).toBe(2);
  });

  it('count a visitor seen by two processes 30 s apart twice, and two visitors apart', async () => {
    const id = await article('Across processes, apart', '10.5555/count.procs2');
    const [a, b] = processes(2, at('2026-03-11T10:00:00Z'));
    a.metrics.track('download', id, reader);
    b.clock.advance(30_000);
    b.metrics.track('download', id, reader);
    b.metrics.track('download', id, { ...reader, ip: '198.51.100.77' });
    await a.metrics.settled();
    await b.metrics.settled();
    expect((await metrics.articleMetrics(id)).totals.downloads).toBe(3);
  });
});

describe('through the API', () => {
  const download = (id: number, headers: Record<string, string>) =>
    t.app.inject({
      method: 'GET',
      url: `/api/articles/${id}/download`,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
  const read = async (id: number) => {
    await t.services.metrics.settled();
    const res = await t.app.inject({ method: 'GET', url: `/api/articles/${id}/metrics` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      articleId: number;
      totals: { views: number; downloads: number };
      months: unknown[];
    };
  };

  it('counts a delivered PDF once per visitor within 30 s, never for robots or HEAD requests', async () => {
    const id = await publishArticle(t, token, {
      issueId: (await t.services.catalog.article(articleId)).issue_id,
      title: 'Downloaded',
      doi: '10.5555/count.3',
    });
    expect((await read(id)).totals).toEqual({ views: 0, downloads: 0 });
    expect((await download(id, { 'user-agent': FIREFOX })).statusCode).toBe(200);
    expect((await download(id, { 'user-agent': FIREFOX })).statusCode).toBe(200);
    expect((await download(id, { 'user-agent': GOOGLEBOT })).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'HEAD',
          url: `/api/articles/${id}/download`,
          headers: { authorization: `Bearer ${token}`, 'user-agent': SAFARI },
        })
      ).statusCode,
    ).toBe(200);
    const m = await read(id);
    expect(m.totals).toEqual({ views: 0, downloads: 1 });
    expect(m.months).toEqual([{ month: new Date().toISOString().slice(0, 7), views: 0, downloads: 1 }]);
    // A refused download is not a download.
    await t.app.inject({
      method: 'GET',
      url: `/api/articles/${id}/download`,
      headers: { 'user-agent': SAFARI },
    });
    expect((await read(id)).totals.downloads).toBe(1);
  });

  it('answers 404 for an unknown or unpublished article, 400 for a bad id', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/articles/999999/metrics' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/articles/x/metrics' })).statusCode).toBe(400);
    await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${otherId}/status`,
      headers: { authorization: `Bearer ${token}` },
      payload: { status: 'unpublished' },
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/articles/${otherId}/metrics` })).statusCode).toBe(
      404,
    );
    // Editors may still fetch the unpublished article's PDF; that is not a reader's download.
    const before = (await t.services.metrics.articleMetrics(otherId)).totals.downloads;
    expect((await download(otherId, { 'user-agent': SAFARI })).statusCode).toBe(200);
    await t.services.metrics.settled();
    expect((await t.services.metrics.articleMetrics(otherId)).totals.downloads).toBe(before);
  });
});

describe('the view beacon', () => {
  const beacon = (id: number | string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/articles/${id}/views`, headers });
  const sameOrigin = { host: 'journal.test', origin: 'http://journal.test', 'sec-fetch-site': 'same-origin' };
  const views = async (id: number) => {
    await t.services.metrics.settled();
    return (await t.services.metrics.articleMetrics(id)).totals.views;
  };
  let id = 0;
  beforeAll(async () => {
    id = await publishArticle(t, token, {
      issueId: (await t.services.catalog.article(articleId)).issue_id,
      title: 'Beaconed',
      doi: '10.5555/count.beacon',
    });
  });

  it('counts a view sent by our own page, once per visitor within 30 s', async () => {
    const res = await beacon(id, { ...sameOrigin, 'user-agent': FIREFOX });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await views(id)).toBe(1);
    // The same reader again at once: a double click.
    expect((await beacon(id, { ...sameOrigin, 'user-agent': FIREFOX })).statusCode).toBe(204);
    expect(await views(id)).toBe(1);
    // 30 s later it counts again; another browser counts on its own.
    t.clock.advance(30_000);
    await beacon(id, { ...sameOrigin, 'user-agent': FIREFOX });
    await beacon(id, { ...sameOrigin, 'user-agent': SAFARI });
    expect(await views(id)).toBe(3);
    // Browsers without Sec-Fetch-Site say where the request comes from with Origin.
    await t.app.inject({
      method: 'POST',
      url: `/api/articles/${id}/views`,
      headers: { host: 'journal.test', origin: 'http://journal.test', 'user-agent': FIREFOX },
      remoteAddress: '192.0.2.10',
    });
    expect(await views(id)).toBe(4);
  });

  it('answers robots, cross-site and signal-less requests 204 without counting them', async () => {
    t.clock.advance(60_000);
    const before = await views(id);
    const requests: Record<string, string>[] = [
      { ...sameOrigin, 'user-agent': GOOGLEBOT },
      { ...sameOrigin, 'user-agent': '' },
      {
        host: 'journal.test',
        'user-agent': SAFARI,
        'sec-fetch-site': 'cross-site',
        origin: 'https://evil.example',
      },
      { host: 'journal.test', 'user-agent': SAFARI, 'sec-fetch-site': 'same-site' },
      { host: 'journal.test', 'user-agent': SAFARI, origin: 'https://evil.example' },
      { host: 'journal.test', 'user-agent': SAFARI, origin: 'null' },
      { host: 'journal.test', 'user-agent': SAFARI, referer: 'https://evil.example/page' },
      { host: 'journal.test', 'user-agent': SAFARI },
    ];
    for (const headers of requests) {
      const res = await beacon(id, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(204);
    }
    expect(await views(id)).toBe(before);
  });

  it('tells signed-in readers apart by their session, wherever they are', async () => {
    t.clock.advance(60_000);
    const before = await views(id);
    const session = { ...sameOrigin, authorization: `Bearer ${token}` };
    await beacon(id, { ...session, 'user-agent': FIREFOX });
    await t.app.inject({
      method: 'POST',
      url: `/api/articles/${id}/views`,
      headers: { ...session, 'user-agent': SAFARI },
      remoteAddress: '192.0.2.99',
    });
    expect(await views(id)).toBe(before + 1);
  });

  it('answers 404 for an unknown or unpublished article, 400 for a bad id', async () => {
    expect((await beacon(999_999, sameOrigin)).statusCode).toBe(404);
    expect((await beacon('x', sameOrigin)).statusCode).toBe(400);
    const hidden = await publishArticle(t, token, {
      issueId: (await t.services.catalog.article(articleId)).issue_id,
      title: 'Withdrawn',
      doi: '10.5555/count.hidden',
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${hidden}/status`,
      headers: { authorization: `Bearer ${token}` },
      payload: { status: 'unpublished' },
    });
    const res = await beacon(hidden, { ...sameOrigin, 'user-agent': FIREFOX });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toEqual(expect.any(String));
    expect(await views(hidden)).toBe(0);
  });
});
