import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { createIssueInNewVolume, publishArticle } from '../../server/testing/factories.ts';
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

  it("edits the journal's own facts (description, areas, frequency, first year, language, licence); left out, each stays", async () => {
    const { settings, version } = (await call('GET', admin)).json();
    expect(settings).toMatchObject({ frequency: 'Quarterly', issuesPerYear: 4, language: 'en' });
    const res = await call('PUT', admin, {
      ...settings,
      description: 'A journal of careful measurements.',
      areas: ['Metrology', 'Sensors'],
      frequency: 'Bimonthly',
      issuesPerYear: 6,
      startYear: 2019,
      language: 'FR',
      license: { name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
      version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changed.sort()).toEqual(
      ['areas', 'description', 'frequency', 'issuesPerYear', 'language', 'license', 'startYear'].sort(),
    );
    expect(await t.services.settings.journal()).toMatchObject({
      areas: ['Metrology', 'Sensors'],
      issuesPerYear: 6,
      language: 'fr',
      license: { name: 'CC BY-SA 4.0' },
    });
    // The journal's pages say what was saved.
    const overview = await t.services.content.page('overview');
    expect(overview?.html).toContain('Bimonthly (6 issues a year');
    expect(overview?.html).toContain('Metrology');
    // A client that knows none of them leaves them as they are.
    const { description, areas, frequency, issuesPerYear, startYear, language, license, ...older } = (
      await call('GET', admin)
    ).json().settings;
    const kept = await call('PUT', admin, older);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().changed).toEqual([]);
    expect((await t.services.settings.journal()).startYear).toBe(2019);
    // Put back what the other tests expect.
    await call('PUT', admin, settings);
  });

  it('refuses bad facts field by field', async () => {
    const { settings } = (await call('GET', admin)).json();
    const res = await call('PUT', admin, {
      ...settings,
      description: '',
      areas: ['Sensors', 'Sensors'],
      frequency: ' ',
      issuesPerYear: 0,
      startYear: 20.5,
      language: 'English',
      license: { name: 'Mine', url: 'not a url' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      description: 'The description is required.',
      areas: 'Name each area once.',
      frequency: 'The frequency is required.',
      issuesPerYear: 'Give the number of issues a year as a whole number from 1 to 52, such as 4.',
      startYear: 'Give the year of the first issue as four digits, such as 2025.',
      language: 'Give the language of the articles as its ISO 639-1 code, such as en.',
      'license.url': 'Give the licence’s address, such as https://creativecommons.org/licenses/by/4.0/.',
    });
  });

  it('takes an empty ISSN (none assigned yet): the pages, tags and exports then name none', async () => {
    const { settings } = (await call('GET', admin)).json();
    const res = await call('PUT', admin, { ...settings, issnOnline: '' });
    expect(res.statusCode, res.body).toBe(200);
    try {
      expect((await t.services.content.page('overview'))?.html).toContain('not yet assigned');
      const issueId = await createIssueInNewVolume(t, admin, { number: 71, year: 2026 });
      await publishArticle(t, admin, { issueId, title: 'Without an ISSN', doi: '10.5555/no-issn.1' });
      const issue = { id: issueId };
      for (const url of [
        `/api/editor/export/crossref/issue/${issue.id}`,
        `/api/editor/export/doaj/issue/${issue.id}`,
        '/oai?verb=ListRecords&metadataPrefix=oai_dc',
      ]) {
        const answer = await t.app.inject({ method: 'GET', url, headers: admin });
        expect(answer.statusCode, `${url}: ${answer.body.slice(0, 200)}`).toBe(200);
        expect(answer.body, url).not.toContain(settings.issnOnline);
        expect(answer.body, url).not.toMatch(/<(e?issn|dc:source)\b[^>]*(\/>|>\s*<\/)/);
      }
    } finally {
      await call('PUT', admin, settings);
    }
  });
});

describe('a new journal of the site (decision 0062)', () => {
  it("starts with its own title, no ISSN and no areas, and the publisher's facts of the first journal", async () => {
    const first = await t.services.settings.journal();
    const made = await t.services.journalAdmin.create({
      title: 'Annals of Tidy Data',
      path: 'tidy',
      editor: 'admin',
    });
    const own = await withJournal(made.id, () => t.services.settings.journal());
    expect(own).toMatchObject({
      name: 'Annals of Tidy Data',
      abbreviation: 'Annals of Tidy Data',
      issnOnline: '',
      areas: [],
      publisher: first.publisher,
      publisherAddress: first.publisherAddress,
      doiPrefix: first.doiPrefix,
      license: first.license,
      startYear: new Date(t.services.clock.now()).getUTCFullYear(),
    });
    expect(own.description).toContain('Annals of Tidy Data');
    expect(own.description).not.toBe(first.description);
    // Its pages say no ISSN is assigned yet, never the first journal's.
    const overview = await withJournal(made.id, () => t.services.content.page('overview'));
    expect(overview?.html).toContain('not yet assigned');
    expect(overview?.html).not.toContain(first.issnOnline);
  });
});
