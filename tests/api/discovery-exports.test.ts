import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../server/catalog/tables.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import {
  SCHEMA_TIMEOUT,
  SETUP_TIMEOUT,
  TRICKY_TITLE,
  createVolume,
  parseXml,
  publishArticle,
  text,
  validateWithSchema,
} from './discovery-helpers.ts';

/**
 * The deposit files editors download from the dashboard: Crossref (schema 5.3.1) per issue and per
 * article, DOAJ article XML per issue. Each is checked with the official schema, offline, through
 * `../shared/schemas/validate`, and read back to compare with the database.
 */

let t: TestContext;
let auth: Record<string, string>;
let demoIssueId = 0;
let demoIds: number[] = [];
let trickyIssueId = 0;
let emptyIssueId = 0;
let trickyId = 0;

async function download(url: string, headers = auth) {
  return t.app.inject({ method: 'GET', url, headers });
}

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  auth = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  demoIssueId = (await t.services.catalog.editorIssues())[0].id;
  demoIds = (await t.services.catalog.issueArticles(demoIssueId)).map((a) => a.id);
  expect(demoIds).toHaveLength(5);
  [trickyIssueId, emptyIssueId] = await createVolume(t, auth.authorization.slice(7), {
    number: 2,
    year: 2026,
    issues: 2,
  });
  trickyId = await publishArticle(t, auth.authorization.slice(7), {
    issueId: trickyIssueId,
    title: TRICKY_TITLE,
    doi: '10.5555/export.tricky',
    pages: '101-118',
  });
}, SETUP_TIMEOUT);

afterAll(() => t?.close());

describe('Crossref deposit', () => {
  it('exports an issue that validates against schema 5.3.1 and matches the database', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await download(`/api/editor/export/crossref/issue/${demoIssueId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="cjei-crossref-v1i1.xml"/);
    const result = validateWithSchema('crossref', res.body);
    expect(result.ok, result.output).toBe(true);

    const journal = await t.services.settings.journal();
    const batch = parseXml(res.body).doi_batch;
    expect(batch['@_version']).toBe('5.3.1');
    expect(batch.head.doi_batch_id.length).toBeGreaterThanOrEqual(4);
    expect(batch.head.timestamp).toMatch(/^\d{17}$/);
    expect(batch.head.depositor.depositor_name).toBe(journal.depositorName);
    expect(batch.head.depositor.email_address).toBe(journal.depositorEmail);
    expect(batch.head.registrant).toBe(journal.publisher);
    const j = batch.body.journal;
    expect(j.journal_metadata.full_title).toBe(journal.name);
    expect(j.journal_metadata.abbrev_title).toBe(journal.abbreviation);
    expect(text(j.journal_metadata.issn)).toBe(journal.issnOnline);
    expect(j.journal_metadata.issn['@_media_type']).toBe('electronic');
    expect(j.journal_issue.journal_volume.volume).toBe('1');
    expect(j.journal_issue.issue).toBe('1');
    expect(j.journal_issue.publication_date).toMatchObject({ year: '2025', month: '03', day: '01' });

    const expected = await t.services.catalog.issueArticles(demoIssueId);
    const deposited = j.journal_article;
    expect(deposited).toHaveLength(expected.length);
    deposited.forEach((a: any, i: number) => {
      const e = expected[i];
      expect(text(a.titles.title)).toBe(e.title);
      expect(a.doi_data.doi).toBe(e.doi);
      expect(a.doi_data.resource).toBe(`http://journal.test/article/${e.id}`);
      const [first, last] = e.pages.split('-');
      expect(a.pages).toEqual({ first_page: first, last_page: last });
      expect(a['jats:abstract']['jats:p']).toBe(e.abstract);
      const people = a.contributors.person_name;
      expect(people).toHaveLength(e.authors.length);
      expect(people.map((p: any) => p['@_sequence'])).toEqual(
        e.authors.map((_, k) => (k === 0 ? 'first' : 'additional')),
      );
      people.forEach((p: any, k: number) => {
        expect(p['@_contributor_role']).toBe('author');
        expect([p.given_name, p.surname].filter(Boolean).join(' ')).toBe(e.authors[k].name);
        expect(p.affiliations.institution.institution_name).toBe(e.authors[k].affiliation);
      });
      expect(a['ai:program']['ai:license_ref']['#text']).toBe(journal.license.url);
    });
  });

  it('exports one article, splitting names sensibly and escaping markup', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await download(`/api/editor/export/crossref/article/${trickyId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain(`cjei-crossref-article-${trickyId}.xml`);
    expect(res.body).toContain('Tom &amp; Jerry &lt;b&gt;not bold&lt;/b&gt;');
    const result = validateWithSchema('crossref', res.body);
    expect(result.ok, result.output).toBe(true);

    const j = parseXml(res.body).doi_batch.body.journal;
    expect(j.journal_issue.journal_volume.volume).toBe('2');
    const [a] = j.journal_article;
    expect(text(a.titles.title)).toBe(TRICKY_TITLE);
    expect(a.pages).toEqual({ first_page: '101', last_page: '118' });
    expect(a.doi_data.doi).toBe('10.5555/export.tricky');
    const people = a.contributors.person_name.map((p: any) => ({ given: p.given_name, surname: p.surname }));
    expect(people).toEqual([
      { given: 'Meera', surname: 'Iyer' },
      { given: 'Ludwig', surname: 'van Beethoven' },
      { given: undefined, surname: 'Sukarno' },
    ]);
    expect(a.contributors.person_name[0].affiliations.institution.institution_name).toBe(
      'Anna University & IIT <Madras>',
    );
  });

  it('refuses what cannot be deposited, and unknown ids', async () => {
    expect((await download('/api/editor/export/crossref/issue/999999')).statusCode).toBe(404);
    expect((await download('/api/editor/export/crossref/article/999999')).statusCode).toBe(404);
    const empty = await download(`/api/editor/export/crossref/issue/${emptyIssueId}`);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().message).toMatch(/DOI/);

    const noDoi = await publishArticle(t, auth.authorization.slice(7), {
      issueId: emptyIssueId,
      title: 'Soon without a DOI',
      doi: '10.5555/export.nodoi',
    });
    await t.services.db.update(articles).set({ doi: null }).where(eq(articles.id, noDoi));
    const article = await download(`/api/editor/export/crossref/article/${noDoi}`);
    expect(article.statusCode).toBe(409);
    expect(article.json().message).toMatch(/no DOI/);
    expect((await download(`/api/editor/export/crossref/issue/${emptyIssueId}`)).statusCode).toBe(409);

    await t.services.db.update(articles).set({ status: 'unpublished' }).where(eq(articles.id, noDoi));
    expect((await download(`/api/editor/export/crossref/article/${noDoi}`)).statusCode).toBe(409);
  });

  it('is for editors only', async () => {
    expect((await download(`/api/editor/export/crossref/issue/${demoIssueId}`, {})).statusCode).toBe(401);
    const researcher = await t.createUser({ role: 'researcher', status: 'approved' });
    const token = await t.login(researcher.username, researcher.password);
    const res = await download(`/api/editor/export/doaj/issue/${demoIssueId}`, {
      authorization: `Bearer ${token}`,
    });
    expect(res.statusCode).toBe(403);
  });

  it('is documented in the OpenAPI description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const p of [
      '/api/editor/export/crossref/issue/{id}',
      '/api/editor/export/crossref/article/{id}',
      '/api/editor/export/doaj/issue/{id}',
    ]) {
      expect(doc.paths[p]?.get?.['x-permission']?.name, p).toBe('editorial');
      expect(Object.keys(doc.paths[p].get.responses[200].content)).toEqual(['application/xml']);
    }
  });
});

describe('DOAJ article XML', () => {
  it('exports an issue that validates against the DOAJ schema, with the PDF as full text', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await download(`/api/editor/export/doaj/issue/${demoIssueId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="cjei-doaj-v1i1.xml"/);
    const result = validateWithSchema('doaj', res.body);
    expect(result.ok, result.output).toBe(true);

    const journal = await t.services.settings.journal();
    const expected = await t.services.catalog.issueArticles(demoIssueId);
    const records = parseXml(res.body).records.record;
    expect(records).toHaveLength(expected.length);
    records.forEach((r: any, i: number) => {
      const e = expected[i];
      expect(r.language).toBe('eng');
      expect(r.publisher).toBe(journal.publisher);
      expect(r.journalTitle).toBe(journal.name);
      expect(r.eissn).toBe(journal.issnOnline);
      expect(r.publicationDate).toBe(e.publication_date);
      expect([r.volume, r.issue]).toEqual(['1', '1']);
      expect(`${r.startPage}-${r.endPage}`).toBe(e.pages);
      expect(r.doi).toBe(e.doi);
      expect(r.publisherRecordId).toBe(String(e.id));
      expect(r.documentType).toBe(e.article_type.toLowerCase().includes('review') ? 'review' : 'article');
      expect(text(r.title)).toBe(e.title);
      expect(r.title['@_language']).toBe('eng');
      expect(text(r.abstract)).toBe(e.abstract);
      expect(text(r.fullTextUrl)).toBe(`http://journal.test/api/articles/${e.id}/download`);
      expect(r.fullTextUrl['@_format']).toBe('pdf');
      expect(r.keywords.keyword.length).toBeGreaterThan(0);
      const authors = r.authors.author;
      expect(authors.map((a: any) => a.name)).toEqual(e.authors.map((a) => a.name));
      expect(authors.map((a: any) => a.email)).toEqual(e.authors.map((a) => a.email));
      const affs = new Map(
        r.affiliationsList.affiliationName.map((a: any) => [a['@_affiliationId'], text(a)]),
      );
      authors.forEach((a: any, k: number) => {
        expect(affs.get(a.affiliationId[0])).toBe(e.authors[k].affiliation);
      });
    });
  });

  it('exports titles and affiliations with & and < that still validate', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await download(`/api/editor/export/doaj/issue/${trickyIssueId}`);
    expect(res.statusCode, res.body).toBe(200);
    const result = validateWithSchema('doaj', res.body);
    expect(result.ok, result.output).toBe(true);
    const [r] = parseXml(res.body).records.record;
    expect(text(r.title)).toBe(TRICKY_TITLE);
    expect(r.affiliationsList.affiliationName.map(text)).toEqual([
      'Anna University & IIT <Madras>',
      'TU Delft',
    ]);
    expect(r.authors.author.map((a: any) => a.affiliationId[0])).toEqual(['1', '2', '1']);
  });

  it('refuses an issue with nothing to upload', async () => {
    const res = await download(`/api/editor/export/doaj/issue/999999`);
    expect(res.statusCode).toBe(404);
  });
});
