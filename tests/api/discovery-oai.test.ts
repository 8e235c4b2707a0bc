import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { articles } from '../../server/catalog/tables.ts';
import { jatsArticle } from '../../server/discovery/jats.ts';
import { WorkReader } from '../../server/discovery/works.ts';
import { renderXml } from '../../server/discovery/xml.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import {
  SCHEMA_TIMEOUT,
  SETUP_TIMEOUT,
  TRICKY_TITLE,
  createVolume,
  parseXml,
  publishArticle,
  text,
  validateJats,
} from './discovery-helpers.ts';

/**
 * OAI-PMH 2.0 at /oai, tested as a harvester uses it: every verb, every list walked page by page along
 * its resumption tokens and compared with the database, selective harvesting by date and set, and every
 * error condition with the XML the protocol prescribes.
 */

const HOST = 'journal.test';
const BASE = `http://${HOST}/oai`;
const PAGE = 2;

let t: TestContext;
/** The same services behind an app whose OAI pages hold two records, so that lists come in pages. */
let harvester: FastifyInstance;
let token = '';
let trickyId = 0;
let v2i1Id = 0;
let v2i2Id = 0;
let demoIds: number[] = [];

const identifier = (id: number) => `oai:${HOST}:article/${id}`;

async function oai(query: string, app: FastifyInstance = harvester) {
  const res = await app.inject({ method: 'GET', url: `/oai?${query}` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
  const doc = parseXml(res.body)['OAI-PMH'];
  expect(doc['@_xmlns']).toBe('http://www.openarchives.org/OAI/2.0/');
  expect(doc.responseDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  return { doc, body: res.body };
}

/** Expects exactly one protocol error of `code`; for badVerb/badArgument the request element is bare. */
async function expectError(query: string, code: string) {
  const { doc, body } = await oai(query);
  expect(doc.error, body).toHaveLength(1);
  expect(doc.error[0]['@_code']).toBe(code);
  expect(text(doc.error[0]).length).toBeGreaterThan(0);
  const request = doc.request;
  if (code === 'badVerb' || code === 'badArgument') {
    expect(request, 'the request element carries no attributes').toBe(BASE);
  } else {
    expect(text(request)).toBe(BASE);
  }
  // No verb element alongside an error.
  for (const verb of [
    'Identify',
    'ListSets',
    'ListRecords',
    'ListIdentifiers',
    'GetRecord',
    'ListMetadataFormats',
  ]) {
    expect(doc[verb]).toBeUndefined();
  }
  return doc;
}

interface Harvested {
  identifier: string;
  datestamp: string;
  deleted: boolean;
  sets: string[];
  title?: string;
}

/** Walks a whole list, following resumption tokens; checks cursors and sizes on the way. */
async function harvest(
  verb: 'ListRecords' | 'ListIdentifiers',
  args: string,
  app: FastifyInstance = harvester,
) {
  const out: Harvested[] = [];
  let query = `verb=${verb}&${args}`;
  let pages = 0;
  let expectedCursor = 0;
  for (;;) {
    const { doc, body } = await oai(query, app);
    expect(doc.error, body).toBeUndefined();
    const list = doc[verb];
    pages++;
    const items: any[] = verb === 'ListRecords' ? (list.record ?? []) : (list.header ?? []);
    for (const item of items) {
      const header = verb === 'ListRecords' ? item.header[0] : item;
      const metadata = verb === 'ListRecords' ? item.metadata : undefined;
      const dc = metadata?.['oai_dc:dc'];
      const jats = metadata?.article;
      out.push({
        identifier: header.identifier,
        datestamp: header.datestamp,
        deleted: header['@_status'] === 'deleted',
        sets: header.setSpec ?? [],
        title: dc
          ? text(dc['dc:title'])
          : jats
            ? text(jats.front['article-meta']['title-group']['article-title'])
            : undefined,
      });
    }
    const rt = list.resumptionToken;
    if (rt === undefined) {
      expect(pages, 'a list without a token is complete in one response').toBe(1);
      break;
    }
    expect(Number(rt['@_cursor'])).toBe(expectedCursor);
    expectedCursor += items.length;
    const next = text(rt);
    if (!next) {
      expect(Number(rt['@_completeListSize'])).toBe(out.length);
      break;
    }
    expect(items.length).toBe(PAGE);
    expect(Number(rt['@_completeListSize'])).toBeGreaterThan(expectedCursor);
    query = `verb=${verb}&resumptionToken=${encodeURIComponent(next)}`;
    expect(pages).toBeLessThan(50);
  }
  return { records: out, pages };
}

/** What the database says a full harvest must contain: every article, withdrawn ones as deleted. */
async function expectedRecords() {
  const rows = await t.services.db.select().from(articles).orderBy(articles.id);
  return rows.map((r) => ({
    identifier: identifier(r.id),
    title: r.title,
    deleted: r.status !== 'published',
  }));
}

async function setUpdatedAt(ids: number[], at: string) {
  await t.services.db
    .update(articles)
    .set({ updatedAt: new Date(at) })
    .where(inArray(articles.id, ids));
}

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  token = await t.login('admin', 'admin-pass-123');
  demoIds = (await t.services.db.select({ id: articles.id }).from(articles).orderBy(articles.id)).map(
    (r) => r.id,
  );
  expect(demoIds).toHaveLength(5);
  [v2i1Id, v2i2Id] = await createVolume(t, token, { number: 2, year: 2026, issues: 2 });
  trickyId = await publishArticle(t, token, {
    issueId: v2i1Id,
    title: TRICKY_TITLE,
    doi: '10.5555/oai.tricky',
  });
  await publishArticle(t, token, {
    issueId: v2i2Id,
    title: 'Second issue article',
    doi: '10.5555/oai.second',
    pages: '1-9',
  });
  // Known datestamps for selective harvesting: two articles in January 2025, one at an exact second.
  await setUpdatedAt([demoIds[0], demoIds[1]], '2025-01-10T08:00:00.250Z');
  await setUpdatedAt([demoIds[2]], '2025-02-15T12:30:45.600Z');
  harvester = await buildApp(t.services, { discovery: { oaiPageSize: PAGE } });
  await harvester.ready();
}, SETUP_TIMEOUT);

afterAll(async () => {
  await harvester?.close();
  await t?.close();
});

describe('Identify, ListMetadataFormats, ListSets', () => {
  it('Identify names the repository and its policies', async () => {
    const { doc } = await oai('verb=Identify');
    expect(doc.request['@_verb']).toBe('Identify');
    expect(text(doc.request)).toBe(BASE);
    const id = doc.Identify;
    const journal = await t.services.settings.journal();
    expect(id.repositoryName).toBe(journal.name);
    expect(id.baseURL).toBe(BASE);
    expect(id.protocolVersion).toBe('2.0');
    expect(id.adminEmail).toBe(journal.email);
    expect(id.deletedRecord).toBe('transient');
    expect(id.granularity).toBe('YYYY-MM-DDThh:mm:ssZ');
    expect(id.earliestDatestamp).toBe('2025-01-10T08:00:00Z');
    const oaiId = id.description['oai-identifier'];
    expect(oaiId.repositoryIdentifier).toBe(HOST);
    expect(oaiId.sampleIdentifier).toBe(identifier(1));
  });

  it('lists oai_dc and jats, for the repository and for one item', async () => {
    for (const query of [
      'verb=ListMetadataFormats',
      `verb=ListMetadataFormats&identifier=${identifier(trickyId)}`,
    ]) {
      const { doc } = await oai(query);
      const formats = doc.ListMetadataFormats.metadataFormat;
      expect(formats.map((f: any) => f.metadataPrefix)).toEqual(['oai_dc', 'jats']);
      expect(formats[0].metadataNamespace).toBe('http://www.openarchives.org/OAI/2.0/oai_dc/');
      expect(formats[0].schema).toBe('http://www.openarchives.org/OAI/2.0/oai_dc.xsd');
    }
  });

  it('ListSets gives every volume and issue as a hierarchy', async () => {
    const { doc } = await oai('verb=ListSets');
    const specs = doc.ListSets.set.map((s: any) => s.setSpec[0]);
    expect(specs).toEqual([
      'volume:1',
      'volume:1:issue:1',
      'volume:2',
      'volume:2:issue:1',
      'volume:2:issue:2',
    ]);
    const names = doc.ListSets.set.map((s: any) => s.setName);
    expect(names[0]).toBe('Volume 1 (2025)');
    expect(names[3]).toBe('Volume 2, Issue 1: Issue 1 & more');
  });
});

describe('harvesting every record', () => {
  for (const prefix of ['oai_dc', 'jats'] as const) {
    it(`walks ListRecords (${prefix}) page by page and finds exactly the database's articles`, async () => {
      const { records, pages } = await harvest('ListRecords', `metadataPrefix=${prefix}`);
      const expected = await expectedRecords();
      expect(expected).toHaveLength(7);
      expect(pages).toBe(Math.ceil(expected.length / PAGE));
      expect(records.map((r) => r.identifier)).toEqual(expected.map((e) => e.identifier));
      expect(new Set(records.map((r) => r.identifier)).size).toBe(records.length);
      expect(records.map((r) => r.title)).toEqual(expected.map((e) => e.title));
      for (const r of records) {
        expect(r.deleted).toBe(false);
        expect(r.datestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(r.sets).toHaveLength(2);
      }
    });
  }

  it('walks ListIdentifiers the same way', async () => {
    const { records, pages } = await harvest('ListIdentifiers', 'metadataPrefix=oai_dc');
    expect(pages).toBe(4);
    expect(records.map((r) => r.identifier)).toEqual((await expectedRecords()).map((e) => e.identifier));
    const tricky = records.find((r) => r.identifier === identifier(trickyId))!;
    expect(tricky.sets).toEqual(['volume:2', 'volume:2:issue:1']);
  });

  it('answers in one response, without a token, when the list fits a page', async () => {
    const { records, pages } = await harvest('ListRecords', 'metadataPrefix=oai_dc', t.app);
    expect(pages).toBe(1);
    expect(records).toHaveLength(7);
  });

  it('takes POST with a form-encoded body as GET', async () => {
    const form = `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifier(trickyId))}`;
    const res = await harvester.inject({
      method: 'POST',
      url: '/oai',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    const doc = parseXml(res.body)['OAI-PMH'];
    expect(text(doc.GetRecord.record[0].metadata['oai_dc:dc']['dc:title'])).toBe(TRICKY_TITLE);
    expect(doc.request['@_verb']).toBe('GetRecord');
  });

  it('answers a POST of another body type in OAI-PMH XML, never the JSON API 415', async () => {
    for (const [type, payload] of [
      ['text/plain', 'verb=Identify'],
      ['application/json', '{"verb":"Identify"}'],
    ]) {
      const res = await harvester.inject({ method: 'POST', url: '/oai', headers: { 'content-type': type }, payload });
      expect(res.statusCode, type).toBe(200);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      const doc = parseXml(res.body)['OAI-PMH'];
      if (type === 'text/plain') expect(doc.Identify).toBeDefined();
      else expect(doc.error[0]['@_code']).toBe('badVerb');
    }
  });
});

describe('GetRecord', () => {
  it('escapes titles with & and < and they read back exactly', async () => {
    const { doc, body } = await oai(
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(trickyId)}`,
    );
    expect(body).toContain('Tom &amp; Jerry &lt;b&gt;not bold&lt;/b&gt;');
    expect(body).not.toContain('<b>not bold');
    const record = doc.GetRecord.record[0];
    expect(record.header[0].identifier).toBe(identifier(trickyId));
    const dc = record.metadata['oai_dc:dc'];
    expect(text(dc['dc:title'])).toBe(TRICKY_TITLE);
    expect(dc['dc:creator']).toEqual(['Iyer, Meera', 'van Beethoven, Ludwig', 'Sukarno']);
    expect(dc['dc:identifier']).toContain(`http://${HOST}/article/${trickyId}`);
    expect(dc['dc:identifier']).toContain('https://doi.org/10.5555/oai.tricky');
    expect(dc['dc:date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(dc['dc:relation']).toBe(`http://${HOST}/api/articles/${trickyId}/download`);
  });

  it('serves JATS front matter generated from the metadata', async () => {
    const { doc, body } = await oai(`verb=GetRecord&metadataPrefix=jats&identifier=${identifier(trickyId)}`);
    const article = doc.GetRecord.record[0].metadata.article;
    expect(article['@_xmlns']).toBe('');
    const journal = await t.services.settings.journal();
    const jm = article.front['journal-meta'];
    expect(text(jm.issn)).toBe(journal.issnOnline);
    expect(jm.publisher['publisher-name']).toBe(journal.publisher);
    const am = article.front['article-meta'];
    expect(text(am['title-group']['article-title'])).toBe(TRICKY_TITLE);
    expect(am['article-id'].map(text)).toEqual([String(trickyId), '10.5555/oai.tricky']);
    const contribs = am['contrib-group'].contrib;
    expect(contribs.map((c: any) => text(c.name.surname ?? c.name['given-names']))).toEqual([
      'Iyer',
      'van Beethoven',
      'Sukarno',
    ]);
    expect(am['contrib-group'].aff.map((a: any) => a.institution)).toEqual([
      'Anna University & IIT <Madras>',
      'TU Delft',
    ]);
    expect(am.volume).toBe('2');
    expect(am.issue).toBe('1');
    expect(am.fpage).toBe('11');
    expect(am.lpage).toBe('20');
    expect(am['pub-date'].year).toMatch(/^\d{4}$/);
    expect(text(am.abstract.p)).toContain('<markup> & ampersands');
    expect(am['kwd-group'].kwd).toEqual(['harvesting', 'metadata & interoperability', 'OAI-PMH']);
    expect(am.permissions.license['@_xlink:href']).toBe(journal.license.url);
    expect(am['self-uri'].map((s: any) => s['@_xlink:href'])).toContain(
      `http://${HOST}/api/articles/${trickyId}/download`,
    );
    expect(body).toContain('<article xmlns="" ');
  });

  it('generates JATS that validates against the JATS 1.3 schema', { timeout: SCHEMA_TIMEOUT }, async () => {
    const reader = new WorkReader(t.services.db, t.services.journalUrl);
    const journal = await t.services.settings.journal();
    const docs: string[] = [];
    for (const id of [...demoIds, trickyId]) {
      docs.push(renderXml(jatsArticle((await reader.work(id))!, journal), { declaration: false }));
    }
    const result = validateJats(docs);
    expect(result.ok, result.output).toBe(true);
  });
});

describe('selective harvesting', () => {
  const ids = async (args: string) =>
    (await harvest('ListIdentifiers', args)).records.map((r) => r.identifier);

  it('filters by day: from and until include their whole days', async () => {
    expect(await ids('metadataPrefix=oai_dc&from=2025-01-01&until=2025-01-31')).toEqual([
      identifier(demoIds[0]),
      identifier(demoIds[1]),
    ]);
    expect(await ids('metadataPrefix=oai_dc&from=2025-01-10&until=2025-01-10')).toHaveLength(2);
    expect(await ids('metadataPrefix=oai_dc&until=2025-02-15')).toHaveLength(3);
    expect(await ids('metadataPrefix=oai_dc&from=2025-02-16')).toHaveLength(4);
  });

  it('filters by second, inclusive at both ends, whatever the sub-second part', async () => {
    expect(await ids('metadataPrefix=oai_dc&from=2025-02-15T12:30:45Z&until=2025-02-15T12:30:45Z')).toEqual([
      identifier(demoIds[2]),
    ]);
    expect(await ids('metadataPrefix=oai_dc&until=2025-02-15T12:30:44Z')).toHaveLength(2);
    await expectError(
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-02-15T12:30:46Z&until=2025-12-31T00:00:00Z',
      'noRecordsMatch',
    );
  });

  it('reports datestamps that the filters agree with', async () => {
    const { records } = await harvest(
      'ListIdentifiers',
      'metadataPrefix=oai_dc&from=2025-02-15T12:30:45Z&until=2025-02-15T12:30:45Z',
    );
    expect(records[0].datestamp).toBe('2025-02-15T12:30:45Z');
  });

  it('filters by volume and by issue, across pages', async () => {
    const volume1 = await ids('metadataPrefix=oai_dc&set=volume:1');
    expect(volume1).toEqual(demoIds.map(identifier));
    expect(await ids('metadataPrefix=oai_dc&set=volume:1:issue:1')).toEqual(demoIds.map(identifier));
    expect(await ids('metadataPrefix=oai_dc&set=volume:2')).toHaveLength(2);
    expect(await ids('metadataPrefix=oai_dc&set=volume:2:issue:1')).toEqual([identifier(trickyId)]);
    // A set and dates together, carried through the token.
    expect(await ids('metadataPrefix=oai_dc&set=volume:1&from=2025-01-01&until=2025-12-31')).toEqual(
      demoIds.slice(0, 3).map(identifier),
    );
  });
});

describe('protocol errors', () => {
  it('badVerb: missing, unknown or repeated verb', async () => {
    await expectError('', 'badVerb');
    await expectError('verb=Frobnicate', 'badVerb');
    await expectError('verb=toString', 'badVerb');
    await expectError('verb=Identify&verb=Identify', 'badVerb');
  });

  it('badArgument: unknown, repeated, missing, exclusive and malformed arguments', async () => {
    await expectError('verb=Identify&metadataPrefix=oai_dc', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&colour=blue', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=jats', 'badArgument');
    await expectError('verb=ListRecords', 'badArgument');
    await expectError('verb=ListIdentifiers&from=2025-01-01', 'badArgument');
    await expectError(`verb=GetRecord&identifier=${identifier(1)}`, 'badArgument');
    await expectError('verb=GetRecord&metadataPrefix=oai_dc', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=abc', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&from=', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&from=2025-13-01', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&from=2025-02-30', 'badArgument');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&from=2025-01-01T00:00:00.000Z', 'badArgument');
    await expectError(
      'verb=ListRecords&metadataPrefix=oai_dc&from=2025-01-01&until=2025-12-31T00:00:00Z',
      'badArgument',
    );
    await expectError(
      'verb=ListRecords&metadataPrefix=oai_dc&from=2025-02-01&until=2025-01-01',
      'badArgument',
    );
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&set=volume%201', 'badArgument');
    await expectError('verb=ListMetadataFormats&metadataPrefix=oai_dc', 'badArgument');
  });

  it('cannotDisseminateFormat: a format we do not have', async () => {
    await expectError('verb=ListRecords&metadataPrefix=marc21', 'cannotDisseminateFormat');
    await expectError('verb=ListIdentifiers&metadataPrefix=OAI_DC', 'cannotDisseminateFormat');
    await expectError(
      `verb=GetRecord&metadataPrefix=mods&identifier=${identifier(1)}`,
      'cannotDisseminateFormat',
    );
  });

  it('idDoesNotExist: unknown, foreign or malformed identifiers', async () => {
    for (const id of [
      identifier(999999),
      `oai:elsewhere.org:article/${trickyId}`,
      'not-an-identifier',
      `${identifier(1)}x`,
    ]) {
      await expectError(
        `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id)}`,
        'idDoesNotExist',
      );
    }
    await expectError(`verb=ListMetadataFormats&identifier=${identifier(999999)}`, 'idDoesNotExist');
  });

  it('noRecordsMatch: nothing in the range or the set', async () => {
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&from=2100-01-01', 'noRecordsMatch');
    await expectError(
      'verb=ListIdentifiers&metadataPrefix=jats&until=2000-01-01T00:00:00Z',
      'noRecordsMatch',
    );
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&set=volume:9', 'noRecordsMatch');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&set=volume:1:issue:7', 'noRecordsMatch');
    await expectError('verb=ListRecords&metadataPrefix=oai_dc&set=section:research', 'noRecordsMatch');
  });

  it("badResumptionToken: garbage, tampered, or another verb's token", async () => {
    await expectError('verb=ListRecords&resumptionToken=garbage', 'badResumptionToken');
    await expectError('verb=ListSets&resumptionToken=anything', 'badResumptionToken');
    const { doc } = await oai('verb=ListIdentifiers&metadataPrefix=oai_dc');
    const real = text(doc.ListIdentifiers.resumptionToken);
    expect(real).not.toBe('');
    await expectError(`verb=ListRecords&resumptionToken=${encodeURIComponent(real)}`, 'badResumptionToken');
    const [body, sig] = real.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, a: 0, c: 99 })).toString('base64url')}.${sig}`;
    await expectError(
      `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(forged)}`,
      'badResumptionToken',
    );
    const flipped = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
    await expectError(
      `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(flipped)}`,
      'badResumptionToken',
    );
  });

  it('noSetHierarchy: a journal without volumes has no sets', { timeout: SETUP_TIMEOUT }, async () => {
    const empty = await createTestContext();
    try {
      for (const query of ['verb=ListSets', 'verb=ListRecords&metadataPrefix=oai_dc&set=volume:1']) {
        const res = await empty.app.inject({ method: 'GET', url: `/oai?${query}` });
        const doc = parseXml(res.body)['OAI-PMH'];
        expect(doc.error[0]['@_code']).toBe('noSetHierarchy');
      }
      const records = parseXml(
        (await empty.app.inject({ method: 'GET', url: '/oai?verb=ListRecords&metadataPrefix=oai_dc' })).body,
      )['OAI-PMH'];
      expect(records.error[0]['@_code']).toBe('noRecordsMatch');
      const identify = parseXml((await empty.app.inject({ method: 'GET', url: '/oai?verb=Identify' })).body)[
        'OAI-PMH'
      ];
      expect(identify.Identify.earliestDatestamp).toMatch(/^\d{4}-01-01T00:00:00Z$/);
    } finally {
      await empty.close();
    }
  });
});

describe('withdrawn articles (deletedRecord: transient)', () => {
  let withdrawnId = 0;
  let withdrawnAt = new Date();
  beforeAll(async () => {
    withdrawnId = await publishArticle(t, token, {
      issueId: v2i2Id,
      title: 'To be withdrawn',
      doi: '10.5555/oai.withdrawn',
    });
    // Long unchanged, then withdrawn from the dashboard's API: the withdrawal alone must move its datestamp.
    await setUpdatedAt([withdrawnId], '2020-01-01T00:00:00Z');
    withdrawnAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${withdrawnId}/status`,
      headers: { authorization: `Bearer ${token}` },
      payload: { status: 'unpublished' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }, SETUP_TIMEOUT);

  it('an incremental harvest from before the withdrawal sees it as deleted', async () => {
    const from = withdrawnAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const { records } = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&from=${from}`);
    const found = records.find((r) => r.identifier === identifier(withdrawnId));
    expect(found, 'the withdrawn article is in a from= harvest').toBeDefined();
    expect(found!.deleted).toBe(true);
    expect(Date.parse(found!.datestamp)).toBeGreaterThanOrEqual(withdrawnAt.getTime());
  });

  it('GetRecord gives a deleted header and no metadata', async () => {
    const { doc } = await oai(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(withdrawnId)}`);
    const record = doc.GetRecord.record[0];
    expect(record.header[0]['@_status']).toBe('deleted');
    expect(record.header[0].identifier).toBe(identifier(withdrawnId));
    expect(record.metadata).toBeUndefined();
  });

  it('noMetadataFormats: no format can carry a withdrawn article', async () => {
    await expectError(`verb=ListMetadataFormats&identifier=${identifier(withdrawnId)}`, 'noMetadataFormats');
  });

  it('a full harvest lists it as deleted, and everything else as before', async () => {
    const { records } = await harvest('ListRecords', 'metadataPrefix=jats');
    const expected = await expectedRecords();
    expect(records.map((r) => [r.identifier, r.deleted])).toEqual(
      expected.map((e) => [e.identifier, e.deleted]),
    );
    expect(records.filter((r) => r.deleted).map((r) => r.identifier)).toEqual([identifier(withdrawnId)]);
    expect(records.find((r) => r.deleted)!.title).toBeUndefined();
  });

  it('a harvest by set still finds the deleted header', async () => {
    const { records } = await harvest('ListIdentifiers', 'metadataPrefix=oai_dc&set=volume:2:issue:2');
    expect(records.map((r) => [r.identifier, r.deleted]).at(-1)).toEqual([identifier(withdrawnId), true]);
  });
});
