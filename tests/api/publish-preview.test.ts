import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { acceptedSubmission, createIssueInNewVolume, postManuscript } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, postMultipart } from '../../server/testing/harness.ts';
import { KNOWN } from '../fixtures/fulltext/manuscripts.ts';

/**
 * Issue 22, items 5 and 6 through HTTP (decision 0035): publishing an accepted submission is one place with a
 * preview, nothing is live before Publish; a replaced Word file waits beside the live full text; the copyright
 * form goes with the submission, required when the journal says so, and publishing warns when it is missing.
 */

let t: TestContext;
let author: Record<string, string>;
let editor: Record<string, string>;
let admin: Record<string, string>;
let issueId: number;
const article = readFileSync(new URL('../fixtures/fulltext/article.docx', import.meta.url));
const finalPdf = () =>
  Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% final ${Math.random()}\n%%EOF\n`)]);

beforeAll(async () => {
  t = await createTestContext();
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
  const ad = await t.createUser({ role: 'admin', status: 'approved' });
  admin = { authorization: `Bearer ${await t.login(ad.username, ad.password)}` };
  issueId = await createIssueInNewVolume(t, editor, { number: 5, year: 2026 });
});
afterAll(() => t?.close());

const fields = (title: string) => ({
  title,
  articleType: 'Research Article',
  keywords: KNOWN.keywords,
  abstract: KNOWN.abstract,
  authors: JSON.stringify(KNOWN.authors.map((x) => ({ ...x, superscript: '' }))),
});

const docx = { submissionFile: { name: 'manuscript.docx', data: fixture('manuscript.docx') } };

function submit(title: string, files: Record<string, { name: string; data: Buffer }> = {}) {
  return postManuscript(t, author, fields(title), { ...docx, ...files });
}

const accepted = (title: string, files: Record<string, { name: string; data: Buffer }> = {}) =>
  acceptedSubmission(t, author, editor, fields(title), { ...docx, ...files });

const get = (url: string, headers: Record<string, string> = editor) =>
  t.app.inject({ method: 'GET', url, headers });

async function setCopyrightRequired(on: boolean) {
  const { settings } = (await get('/api/admin/journal-settings', admin)).json();
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/journal-settings',
    headers: admin,
    payload: { ...settings, copyrightFormRequired: on },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('publishing an accepted submission: files, preview, then Publish', () => {
  let id: number;
  let articleId: number;

  it('takes the PDF and the Word file together and shows the preview, with nothing live', async () => {
    id = await accepted('A submission prepared for publishing');
    const res = await postMultipart(t.app, `/api/editor/submissions/${id}/publication`, editor, {}, {
      pdf: { name: 'final.pdf', data: finalPdf() },
      word: { name: 'final.docx', data: article },
    });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p.pdf).toMatchObject({ name: 'final.pdf', given: true });
    expect(p.fulltext.source).toBe('final.docx');
    expect(p.fulltext.problems.map((x: { kind: string }) => x.kind)).toEqual(['front', 'alt', 'doi', 'doi']);
    // The file's own title page (its authors are not this submission's) is left out, and the editor is told.
    expect(p.fulltext.problems[0].message).toContain('“Ana Lopes, Ravi Menon”');
    expect(p.fulltext.references.filter((r: { doi: string | null }) => !r.doi)).toHaveLength(2);
    // Sent without a copyright form: publishing warns (it does not refuse).
    expect(p.copyrightForm).toBeNull();
    // And the article processing charge is unpaid (decision 0063: the journal's default only warns).
    expect(p.warnings).toEqual([
      expect.stringMatching(/no signed copyright form/),
      expect.stringMatching(/article processing charge is unpaid/),
    ]);
    // Nothing is on the reader site, nor among the articles.
    expect((await get('/api/editor/articles')).json()).toEqual([]);
    expect((await get(`/api/submissions/${id}`)).json().articleId).toBeNull();
    const pdf = await get(`/api/editor/submissions/${id}/final-pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect((await get(`/api/editor/submissions/${id}/final-pdf`, author)).statusCode).toBe(403);
  });

  it('refuses a PDF that is not one, keeping the preview as it was', async () => {
    const res = await postMultipart(t.app, `/api/editor/submissions/${id}/publication`, editor, {}, {
      pdf: { name: 'final.pdf', data: fixture('manuscript.docx') },
      word: { name: 'other.docx', data: fixture('manuscript.docx') },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().errors.pdf).toMatch(/^The article file must be a PDF/);
    const p = (await get(`/api/editor/submissions/${id}/publication`)).json();
    expect(p.pdf.name).toBe('final.pdf');
    expect(p.fulltext.source).toBe('final.docx');
  });

  it('refuses an empty preparation and a badly written reference DOI, naming the field', async () => {
    const none = await postMultipart(t.app, `/api/editor/submissions/${id}/publication`, editor, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Choose the final PDF, the Word file, or both.');
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/editor/submissions/${id}/fulltext/references`,
      headers: editor,
      payload: { 'doi-2': 'not a doi' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ 'doi-2': expect.stringMatching(/^The DOI of reference 2 must look like/) });
  });

  it('refuses to publish while a figure has no alt text, and publishes nothing', async () => {
    const res = await postMultipart(t.app, `/api/editor/submissions/${id}/publish`, editor, {
      issue_id: String(issueId),
      pages: '1-12',
      doi: '10.5555/pp.2026.1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ 'alt-2': 'Please describe figure 2 for readers who cannot see it.' });
    // The fixes sent with it are checked all at once.
    const both = await postMultipart(t.app, `/api/editor/submissions/${id}/publish`, editor, {
      issue_id: String(issueId),
      pages: '1-12',
      doi: '10.5555/pp.2026.1',
      'alt-2': '',
      'doi-2': 'not a doi',
    });
    expect(both.statusCode).toBe(400);
    expect(Object.keys(both.json().errors).sort()).toEqual(['alt-2', 'doi-2']);
    expect((await get('/api/editor/articles')).json()).toEqual([]);
  });

  it('publishes the prepared PDF and full text with the fixes, and warns of the missing copyright form', async () => {
    const refs = (await get(`/api/editor/submissions/${id}/publication`)).json().fulltext.references;
    const noDoi = refs.find((r: { doi: string | null }) => !r.doi).number as number;
    const res = await postMultipart(t.app, `/api/editor/submissions/${id}/publish`, editor, {
      issue_id: String(issueId),
      pages: '1-12',
      doi: '10.5555/pp.2026.1',
      'alt-2': 'Two bars: battery life before and after.',
      [`doi-${noDoi}`]: 'https://doi.org/10.5555/cited.2024.7',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().warnings).toEqual([expect.stringMatching(/no signed copyright form/)]);
    articleId = res.json().articleId;
    const ft = (await get(`/api/editor/articles/${articleId}/fulltext`)).json();
    expect(ft.ready).toBe(true);
    expect(ft.references[noDoi - 1].doi).toBe('10.5555/cited.2024.7');
    expect(ft.problems.map((x: { kind: string }) => x.kind)).toEqual(['front', 'doi']);
    const jats = await get(`/article/${articleId}/jats.xml`, {});
    expect(jats.body).toContain('10.5555/cited.2024.7');
    // The prepared PDF is the article's.
    const a = await t.services.catalog.article(articleId);
    expect(a.title).toBe('A submission prepared for publishing');
  });

  it('keeps the published full text live when the Word file is replaced, until the new one is published', async () => {
    const before = (await get(`/article/${articleId}/jats.xml`, {})).body;
    expect(before).toContain('<fig');
    const res = await postMultipart(t.app, `/api/editor/articles/${articleId}/fulltext`, editor, {}, {
      word: { name: 'second.docx', data: article },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toMatch(/published full text stays/);
    // Readers still get the published one, alt text and all; the editor sees both.
    expect((await get(`/article/${articleId}/jats.xml`, {})).body).toBe(before);
    expect((await get(`/api/editor/articles/${articleId}/fulltext`)).json().source).toBe('final.docx');
    const pending = (await get(`/api/editor/articles/${articleId}/fulltext/pending`)).json();
    expect(pending.source).toBe('second.docx');
    expect(pending.ready).toBe(false);
    // Its figure without alt text keeps it from readers: refused, and the live one stays.
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${articleId}/fulltext/pending/publish`,
      headers: editor,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ 'alt-2': 'Please describe figure 2 for readers who cannot see it.' });
    expect((await get(`/article/${articleId}/jats.xml`, {})).body).toBe(before);
    const figure = await get(`/api/editor/articles/${articleId}/fulltext/pending/figures/figure-2.png`);
    expect(figure.statusCode).toBe(200);
  });

  it('publishes the new full text in place of the live one', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${articleId}/fulltext/pending/publish`,
      headers: editor,
      payload: { 'alt-2': 'The new chart of battery life.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().fulltext.source).toBe('second.docx');
    expect((await get(`/api/editor/articles/${articleId}/fulltext`)).json().source).toBe('second.docx');
    expect((await get(`/api/editor/articles/${articleId}/fulltext/pending`)).statusCode).toBe(404);
    expect((await get(`/article/${articleId}/jats.xml`, {})).body).toContain('The new chart of battery life.');
  });
});

describe('the copyright form', () => {
  it('goes with the submission, for the author and the editors; publishing then has no warning', async () => {
    const res = await submit('A submission with its copyright form', {
      copyrightForm: { name: 'signed-form.pdf', data: fixture('manuscript.pdf') },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const detail = (await get(`/api/submissions/${id}`)).json();
    expect(detail.copyrightForm).toMatchObject({ name: 'signed-form.pdf' });
    for (const who of [author, editor]) {
      const pdf = await get(`/api/submissions/${id}/copyright-form`, who);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-disposition']).toContain('copyright-form.pdf');
    }
    const p = (await get(`/api/editor/submissions/${id}/publication`)).json();
    expect(p.warnings).toEqual([]);
  });

  it('must be a PDF', async () => {
    const res = await submit('A submission with a Word copyright form', {
      copyrightForm: { name: 'signed-form.pdf', data: fixture('manuscript.docx') },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().errors.copyrightForm).toMatch(/^The copyright form must be a PDF/);
  });

  it('is refused missing, with a clear 400, when the journal requires it; nothing is stored', async () => {
    await setCopyrightRequired(true);
    try {
      const before = (await get('/api/editor/submissions')).json().total;
      const res = await submit('A submission without the required form');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: MESSAGES.copyrightFormMissing,
        errors: { copyrightForm: MESSAGES.copyrightFormMissing },
      });
      expect((await get('/api/editor/submissions')).json().total).toBe(before);
      const ok = await submit('A submission with the required form', {
        copyrightForm: { name: 'form.pdf', data: fixture('manuscript.pdf') },
      });
      expect(ok.statusCode, ok.body).toBe(201);
    } finally {
      await setCopyrightRequired(false);
    }
  });
});
