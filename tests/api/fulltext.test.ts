import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptedDocx } from '../../server/files/testing.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';
import { KNOWN } from '../fixtures/fulltext/manuscripts.ts';
import { validateWithSchema } from './discovery-helpers.ts';

/** Issue 16 through HTTP: a Word file converted at publishing, its problems, alt text, the JATS and figures. */

let t: TestContext;
let author: Record<string, string>;
let editor: Record<string, string>;
let issueId: number;
const article = readFileSync(new URL('../fixtures/fulltext/article.docx', import.meta.url));

beforeAll(async () => {
  t = await createTestContext();
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
  const vol = await t.app.inject({
    method: 'POST',
    url: '/api/editor/volume',
    headers: editor,
    payload: { title: 'Volume 4', volume_number: 4, year: 2026 },
  });
  const issue = await t.app.inject({
    method: 'POST',
    url: '/api/editor/issue',
    headers: editor,
    payload: { title: 'Issue 1', description: 'Spring', volume_id: vol.json().volume.id },
  });
  issueId = issue.json().issue.id;
});
afterAll(() => t?.close());

async function accepted(title = KNOWN.title): Promise<number> {
  const body = await multipart(
    {
      title,
      articleType: 'Research Article',
      keywords: KNOWN.keywords,
      abstract: KNOWN.abstract,
      authors: JSON.stringify(KNOWN.authors.map((x) => ({ ...x, superscript: '' }))),
    },
    { submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') } },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/submission/submit',
    headers: { ...author, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  for (const status of ['under_review', 'accepted']) {
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/decision`,
      headers: editor,
      payload: { status, message: 'Moved on.', confirm: ['accept-without-review'] },
    });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  return id;
}

/** Publishes the submission into the test issue with these fields (alt-N among them). */
async function publish(id: number, fields: Record<string, string>) {
  const pub = await multipart({ issue_id: String(issueId), ...fields });
  return t.app.inject({
    method: 'POST',
    url: `/api/editor/submissions/${id}/publish`,
    headers: { ...editor, ...pub.headers },
    payload: pub.payload,
  });
}

async function upload(url: string, name: string, data: Buffer, fields: Record<string, string> = {}) {
  const body = await multipart(fields, { word: { name, data } });
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...editor, ...body.headers },
    payload: body.payload,
  });
}

describe('a submission published with its Word file', () => {
  let id: number;
  let articleId: number;

  it('converts the Word file and lists what needs a person', async () => {
    id = await accepted();
    const res = await upload(`/api/editor/submissions/${id}/fulltext`, 'final.docx', article);
    expect(res.statusCode, res.body).toBe(201);
    const ft = res.json().fulltext;
    expect(ft.source).toBe('final.docx');
    expect(ft.ready).toBe(false);
    expect(ft.problems.map((p: { kind: string }) => p.kind)).toEqual(['front', 'alt', 'doi', 'doi']);
    expect(ft.figures.map((f: { alt: string }) => f.alt === '')).toEqual([false, true]);
    const figure = await t.app.inject({
      method: 'GET',
      url: `/api/editor/submissions/${id}/fulltext/figures/figure-2.png`,
      headers: editor,
    });
    expect(figure.statusCode).toBe(200);
    expect(figure.headers['content-type']).toBe('image/png');
  });

  it('refuses to publish while a figure has no alt text, and publishes nothing', async () => {
    const res = await publish(id, { pages: '1-12', doi: '10.5555/ft.2026.1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Describe figure 2 (alt text) before publishing the full text.',
      errors: { 'alt-2': 'Please describe figure 2 for readers who cannot see it.' },
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/editor/articles', headers: editor });
    expect(list.json()).toEqual([]);
  });

  it('publishes with the alt text given beside the form, and the article carries the full text', async () => {
    const res = await publish(id, {
      pages: '1-12',
      doi: '10.5555/ft.2026.1',
      'alt-2': 'Two bars: battery life before (9 days) and after (4 days).',
    });
    expect(res.statusCode, res.body).toBe(201);
    articleId = res.json().articleId;
    const ft = await t.app.inject({
      method: 'GET',
      url: `/api/editor/articles/${articleId}/fulltext`,
      headers: editor,
    });
    expect(ft.json().ready).toBe(true);
    expect(ft.json().problems.map((p: { kind: string }) => p.kind)).toEqual(['front', 'doi', 'doi']);
  });

  it('serves the JATS XML, valid against the Journal Publishing DTD, with the body', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/article/${articleId}/jats.xml` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/jats+xml; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="article-\d+\.jats\.xml"/);
    expect(res.body).toContain('<sec id="s1">');
    expect(res.body).toContain(
      '<alt-text>Two bars: battery life before (9 days) and after (4 days).</alt-text>',
    );
    expect(res.body).toContain(
      `<self-uri xlink:href="http://localhost/article/${articleId}"`.replace(
        'http://localhost',
        t.services.baseUrl,
      ),
    );
    const valid = validateWithSchema('jats', res.body);
    expect(valid.ok, valid.output).toBe(true);
  });

  it('serves the figures at stable addresses, the same bytes as in the Word file', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/article/${articleId}/figures/figure-1.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const again = await t.app.inject({
      method: 'GET',
      url: `/article/${articleId}/figures/figure-1.png`,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(
      (await t.app.inject({ method: 'GET', url: `/article/${articleId}/figures/figure-9.png` })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/article/${articleId}/figures/..%2Fsecret` })).statusCode,
    ).toBe(404);
  });

  it('carries the body in OAI-PMH’s jats format', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/oai?verb=GetRecord&metadataPrefix=jats&identifier=oai:${new URL(t.services.baseUrl).hostname}:article/${articleId}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<body>');
    expect(res.body).toContain('<mml:math');
    expect(res.body).toContain('<ref-list>');
  });

  it('re-makes the full text when the Word file is replaced and published, and drops the kept page', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/editor/articles/${articleId}/fulltext`,
      headers: editor,
    });
    expect(page.json().words).toBeGreaterThan(50);
    const res = await upload(
      `/api/editor/articles/${articleId}/fulltext`,
      'manuscript.docx',
      fixture('manuscript.docx'),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fulltext.source).toBe('manuscript.docx');
    expect(res.json().fulltext.figures).toEqual([]);
    // The new one waits for its preview (decision 0035); published, it takes the live one's place.
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${articleId}/fulltext/pending/publish`,
      headers: editor,
    });
    expect(published.statusCode, published.body).toBe(200);
    const jats = await t.app.inject({ method: 'GET', url: `/article/${articleId}/jats.xml` });
    expect(jats.body).toContain('System model');
    expect(jats.body).not.toContain('<sec id="s1-1-1">');
  });
});

describe('a manual whose table holds pictures, published (issue 22, item 8)', () => {
  const manual = readFileSync(new URL('../fixtures/fulltext/cell-pictures.docx', import.meta.url));
  let articleId: number;

  it('lists the picture in a cell without alt text, saying where it is, and publishes once it has one', async () => {
    const id = await accepted('A manual with icons in its tables');
    const res = await upload(`/api/editor/submissions/${id}/fulltext`, 'manual.docx', manual);
    expect(res.statusCode, res.body).toBe(201);
    const ft = res.json().fulltext;
    expect(ft.figures).toHaveLength(4);
    expect(ft.problems).toEqual([
      {
        kind: 'alt',
        message:
          'Figure 3 (a picture in a cell of table 1, in “1. Controls”) has no alt text: describe it for readers who cannot see it.',
      },
    ]);
    const pub = await publish(id, {
      pages: '21-30',
      doi: '10.5555/ft.2026.3',
      'alt-3': 'Blue square: pause',
    });
    expect(pub.statusCode, pub.body).toBe(201);
    articleId = pub.json().articleId;
  });

  it('carries every picture to the page and the JATS, each at its address', async () => {
    const html = await t.services.fulltext.readerHtml(articleId);
    expect(html?.match(/<img /g)).toHaveLength(4);
    expect(html).toContain(
      `<td><img class="fulltext-inline-figure" id="figure-3" src="/article/${articleId}/figures/figure-3.png" alt="Blue square: pause"`,
    );
    const jats = await t.app.inject({ method: 'GET', url: `/article/${articleId}/jats.xml` });
    expect(jats.body.match(/<inline-graphic /g)).toHaveLength(3);
    expect(jats.body.match(/<graphic /g)).toHaveLength(1);
    expect(validateWithSchema('jats', jats.body).ok).toBe(true);
    for (const n of [1, 2, 3, 4]) {
      const figure = await t.app.inject({
        method: 'GET',
        url: `/article/${articleId}/figures/figure-${n}.png`,
      });
      expect(figure.statusCode, `figure ${n}`).toBe(200);
    }
  });
});

describe('Word files that cannot be converted', () => {
  let id: number;
  beforeAll(async () => {
    id = await accepted('A submission with awkward files');
  });
  const url = () => `/api/editor/submissions/${id}/fulltext`;

  it('refuses a legacy .doc, a PDF and a disguised file by their content', async () => {
    for (const [name, data] of [
      ['manuscript.doc', fixture('manuscript.doc')],
      ['manuscript.docx', fixture('manuscript.pdf')],
      ['paper.docx', fixture('not-a-zip.zip')],
    ] as const) {
      const res = await upload(url(), name, data);
      expect(res.statusCode, name).toBe(415);
      expect(res.json().errors.word).toMatch(/^The full-text file must be a Word document \(\.docx\)\./);
    }
  });

  it('says a protected Word file is protected', async () => {
    const res = await upload(url(), 'locked.docx', encryptedDocx());
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      'The Word file is password-protected. Please save it without a password and upload it again.',
    );
  });

  it('says a damaged Word file cannot be read, and keeps nothing', async () => {
    const res = await upload(url(), 'cut.docx', article.subarray(0, 5000));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^The Word file could not be read: it is damaged/);
    const ft = await t.app.inject({ method: 'GET', url: url(), headers: editor });
    expect(ft.statusCode).toBe(404);
  });

  it('still publishes with the PDF alone', async () => {
    const res = await publish(id, { pages: '13-20', doi: '10.5555/ft.2026.2' });
    expect(res.statusCode, res.body).toBe(201);
    const jats = await t.app.inject({ method: 'GET', url: `/article/${res.json().articleId}/jats.xml` });
    expect(jats.statusCode).toBe(200);
    expect(jats.body).not.toContain('<body>');
    expect(validateWithSchema('jats', jats.body).ok).toBe(true);
  });

  it('keeps the Word file to editors of accepted submissions', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/fulltext`,
      headers: author,
    });
    expect(res.statusCode).toBe(403);
    const published = await upload(url(), 'final.docx', article);
    expect(published.statusCode).toBe(409);
    expect(published.json().message).toMatch(/already published as article/);
  });
});
