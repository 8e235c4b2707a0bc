import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../catalog/tables.ts';
import { createTestContext, type TestContext } from '../testing/harness.ts';
import { DepositExports } from './exports.ts';
import { WorkReader } from './works.ts';

/**
 * The one shape of every deposit file (the XML itself is held to the official schemas in
 * tests/api/discovery-exports.test.ts): what is left out is named, the file is named after the place, and
 * what cannot be exported is refused with the domain's codes.
 */

let t: TestContext;
let deposits: DepositExports;
let issueId = 0;
let ids: number[] = [];

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  deposits = new DepositExports(new WorkReader(t.services.db, t.services.journalUrl), t.services.settings);
  issueId = (await t.services.catalog.editorIssues())[0].id;
  ids = (await t.services.catalog.issueArticles(issueId)).map((a) => a.id);
}, 180_000);

afterAll(() => t?.close());

async function doiOf(id: number) {
  const [row] = await t.services.db.select({ doi: articles.doi }).from(articles).where(eq(articles.id, id));
  return row.doi;
}

describe('deposit files', () => {
  it('names the file after the journal, the format and the place', async () => {
    const crossref = await deposits.crossrefIssue(issueId);
    expect(crossref.filename).toBe('cjei-crossref-v1i1.xml');
    expect(crossref.skipped).toEqual([]);
    const doaj = await deposits.doajIssue(issueId);
    expect(doaj.filename).toBe('cjei-doaj-v1i1.xml');
    expect(doaj.xml).toContain('<records');
    const one = await deposits.crossrefArticle(ids[0]);
    expect(one.filename).toBe(`cjei-crossref-article-${ids[0]}.xml`);
    expect(one.xml).toContain(`${await doiOf(ids[0])}`);
  });

  it('leaves out what the indexer cannot take, and says which', async () => {
    const [left, kept] = [ids[0], ids[1]];
    const leftDoi = await doiOf(left);
    await t.services.db.update(articles).set({ doi: null }).where(eq(articles.id, left));
    try {
      const file = await deposits.crossrefIssue(issueId);
      expect(file.skipped).toEqual([left]);
      expect(file.xml).not.toContain(`${leftDoi}`);
      expect(file.xml).toContain(`${await doiOf(kept)}`);
      await expect(deposits.crossrefArticle(left)).rejects.toMatchObject({
        code: 'conflict',
        message: 'This article has no DOI: give it one before depositing it.',
      });
    } finally {
      await t.services.db.update(articles).set({ doi: leftDoi }).where(eq(articles.id, left));
    }
  });

  it('refuses unknown issues and articles as not found', async () => {
    await expect(deposits.crossrefIssue(999_999)).rejects.toMatchObject({
      code: 'not_found',
      message: 'Issue not found.',
    });
    await expect(deposits.doajIssue(999_999)).rejects.toMatchObject({ code: 'not_found' });
    await expect(deposits.crossrefArticle(999_999)).rejects.toMatchObject({
      code: 'not_found',
      message: 'Article not found.',
    });
  });
});
