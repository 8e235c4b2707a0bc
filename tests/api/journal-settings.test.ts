import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/tables.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/** The admin's journal settings (issue 6: the DOI prefix, depositor and download policy live there). */
let t: TestContext;
let admin: Record<string, string>;
let editor: Record<string, string>;

const call = (method: 'GET' | 'PUT', headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: '/api/admin/journal-settings', headers, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestContext();
  admin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
});
afterAll(() => t?.close());

describe('/api/admin/journal-settings', () => {
  it('shows the settings to the admin only', async () => {
    const res = await call('GET', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({ doiPrefix: '10.5555', downloads: 'approved-accounts' });
    expect(res.json().version).toMatch(/^[\w-]{16}$/);
    expect((await call('GET', editor)).statusCode).toBe(403);
    expect((await call('GET', {})).statusCode).toBe(401);
  });

  it('saves a change that the Crossref export, the downloads and the audit log follow', async () => {
    const { settings, version } = (await call('GET', admin)).json();
    const res = await call('PUT', admin, {
      ...settings,
      doiPrefix: '10.12345',
      depositorName: 'The Colophon Office',
      depositorEmail: 'deposits@colophon.test',
      downloads: 'open',
      version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changed.sort()).toEqual(['depositorEmail', 'depositorName', 'doiPrefix', 'downloads']);
    expect(res.json().version).not.toBe(version);
    const journal = await t.services.settings.journal();
    expect(journal).toMatchObject({
      doiPrefix: '10.12345',
      depositorName: 'The Colophon Office',
      downloads: 'open',
    });
    const audit = await t.services.db.select().from(auditLog);
    expect(audit.find((a) => a.action === 'settings.journal.update')?.details).toMatchObject({
      changed: expect.arrayContaining(['doiPrefix', 'downloads']),
    });

    // A form made before this save is refused, and changes nothing.
    const stale = await call('PUT', admin, { ...settings, name: 'Overwritten', version });
    expect(stale.statusCode).toBe(409);
    expect((await t.services.settings.journal()).name).toBe(settings.name);
  });

  it('refuses bad values field by field, with 400, and keeps the settings', async () => {
    const { settings } = (await call('GET', admin)).json();
    const res = await call('PUT', admin, {
      ...settings,
      name: '  ',
      issnOnline: '2049-3631',
      doiPrefix: '10.12',
      depositorEmail: 'not an address',
      downloads: 'everyone',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      name: 'The journal title is required.',
      issnOnline: 'This ISSN has a wrong check digit: check it against the ISSN record.',
      doiPrefix: 'A DOI prefix is 10. followed by 4 to 9 digits, such as 10.12345.',
      depositorEmail: "Enter the depositor's e-mail address, such as crossref@example.org.",
      downloads: 'Choose who may download articles.',
    });
    expect((await t.services.settings.journal()).name).toBe(settings.name);
    expect((await call('PUT', editor, settings)).statusCode).toBe(403);
  });

  it('turns the daily digest of accounts waiting for approval off and on (on by default; omitted, it stays)', async () => {
    const { settings, version } = (await call('GET', admin)).json();
    expect(settings.pendingAccountsDigest).toBe(true);
    const off = await call('PUT', admin, { ...settings, pendingAccountsDigest: false, version });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().changed).toEqual(['pendingAccountsDigest']);
    const { pendingAccountsDigest: _, ...withoutIt } = settings;
    const kept = await call('PUT', admin, withoutIt);
    expect(kept.json().changed).toEqual([]);
    expect((await t.services.settings.journal()).pendingAccountsDigest).toBe(false);
    expect((await call('PUT', admin, { ...settings, pendingAccountsDigest: 'yes' })).json().errors).toEqual({
      pendingAccountsDigest:
        'Say whether editors get the daily digest of accounts waiting for approval (true or false).',
    });
    await call('PUT', admin, { ...settings, pendingAccountsDigest: true });
    expect((await t.services.settings.journal()).pendingAccountsDigest).toBe(true);
  });
});
