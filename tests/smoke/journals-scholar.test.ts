
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalDefaults } from '../../content/journal.ts';
import { createIssueInNewVolume, makeJournal, publishArticle } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * The article page's Google Scholar tags and JSON-LD through the production build, on a site of three
 * journals (decision 0057): each page names the journal it is served for, its ISSN and publisher, and its
 * addresses (canonical, PDF) are at that journal's address, by path or by domain.
 */

const SITE = 'http://journal.test';
let t: TestContext;
const beta = {
  ...journalDefaults({ email: 'beta@example.org' }),
  name: 'Beta Letters',
  abbreviation: 'BL',
  issnOnline: '2049-3630',
  publisher: 'Beta Ocean Press',
};
const gamma = {
  ...journalDefaults({ email: 'gamma@example.org' }),
  name: 'Gamma Glaciology',
  abbreviation: 'GG',
  issnOnline: '1234-5679',
  publisher: 'Gamma Ice Press',
};
const ids = { alpha: 0, beta: 0, gamma: 0 };

type Where = { prefix?: string; host?: string };
const at = (where: Where) =>
  ({
    ...t,
    app: {
      inject: (opts: { url: string; headers?: Record<string, string> }) =>
        t.app.inject({
          ...opts,
          url: (where.prefix ?? '') + opts.url,
          headers: { ...opts.headers, ...(where.host ? { host: where.host } : {}) },
        }),
    },
  }) as TestContext;


async function publishIn(where: Where, title: string, doi: string) {
  const token = await t.login('admin', 'admin-pass-123');
  const issueId = await createIssueInNewVolume(at(where), token, { number: 1, year: 2026 });
  return (await publishArticle(at(where), token, { issueId, title, doi })).id;
}

/** The page's `<meta name=… content=…>` values by name, its canonical link and its JSON-LD. */
async function head(where: Where, id: number) {
  const res = await at(where).app.inject({ url: `/article/${id}` });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  const meta = new Map<string, string[]>();
  for (const m of res.body.matchAll(/<meta name="([^"]+)" content="([^"]*)"/g))
    meta.set(m[1], [...(meta.get(m[1]) ?? []), m[2].replaceAll('&amp;', '&')]);
  const canonical = /<link rel="canonical" href="([^"]+)"/.exec(res.body)?.[1];
  const ld = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(res.body)?.[1];
  return { meta, canonical, jsonLd: JSON.parse(ld ?? 'null') };
}

beforeAll(async () => {
  t = await createTestContext({}, { pages: true });
  await makeJournal(t, { title: beta.name, path: 'beta' }, beta);
  await makeJournal(t, { title: gamma.name, domain: 'gamma.test' }, gamma);
  ids.alpha = await publishIn({}, 'Lighthouse signals', '10.5555/alpha.1');
  ids.beta = await publishIn({ prefix: '/beta' }, 'Tidal signals', '10.5555/beta.1');
  ids.gamma = await publishIn({ host: 'gamma.test' }, 'Glacier signals', '10.5555/gamma.1');
}, 180_000);
afterAll(() => t?.close());

describe('Scholar tags and JSON-LD name the journal the page is served for', () => {
  it('a journal by path', async () => {
    const base = `${SITE}/beta`;
    const { meta, canonical, jsonLd } = await head({ prefix: '/beta' }, ids.beta);
    expect(meta.get('citation_journal_title')).toEqual([beta.name]);
    expect(meta.get('citation_issn')).toEqual([beta.issnOnline]);
    expect(meta.get('citation_publisher')).toEqual([beta.publisher]);
    expect(meta.get('citation_pdf_url')).toEqual([`${base}/api/articles/${ids.beta}/download`]);
    expect(meta.get('citation_abstract_html_url')).toEqual([`${base}/article/${ids.beta}`]);
    expect(canonical).toBe(`${base}/article/${ids.beta}`);
    expect(jsonLd.url).toBe(`${base}/article/${ids.beta}`);
    expect(jsonLd.publisher.name).toBe(beta.publisher);
    expect(jsonLd.isPartOf.isPartOf.isPartOf).toMatchObject({ name: beta.name, issn: beta.issnOnline });
  });

  it('a journal on its own domain', async () => {
    const base = 'http://gamma.test';
    const { meta, canonical } = await head({ host: 'gamma.test' }, ids.gamma);
    expect(meta.get('citation_journal_title')).toEqual([gamma.name]);
    expect(meta.get('citation_issn')).toEqual([gamma.issnOnline]);
    expect(meta.get('citation_publisher')).toEqual([gamma.publisher]);
    expect(meta.get('citation_pdf_url')).toEqual([`${base}/api/articles/${ids.gamma}/download`]);
    expect(canonical).toBe(`${base}/article/${ids.gamma}`);
  });

  it('the journal at the root, as before; and no journal shows another’s article', async () => {
    const { meta, canonical } = await head({}, ids.alpha);
    expect(meta.get('citation_journal_title')).toEqual([journalDefaults({ email: 'x@example.org' }).name]);
    expect(meta.get('citation_pdf_url')).toEqual([`${SITE}/api/articles/${ids.alpha}/download`]);
    expect(canonical).toBe(`${SITE}/article/${ids.alpha}`);
    expect((await at({ prefix: '/beta' }).app.inject({ url: `/article/${ids.alpha}` })).statusCode).toBe(404);
    expect((await at({}).app.inject({ url: `/article/${ids.gamma}` })).statusCode).toBe(404);
  });
});
