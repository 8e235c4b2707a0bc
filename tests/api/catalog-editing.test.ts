import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../server/catalog/tables.ts';
import { createIssue, createVolume, publishArticle } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

/** Editing volumes, issues and articles after they exist (issue 4: the editorial dashboard). */

let t: TestContext;
let auth: Record<string, string>;
let volumeId: number;
let issueId: number;
let articleId: number;

const authors = JSON.stringify([
  { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
]);

const articleFields = (over: Record<string, string> = {}) => ({
  title: 'An article to edit',
  abstract: 'Its abstract.',
  keywords: 'editing, tests',
  pages: '1-10',
  doi: '10.5555/edit.001',
  issue_id: String(issueId),
  authors,
  ...over,
});

async function inject(method: 'PATCH' | 'POST' | 'GET', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function uploadArticle(over: Record<string, string> = {}) {
  const { title, abstract, keywords, pages, doi } = articleFields(over);
  return (await publishArticle(t, auth, { issueId, title, abstract, keywords, pages, doi, authors })).id;
}

async function replace(id: number, name: string) {
  const body = await multipart({}, { pdf: { name, data: fixture(name), type: 'application/pdf' } });
  return t.app.inject({
    method: 'POST',
    url: `/api/editor/articles/${id}/pdf`,
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

function publicIds(tree: { issues: { articles: { id: number }[] }[] }[]): number[] {
  return tree.flatMap((v) => v.issues.flatMap((i) => i.articles.map((a) => a.id)));
}

beforeAll(async () => {
  t = await createTestContext();
  auth = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  volumeId = (await createVolume(t, auth, { number: 71, year: 2025, title: 'Vol' })).id;
  await createVolume(t, auth, { number: 72, year: 2025, title: 'Other' });
  issueId = (await createIssue(t, auth, { volumeId, title: 'Iss', description: 'D' })).id;
  articleId = await uploadArticle();
  await uploadArticle({ doi: '10.5555/edit.002', title: 'A second article' });
});
afterAll(() => t?.close());

describe('PATCH /api/editor/volumes/:id', () => {
  it('edits a volume and records it', async () => {
    const res = await inject('PATCH', `/api/editor/volumes/${volumeId}`, {
      title: 'Renamed',
      volume_number: 73,
      year: 2024,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().volume).toMatchObject({
      id: volumeId,
      title: 'Renamed',
      volume_number: 73,
      year: 2024,
    });
    const audit = await inject('GET', '/api/editor/audit');
    expect(audit.body).toContain('volume.update');
  });
  it('refuses a taken number with 409, bad input with 400, an unknown volume with 404', async () => {
    const taken = await inject('PATCH', `/api/editor/volumes/${volumeId}`, {
      title: 'X',
      volume_number: 72,
      year: 2024,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.volume_number).toBe('Volume 72 already exists.');
    const bad = await inject('PATCH', `/api/editor/volumes/${volumeId}`, {
      title: '',
      volume_number: 74,
      year: 1800,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ title: 'Title is required.' });
    const missing = await inject('PATCH', '/api/editor/volumes/999999', {
      title: 'X',
      volume_number: 99,
      year: 2024,
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('PATCH /api/editor/issues/:id', () => {
  it('edits an issue; 400 and 404 as for volumes', async () => {
    const res = await inject('PATCH', `/api/editor/issues/${issueId}`, {
      title: 'New title',
      description: 'New words',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().issue).toMatchObject({
      id: issueId,
      title: 'New title',
      description: 'New words',
      issue_number: 1,
    });
    expect((await inject('PATCH', `/api/editor/issues/${issueId}`, { title: 'x' })).statusCode).toBe(400);
    expect(
      (await inject('PATCH', '/api/editor/issues/999999', { title: 'x', description: 'y' })).statusCode,
    ).toBe(404);
  });
});

describe('PATCH /api/editor/articles/:id', () => {
  it('edits metadata and authors', async () => {
    const res = await inject(
      'PATCH',
      `/api/editor/articles/${articleId}`,
      articleFields({
        title: 'An edited article',
        pages: '3-9',
        authors: JSON.stringify([
          { name: 'Tom Brandt', email: 'tom@example.org', affiliation: 'TU Delft', superscript: '1' },
          {
            name: 'Meera Iyer',
            email: 'meera@example.org',
            affiliation: 'Anna University',
            superscript: '2',
          },
        ]),
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const article = res.json().article;
    expect(article.title).toBe('An edited article');
    expect(article.authors.map((a: { name: string }) => a.name)).toEqual(['Tom Brandt', 'Meera Iyer']);
  });
  it('refuses a DOI another article has (409), bad input (400), an unknown article (404)', async () => {
    const taken = await inject(
      'PATCH',
      `/api/editor/articles/${articleId}`,
      articleFields({ doi: '10.5555/EDIT.002' }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.doi).toContain('already exists');
    const bad = await inject('PATCH', `/api/editor/articles/${articleId}`, articleFields({ pages: 'ten' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.pages).toBe('Pages must be written first-last, e.g. 1-10.');
    expect(
      (await inject('PATCH', '/api/editor/articles/999999', articleFields({ doi: '10.5555/x.1' })))
        .statusCode,
    ).toBe(404);
  });
});

describe('POST /api/editor/articles/:id/pdf', () => {
  it('replaces the PDF', async () => {
    const res = await replace(articleId, 'twocolumn.pdf');
    expect(res.statusCode, res.body).toBe(200);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/articles/${articleId}/download`,
      headers: auth,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(fixture('twocolumn.pdf'))).toBe(true);
  });
  it('refuses what is not a PDF (415) and an unknown article (404)', async () => {
    expect((await replace(articleId, 'png-named.pdf')).statusCode).toBe(415);
    expect((await replace(999999, 'manuscript.pdf')).statusCode).toBe(404);
  });
});

describe('POST /api/editor/articles/:id/status', () => {
  it('unpublishing hides the article from readers; republishing brings it back', async () => {
    const off = await inject('POST', `/api/editor/articles/${articleId}/status`, { status: 'unpublished' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().article.status).toBe('unpublished');
    const tree = await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' });
    expect(publicIds(tree.json())).not.toContain(articleId);
    const one = await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${articleId}` });
    expect(one.statusCode).toBe(404);
    expect((await inject('GET', '/api/editor/audit')).body).toContain('article.unpublish');

    const on = await inject('POST', `/api/editor/articles/${articleId}/status`, { status: 'published' });
    expect(on.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' });
    expect(publicIds(again.json())).toContain(articleId);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${articleId}` })).statusCode,
    ).toBe(200);
  });
  it('refuses an unknown status (400) and an unknown article (404)', async () => {
    expect(
      (await inject('POST', `/api/editor/articles/${articleId}/status`, { status: 'gone' })).statusCode,
    ).toBe(400);
    expect(
      (await inject('POST', '/api/editor/articles/999999/status', { status: 'published' })).statusCode,
    ).toBe(404);
  });
});

describe('the last-changed time that harvesters, the sitemap and feeds read', () => {
  const LONG_AGO = new Date('2020-01-01T00:00:00Z');
  async function age() {
    await t.services.db.update(articles).set({ updatedAt: LONG_AGO }).where(eq(articles.id, articleId));
  }
  async function moved() {
    const [row] = await t.services.db
      .select({ at: articles.updatedAt })
      .from(articles)
      .where(eq(articles.id, articleId));
    return row.at.getTime() > LONG_AGO.getTime();
  }
  it('moves with every edit of the article, its issue or its volume', async () => {
    const edits: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['article metadata', () => inject('PATCH', `/api/editor/articles/${articleId}`, articleFields())],
      [
        'article status',
        () => inject('POST', `/api/editor/articles/${articleId}/status`, { status: 'unpublished' }),
      ],
      [
        'article status back',
        () => inject('POST', `/api/editor/articles/${articleId}/status`, { status: 'published' }),
      ],
      ['article PDF', () => replace(articleId, 'manuscript.pdf')],
      [
        'issue',
        () => inject('PATCH', `/api/editor/issues/${issueId}`, { title: 'Retitled', description: 'D' }),
      ],
      [
        'volume',
        () =>
          inject('PATCH', `/api/editor/volumes/${volumeId}`, { title: 'Vol', volume_number: 75, year: 2025 }),
      ],
    ];
    for (const [what, edit] of edits) {
      await age();
      const res = await edit();
      expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
      expect(await moved(), what).toBe(true);
    }
  });
});
