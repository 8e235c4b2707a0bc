import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * The client build's text assets go out compressed as the browser asks (brotli, else gzip), from copies
 * made once at build time, and decode to the very bytes of the file.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({}, { pages: true, demo: true });
}, 120_000);
afterAll(() => t?.close());

describe('built assets', () => {
  it('are sent brotli- or gzip-compressed by Accept-Encoding, and decode to the same bytes', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    const scripts = [...home.body.matchAll(/\/assets\/[\w.-]+\.js/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(2);
    let saved = 0;
    for (const url of new Set(scripts)) {
      const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const raw = plain.rawPayload;
      if (raw.length < 1024) continue; // too small to be worth compressing
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(String(br.headers.vary ?? '')).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).equals(raw), url).toBe(true);
      const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(raw), url).toBe(true);
      saved += raw.length - br.rawPayload.length;
    }
    expect(saved).toBeGreaterThan(0);
  });
});
