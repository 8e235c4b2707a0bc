import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../server/catalog/tables.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { submissionEvents, submissionFiles, submissions } from '../../server/submissions/tables.ts';
import { createIssueInNewVolume, postDecision, submitManuscript } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, multipart, postMultipart } from '../../server/testing/harness.ts';

/**
 * Issue 4: "no submission, file or message can be lost: a refused or interrupted upload leaves no row and no
 * orphan file". Every upload path is failed after its file is stored (the audit write, inside the same
 * transaction, throws), and an upload cut off mid-body is refused; the rows and the blob store stay as they were.
 */
let t: TestContext;
let author: Record<string, string>;
let editor: Record<string, string>;
let issueId: number;

/** A PDF nobody has stored yet (the blob store is content-addressed: a known file would already be there). */
const freshPdf = () =>
  Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% ${Date.now()} ${Math.random()}\n%%EOF\n`)]);

async function counts() {
  const db = t.services.db;
  return {
    submissions: (await db.select().from(submissions)).length,
    versions: (await db.select().from(submissionFiles)).length,
    events: (await db.select().from(submissionEvents)).length,
    articles: (await db.select().from(articles)).length,
    files: (await db.select().from(storedFiles)).length,
    blobs: (await t.blobFiles()).length,
  };
}

/** Runs `request` with the audit write failing, and expects a 500 that changed nothing. */
async function failingAfterStore(request: () => Promise<{ statusCode: number }>) {
  const before = await counts();
  const original = t.services.audit.record.bind(t.services.audit);
  t.services.audit.record = async () => {
    throw new Error('simulated failure after the file was stored');
  };
  try {
    expect((await request()).statusCode).toBe(500);
  } finally {
    t.services.audit.record = original;
  }
  expect(await counts()).toEqual(before);
}

const post = (
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  files: Record<string, { name: string; data: Buffer }>,
) => postMultipart(t.app, url, headers, fields, files);

const manuscriptFields = (title: string) => ({
  title,
  articleType: 'Research Article',
  keywords: 'a, b, c, d',
  abstract: 'Abstract.',
  authors: JSON.stringify([{ name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras' }]),
});

async function submitted(): Promise<number> {
  const { id } = await submitManuscript(t, author, manuscriptFields('A manuscript for failure tests'), {
    submissionFile: { name: 'm.pdf', data: freshPdf() },
  });
  return id;
}

const decide = (id: number, status: string) => postDecision(t, editor, id, status);

beforeAll(async () => {
  t = await createTestContext();
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
  issueId = await createIssueInNewVolume(t, editor, { number: 3, year: 2026, description: 'D' });
});
afterAll(() => t?.close());

describe('a failed database write after the file is stored leaves nothing behind', () => {
  it('a revised manuscript', async () => {
    const id = await submitted();
    await decide(id, 'under_review');
    await decide(id, 'revisions_requested');
    await failingAfterStore(() =>
      post(
        `/api/submissions/${id}/revision`,
        author,
        { message: 'Revised.' },
        {
          submissionFile: { name: 'r.pdf', data: freshPdf() },
        },
      ),
    );
    // The author can still upload the revision afterwards.
    const ok = await post(
      `/api/submissions/${id}/revision`,
      author,
      {},
      { submissionFile: { name: 'r.pdf', data: freshPdf() } },
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("an article's replaced PDF", async () => {
    const id = await submitted();
    await decide(id, 'under_review');
    await decide(id, 'accepted');
    const published = await post(
      `/api/editor/submissions/${id}/publish`,
      editor,
      {
        issue_id: String(issueId),
        pages: '1-7',
        doi: '10.5555/orphans.1',
      },
      {},
    );
    expect(published.statusCode, published.body).toBe(201);
    const articleId = published.json().articleId;
    await failingAfterStore(() =>
      post(
        `/api/editor/articles/${articleId}/pdf`,
        editor,
        {},
        { pdf: { name: 'new.pdf', data: freshPdf() } },
      ),
    );
  });

  it('publishing a submission with its final PDF', async () => {
    const id = await submitted();
    await decide(id, 'under_review');
    await decide(id, 'accepted');
    await failingAfterStore(() =>
      post(
        `/api/editor/submissions/${id}/publish`,
        editor,
        { issue_id: String(issueId), pages: '8-15', doi: '10.5555/orphans.2' },
        { pdf: { name: 'final.pdf', data: freshPdf() } },
      ),
    );
    // Nothing was half-published: the submission can still be published.
    const again = await post(
      `/api/editor/submissions/${id}/publish`,
      editor,
      { issue_id: String(issueId), pages: '8-15', doi: '10.5555/orphans.2' },
      { pdf: { name: 'final.pdf', data: freshPdf() } },
    );
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe('an upload cut off in the middle', () => {
  it('is refused with a 4xx and stores nothing', async () => {
    const before = await counts();
    const body = await multipart(
      manuscriptFields('Cut off'),
      { submissionFile: { name: 'm.pdf', data: freshPdf() } },
    );
    const payload = Buffer.from(body.payload as Buffer);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/submission/submit',
      headers: { ...author, ...body.headers },
      payload: payload.subarray(0, Math.floor(payload.length * 0.6)),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await counts()).toEqual(before);
  });
});
