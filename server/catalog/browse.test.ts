import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/harness.ts';

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
});
afterAll(() => t?.close());

describe('the reader browse tree', () => {
  it('lists volumes with their issues and published-article counts, and an issue’s articles in page order', async () => {
    const { catalog } = t.services;
    const admin = { id: 1, username: 'admin', role: 'admin', status: 'approved' } as never;
    const volume2 = await catalog.createVolume(admin, { title: 'Volume 2', volume_number: 2, year: 2026 });
    const empty = await catalog.createIssue(admin, {
      title: 'Issue 1',
      description: 'Coming soon.',
      volume_id: volume2.id,
    });

    const index = await catalog.browseIndex();
    expect(index.map((v) => v.volume_number)).toEqual([2, 1]);
    expect(index[0].issues).toMatchObject([{ id: empty.id, issue_number: 1, article_count: 0 }]);
    const demoIssue = index[1].issues[0];
    expect(demoIssue.article_count).toBe(5);

    const articles = await catalog.issueArticles(demoIssue.id);
    expect(articles).toHaveLength(5);
    const firstPages = articles.map((a) => Number(a.pages.split('-')[0]));
    expect(firstPages).toEqual([...firstPages].sort((a, b) => a - b));
    expect(await catalog.issueArticles(empty.id)).toEqual([]);
  });
});
