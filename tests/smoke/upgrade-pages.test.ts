import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../server/testing/harness.ts';
import { facts, upgradedContext } from '../api/upgrade-helpers.ts';

/**
 * The previous release's installation upgraded (tests/api/upgrade.test.ts has the data): its pages answer
 * at today's addresses, at the site's root, as the build serves them (issue 24: existing links, Scholar and
 * Crossref records keep working).
 */
let t: TestContext;
beforeAll(async () => {
  ({ t } = await upgradedContext({ pages: true }));
}, 120_000);
afterAll(() => t?.close());

const page = (url: string, token?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: token ? { cookie: `colophon_session=${token}` } : {},
  });

describe('an upgraded installation’s pages', () => {
  it('answers the home, the volumes, the article and its PDF at the addresses they had', async () => {
    const home = await page('/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/text\/html/);
    expect(home.body).toContain((await t.services.settings.journal()).name);

    const volumes = await page('/volumes');
    expect(volumes.statusCode).toBe(200);
    expect(volumes.body).toContain('Volume 7: upgrades');

    const article = await page(`/article/${facts.ids.article}`);
    expect(article.statusCode).toBe(200);
    expect(article.body).toContain(facts.titles.article);
    // The article page's PDF link is the download as it was, and the old session downloads it.
    expect(article.body).toContain(`/api/articles/${facts.ids.article}/download`);
    const pdf = await page(`/api/articles/${facts.ids.article}/download`, facts.session.token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // A page of the signed-in author, by the old session's cookie.
    const mine = await page('/my-submissions', facts.session.token);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain(facts.titles.article);
  });
});
