import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-csl';
import '@citation-js/plugin-ris';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITATION_STYLES } from '../../common/citation.ts';
import { articleCsl, formatCitations } from '../../server/catalog/citation.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { SETUP_TIMEOUT, createVolume, publishArticle } from './discovery-helpers.ts';

/**
 * Citations (issue 6): BibTeX and RIS files that reference managers read back to the same record, and the
 * six reference styles. Titles with LaTeX's special characters and names with diacritics must survive.
 */

const TITLE = 'Über {braces} & 50% of $x_1$ costs #3_a ~ \\relax — naïve café, “quoted”';
const AUTHORS = [
  { name: 'José Müller-Łukasz', email: 'jm@example.org', affiliation: 'Universität Wien', superscript: '1' },
  { name: 'Zoë O’Brien', email: 'zo@example.org', affiliation: 'Trinity College Dublin', superscript: '2' },
  { name: 'Ludwig van Beethoven', email: 'lvb@example.org', affiliation: 'TU Delft', superscript: '3' },
  { name: 'Sukarno', email: 's@example.org', affiliation: 'ITB', superscript: '4' },
];

let t: TestContext;
let token = '';
let articleId = 0;
let plainId = 0;

beforeAll(async () => {
  t = await createTestContext();
  token = await t.login('admin', 'admin-pass-123');
  const [issueId] = await createVolume(t, token, { number: 7, year: 2026, issues: 2 });
  const issues = await createVolume(t, token, { number: 8, year: 2027, issues: 1 });
  articleId = await publishArticle(t, token, {
    issueId: issues[0],
    title: TITLE,
    doi: '10.5555/cite_1-(x)',
    pages: '101-117',
    authors: AUTHORS,
  });
  plainId = await publishArticle(t, token, { issueId, title: 'A plain title', doi: '10.5555/plain.2' });
}, SETUP_TIMEOUT);
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

/** What both files must carry: the article as the database has it. */
async function expected(id: number) {
  const a = (await get(`/api/articles/public/article/${id}`)).json();
  return a as {
    title: string;
    authors: { name: string }[];
    year: number;
    volume_number: number;
    issue_number: number;
    pages: string;
    doi: string;
  };
}

type Person = { given?: string; family?: string; literal?: string; 'non-dropping-particle'?: string };
/** A parsed name as written: BibTeX readers take "van" apart as a particle, which is right. */
function nameOf(person: Person): string {
  return (
    person.literal ?? [person.given, person['non-dropping-particle'], person.family].filter(Boolean).join(' ')
  );
}

function expectSameRecord(csl: Record<string, any>, a: Awaited<ReturnType<typeof expected>>) {
  expect(csl.title).toBe(a.title);
  expect((csl.author as Person[]).map(nameOf)).toEqual(a.authors.map((au) => au.name));
  expect(csl.issued['date-parts'][0][0]).toBe(a.year);
  expect(String(csl.volume)).toBe(String(a.volume_number));
  expect(String(csl.issue)).toBe(String(a.issue_number));
  expect(csl.page).toBe(a.pages);
  expect(csl.DOI).toBe(a.doi);
}

describe('BibTeX', () => {
  it('is an attachment with the BibTeX media type, named after the journal and the article', async () => {
    const res = await get(`/api/articles/${articleId}/citation?format=bibtex`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="[a-z0-9-]+-v8i1-${articleId}\\.bib"`),
    );
    expect(res.body).toMatch(/^@article\{/);
    // LaTeX's special characters are escaped, so that BibTeX itself does not trip over them.
    expect(res.body).toContain('50\\%');
    expect(res.body).toContain('\\#3');
    expect(res.body).not.toMatch(/title = \{[^\n]*[^\\]%/);
  });

  it('reads back to the same title, authors, year, volume, issue, pages and DOI', async () => {
    for (const id of [articleId, plainId]) {
      const body = (await get(`/api/articles/${id}/citation?format=bibtex`)).body;
      const [csl] = new Cite(body).data;
      expectSameRecord(csl, await expected(id));
    }
  });
});

describe('RIS', () => {
  it('is an attachment with the RIS media type', async () => {
    const res = await get(`/api/articles/${articleId}/citation?format=ris`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`filename="[a-z0-9-]+-v8i1-${articleId}\\.ris"`),
    );
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('TY  - JOUR');
    expect(lines.at(-1)?.trimEnd()).toBe('ER  -');
    expect(lines.filter((l) => l.startsWith('AU  - '))).toHaveLength(AUTHORS.length);
    expect(lines).toContain('KW  - harvesting');
  });

  it('reads back to the same title, authors, year, volume, issue, pages and DOI', async () => {
    for (const id of [articleId, plainId]) {
      const body = (await get(`/api/articles/${id}/citation?format=ris`)).body;
      const [csl] = new Cite(body).data;
      expectSameRecord(csl, await expected(id));
    }
  });
});

describe('reference styles', () => {
  it('answers each style as plain text', async () => {
    for (const style of CITATION_STYLES) {
      const res = await get(`/api/articles/${articleId}/citation?format=${style.id}`);
      expect(res.statusCode, style.id).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.body, style.id).toContain('Müller-Łukasz');
      expect(res.body, style.id).toContain('Über {braces} & 50% of $x_1$');
    }
  });

  it('answers each style as HTML and text for the article page, cacheable', async () => {
    for (const style of CITATION_STYLES) {
      const res = await get(`/api/articles/${articleId}/citation/${style.id}`);
      expect(res.statusCode, style.id).toBe(200);
      // Kept by the server, with an ETag (decision 0018).
      expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
      expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      const body = res.json() as { id: string; label: string; edition: string; html: string; text: string };
      expect(body).toMatchObject({ id: style.id, label: style.label, edition: style.edition });
      expect(body.text, style.id).toContain('Über {braces} & 50% of $x_1$');
      // The HTML is escaped: the title's ampersand is an entity, and no tag but the allowed ones appears.
      expect(body.html, style.id).toContain('&amp; 50%');
      expect(body.html.replace(/<\/?(i|span|a)( href="[^"]*")?>/g, '')).not.toMatch(/[<>]/);
      // The same text as the plain-text format.
      const plain = await get(`/api/articles/${articleId}/citation?format=${style.id}`);
      expect(plain.body.trim()).toBe(body.text);
    }
  });

  it('follows each manual for a journal article', () => {
    const article = {
      id: 3,
      title: 'Rate limits in practice',
      abstract: 'A.',
      keywords: 'a, b',
      pages: '3-12',
      doi: '10.5555/abc.1',
      authors: [{ name: 'Meera Iyer' }, { name: 'Ludwig van Beethoven' }, { name: 'Chitra Rao' }],
      publication_date: '2025-03-15',
      volume_number: 1,
      issue_number: 2,
      url: 'http://journal.test/article/3',
    };
    const journal = {
      name: 'Journal of Tests',
      abbreviation: 'J Tests',
      issnOnline: '1234-5679',
      publisher: 'P',
      language: 'en',
    };
    const text = Object.fromEntries(formatCitations(article, journal).map((c) => [c.id, c.text]));
    expect(text).toEqual({
      apa: 'Iyer, M., van Beethoven, L., & Rao, C. (2025). Rate limits in practice. Journal of Tests, 1(2), 3–12. https://doi.org/10.5555/abc.1',
      mla: 'Iyer, Meera, et al. “Rate Limits in Practice.” Journal of Tests, vol. 1, no. 2, Mar. 2025, pp. 3–12, https://doi.org/10.5555/abc.1.',
      chicago:
        'Iyer, Meera, Ludwig van Beethoven, and Chitra Rao. 2025. “Rate Limits in Practice.” Journal of Tests 1 (2): 3–12. https://doi.org/10.5555/abc.1.',
      harvard:
        'Iyer, M., van Beethoven, L. and Rao, C. (2025) ‘Rate limits in practice’, Journal of Tests, 1(2), pp. 3–12. Available at: https://doi.org/10.5555/abc.1.',
      ieee: 'M. Iyer, L. van Beethoven, and C. Rao, “Rate limits in practice,” Journal of Tests, vol. 1, no. 2, pp. 3–12, Mar. 2025, doi: 10.5555/abc.1.',
      vancouver:
        'Iyer M, van Beethoven L, Rao C. Rate limits in practice. J Tests. 2025 Mar 15;1(2):3–12. doi:10.5555/abc.1',
    });
  });

  it('writes APA as the full APA style bundled with citation-js does, for every article we publish', () => {
    // Our APA (server/catalog/citation-styles.ts) covers journal articles in 2 KB of CSL; the bundled one covers
    // every kind of work and costs the processor about 90 MB and a second to compile. Same entries here.
    const names = [
      'Meera Iyer',
      'Ludwig van Beethoven',
      'Jean-Paul Sartre',
      'UNESCO',
      'Martin Luther King Jr.',
      'José Ñúñez-García',
      'Anna Maria de la Cruz',
      'Sukarno',
      'Zoë O’Brien',
    ];
    const cases: Record<string, unknown>[] = [];
    for (let n = 1; n <= 22; n++) {
      cases.push({
        authors: Array.from({ length: n }, (_, i) => ({
          name: `${names[i % names.length]}${i >= names.length ? ` ${i}` : ''}`,
        })),
      });
    }
    cases.push(
      { authors: [] },
      { title: 'Why does it fail? A question' },
      { title: 'Ends with a period.' },
      { title: TITLE },
      { doi: null },
      { pages: '7-7' },
      { volume_number: 12, issue_number: 3, pages: '101-1099' },
      { title: 'A <script>alert(1)</script> <i>title</i>', authors: [{ name: 'A <b>Bold</b> Name' }] },
    );
    const journal = {
      name: 'Journal of Tests',
      abbreviation: 'J Tests',
      issnOnline: '1234-5679',
      publisher: 'P',
      language: 'en',
    };
    for (const c of cases) {
      const article = {
        id: 3,
        title: 'Rate limits in practice',
        abstract: 'A.',
        keywords: 'a',
        pages: '3-12',
        doi: '10.5555/abc.1',
        authors: [{ name: 'Meera Iyer' }],
        publication_date: '2025-03-15',
        volume_number: 1,
        issue_number: 2,
        url: 'http://journal.test/article/3',
        ...c,
      } as Parameters<typeof articleCsl>[0];
      const cite = new Cite([articleCsl(article, journal)]);
      for (const format of ['html', 'text']) {
        const options = { lang: 'en-US', format, hyperlinks: true };
        expect(cite.format('bibliography', { ...options, template: 'colophon-apa' }), JSON.stringify(c)).toBe(
          cite.format('bibliography', { ...options, template: 'apa' }),
        );
      }
    }
  });

  it('escapes markup in the HTML it gives the page', () => {
    const [apa] = formatCitations(
      {
        id: 1,
        title: 'A <script>alert(1)</script> title',
        abstract: '',
        keywords: '',
        pages: '1-2',
        doi: null,
        authors: [{ name: 'A <b>Bold</b> Name' }],
        publication_date: '2025-01-01',
        volume_number: 1,
        issue_number: 1,
        url: 'http://journal.test/article/1',
      },
      { name: 'J', abbreviation: 'J', issnOnline: '', publisher: '', language: 'en' },
    );
    expect(apa.html).not.toContain('<script');
    expect(apa.html).not.toContain('<b>');
    expect(apa.html).toContain('&lt;script&gt;');
    expect(apa.html).toContain('<i>J</i>');
  });
});

describe('refusals', () => {
  it('answers 400 for an unknown format and 404 for an unknown or unpublished article', async () => {
    expect((await get(`/api/articles/${articleId}/citation?format=endnote`)).statusCode).toBe(400);
    expect((await get('/api/articles/999999/citation?format=ris')).statusCode).toBe(404);
    expect((await get('/api/articles/abc/citation')).statusCode).toBe(400);
    await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${plainId}/status`,
      headers: { authorization: `Bearer ${token}` },
      payload: { status: 'unpublished' },
    });
    expect((await get(`/api/articles/${plainId}/citation?format=bibtex`)).statusCode).toBe(404);
    expect((await get(`/api/articles/${plainId}/citation/apa`)).statusCode).toBe(404);
    expect((await get(`/api/articles/${articleId}/citation/bibtex`)).statusCode).toBe(400);
    expect((await get('/api/articles/999999/citation/apa')).statusCode).toBe(404);
  });
});
