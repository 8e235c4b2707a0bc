import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordZipBomb } from '../../server/files/testing.ts';
import { type TestContext, createTestContext, fixture, postMultipart } from '../../server/testing/harness.ts';

/**
 * Issue 22, item 13: a Word "zip bomb" — a few megabytes whose document.xml expands to a gigabyte — is refused
 * (422, saying it expands too much) wherever a Word file is uploaded, before anything inflates it: the
 * article's Word file, a manuscript, the plagiarism check. Memory is measured by bench/zip-bomb.ts, not here.
 */

const MB = 1024 * 1024;
let t: TestContext;
let editor: Record<string, string>;
let author: Record<string, string>;
let articleId: number;

/** 40 MB of markup in a few kilobytes whose headers say a gigabyte; and one that says 1 MB and holds 40. */
const declaresGigabyte = wordZipBomb({ inflated: 40 * MB, declared: 1024 * MB });
const liesAboutItsSize = wordZipBomb({ inflated: 40 * MB, declared: MB - 1 });
const EXPANDS = /expands too much once uncompressed: its part "word\/document\.xml" .*"zip bomb"/;

beforeAll(async () => {
  t = await createTestContext();
  editor = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  const volume = await t.app.inject({
    method: 'POST',
    url: '/api/editor/volume',
    headers: editor,
    payload: { title: 'Vol', volume_number: 9, year: 2026 },
  });
  const issue = await t.app.inject({
    method: 'POST',
    url: '/api/editor/issue',
    headers: editor,
    payload: { title: 'Iss', description: 'D', volume_id: volume.json().volume.id },
  });
  const article = await postMultipart(
    t.app,
    '/api/articles/admin/upload',
    editor,
    {
      title: 'An article',
      abstract: 'Its abstract.',
      keywords: 'bombs',
      pages: '1-10',
      doi: '10.5555/bomb.001',
      issue_id: String(issue.json().issue.id),
      authors: JSON.stringify([
        { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
      ]),
    },
    { pdf: { name: 'a.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' } },
  );
  expect(article.statusCode, article.body).toBe(201);
  articleId = article.json().article.id;
});
afterAll(() => t?.close());

describe('a Word zip bomb', () => {
  it('is refused as the article’s Word file, by what it declares and by what it really holds', async () => {
    for (const bomb of [declaresGigabyte, liesAboutItsSize]) {
      const res = await postMultipart(
        t.app,
        `/api/editor/articles/${articleId}/fulltext`,
        editor,
        {},
        {
          word: { name: 'final.docx', data: bomb },
        },
      );
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(EXPANDS);
    }
    // A real Word file still goes through the same door.
    const ok = await postMultipart(
      t.app,
      `/api/editor/articles/${articleId}/fulltext`,
      editor,
      {},
      {
        word: { name: 'final.docx', data: fixture('manuscript.docx') },
      },
    );
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('is refused as a manuscript, and nothing is submitted', async () => {
    for (const bomb of [declaresGigabyte, liesAboutItsSize]) {
      const res = await postMultipart(
        t.app,
        '/api/submission/submit',
        author,
        {
          title: 'A bomb',
          articleType: 'Research Article',
          keywords: 'bombs',
          abstract: 'It expands.',
          authors: JSON.stringify([
            { name: 'Ada Author', email: 'ada@example.org', affiliation: 'Somewhere', superscript: '1' },
          ]),
        },
        { submissionFile: { name: 'paper.docx', data: bomb } },
      );
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(EXPANDS);
      expect(res.json().errors.submissionFile).toMatch(EXPANDS);
    }
    const mine = await t.app.inject({ method: 'GET', url: '/api/submissions/mine', headers: author });
    expect(mine.statusCode).toBe(200);
    expect(mine.body).not.toContain('A bomb');
  });

  it('is refused by the plagiarism check', async () => {
    const res = await postMultipart(
      t.app,
      '/api/plagiarism',
      author,
      {},
      {
        file: { name: 'paper.docx', data: liesAboutItsSize },
      },
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(EXPANDS);
  });
});
