import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barChartPng } from '../../server/seed/png.ts';
import { makeJournal } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

/** A journal's logo (decision 0062): set and removed by its admin, read by anyone, each journal its own. */
let t: TestContext;
let admin: Record<string, string>;
let editor: Record<string, string>;

const put = async (headers: Record<string, string>, file?: { name: string; data: Buffer }) => {
  const body = await multipart({}, file ? { logo: file } : {});
  return t.app.inject({
    method: 'PUT',
    url: '/api/admin/journal-logo',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
};
const logo = barChartPng([3, 5, 2], { width: 200, height: 200 });

beforeAll(async () => {
  t = await createTestContext();
  admin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
});
afterAll(() => t?.close());

describe('/api/admin/journal-logo and /api/journal/logo', () => {
  it('has none at first, and says so', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/journal/logo' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('This journal has no logo.');
  });

  it('refuses what is not a logo, in words, and keeps nothing', async () => {
    const pdf = await put(admin, { name: 'logo.png', data: fixture('manuscript.pdf') });
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toContain('The logo must be a PNG or JPEG image (.png, .jpg).');
    const tiny = await put(admin, { name: 'logo.png', data: barChartPng([1], { width: 16, height: 16 }) });
    expect(tiny.statusCode).toBe(422);
    expect(tiny.json().message).toBe(
      'The logo is 16 × 16 pixels: give one of 64 to 4000 pixels a side (a square of 400 is ideal).',
    );
    const huge = await put(admin, {
      name: 'logo.png',
      data: Buffer.concat([logo, Buffer.alloc(1024 * 1024)]),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('The logo is too large: the limit is 1 MB.');
    const none = await put(admin);
    expect(none.statusCode).toBe(400);
    expect((await put(editor, { name: 'logo.png', data: logo })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/journal/logo' })).statusCode).toBe(404);
  });

  it('sets it, serves its bytes (for a year at its own address), keeps it through a settings edit', async () => {
    const res = await put(admin, { name: 'Our Logo.PNG', data: logo });
    expect(res.statusCode, res.body).toBe(200);
    const sha = createHash('sha256').update(logo).digest('hex');
    expect(res.json().logo).toEqual({
      href: `${t.services.journalUrl()}/api/journal/logo?v=${sha.slice(0, 16)}`,
      width: 200,
      height: 200,
    });
    const got = await t.app.inject({ method: 'GET', url: `/api/journal/logo?v=${sha.slice(0, 16)}` });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(got.rawPayload.equals(logo)).toBe(true);
    const unversioned = await t.app.inject({ method: 'GET', url: '/api/journal/logo' });
    expect(unversioned.headers['cache-control']).toBe('public, max-age=300');

    const { settings } = (
      await t.app.inject({ method: 'GET', url: '/api/admin/journal-settings', headers: admin })
    ).json();
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/journal-settings',
      headers: admin,
      payload: { ...settings, frequency: 'Bimonthly', issuesPerYear: 6 },
    });
    expect((await t.services.content.logo())?.sha256).toBe(sha);
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/journal-settings',
      headers: admin,
      payload: settings,
    });
  });

  it('is each journal’s own: another journal has none until its admin gives one', async () => {
    await makeJournal(t, { title: 'Journal B', path: 'jb' });
    const inB = await t.app.inject({ method: 'GET', url: '/jb/api/journal/logo' });
    expect(inB.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/journal/logo' })).statusCode).toBe(200);
  });

  it('is removed by the admin, and then answered as none', async () => {
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/admin/journal-logo', headers: editor })).statusCode,
    ).toBe(403);
    const gone = await t.app.inject({ method: 'DELETE', url: '/api/admin/journal-logo', headers: admin });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ message: 'The logo is removed.', logo: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/journal/logo' })).statusCode).toBe(404);
    const again = await t.app.inject({ method: 'DELETE', url: '/api/admin/journal-logo', headers: admin });
    expect(again.statusCode).toBe(404);
  });
});
