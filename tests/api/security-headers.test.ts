import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DOCS_CSS } from '../../server/http/openapi.ts';
import { PERMISSIONS_POLICY } from '../../server/http/security-headers.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

// Security headers on what Fastify answers itself: the JSON API, errors, 404s, downloads, feeds, the API
// reference (pages get theirs in the page bridge; tests/e2e/security-headers.spec.ts checks those).

let t: TestContext;
let token: string;
let articleId: number;

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  token = await t.login('admin', 'admin-pass-123');
  const list = await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' });
  articleId = list.json()[0].id;
});
afterAll(() => t?.close());

const bearer = () => ({ authorization: `Bearer ${token}` });
const cookie = () => ({ cookie: `colophon_session=${token}` });

/** What every response carries, whatever it is. */
function expectBaseHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  expect(res.headers['x-frame-options']).toBe('DENY');
}

const MINIMAL = "default-src 'none'; frame-ancestors 'none'";

describe('security headers on API answers', () => {
  it('a JSON answer to an anonymous request: the minimal policy, its caching left as the route set it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' });
    expect(res.statusCode).toBe(200);
    expectBaseHeaders(res);
    expect(res.headers['content-security-policy']).toBe(MINIMAL);
    // A kept public answer (decision 0018).
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('a JSON answer to a signed-in request (bearer or session cookie) is private and never stored', async () => {
    for (const headers of [bearer(), cookie()]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(res.statusCode).toBe(200);
      expectBaseHeaders(res);
      expect(res.headers['content-security-policy']).toBe(MINIMAL);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('an answer that sets a cookie is private, signed in or not', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'admin-pass-123' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['set-cookie']).toBeDefined();
    expect(login.headers['cache-control']).toBe('private, no-store');
    expectBaseHeaders(login);
  });

  it('errors: a validation error, a refused request, a bad body', async () => {
    const invalid = await t.app.inject({ method: 'GET', url: '/api/articles/public/article/abc' });
    expect(invalid.statusCode).toBe(400);
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/users' });
    expect(refused.statusCode).toBe(401);
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.statusCode).toBe(400);
    for (const res of [invalid, refused, badJson]) {
      expectBaseHeaders(res);
      expect(res.headers['content-security-policy']).toBe(MINIMAL);
    }
    const forbiddenSignedIn = await t.app.inject({
      method: 'GET',
      url: '/api/articles/public/article/abc',
      headers: bearer(),
    });
    expect(forbiddenSignedIn.headers['cache-control']).toBe('private, no-store');
  });

  it('404s: an unknown API route and an unknown address', async () => {
    for (const url of ['/api/no-such-route', '/no-such-page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expectBaseHeaders(res);
      expect(res.headers['content-security-policy']).toBe(MINIMAL);
    }
  });

  it('a download: nosniff, the minimal policy, private', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/articles/${articleId}/download`,
      headers: bearer(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expectBaseHeaders(res);
    expect(res.headers['content-security-policy']).toBe(MINIMAL);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it("public files keep their route's caching even for a signed-in request: a citation file, a feed", async () => {
    for (const url of [`/api/articles/${articleId}/citation?format=bibtex`, '/feed.rss']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer() });
      expect(res.statusCode, url).toBe(200);
      expectBaseHeaders(res);
      expect(res.headers['content-security-policy']).toBe(MINIMAL);
      expect(res.headers['cache-control'], url).toBe('public, max-age=300');
    }
  });

  it('the API reference page works under a policy that allows its one inline style, by hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expectBaseHeaders(res);
    const policy = res.headers['content-security-policy'] as string;
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)![1];
    expect(style).toBe(API_DOCS_CSS);
    const hash = createHash('sha256').update(style).digest('base64');
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe');
    // No scripts, no inline event handlers, no style attributes: nothing the policy would refuse.
    expect(res.body).not.toMatch(/<script|\son[a-z]+=|\sstyle=/i);
    expect(res.body.match(/<style>/g)).toHaveLength(1);
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent when the request came over https through a trusted proxy, not when the proxy is not trusted', async () => {
    const trusting = await createTestContext({ TRUST_PROXY: 'true' });
    try {
      const https = await trusting.app.inject({
        method: 'GET',
        url: '/api/articles/public/articles',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
      const plain = await trusting.app.inject({ method: 'GET', url: '/api/articles/public/articles' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await trusting.close();
    }
    // TRUST_PROXY off (this file's context, PUBLIC_URL http://journal.test): a forwarded protocol is ignored.
    const spoofed = await t.app.inject({
      method: 'GET',
      url: '/api/no-such-route',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when PUBLIC_URL says the site is https (a TLS proxy Fastify was not told to trust)', async () => {
    const https = await createTestContext({ PUBLIC_URL: 'https://journal.test' });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/no-such-route' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await https.close();
    }
  });
});
