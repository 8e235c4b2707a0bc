import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../server/catalog/tables.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

let t: TestContext;
let auth: Record<string, string>;
let issueId: number;
let volumeId: number;

beforeAll(async () => {
  t = await createTestContext({ MAX_ARTICLE_PDF_SIZE: '200KB' });
  auth = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
});
afterAll(() => t?.close());

const articleFields = (over: Record<string, string> = {}) => ({
  title: 'Federated anomaly detection on LoRa sensor networks',
  abstract: 'We study anomaly detection across gateways.',
  keywords: 'IoT, LoRa, anomaly detection, federated learning',
  pages: '11-20',
  doi: '10.5555/cjei.test.001',
  issue_id: String(issueId),
  authors: JSON.stringify([
    { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
    { name: 'Tom Brandt', email: 'tom@example.org', affiliation: 'TU Delft', superscript: '2' },
  ]),
  ...over,
});

async function upload(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const body = await multipart(fields, file ? { pdf: { ...file, type: 'application/pdf' } } : {});
  return t.app.inject({
    method: 'POST',
    url: '/api/articles/admin/upload',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

describe('volumes and issues', () => {
  it('creates a volume and numbers its issues in order', async () => {
    const vol = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: auth,
      payload: { title: 'Volume 1', volume_number: 1, year: 2025 },
    });
    expect(vol.statusCode).toBe(201);
    expect(vol.json().volume).toEqual({
      id: expect.any(Number),
      title: 'Volume 1',
      volume_number: 1,
      year: 2025,
    });
    volumeId = vol.json().volume.id;
    const numbers = [];
    for (const title of ['Issue 1', 'Issue 2']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/editor/issue',
        headers: auth,
        payload: { title, description: `${title} of the volume`, volume_id: volumeId },
      });
      expect(res.statusCode).toBe(201);
      numbers.push(res.json().issue.issue_number);
      issueId ??= res.json().issue.id;
    }
    expect(numbers).toEqual([1, 2]);
  });

  it('validates volumes and issues with the spec rules', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: auth,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toMatchObject({
      title: 'Title is required.',
      volume_number: expect.any(String),
      year: expect.any(String),
    });
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: auth,
      payload: { title: 'Again', volume_number: 1, year: 2025 },
    });
    expect(dup.statusCode).toBe(409);
    const words = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: auth,
      payload: { title: 'X', volume_number: 'two', year: 2025 },
    });
    expect(words.statusCode).toBe(400);
    const noVolume = await t.app.inject({
      method: 'POST',
      url: '/api/editor/issue',
      headers: auth,
      payload: { title: 'I', description: 'D', volume_id: 424242 },
    });
    expect(noVolume.statusCode).toBe(400);
    expect(noVolume.json().errors.volume_id).toBe('That volume does not exist.');
    const issueMissing = await t.app.inject({
      method: 'POST',
      url: '/api/editor/issue',
      headers: auth,
      payload: { volume_id: volumeId },
    });
    expect(issueMissing.json().errors).toMatchObject({
      title: 'Title is required.',
      description: 'Description is required.',
    });
  });
});

describe('article upload', () => {
  it('publishes an article with its authors and PDF, visible to readers at once', async () => {
    const ok = await upload(articleFields(), { name: 'paper.pdf', data: smallPdf() });
    expect(ok.statusCode, ok.body).toBe(201);
    const article = ok.json().article;
    expect(article).toMatchObject({
      title: 'Federated anomaly detection on LoRa sensor networks',
      pages: '11-20',
      doi: '10.5555/cjei.test.001',
      issue_id: issueId,
      volume_title: 'Volume 1',
      issue_title: 'Issue 1',
      authors: [
        { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
        { name: 'Tom Brandt', email: 'tom@example.org', affiliation: 'TU Delft', superscript: '2' },
      ],
      public_pdf_url: `http://journal.test/api/articles/${article.id}/download`,
    });

    const tree = (await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' })).json();
    const listed = tree[0].issues[0].articles[0];
    expect(Object.keys(tree[0])).toEqual(
      expect.arrayContaining(['id', 'title', 'volume_number', 'year', 'issues']),
    );
    expect(Object.keys(tree[0].issues[0])).toEqual(
      expect.arrayContaining(['id', 'title', 'description', 'volume_id', 'issue_number', 'articles']),
    );
    expect(listed.id).toBe(article.id);
    expect(tree[0].issues[1].articles).toEqual([]);

    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${article.id}` })
    ).json();
    for (const key of [
      'id',
      'title',
      'abstract',
      'keywords',
      'pages',
      'doi',
      'issue_id',
      'authors',
      'public_pdf_url',
      'pdf_url',
      'monyr',
      'year',
      'publication_date',
      'volume_title',
      'issue_title',
    ]) {
      expect(detail, key).toHaveProperty(key);
    }
    expect(detail.publication_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const papers = (await t.app.inject({ method: 'GET', url: '/api/papers' })).json();
    expect(papers).toContainEqual({
      id: article.id,
      title: article.title,
      pdfPath: `/api/articles/${article.id}/download`,
    });
  });

  it('requires every field, with a message for each', async () => {
    const res = await upload({}, { name: 'a.pdf', data: smallPdf() });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(
      expect.arrayContaining(['title', 'abstract', 'keywords', 'pages', 'doi', 'issue_id', 'authors']),
    );
    const noFile = await upload(articleFields({ doi: '10.5555/x.nofile' }));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors.pdf).toBe('Please choose the article PDF.');
    const badAuthors = await upload(articleFields({ authors: JSON.stringify([{ name: 'X' }]) }), {
      name: 'a.pdf',
      data: smallPdf(),
    });
    expect(badAuthors.json().errors).toMatchObject({
      'authors.0.email': 'Author email is required.',
      'authors.0.affiliation': 'Author affiliation is required.',
    });
    const notJson = await upload(articleFields({ authors: 'Meera, Tom' }), {
      name: 'a.pdf',
      data: smallPdf(),
    });
    expect(notJson.json().errors.authors).toBe('Authors must be a JSON list of authors.');
    const pages = await upload(articleFields({ pages: '20-11' }), { name: 'a.pdf', data: smallPdf() });
    expect(pages.statusCode).toBe(400);
    const doi = await upload(articleFields({ doi: 'not-a-doi' }), { name: 'a.pdf', data: smallPdf() });
    expect(doi.json().errors.doi).toMatch(/DOI must look like/);
    const noIssue = await upload(articleFields({ issue_id: '99999', doi: '10.5555/x.noissue' }), {
      name: 'a.pdf',
      data: smallPdf(),
    });
    expect(noIssue.json().errors.issue_id).toBe('That issue does not exist.');
  });

  it.each([
    ['png-named.pdf', 415, /must be a PDF/],
    ['empty.pdf', 400, /empty/],
    ['truncated.pdf', 422, /damaged or incomplete/],
    ['encrypted.pdf', 422, /password-protected/],
    ['manuscript.docx', 415, /must be a PDF/],
    ['manuscript.pdf', 413, /too large: the limit is 200 KB/],
  ])('refuses %s with %i and leaves no row and no file', async (name, status, message) => {
    const filesBefore = (await t.blobFiles()).length;
    const rowsBefore = (await t.services.db.select().from(storedFiles)).length;
    const articlesBefore = (await t.services.db.select().from(articles)).length;
    const data = name === 'manuscript.pdf' ? Buffer.concat(Array(5).fill(fixture(name))) : fixture(name);
    const res = await upload(articleFields({ doi: `10.5555/x.${name}` }), {
      name: name.replace(/\.\w+$/, '.pdf'),
      data,
    });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(message);
    expect((await t.blobFiles()).length).toBe(filesBefore);
    expect((await t.services.db.select().from(storedFiles)).length).toBe(rowsBefore);
    expect((await t.services.db.select().from(articles)).length).toBe(articlesBefore);
  });

  it('refuses a DOI already in use with 409', async () => {
    const res = await upload(articleFields({ doi: '10.5555/CJEI.TEST.001' }), {
      name: 'a.pdf',
      data: smallPdf(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.doi).toMatch(/already exists/);
  });

  it('rolls back the file when the database write fails after it was stored', async () => {
    const filesBefore = (await t.blobFiles()).length;
    const original = t.services.audit.record.bind(t.services.audit);
    t.services.audit.record = async () => {
      throw new Error('simulated database failure');
    };
    try {
      const unique = Buffer.concat([smallPdf(), Buffer.from(`\n% unique ${Date.now()}\n%%EOF\n`)]);
      const res = await upload(articleFields({ doi: '10.5555/x.rollback' }), { name: 'a.pdf', data: unique });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toMatch(/simulated/);
    } finally {
      t.services.audit.record = original;
    }
    expect((await t.blobFiles()).length).toBe(filesBefore);
    const [row] = (await t.services.db.select().from(articles)).filter((a) => a.doi === '10.5555/x.rollback');
    expect(row).toBeUndefined();
  });
});

describe('reading', () => {
  it('answers 404 for unknown articles and 400 for ids that are not numbers', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/articles/public/article/999999' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/articles/public/article/abc' })).statusCode).toBe(
      400,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/articles/public/article/1e999' })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/articles/999999/download', headers: auth })).statusCode,
    ).toBe(404);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/No API route/);
  });

  it('counts the issues of each volume and the articles of each issue', async () => {
    const vols = (await t.app.inject({ method: 'GET', url: '/api/editor/volumes', headers: auth })).json();
    expect(vols.find((v: { id: number }) => v.id === volumeId).issue_count).toBe(2);
    const iss = (await t.app.inject({ method: 'GET', url: '/api/editor/issues', headers: auth })).json();
    expect(iss.find((i: { id: number }) => i.id === issueId).article_count).toBe(1);
    expect(iss.find((i: { id: number }) => i.id !== issueId).article_count).toBe(0);
  });

  it('pages the editor article list and reports the total', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/editor/articles?limit=1&offset=0',
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/editor/articles?limit=0', headers: auth })).statusCode,
    ).toBe(400);
  });
});

/** The real manuscript PDF is 44 KB; under the 200 KB limit of this file's configuration. */
function smallPdf(): Buffer {
  return fixture('manuscript.pdf');
}

describe('GET /api/articles/public/list', () => {
  it('gives the published articles a page at a time, newest first, each as the article route gives it', async () => {
    const tree = (await t.app.inject({ method: 'GET', url: '/api/articles/public/articles' })).json();
    const all = tree.flatMap((v: { issues: { articles: { id: number }[] }[] }) =>
      v.issues.flatMap((i) => i.articles),
    );
    expect(all.length).toBeGreaterThan(0);
    const first = (await t.app.inject({ method: 'GET', url: '/api/articles/public/list?size=1' })).json();
    expect(first).toMatchObject({ page: 1, size: 1, total: all.length, pages: all.length });
    expect(first.articles).toHaveLength(1);
    const one = (
      await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${first.articles[0].id}` })
    ).json();
    expect(first.articles[0]).toEqual(one);
    const seen = new Set<number>();
    for (let page = 1; page <= first.pages; page++) {
      const res = (
        await t.app.inject({ method: 'GET', url: `/api/articles/public/list?size=1&page=${page}` })
      ).json();
      for (const a of res.articles) seen.add(a.id);
    }
    expect(seen.size).toBe(all.length);
    const past = (
      await t.app.inject({ method: 'GET', url: `/api/articles/public/list?page=${all.length + 5}` })
    ).json();
    expect(past.articles).toEqual([]);
  });

  it('refuses a page or size that is not a whole number in range, with the field', async () => {
    for (const query of ['page=0', 'page=abc', 'size=101', 'size=0', 'size=1.5', 'page=-1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/articles/public/list?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), query).toEqual([query.split('=')[0]]);
    }
  });
});
