import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../server/catalog/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { PDF_GALLEY, importedRecords, legacyPaths } from '../../server/ojs/tables.ts';
import { makeJournal } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { SETUP_TIMEOUT, createVolume, parseXml, publishArticle } from './discovery-helpers.ts';

/**
 * OJS's old addresses (issue 26, decision 0067), through the real HTTP layer: the first journal at the site's
 * root moved from OJS's `jeii`, a second at /beta from OJS's `beta` (its path there and here the same), each
 * with imported records standing for an import. Every old address of an imported item answers 301 to its
 * page here; an old id a journal did not import (another journal's included) is a 404, never a redirect.
 */

const SITE = 'http://journal.test';
let t: TestContext;
let betaId = 0;
/**
 * Journal 1: OJS article 12 (with a PDF: galley 40; its HTML: galley 42), article 13 (no PDF, galley 41), issue 3.
 */
const alpha = { article: 0, bare: 0, issue: 0 };
/** Beta: OJS article 12 too (ids are per OJS journal), issue 5. */
const beta = { article: 0, issue: 0 };

function get(url: string, opts: Partial<InjectOptions> = {}) {
  return t.app.inject({ method: 'GET', url, ...opts });
}

async function expectRedirect(url: string, location: string, opts: Partial<InjectOptions> = {}) {
  const res = await get(url, opts);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(301);
  expect(res.headers.location, url).toBe(location);
}

async function imported(
  journalId: number,
  rows: { kind: 'issue' | 'article' | 'galley'; sourceId: string; localId: number; fingerprint?: string }[],
) {
  await withJournal(journalId, () => t.services.db.insert(importedRecords).values(rows));
}

beforeAll(async () => {
  t = await createTestContext();
  const token = await t.login('admin', 'admin-pass-123');
  betaId = await makeJournal(t, { title: 'Beta', path: 'beta' });

  const [issueId] = await createVolume(t, token, { number: 1, year: 2024, issues: 2 });
  alpha.issue = issueId;
  alpha.article = await publishArticle(t, token, { issueId, title: 'Old links', doi: '10.5555/old.1' });
  alpha.bare = await publishArticle(t, token, { issueId, title: 'No PDF', doi: '10.5555/old.2' });
  await withJournal(1, () =>
    t.services.db.update(articles).set({ pdfFileId: null }).where(eq(articles.id, alpha.bare)),
  );
  await imported(1, [
    { kind: 'article', sourceId: '12', localId: alpha.article },
    { kind: 'galley', sourceId: '40', localId: alpha.article, fingerprint: PDF_GALLEY },
    { kind: 'galley', sourceId: '42', localId: alpha.article },
    { kind: 'article', sourceId: '13', localId: alpha.bare },
    { kind: 'galley', sourceId: '41', localId: alpha.bare },
    { kind: 'issue', sourceId: '3', localId: alpha.issue },
  ]);

  const inBeta = {
    ...t,
    app: { inject: (o: InjectOptions & { url: string }) => t.app.inject({ ...o, url: `/beta${o.url}` }) },
  } as TestContext;
  const [betaIssue] = await createVolume(inBeta, token, { number: 7, year: 2025, issues: 1 });
  beta.issue = betaIssue;
  beta.article = await publishArticle(inBeta, token, {
    issueId: betaIssue,
    title: 'Beta old',
    doi: '10.5556/b.1',
  });
  await imported(betaId, [
    { kind: 'article', sourceId: '12', localId: beta.article },
    { kind: 'issue', sourceId: '5', localId: beta.issue },
  ]);
  await t.services.db.insert(legacyPaths).values([
    { path: 'jeii', journalId: 1 },
    { path: 'beta', journalId: betaId },
  ]);
  await t.services.journals.load();
}, SETUP_TIMEOUT);

afterAll(async () => {
  await t?.close();
});

describe('old OJS addresses of a journal at the site’s root', () => {
  for (const prefix of ['/index.php/jeii', '/jeii', '/index.php/JEII']) {
    it(`${prefix}: articles, galleys, files, issues, the archive and the home answer 301 to their pages here`, async () => {
      const a = alpha.article;
      await expectRedirect(`${prefix}/article/view/12`, `${SITE}/article/${a}`);
      await expectRedirect(`${prefix}/article/view/12/40`, `${SITE}/download/${a}`);
      await expectRedirect(`${prefix}/article/download/12/40`, `${SITE}/download/${a}`);
      await expectRedirect(`${prefix}/article/download/12/40/77`, `${SITE}/download/${a}`);
      // Another galley of it (its HTML): the article's page, which lists its other files.
      await expectRedirect(`${prefix}/article/view/12/42`, `${SITE}/article/${a}`);
      await expectRedirect(`${prefix}/article/download/12/42`, `${SITE}/article/${a}`);
      // No PDF: the article's page, which lists its files.
      await expectRedirect(`${prefix}/article/download/13/41`, `${SITE}/article/${alpha.bare}`);
      // A galley id that is not this article's: the article's page still.
      await expectRedirect(`${prefix}/article/view/12/41`, `${SITE}/article/${a}`);
      await expectRedirect(`${prefix}/issue/view/3`, `${SITE}/volumes?volume=1&issue=1`);
      await expectRedirect(`${prefix}/issue/view/3/9`, `${SITE}/volumes?volume=1&issue=1`);
      await expectRedirect(`${prefix}/issue/archive`, `${SITE}/volumes`);
      await expectRedirect(`${prefix}/issue/current`, `${SITE}/volumes`);
      await expectRedirect(`${prefix}/index`, `${SITE}/`);
      await expectRedirect(`${prefix}/search/search?query=tidal+sensors`, `${SITE}/search?q=tidal+sensors`);
      await expectRedirect(`${prefix}/about`, `${SITE}/about`);
    });
  }

  it('answers the journal’s root under index.php and without it', async () => {
    await expectRedirect('/index.php/jeii', `${SITE}/`);
    await expectRedirect('/index.php/jeii/', `${SITE}/`);
    await expectRedirect('/jeii', `${SITE}/`);
    await expectRedirect('/JEII/', `${SITE}/`);
  });

  it('keeps the query of OAI-PMH, with an old record identifier made the new one', async () => {
    for (const prefix of ['/index.php/jeii', '/jeii']) {
      await expectRedirect(`${prefix}/oai?verb=Identify`, `${SITE}/oai?verb=Identify`);
      await expectRedirect(
        `${prefix}/oai?verb=ListRecords&metadataPrefix=oai_dc&set=volume%3A1`,
        `${SITE}/oai?verb=ListRecords&metadataPrefix=oai_dc&set=volume%3A1`,
      );
      const res = await get(
        `${prefix}/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:old.example.org:article/12`,
      );
      expect(res.statusCode).toBe(301);
      const location = new URL(res.headers.location as string);
      expect(location.origin + location.pathname).toBe(`${SITE}/oai`);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        verb: 'GetRecord',
        metadataPrefix: 'oai_dc',
        identifier: `oai:journal.test:article/${alpha.article}`,
      });
      // Followed, it is the record.
      const record = await get(location.pathname + location.search);
      const doc = parseXml(record.body)['OAI-PMH'];
      expect(doc.GetRecord.record[0].header[0].identifier).toBe(`oai:journal.test:article/${alpha.article}`);
    }
    // An old identifier the journal did not import stays as it was: the repository says it knows none.
    const unknown = await get(
      '/index.php/jeii/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:old.example.org:article/999',
    );
    expect(unknown.statusCode).toBe(301);
    const followed = await get(
      new URL(unknown.headers.location as string).pathname +
        new URL(unknown.headers.location as string).search,
    );
    expect(parseXml(followed.body)['OAI-PMH'].error[0]['@_code']).toBe('idDoesNotExist');
    // A harvester's POST keeps its method and body: 308.
    const post = await t.app.inject({
      method: 'POST',
      url: '/index.php/jeii/oai',
      payload: 'verb=Identify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode).toBe(308);
    expect(post.headers.location).toBe(`${SITE}/oai`);
  });

  it('is a 404 for an old id the journal did not import, never a redirect or a 500', async () => {
    for (const url of [
      '/index.php/jeii/article/view/999',
      '/jeii/article/view/999',
      '/index.php/jeii/article/download/999/40',
      '/index.php/jeii/issue/view/99',
      '/index.php/jeii/article/view/some-url-path',
      // Beta's issue 5 is no issue of journal 1.
      '/index.php/jeii/issue/view/5',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers.location, url).toBeUndefined();
    }
  });

  it('leaves every address of ours alone, and an OJS page it does not know', async () => {
    expect((await get(`/api/articles/public/article/${alpha.article}`)).statusCode).toBe(200);
    expect((await get('/oai?verb=Identify')).statusCode).toBe(200);
    expect((await get('/index.php/jeii/user/register')).statusCode).toBe(404);
    expect((await get('/index.php/nowhere/article/view/12')).statusCode).toBe(404);
  });
});

describe('old OJS addresses of a journal by path, whose OJS path is its path here', () => {
  it('answers 301 under index.php and under its own path, its own pages winning', async () => {
    const BETA = `${SITE}/beta`;
    for (const prefix of ['/index.php/beta', '/beta']) {
      await expectRedirect(`${prefix}/article/view/12`, `${BETA}/article/${beta.article}`);
      await expectRedirect(`${prefix}/issue/view/5`, `${BETA}/volumes?volume=7&issue=1`);
      await expectRedirect(`${prefix}/issue/archive`, `${BETA}/volumes`);
      await expectRedirect(`${prefix}/index`, BETA);
    }
    await expectRedirect('/index.php/beta', BETA);
    await expectRedirect('/index.php/beta/oai?verb=Identify', `${BETA}/oai?verb=Identify`);
    // Its own OAI-PMH, about page and API are its own.
    expect((await get('/beta/oai?verb=Identify')).statusCode).toBe(200);
    expect((await get(`/beta/api/articles/public/article/${beta.article}`)).statusCode).toBe(200);
  });

  it('never leaks another journal’s ids: journal 1’s old ids under beta’s old path are a 404', async () => {
    for (const url of [
      '/index.php/beta/article/view/13',
      '/beta/article/view/13',
      '/index.php/beta/issue/view/3',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
    }
    // The same OJS id in two journals names each journal's own article.
    await expectRedirect('/index.php/jeii/article/view/12', `${SITE}/article/${alpha.article}`);
    await expectRedirect('/index.php/beta/article/view/12', `${SITE}/beta/article/${beta.article}`);
  });

  it('follows the journal directory: an old path added later answers once the journals are read again', async () => {
    expect((await get('/index.php/later/article/view/12')).statusCode).toBe(404);
    await t.services.db.insert(legacyPaths).values({ path: 'later', journalId: betaId });
    await t.services.journals.load();
    await expectRedirect('/index.php/later/article/view/12', `${SITE}/beta/article/${beta.article}`);
  });
});

describe('an unpublished or removed article', () => {
  it('is a 404 at its old address', async () => {
    await withJournal(1, () =>
      t.services.db.update(articles).set({ status: 'unpublished' }).where(eq(articles.id, alpha.bare)),
    );
    expect((await get('/index.php/jeii/article/view/13')).statusCode).toBe(404);
  });
});
