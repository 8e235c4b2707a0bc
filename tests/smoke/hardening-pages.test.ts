import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT } from '../../common/validate.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * Page actions of the production build against the defects of issue 12: the session cookie behind a TLS
 * proxy, bodies that are not forms or are too large, text that cannot be stored, writes without a same-site
 * origin. Each answer is a page with the form's own message, never a 500.
 */
let t: TestContext;
const HOST = 'journal.test';
const form = { 'content-type': 'application/x-www-form-urlencoded', host: HOST, origin: `http://${HOST}` };

beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true', PUBLIC_URL: '' }, { pages: true });
}, 120_000);
afterAll(() => t?.close());

const post = (url: string, payload: string, headers: Record<string, string> = form) =>
  t.app.inject({ method: 'POST', url, headers, payload });

describe('page forms', () => {
  it('the page login sets a Secure cookie behind a TLS proxy, as the API login does', async () => {
    const body = 'username=admin&password=admin-pass-123';
    const viaProxy = await post('/login', body, { ...form, 'x-forwarded-proto': 'https', origin: `https://${HOST}` });
    expect(viaProxy.statusCode).toBe(302);
    expect(String(viaProxy.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    const api = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-forwarded-proto': 'https', host: HOST },
      payload: { username: 'admin', password: 'admin-pass-123' },
    });
    expect(String(api.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    const plain = await post('/login', body);
    expect(plain.statusCode).toBe(302);
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/i);
  });

  it.each([
    ['/login', 'text/plain'],
    ['/regist', 'application/json'],
    ['/contact', 'application/xml'],
    ['/subscription', 'text/plain'],
    ['/unsubscribe', 'text/plain'],
  ])('%s given %s: 415 and the page says what is expected', async (url, type) => {
    const cookie = `colophon_session=${await t.login('admin', 'admin-pass-123')}`;
    const res = await post(url, 'x', { ...form, 'content-type': type, cookie });
    expect(res.statusCode).toBe(415);
    expect(res.body).toContain('must be sent as a web form');
  });

  it('a NUL in the contact form: 400, the message beside the field, the rest kept', async () => {
    const res = await post('/contact', 'name=a%00b&email=ada%40example.org&message=Hello%20there');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(UNSTORABLE_TEXT);
    expect(res.body).toContain('Hello there');
  });

  it('a form past its limit: 413 with the form still shown', async () => {
    const res = await post('/regist', `username=ada&fullName=${'x'.repeat(400_000)}`);
    expect(res.statusCode).toBe(413);
    expect(res.body).toContain('The form is too large');
  });

  it('a signed-in write from an opaque origin, or with no origin at all, is refused', async () => {
    const token = await t.login('admin', 'admin-pass-123');
    const cookie = `colophon_session=${token}`;
    for (const headers of [
      { ...form, cookie, origin: 'null' },
      { 'content-type': form['content-type'], host: HOST, cookie },
    ]) {
      const res = await post('/editor-dashboard/volumes', 'intent=create-volume&title=V&volume_number=9&year=2026', headers);
      // Such a post runs as signed out (to the login page); React Router itself turns away an action whose
      // Origin is not the page's (400). Either way nothing is written.
      expect([302, 400, 403], JSON.stringify(headers)).toContain(res.statusCode);
    }
    expect((await t.services.catalog.editorVolumes()).some((v) => v.volume_number === 9)).toBe(false);
    const ok = await post('/editor-dashboard/volumes', 'intent=create-volume&title=V&volume_number=9&year=2026', {
      ...form,
      cookie,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Volume 9 created.');
  });
});
