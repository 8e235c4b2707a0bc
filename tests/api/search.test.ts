import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_LIMITS, SEARCH_MESSAGES } from '../../common/search.ts';
import type { SearchResponse, SearchResult } from '../../server/search/schemas.ts';
import { textPdf } from '../../server/similarity/testing.ts';
import { createIssue, createVolume, publishArticle } from '../../server/testing/factories.ts';
import { createTestContext, multipart, type TestContext } from '../../server/testing/harness.ts';

/** GET /api/search: full-text search of the published articles (issue 6), on PGlite and PostgreSQL. */

let t: TestContext;
let auth: Record<string, string>;
const ids: Record<string, number> = {};
let issue2: number;
let doiCounter = 0;

const FILLER =
  'The evaluation used standard instruments and the measurements were repeated on three separate days under comparable conditions.';

async function inject(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function upload(
  issueId: number,
  fields: { title: string; abstract: string; keywords: string; authors?: string[] },
  body: string[],
) {
  const pdf = await textPdf(body, { title: fields.title.replace(/[^\x20-\x7e]/g, '') });
  const article = await publishArticle(t, auth, {
    issueId,
    title: fields.title,
    abstract: fields.abstract,
    keywords: fields.keywords,
    pages: '1-4',
    doi: `10.5555/search.${++doiCounter}`,
    authors: (fields.authors ?? ['Asha Menon']).map((name, i) => ({
      name,
      email: `a${i}@example.org`,
      affiliation: 'Test Institute',
      superscript: String(i + 1),
    })),
    pdf: { name: 'a.pdf', data: pdf, type: 'application/pdf' },
  });
  return article.id;
}

/** Extracts every article PDF the similarity engine has not read yet (what start-up does), and waits. */
async function indexBodies() {
  await t.services.similarity.staleArticles();
  await t.runJobs();
}

async function search(query: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: `/api/search?${new URLSearchParams(query)}` });
  return {
    status: res.statusCode,
    body: res.json() as SearchResponse & { message?: string; errors?: Record<string, string> },
  };
}

const titles = (r: SearchResponse) => r.results.map((x) => x.id);
const marked = (segments: SearchResult['snippet']) =>
  segments.filter((s) => s.match).map((s) => s.text.toLowerCase());

beforeAll(async () => {
  // Article bodies reach the index through the similarity engine's background queue.
  t = await createTestContext({ SIMILARITY_BACKGROUND: 'true' });
  auth = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const v1 = (await createVolume(t, auth, { number: 81, year: 2024 })).id;
  const v2 = (await createVolume(t, auth, { number: 82, year: 2025 })).id;
  const i1 = (await createIssue(t, auth, { volumeId: v1, title: 'Issue 1', description: 'First.' })).id;
  issue2 = (await createIssue(t, auth, { volumeId: v2, title: 'Issue 1', description: 'First.' })).id;
  const i2 = issue2;

  ids.titleMatch = await upload(
    i1,
    {
      title: 'Lattice Cryptography for Embedded Devices',
      abstract: 'We study key exchange on microcontrollers in engineering practice.',
      keywords: 'post-quantum, microcontrollers',
    },
    [FILLER, 'Key sizes and timings are reported for each device.'],
  );
  ids.bodyMatch = await upload(
    i1,
    {
      title: 'Thermal Modelling of Road Bridges',
      abstract: 'Temperature gradients in concrete decks, an engineering study.',
      keywords: 'bridges, thermal load',
    },
    [
      FILLER,
      ...Array.from(
        { length: 12 },
        (_, k) => `The lattice girder number ${k + 1} was instrumented with thermocouples near the bearings.`,
      ),
      'A rare word appears only here: zyxquartzite appears in the body of this paper and nowhere else.',
    ],
  );
  ids.author = await upload(
    i2,
    {
      title: 'Soil Moisture Sensing with Capacitive Probes',
      abstract: 'Field trials of low-cost probes, an engineering report.',
      keywords: 'agriculture, sensors',
      authors: ['Chidi Okonkwo', 'Lena Fischer'],
    },
    [FILLER],
  );
  ids.nonLatin = await upload(
    i2,
    {
      title: 'Multilingual Corpora for Speech Engineering',
      abstract:
        'Recordings in Greek (ελληνικά), Russian (Привет мир) and Tamil (தமிழ்) for engineering tests.',
      keywords: 'speech, corpora',
    },
    [FILLER],
  );
  ids.unpublished = await upload(
    i2,
    {
      title: 'Withdrawn Notes on Photonic Engineering',
      abstract: 'Photonic crystals, an engineering note.',
      keywords: 'photonics',
    },
    [FILLER],
  );
  await inject('POST', `/api/editor/articles/${ids.unpublished}/status`, { status: 'unpublished' });
  await t.services.db.execute(
    sql`update articles set article_type = 'Review Article' where id = ${ids.author}`,
  );
  await t.services.db.execute(
    sql`update articles set publication_date = '2024-05-01' where id in (${ids.titleMatch}, ${ids.bodyMatch})`,
  );
  await t.services.db.execute(
    sql`update articles set publication_date = '2025-03-01' where id in (${ids.author}, ${ids.nonLatin}, ${ids.unpublished})`,
  );
  await indexBodies();
}, 120_000);

afterAll(async () => {
  await t.services.similarity.close();
  await t.close();
});

describe('finding articles', () => {
  it('finds a word in the title, keywords, authors and abstract, in any inflection', async () => {
    expect(titles((await search({ q: 'device' })).body)).toEqual([ids.titleMatch]);
    expect(titles((await search({ q: 'thermal load' })).body)).toEqual([ids.bodyMatch]);
    expect(titles((await search({ q: 'Okonkwo' })).body)).toEqual([ids.author]);
    expect(titles((await search({ q: 'probe' })).body)).toEqual([ids.author]);
  });

  it('finds a word that appears only in the PDF, and says the snippet comes from the full text', async () => {
    const { status, body } = await search({ q: 'zyxquartzite' });
    expect(status).toBe(200);
    expect(titles(body)).toEqual([ids.bodyMatch]);
    const [hit] = body.results;
    expect(hit.snippet_source).toBe('full_text');
    expect(marked(hit.snippet)).toContain('zyxquartzite');
    expect(hit).toMatchObject({
      volume_number: 81,
      issue_number: 1,
      year: 2024,
      url: `http://journal.test/article/${ids.bodyMatch}`,
    });
    expect(hit.authors).toEqual(['Asha Menon']);
  });

  it('ranks a title match above a full-text match, even one repeated many times', async () => {
    const { body } = await search({ q: 'lattice' });
    expect(titles(body)).toEqual([ids.titleMatch, ids.bodyMatch]);
    expect(body.results[0].rank).toBeGreaterThan(body.results[1].rank);
    expect(marked(body.results[0].title_highlighted)).toEqual(['lattice']);
    expect(body.results[1].title_highlighted).toEqual([
      { text: 'Thermal Modelling of Road Bridges', match: false },
    ]);
    expect(marked(body.results[1].snippet).every((w) => w === 'lattice')).toBe(true);
  });

  it('leaves unpublished articles out, and brings them back when republished', async () => {
    expect((await search({ q: 'photonic' })).body.total).toBe(0);
    await inject('POST', `/api/editor/articles/${ids.unpublished}/status`, { status: 'published' });
    expect(titles((await search({ q: 'photonic' })).body)).toEqual([ids.unpublished]);
    await inject('POST', `/api/editor/articles/${ids.unpublished}/status`, { status: 'unpublished' });
    expect((await search({ q: 'photonic' })).body.total).toBe(0);
  });

  it('follows edits of the title, abstract, keywords and authors at once', async () => {
    const res = await inject('PATCH', `/api/editor/articles/${ids.nonLatin}`, {
      title: 'Multilingual Corpora for Speech Engineering, Revised',
      abstract:
        'Recordings in Greek (ελληνικά), Russian (Привет мир) and Tamil (தமிழ்) for engineering tests. Now with dialects.',
      keywords: 'speech, corpora, dialectology',
      pages: '1-4',
      doi: '10.5555/search.edited',
      issue_id: String(issue2),
      authors: JSON.stringify([
        { name: 'Ravi Subramaniam', email: 'r@example.org', affiliation: 'X', superscript: '1' },
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(titles((await search({ q: 'dialectology' })).body)).toEqual([ids.nonLatin]);
    expect(titles((await search({ q: 'Subramaniam' })).body)).toEqual([ids.nonLatin]);
    expect((await search({ q: 'Asha Menon revised' })).body.total).toBe(0);
  });

  it('follows a replaced PDF once the similarity engine has read it', async () => {
    const pdf = await textPdf([FILLER, 'The replacement text mentions quinquagenarian instruments only.']);
    const form = await multipart({}, { pdf: { name: 'new.pdf', data: pdf, type: 'application/pdf' } });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${ids.author}/pdf`,
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    await indexBodies();
    expect(titles((await search({ q: 'quinquagenarian' })).body)).toEqual([ids.author]);
  });
});

describe('snippets', () => {
  it('are plain-text segments: markup stored in an abstract comes back as text, never as HTML', async () => {
    await t.services.db.execute(
      sql`update articles set abstract = abstract || ' Marked <img src=x onerror=alert(1)> as bold & "quoted".' where id = ${ids.author}`,
    );
    const { body } = await search({ q: 'bold' });
    const [hit] = body.results;
    expect(hit.snippet_source).toBe('abstract');
    const text = hit.snippet.map((s) => s.text).join('');
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('& "quoted');
    // A fragment from inside the abstract says so.
    expect(text).toMatch(/^… .* …$/);
    expect(marked(hit.snippet)).toEqual(['bold']);
    for (const s of [...hit.snippet, ...hit.title_highlighted]) expect(s.text).not.toMatch(/\p{Cc}/u);
  });
});

describe('filters and pages', () => {
  it('filters by volume, year and article type', async () => {
    const all = (await search({ q: 'engineering' })).body;
    expect(new Set(titles(all))).toEqual(new Set([ids.titleMatch, ids.bodyMatch, ids.author, ids.nonLatin]));
    expect(new Set(titles((await search({ q: 'engineering', volume: '81' })).body))).toEqual(
      new Set([ids.titleMatch, ids.bodyMatch]),
    );
    expect(new Set(titles((await search({ q: 'engineering', year: '2025' })).body))).toEqual(
      new Set([ids.author, ids.nonLatin]),
    );
    expect(titles((await search({ q: 'engineering', type: 'review article' })).body)).toEqual([ids.author]);
    expect(titles((await search({ q: 'engineering', volume: '82', type: 'Research Article' })).body)).toEqual(
      [ids.nonLatin],
    );
    const none = (await search({ q: 'engineering', volume: '99' })).body;
    expect(none).toMatchObject({ total: 0, results: [], hint: SEARCH_MESSAGES.noResultsWithFilters });
    // Blank filters (a form's "All") are no filters.
    expect((await search({ q: 'engineering', volume: '', year: '', type: '' })).body.total).toBe(4);
  });

  it('pages through the results without repeating or losing any', async () => {
    const first = (await search({ q: 'engineering', size: '3' })).body;
    const second = (await search({ q: 'engineering', size: '3', page: '2' })).body;
    expect(first).toMatchObject({ total: 4, page: 1, size: 3, pages: 2 });
    expect(first.results).toHaveLength(3);
    expect(second.results).toHaveLength(1);
    expect(new Set([...titles(first), ...titles(second)]).size).toBe(4);
    const beyond = (await search({ q: 'engineering', size: '3', page: '3' })).body;
    expect(beyond).toMatchObject({ total: 4, page: 3, pages: 2, results: [] });
  });

  it('refuses invalid filters and pages with a message per field', async () => {
    for (const [query, field, message] of [
      [{ q: 'x', volume: 'abc' }, 'volume', SEARCH_MESSAGES.badVolume],
      [{ q: 'x', volume: '0' }, 'volume', SEARCH_MESSAGES.badVolume],
      [{ q: 'x', year: '25' }, 'year', SEARCH_MESSAGES.badYear],
      [{ q: 'x', page: '0' }, 'page', SEARCH_MESSAGES.badPage],
      [{ q: 'x', page: '1.5' }, 'page', SEARCH_MESSAGES.badPage],
      [{ q: 'x', size: '51' }, 'size', SEARCH_MESSAGES.badSize],
      [{ q: 'x', type: 'y'.repeat(101) }, 'type', SEARCH_MESSAGES.badType],
    ] as const) {
      const { status, body } = await search(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.errors?.[field]).toBe(message);
    }
  });
});

describe('odd queries answer sensibly, never 500', () => {
  it('an empty or blank query is a 400 that says what to do', async () => {
    for (const q of ['', '   ', '\t\n']) {
      const { status, body } = await search({ q });
      expect(status).toBe(400);
      expect(body.message).toBe(SEARCH_MESSAGES.emptyQuery);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/search' });
    expect(res.statusCode).toBe(400);
  });

  it('a query over the limit is a 400 naming the limit; one at the limit is searched', async () => {
    const long = await search({ q: 'a'.repeat(10_000) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe(SEARCH_MESSAGES.queryTooLong);
    expect(long.body.message).toContain(String(SEARCH_LIMITS.maxQueryLength));
    const atLimit = await search({ q: `lattice ${'x'.repeat(SEARCH_LIMITS.maxQueryLength - 8)}` });
    expect(atLimit.status).toBe(200);
  });

  it('only common words: no results and a hint', async () => {
    for (const q of ['the of and', '!!!', '😀😀', '-', '()', ':*']) {
      const { status, body } = await search({ q });
      expect(status, q).toBe(200);
      expect(body, q).toMatchObject({ total: 0, results: [], hint: SEARCH_MESSAGES.onlyCommonWords });
    }
  });

  it('phrases, exclusions, OR and stray operators and punctuation', async () => {
    const cases: [string, number[]][] = [
      ['"lattice cryptography"', [ids.titleMatch]],
      ['"cryptography lattice"', []],
      ['"lattice cryptography', [ids.titleMatch]],
      ['lattice -cryptography', [ids.bodyMatch]],
      ['okonkwo OR zyxquartzite', [ids.author, ids.bodyMatch]],
      ['lattice & cryptography', [ids.titleMatch]],
      ['lattice | okonkwo', []],
      ['!lattice cryptography', [ids.titleMatch]],
      ['lattic:*', [ids.titleMatch, ids.bodyMatch]],
      ['(lattice) AND (cryptography', [ids.titleMatch]],
      ['lattice\\ \\cryptography\\', [ids.titleMatch]],
      ["lattice'; drop table articles; --", []],
      ['lattice😀 cryptography', [ids.titleMatch]],
      ['"""', []],
      ["'", []],
    ];
    for (const [q, expected] of cases) {
      const { status, body } = await search({ q });
      expect(status, q).toBe(200);
      if (q === 'okonkwo OR zyxquartzite') expect(new Set(titles(body)), q).toEqual(new Set(expected));
      else if (expected.length) expect(titles(body), q).toEqual(expected);
      else expect(body.results.length <= 1, q).toBe(true);
    }
    // A NUL cannot be stored, so it is refused beside its field, as everywhere (a lone surrogate cannot be
    // sent in an address: it arrives as U+FFFD, which is text).
    for (const query of [{ q: 'lattice\u0000cryptography' }, { q: 'lattice', type: '\u0000' }] as Record<
      string,
      string
    >[]) {
      const { status, body } = await search(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(Object.values(body.errors ?? {})[0]).toMatch(/cannot be stored/);
    }
    expect((await search({ q: '\ud800lattice' })).status).toBe(200);
    // The SQL-ish text was only text.
    expect((await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' })).statusCode).toBe(
      200,
    );
  });

  it('non-Latin scripts', async () => {
    for (const q of ['привет', 'ελληνικά', 'தமிழ்', 'Привет мир']) {
      const { status, body } = await search({ q });
      expect(status, q).toBe(200);
      expect(titles(body), q).toEqual([ids.nonLatin]);
    }
    expect((await search({ q: '中文 日本語' })).body.total).toBe(0);
  });

  it('a repeated parameter is a 400, not a crash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/search?q=a&q=b' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SEARCH_MESSAGES.badText);
  });
});

describe('the index', () => {
  it('is in a GIN index, and is rebuilt for articles that existed before the migration', async () => {
    const r = (await t.services.db.execute(
      sql`select indexdef from pg_indexes where indexname = 'search_documents_document_idx'`,
    )) as unknown as { rows: { indexdef: string }[] };
    expect(r.rows[0].indexdef).toMatch(/USING gin/);
    const count = (await t.services.db.execute(
      sql`select (select count(*) from articles)::int as articles, (select count(*) from search_documents)::int as indexed`,
    )) as unknown as { rows: { articles: number; indexed: number }[] };
    expect(count.rows[0].indexed).toBe(count.rows[0].articles);
  });

  it("drops an article's full text when the similarity engine removes it", async () => {
    expect((await search({ q: 'zyxquartzite' })).body.total).toBe(1);
    await t.services.similarity.store.remove('article', ids.bodyMatch);
    expect((await search({ q: 'zyxquartzite' })).body.total).toBe(0);
    expect(titles((await search({ q: 'thermal bridges' })).body)).toEqual([ids.bodyMatch]);
    await t.services.similarity.indexArticle(ids.bodyMatch);
    expect((await search({ q: 'zyxquartzite' })).body.total).toBe(1);
  });

  it('is public, and documented in the OpenAPI description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/search'].get;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'page',
      'q',
      'size',
      'type',
      'volume',
      'year',
    ]);
    expect(op.responses['200'].content['application/json'].schema.properties.results).toBeDefined();
  });
});
