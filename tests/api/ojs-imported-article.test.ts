import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleAuthors, articleFiles, articles } from '../../server/catalog/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { makeJournal } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import {
  SCHEMA_TIMEOUT,
  SETUP_TIMEOUT,
  createVolume,
  parseXml,
  publishArticle,
  validateJats,
  validateWithSchema,
} from './discovery-helpers.ts';

/**
 * An imported article's facts (issue 26, decision 0067): subtitle, section, language, licence, copyright,
 * references, authors' country, ROR id and corresponding author, and its other files. The importer fills them
 * (server/ojs/import*); here the test writes them as it would. Shown by the public API and every export,
 * valid against the schemas; absent, nothing of them is said. Other files download by the PDF's rule.
 */

let t: TestContext;
let token = '';
let rich = 0;
let plain = 0;
let issueId = 0;
let storedFile = 0;
let remoteFile = 0;
let betaId = 0;
const DATA = Buffer.from('year,value\n2020,1\n2021,2\n');
const REFERENCES = [
  'Ostrom, E. (1990). Governing the Commons. Cambridge University Press.',
  'Doe, J. & Roe, R. (2019). Tides <and> sensors. Journal of Tests, 3(2), 1–9.',
];

beforeAll(async () => {
  t = await createTestContext();
  token = await t.login('admin', 'admin-pass-123');
  [issueId] = await createVolume(t, token, { number: 1, year: 2021, issues: 1 });
  rich = await publishArticle(t, token, { issueId, title: 'Les marées', doi: '10.5555/ojs.1' });
  plain = await publishArticle(t, token, { issueId, title: 'Plain article', doi: '10.5555/ojs.2' });
  const db = t.services.db;
  await withJournal(1, async () => {
    await db
      .update(articles)
      .set({
        subtitle: 'Une étude des capteurs',
        section: 'Articles',
        language: 'fr',
        licenseUrl: 'https://creativecommons.org/licenses/by-nc/4.0/',
        copyrightHolder: 'Les auteurs',
        copyrightYear: 2021,
        references: REFERENCES,
      })
      .where(eq(articles.id, rich));
    const [first] = await db.select().from(articleAuthors).where(eq(articleAuthors.articleId, rich));
    await db
      .update(articleAuthors)
      .set({ country: 'FR', ror: 'https://ror.org/02feahw73', primaryContact: true })
      .where(eq(articleAuthors.id, first.id));
    storedFile = await t.services.files.withStoredFiles(
      [{ field: 'file', filename: 'data.csv', data: DATA, kind: 'text', mediaType: 'text/csv' } as never],
      async (tx, [file]) => {
        const [row] = await tx
          .insert(articleFiles)
          .values({ articleId: rich, position: 1, label: 'Data (CSV)', fileId: file.id })
          .returning();
        return row.id;
      },
    );
    const [remote] = await db
      .insert(articleFiles)
      .values({ articleId: rich, position: 2, label: 'HTML', url: 'https://old.example.org/article/12/html' })
      .returning();
    remoteFile = remote.id;
  });
  betaId = await makeJournal(t, { title: 'Beta', path: 'beta' });
}, SETUP_TIMEOUT);

afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('the public article', () => {
  it('carries the imported facts', async () => {
    const a = (await get(`/api/articles/public/article/${rich}`)).json();
    expect(a).toMatchObject({
      subtitle: 'Une étude des capteurs',
      section: 'Articles',
      language: 'fr',
      license_url: 'https://creativecommons.org/licenses/by-nc/4.0/',
      copyright_holder: 'Les auteurs',
      copyright_year: 2021,
      references: REFERENCES,
    });
    expect(a.authors[0]).toMatchObject({
      country: 'FR',
      ror: 'https://ror.org/02feahw73',
      primary_contact: true,
    });
    expect(a.files).toEqual([
      {
        id: storedFile,
        label: 'Data (CSV)',
        locale: '',
        remote: false,
        url: `http://journal.test/api/articles/${rich}/files/${storedFile}`,
      },
      {
        id: remoteFile,
        label: 'HTML',
        locale: '',
        remote: true,
        url: 'https://old.example.org/article/12/html',
      },
    ]);
  });

  it('says nothing of them for an article without them', async () => {
    const a = (await get(`/api/articles/public/article/${plain}`)).json();
    expect(a).toMatchObject({
      subtitle: '',
      section: '',
      language: '',
      license_url: '',
      copyright_holder: '',
      copyright_year: null,
      references: [],
      files: [],
    });
    expect(a.authors[0]).toMatchObject({ country: '', ror: null, primary_contact: false });
  });

  it('is cited with its subtitle', async () => {
    const res = await get(`/api/articles/${rich}/citation/apa`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Les marées: Une étude des capteurs');
  });
});

describe('an article’s other files', () => {
  const url = () => `/api/articles/${rich}/files/${storedFile}`;

  it('download by the PDF’s rule: an approved account, not an anonymous one', async () => {
    expect((await get(url())).statusCode).toBe(401);
    const pending = await t.createUser({ role: 'researcher', status: 'pending' });
    const pendingToken = await t.login(pending.username, pending.password);
    expect((await get(url(), { authorization: `Bearer ${pendingToken}` })).statusCode).toBe(403);
    const reader = await t.createUser({ role: 'researcher', status: 'approved' });
    const auth = { authorization: `Bearer ${await t.login(reader.username, reader.password)}` };
    const res = await get(url(), auth);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(DATA)).toBe(true);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('data.csv');
    expect(res.headers.etag).toBeTruthy();
    // Through FileService.download: ranges too.
    const part = await get(url(), { ...auth, range: 'bytes=0-3' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('year');
  });

  it('is a 404 for a remote file, another article’s, an unknown one, and under another journal', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await get(`/api/articles/${rich}/files/${remoteFile}`, auth)).statusCode).toBe(404);
    expect((await get(`/api/articles/${plain}/files/${storedFile}`, auth)).statusCode).toBe(404);
    expect((await get(`/api/articles/${rich}/files/999999`, auth)).statusCode).toBe(404);
    expect((await get(`/beta/api/articles/${rich}/files/${storedFile}`, auth)).statusCode).toBe(404);
    expect((await get(`/api/articles/${rich}/files/abc`, auth)).statusCode).toBe(400);
    expect(betaId).toBeGreaterThan(1);
  });
});

describe('discovery', () => {
  const oai = async (prefix: string, id: number) => {
    const res = await get(
      `/oai?verb=GetRecord&metadataPrefix=${prefix}&identifier=oai:journal.test:article/${id}`,
    );
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('Dublin Core names the article’s language and licence', async () => {
    const dc = parseXml(await oai('oai_dc', rich))['OAI-PMH'].GetRecord.record[0].metadata['oai_dc:dc'];
    expect(dc['dc:language']).toBe('fr');
    const rights = [dc['dc:rights']]
      .flat()
      .map((r: unknown) => (typeof r === 'string' ? r : (r as { '#text': string })['#text']));
    expect(rights).toContain('https://creativecommons.org/licenses/by-nc/4.0/');
    expect(rights).toContain('Copyright (c) 2021 Les auteurs; CC BY-NC 4.0');
    const plainDc = await oai('oai_dc', plain);
    expect(plainDc).toContain('https://creativecommons.org/licenses/by/4.0/');
    expect(plainDc).not.toContain('by-nc');
  });

  it(
    'JATS has the subtitle, language, licence, corresponding author, ROR id and country; valid',
    async () => {
      const body = await oai('jats', rich);
      const article = /<article [\s\S]*?<\/article>/.exec(body)![0];
      expect(article).toContain('xml:lang="fr"');
      expect(article).toContain('<subtitle>Une étude des capteurs</subtitle>');
      expect(article).toContain('corresp="yes"');
      expect(article).toContain(
        '<institution-id institution-id-type="ror">https://ror.org/02feahw73</institution-id>',
      );
      expect(article).toContain('<country country="FR">France</country>');
      expect(article).toContain('<copyright-holder>Les auteurs</copyright-holder>');
      expect(article).toContain('https://creativecommons.org/licenses/by-nc/4.0/');
      const plainArticle = /<article [\s\S]*?<\/article>/.exec(await oai('jats', plain))![0];
      expect(plainArticle).not.toContain('<subtitle>');
      expect(plainArticle).not.toContain('corresp=');
      const result = validateJats([article, plainArticle]);
      expect(result.ok, result.output).toBe(true);
    },
    SCHEMA_TIMEOUT,
  );

  it(
    'the Crossref deposit has the subtitle, the licence, the reference list and the authors’ ROR ids; valid',
    async () => {
      const res = await get(`/api/editor/export/crossref/article/${rich}`, {
        authorization: `Bearer ${token}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<subtitle>Une étude des capteurs</subtitle>');
      expect(res.body).toContain('language="fr"');
      expect(res.body).toContain('https://creativecommons.org/licenses/by-nc/4.0/');
      expect(res.body).toContain('<citation_list>');
      expect(res.body).toContain('Tides &lt;and&gt; sensors');
      // The first author's ROR id, beside the affiliation's name.
      expect(res.body).toMatch(
        /<\/institution_name>\s*<institution_id type="ror">https:\/\/ror\.org\/02feahw73<\/institution_id>/,
      );
      const issue = await get(`/api/editor/export/crossref/issue/${issueId}`, {
        authorization: `Bearer ${token}`,
      });
      const result = validateWithSchema('crossref', [res.body, issue.body]);
      expect(result.ok, result.output).toBe(true);
    },
    SCHEMA_TIMEOUT,
  );

  it(
    'DOAJ’s export cites the title with its subtitle, in the article’s language; valid',
    async () => {
      const res = await get(`/api/editor/export/doaj/issue/${issueId}`, { authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title language="fre">Les marées: Une étude des capteurs</title>');
      const result = validateWithSchema('doaj', res.body);
      expect(result.ok, result.output).toBe(true);
    },
    SCHEMA_TIMEOUT,
  );
});
