import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsService, monthOf, visitorKey } from '../../server/metrics/service.ts';
import { type TestContext, createTestContext, silentLog } from '../../server/testing/harness.ts';
import { SETUP_TIMEOUT, createVolume, publishArticle } from './discovery-helpers.ts';

/**
 * Usage counts (issue 6): views and downloads per article and month, robots and double clicks (the same
 * visitor within 30 seconds, as COUNTER counts) left out; the public metrics endpoint.
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
  it('logs a failure and lets the request go on', async () => {
    const warnings: unknown[] = [];
    const broken = new MetricsService(t.services.db, {
      log: { ...silentLog, warn: (obj: unknown) => warnings.push(obj) },
    });
    // No such article: the foreign key refuses the row.
    expect(() => broken.track('view', 987_654, reader)).not.toThrow();
    await broken.settled();
    expect(warnings).toHaveLength(1);
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
