import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { journals } from '../../server/journals/tables.ts';
import { journalDefaults } from '../../content/journal.ts';
import { bearer, makeJournal } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import {
  SCHEMA_TIMEOUT,
  SETUP_TIMEOUT,
  createVolume,
  parseXml,
  publishArticle,
  text,
  validateJats,
  validateWithSchema,
} from './discovery-helpers.ts';

/**
 * Discovery on a site of three journals (decision 0057): the first at the site's root (as a one-journal
 * installation has it), a second by path (/beta) and a third on a domain of its own (gamma.test). Each
 * journal's OAI-PMH repository, sitemap, feeds, exports and search hold its own articles at its own address;
 * the site's repository and search hold every journal's, naming each.
 */

const SITE = 'http://journal.test';
const BETA = `${SITE}/beta`;
const GAMMA_HOST = 'gamma.test';
const GAMMA = `http://${GAMMA_HOST}`;

let t: TestContext;
let token = '';
let betaId = 0;
let gammaId = 0;
/** One published article in each journal. */
const article = { alpha: 0, beta: 0, gamma: 0 };
let betaIssue = 0;
/** The same services behind an app whose OAI pages hold one record: lists come in pages, with tokens. */
let paged: FastifyInstance;

const identifier = (id: number) => `oai:journal.test:article/${id}`;

const beta = journalDefaults({ email: 'beta-office@example.org' });
Object.assign(beta, {
  name: 'Beta Letters in Tidal Studies',
  abbreviation: 'BLTS',
  issnOnline: '2049-3630',
  publisher: 'Beta Ocean Press',
  doiPrefix: '10.5556',
});
const gamma = journalDefaults({ email: 'gamma-office@example.org' });
Object.assign(gamma, {
  name: 'Gamma Glaciology',
  abbreviation: 'GG',
  issnOnline: '1234-5679',
  doiPrefix: '10.5557',
});

/** A journal's requests: by path on the site's host, or by the `Host` header of its own domain. */
type Where = { prefix?: string; host?: string };
const A: Where = {};
const B: Where = { prefix: '/beta' };
const C: Where = { host: GAMMA_HOST };

function at(where: Where, opts: InjectOptions & { url: string }, app: FastifyInstance = t.app) {
  return app.inject({
    ...opts,
    url: (where.prefix ?? '') + opts.url,
    headers: { ...(opts.headers ?? {}), ...(where.host ? { host: where.host } : {}) },
  });
}

/** The test context as seen from one journal: the factories' requests go to its address. */
function journalContext(where: Where): TestContext {
  return { ...t, app: { inject: (opts: InjectOptions & { url: string }) => at(where, opts) } } as TestContext;
}

async function oai(where: Where, query: string, app?: FastifyInstance, path = '/oai') {
  const res = await at(where, { method: 'GET', url: `${path}?${query}` }, app);
  expect(res.statusCode, res.body).toBe(200);
  return { doc: parseXml(res.body)['OAI-PMH'], body: res.body };
}

const identifiersOf = (list: { header: { identifier: string }[] }[] | undefined) =>
  (list ?? []).flatMap((r) => r.header.map((h) => h.identifier));


async function publishIn(where: Where, title: string, doi: string) {
  const ctx = journalContext(where);
  const [issueId] = await createVolume(ctx, token, { number: 1, year: 2026, issues: 1 });
  return { issueId, id: await publishArticle(ctx, token, { issueId, title, doi }) };
}

beforeAll(async () => {
  t = await createTestContext();
  token = await t.login('admin', 'admin-pass-123');
  betaId = await makeJournal(t, { title: beta.name, path: 'beta' }, beta);
  gammaId = await makeJournal(t, { title: gamma.name, domain: GAMMA_HOST }, gamma);
  article.alpha = (await publishIn(A, 'Harvesting lighthouse signals', '10.5555/alpha.1')).id;
  const b = await publishIn(B, 'Harvesting tidal signals', '10.5556/beta.1');
  article.beta = b.id;
  betaIssue = b.issueId;
  article.gamma = (await publishIn(C, 'Harvesting glacier signals', '10.5557/gamma.1')).id;
  paged = await buildApp(t.services, { discovery: { oaiPageSize: 1 } });
  await paged.ready();
}, SETUP_TIMEOUT);

afterAll(async () => {
  await paged?.close();
  await t?.close();
});

describe('OAI-PMH, one repository per journal', () => {
  it('Identify names each journal, at its own address', async () => {
    const cases: [Where, string, string, string][] = [
      [A, `${SITE}/oai`, journalDefaults({ email: t.services.config.EDITORIAL_EMAIL }).name, ''],
      [B, `${BETA}/oai`, beta.name, beta.email],
      [C, `${GAMMA}/oai`, gamma.name, gamma.email],
    ];
    for (const [where, base, name, email] of cases) {
      const { doc } = await oai(where, 'verb=Identify');
      expect(text(doc.request)).toBe(base);
      expect(doc.Identify.baseURL).toBe(base);
      expect(doc.Identify.repositoryName).toBe(name);
      if (email) expect(doc.Identify.adminEmail).toBe(email);
      // One namespace for the site's identifiers, whichever journal answers.
      expect(doc.Identify.description['oai-identifier'].repositoryIdentifier).toBe('journal.test');
    }
  });

  it('lists only its own records, and knows no other journal’s identifier', async () => {
    for (const [where, own] of [
      [A, article.alpha],
      [B, article.beta],
      [C, article.gamma],
    ] as const) {
      const { doc } = await oai(where, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
      expect(doc.ListIdentifiers.header.map((h: { identifier: string }) => h.identifier)).toEqual([
        identifier(own),
      ]);
    }
    const { doc } = await oai(
      B,
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(article.alpha)}`,
    );
    expect(doc.error[0]['@_code']).toBe('idDoesNotExist');
    const other = await oai(A, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(article.beta)}`);
    expect(other.doc.error[0]['@_code']).toBe('idDoesNotExist');
  });

  it('describes a record with its journal’s facts and addresses', async () => {
    const { doc } = await oai(
      B,
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(article.beta)}`,
    );
    const dc = doc.GetRecord.record[0].metadata['oai_dc:dc'];
    expect(text(dc['dc:publisher'])).toBe(beta.publisher);
    expect(dc['dc:identifier'].map(text)).toContain(`${BETA}/article/${article.beta}`);
    expect(dc['dc:source'].map(text)).toContain(beta.issnOnline);
    expect(doc.GetRecord.record[0].header[0].setSpec).toEqual(['volume:1', 'volume:1:issue:1']);

    const jats = await oai(C, `verb=GetRecord&metadataPrefix=jats&identifier=${identifier(article.gamma)}`);
    expect(jats.body).toContain(
      `<issn publication-format="electronic" pub-type="epub">${gamma.issnOnline}</issn>`,
    );
    expect(jats.body).toContain(`${GAMMA}/article/${article.gamma}`);
    expect(jats.body).not.toContain(SITE);
  });

  it(
    'gives B’s JATS records, valid against the schema',
    async () => {
      const { body } = await oai(B, 'verb=ListRecords&metadataPrefix=jats');
      const articles = [...body.matchAll(/<article [\s\S]*?<\/article>/g)].map((m) => m[0]);
      expect(articles).toHaveLength(1);
      expect(articles[0]).toContain(beta.issnOnline);
      const result = validateJats(articles);
      expect(result.ok, result.output).toBe(true);
    },
    SCHEMA_TIMEOUT,
  );
});

describe('OAI-PMH, the site’s repository', () => {
  it('Identify names the site at /site/oai; nowhere else answers it', async () => {
    const { doc } = await oai(A, 'verb=Identify', undefined, '/site/oai');
    expect(doc.Identify.baseURL).toBe(`${SITE}/site/oai`);
    expect(doc.Identify.adminEmail).toBe(t.services.config.ADMIN_EMAIL);
    expect((await at(B, { method: 'GET', url: '/site/oai?verb=Identify' })).statusCode).toBe(404);
    expect((await at(C, { method: 'GET', url: '/site/oai?verb=Identify' })).statusCode).toBe(404);
  });

  it('lists each journal as a set, with its volumes and issues under it', async () => {
    const { doc } = await oai(A, 'verb=ListSets', undefined, '/site/oai');
    const sets = doc.ListSets.set.map((s: { setSpec: string[]; setName: string }) => [
      s.setSpec[0],
      s.setName,
    ]);
    expect(sets).toEqual(
      expect.arrayContaining([
        ['journal:1', expect.any(String)],
        [`journal:${betaId}`, beta.name],
        [`journal:${gammaId}`, gamma.name],
        [`journal:${betaId}:volume:1`, `${beta.name}: Volume 1 (2026)`],
        [`journal:${betaId}:volume:1:issue:1`, expect.stringContaining(`${beta.name}: Volume 1, Issue 1`)],
      ]),
    );
  });

  it('holds every journal’s records, with the identifiers each journal gives them', async () => {
    const { doc } = await oai(A, 'verb=ListRecords&metadataPrefix=oai_dc', undefined, '/site/oai');
    expect(identifiersOf(doc.ListRecords.record).sort()).toEqual(
      [article.alpha, article.beta, article.gamma].map(identifier).sort(),
    );
    const record = doc.ListRecords.record.find(
      (r: { header: { identifier: string }[] }) => r.header[0].identifier === identifier(article.gamma),
    );
    expect(record.header[0].setSpec).toEqual([
      `journal:${gammaId}`,
      `journal:${gammaId}:volume:1`,
      `journal:${gammaId}:volume:1:issue:1`,
    ]);
    const dc = record.metadata['oai_dc:dc'];
    expect(text(dc['dc:publisher'])).toBe(gamma.publisher);
    expect(dc['dc:identifier'].map(text)).toContain(`${GAMMA}/article/${article.gamma}`);

    const one = await oai(
      A,
      `verb=ListIdentifiers&metadataPrefix=oai_dc&set=journal:${betaId}`,
      undefined,
      '/site/oai',
    );
    expect(identifiersOf([{ header: one.doc.ListIdentifiers.header }])).toEqual([identifier(article.beta)]);
    const issue = await oai(
      A,
      `verb=ListIdentifiers&metadataPrefix=oai_dc&set=journal:${betaId}:volume:1:issue:1`,
      undefined,
      '/site/oai',
    );
    expect(identifiersOf([{ header: issue.doc.ListIdentifiers.header }])).toEqual([identifier(article.beta)]);
    const none = await oai(
      A,
      'verb=ListIdentifiers&metadataPrefix=oai_dc&set=journal:999',
      undefined,
      '/site/oai',
    );
    expect(none.doc.error[0]['@_code']).toBe('noRecordsMatch');
    const got = await oai(
      A,
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(article.beta)}`,
      undefined,
      '/site/oai',
    );
    expect(got.doc.GetRecord.record[0].header[0].identifier).toBe(identifier(article.beta));
  });

  it('pages by resumption tokens that no other repository takes', async () => {
    const seen: string[] = [];
    let query = 'verb=ListIdentifiers&metadataPrefix=oai_dc';
    let first = '';
    for (let i = 0; i < 5; i++) {
      const { doc } = await oai(A, query, paged, '/site/oai');
      seen.push(...doc.ListIdentifiers.header.map((h: { identifier: string }) => h.identifier));
      const next = text(doc.ListIdentifiers.resumptionToken);
      if (!next) break;
      first ||= next;
      query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(next)}`;
    }
    expect(seen.sort()).toEqual([article.alpha, article.beta, article.gamma].map(identifier).sort());
    for (const where of [A, B]) {
      const { doc } = await oai(
        where,
        `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(first)}`,
        paged,
      );
      expect(doc.error[0]['@_code']).toBe('badResumptionToken');
    }
  });
});

describe('robots.txt, sitemaps and feeds per journal', () => {
  it('robots.txt on the site’s host speaks for the journals served by path; a domain has its own', async () => {
    const site = (await at(A, { method: 'GET', url: '/robots.txt' })).body;
    expect(site).toContain('Disallow: /api/\n');
    expect(site).toContain('Disallow: /beta/api/\n');
    expect(site).toContain('Allow: /beta/api/articles/*/download\n');
    expect(site).toContain(`Sitemap: ${SITE}/sitemap.xml\n`);
    expect(site).toContain(`Sitemap: ${BETA}/sitemap.xml\n`);
    expect(site).not.toContain(GAMMA_HOST);
    const own = (await at(C, { method: 'GET', url: '/robots.txt' })).body;
    expect(own).toContain(`Sitemap: ${GAMMA}/sitemap.xml\n`);
    expect(own).not.toContain('beta');
  });

  it('each sitemap lists its own journal’s articles at its address', async () => {
    const locs = async (where: Where) => {
      const res = await at(where, { method: 'GET', url: '/sitemap.xml' });
      expect(res.statusCode).toBe(200);
      return parseXml(res.body).urlset.url.map((u: { loc: string }) => u.loc) as string[];
    };
    const [a, b, c] = [await locs(A), await locs(B), await locs(C)];
    expect(a).toContain(`${SITE}/article/${article.alpha}`);
    expect(a.some((l) => l.startsWith(BETA) || l.includes(`/article/${article.beta}`))).toBe(false);
    expect(b).toContain(`${BETA}/`);
    expect(b).toContain(`${BETA}/article/${article.beta}`);
    expect(b.every((l) => l.startsWith(`${BETA}/`))).toBe(true);
    expect(c).toContain(`${GAMMA}/article/${article.gamma}`);
    expect(c.every((l) => l.startsWith(`${GAMMA}/`))).toBe(true);
  });

  it('each feed carries its own journal’s articles, title and addresses', async () => {
    const rss = parseXml((await at(B, { method: 'GET', url: '/feed.rss' })).body).rss.channel;
    expect(rss.title).toBe(beta.name);
    expect(rss.link).toEqual([`${BETA}/`]);
    expect(rss.item.map((i: { link: string[] }) => i.link[0])).toEqual([`${BETA}/article/${article.beta}`]);
    const atom = parseXml((await at(C, { method: 'GET', url: '/feed.atom' })).body).feed;
    expect(text(atom.title)).toBe(gamma.name);
    expect(atom.entry.map((e: { id: string }) => text(e.id))).toEqual([`${GAMMA}/article/${article.gamma}`]);
    const issue = await at(B, { method: 'GET', url: '/volumes/1/issues/1/feed.rss' });
    expect(issue.body).toContain(`${BETA}/volumes?volume=1&amp;issue=1`);
    const own = parseXml((await at(A, { method: 'GET', url: '/feed.rss' })).body).rss.channel;
    expect(own.item.map((i: { link: string[] }) => i.link[0])).toEqual([`${SITE}/article/${article.alpha}`]);
  });
});

describe('Crossref and DOAJ exports per journal', () => {
  const download = (where: Where, url: string) => at(where, { method: 'GET', url, headers: bearer(token) });

  it(
    'B’s Crossref deposit is valid, with B’s ISSN, publisher, DOIs and addresses',
    async () => {
      const res = await download(B, `/api/editor/export/crossref/issue/${betaIssue}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(`<issn media_type="electronic">${beta.issnOnline}</issn>`);
      expect(res.body).toContain(`<full_title>${beta.name}</full_title>`);
      expect(res.body).toContain('<doi>10.5556/beta.1</doi>');
      expect(res.body).toContain(`<resource>${BETA}/article/${article.beta}</resource>`);
      expect(res.body).not.toContain('3049-4176');
      const result = validateWithSchema('crossref', res.body);
      expect(result.ok, result.output).toBe(true);
      // A's issue is not B's to export.
      expect((await download(A, `/api/editor/export/crossref/issue/${betaIssue}`)).statusCode).toBe(404);
    },
    SCHEMA_TIMEOUT,
  );

  it(
    'B’s DOAJ records are valid, with B’s ISSN and full texts at B’s address',
    async () => {
      const res = await download(B, `/api/editor/export/doaj/issue/${betaIssue}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(`<eissn>${beta.issnOnline}</eissn>`);
      expect(res.body).toContain(`<publisher>${beta.publisher}</publisher>`);
      expect(res.body).toContain(`${BETA}/api/articles/${article.beta}/download`);
      const result = validateWithSchema('doaj', res.body);
      expect(result.ok, result.output).toBe(true);
    },
    SCHEMA_TIMEOUT,
  );
});

describe('search, within a journal and across the site', () => {
  const search = async (where: Where, url: string) => {
    const res = await at(where, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('a journal’s search finds its own articles only', async () => {
    for (const [where, own, base] of [
      [A, article.alpha, SITE],
      [B, article.beta, BETA],
      [C, article.gamma, GAMMA],
    ] as const) {
      const found = await search(where, '/api/search?q=harvesting+signals');
      expect(found.results.map((r: { id: number }) => r.id)).toEqual([own]);
      expect(found.results[0].url).toBe(`${base}/article/${own}`);
    }
    // Another journal's words find nothing.
    expect((await search(A, '/api/search?q=tidal')).total).toBe(0);
    expect((await search(B, '/api/search?q=lighthouse')).total).toBe(0);
  });

  it('the site’s search finds every journal’s, each naming its journal at its address', async () => {
    const found = await search(A, '/api/site/search?q=harvesting+signals');
    expect(found.total).toBe(3);
    const byId = new Map(found.results.map((r: { id: number }) => [r.id, r]));
    expect(byId.get(article.beta)).toMatchObject({
      url: `${BETA}/article/${article.beta}`,
      journal: { id: betaId, title: beta.name, url: BETA },
    });
    expect(byId.get(article.gamma)).toMatchObject({
      url: `${GAMMA}/article/${article.gamma}`,
      journal: { id: gammaId, title: gamma.name, url: GAMMA },
    });
    expect(byId.get(article.alpha)).toMatchObject({
      url: `${SITE}/article/${article.alpha}`,
      journal: { id: 1 },
    });
    // The same answer from any journal's address; `journal` keeps to one.
    expect((await search(B, '/api/site/search?q=harvesting')).total).toBe(3);
    const one = await search(C, `/api/site/search?q=harvesting&journal=${betaId}`);
    expect(one.results.map((r: { id: number }) => r.id)).toEqual([article.beta]);
  });

  it('a change in one journal reaches the site’s kept search answer', async () => {
    const before = await search(A, '/api/site/search?q=fjord');
    expect(before.total).toBe(0);
    const ctx = journalContext(C);
    const [issueId] = await createVolume(ctx, token, { number: 2, year: 2027, issues: 1 });
    const id = await publishArticle(ctx, token, {
      issueId,
      title: 'Fjord harvesting',
      doi: '10.5557/gamma.2',
    });
    const after = await search(A, '/api/site/search?q=fjord');
    expect(after.results.map((r: { id: number }) => r.id)).toEqual([id]);
  });
});

describe('no journal at the site’s root', () => {
  beforeAll(async () => {
    // The first journal moves to a path: the site's host then answers with the site's own documents.
    await t.services.db.update(journals).set({ path: 'alpha' }).where(eq(journals.id, 1));
    await t.services.journals.load();
  });

  it('answers /oai with the site’s repository, and the moved journal keeps its identifiers', async () => {
    const { doc } = await oai(A, 'verb=Identify');
    expect(doc.Identify.baseURL).toBe(`${SITE}/oai`);
    expect(doc.Identify.adminEmail).toBe(t.services.config.ADMIN_EMAIL);
    const all = await oai(A, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
    expect(all.doc.ListIdentifiers.header.length).toBeGreaterThanOrEqual(3);

    const moved = await oai({ prefix: '/alpha' }, 'verb=ListRecords&metadataPrefix=oai_dc');
    expect(text(moved.doc.request)).toBe(`${SITE}/alpha/oai`);
    expect(identifiersOf(moved.doc.ListRecords.record)).toEqual([identifier(article.alpha)]);
    const dc = moved.doc.ListRecords.record[0].metadata['oai_dc:dc'];
    expect(dc['dc:identifier'].map(text)).toContain(`${SITE}/alpha/article/${article.alpha}`);
  });

  it('serves a sitemap index of the journals by path, and robots.txt for them all', async () => {
    const res = await at(A, { method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    const index = parseXml(res.body).sitemapindex;
    const sitemaps = [index.sitemap].flat().map((s: { loc: string }) => s.loc);
    expect(sitemaps).toEqual([`${SITE}/alpha/sitemap.xml`, `${BETA}/sitemap.xml`]);
    const robots = (await at(A, { method: 'GET', url: '/robots.txt' })).body;
    expect(robots).toContain('Disallow: /alpha/api/\n');
    expect(robots).toContain(`Sitemap: ${SITE}/alpha/sitemap.xml\n`);
    expect((await at(A, { method: 'GET', url: '/feed.rss' })).statusCode).toBe(404);
  });
});
