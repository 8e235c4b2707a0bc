import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore, STORAGE_UNAVAILABLE_MESSAGE } from '../../server/files/blob-store.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { submissionFiles, submissions } from '../../server/submissions/tables.ts';
import { faultyFs } from '../../server/testing/faulty-fs.ts';
import { type TestContext, createTestContext, fixture, multipart, postMultipart } from '../../server/testing/harness.ts';

/**
 * Issue 12, item 9: a full disk or an unwritable files/ folder answers 503 with one message (not a bare
 * 500), logs the cause, and leaves nothing half-written: no row, no blob, no partial .tmp.
 */
const faults = faultyFs();
const logged: Record<string, unknown>[] = [];
let t: TestContext;
let author: Record<string, string>;
let editor: Record<string, string>;

const freshPdf = () =>
  Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% ${Date.now()} ${Math.random()}\n%%EOF\n`)]);

function filesOnDisk(): string[] {
  try {
    return readdirSync(path.join(t.dataDir, 'files'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

async function state() {
  const db = t.services.db;
  return {
    submissions: (await db.select().from(submissions)).length,
    versions: (await db.select().from(submissionFiles)).length,
    files: (await db.select().from(storedFiles)).length,
    onDisk: filesOnDisk().sort(),
  };
}

const post = (
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  files: Record<string, { name: string; data: Buffer }>,
) => postMultipart(t.app, url, headers, fields, files);

const submit = () =>
  post(
    '/api/submission/submit',
    author,
    {
      title: 'A manuscript on a full disk',
      articleType: 'Research Article',
      keywords: 'a, b, c, d',
      abstract: 'Abstract.',
      authors: JSON.stringify([
        { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras' },
      ]),
    },
    { submissionFile: { name: 'm.pdf', data: freshPdf() } },
  );

beforeAll(async () => {
  t = await createTestContext(
    {},
    {
      blobs: (dataDir) =>
        new LocalBlobStore(path.join(dataDir, 'files'), {
          fs: faults.fs,
          log: { warn: () => undefined, error: (o) => logged.push(o as Record<string, unknown>) },
        }),
    },
  );
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
});
afterAll(() => t?.close());

describe('an upload when the file store cannot write', () => {
  it.each(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES'])(
    '%s: 503 with the message, the cause logged, nothing half-written',
    async (code) => {
      const before = await state();
      logged.length = 0;
      faults.fail(code);
      try {
        const res = await submit();
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ message: STORAGE_UNAVAILABLE_MESSAGE });
      } finally {
        faults.heal();
      }
      expect(await state()).toEqual(before);
      expect(logged).toEqual([expect.objectContaining({ code })]);
    },
  );

  it("an editor's replacement article PDF too; and once the disk is back, uploads work again", async () => {
    const created = await submit();
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    for (const status of ['under_review', 'accepted']) {
      const r = await t.app.inject({
        method: 'POST',
        url: `/api/editor/submissions/${id}/decision`,
        headers: editor,
        payload: { status, message: `Moved to ${status}.`, confirm: ['accept-without-review'] },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const volume = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: editor,
      payload: { title: 'Volume 1', volume_number: 1, year: 2026 },
    });
    const issue = await t.app.inject({
      method: 'POST',
      url: '/api/editor/issue',
      headers: editor,
      payload: { title: 'Issue 1', description: 'D', volume_id: volume.json().volume.id },
    });
    const fields = { issue_id: String(issue.json().issue.id), pages: '1-7', doi: '10.5555/storage.1' };
    const before = await state();
    faults.fail('ENOSPC');
    try {
      const refused = await post(`/api/editor/submissions/${id}/publish`, editor, fields, {
        pdf: { name: 'final.pdf', data: freshPdf() },
      });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().message).toBe(STORAGE_UNAVAILABLE_MESSAGE);
    } finally {
      faults.heal();
    }
    expect(await state()).toEqual(before);
    const published = await post(`/api/editor/submissions/${id}/publish`, editor, fields, {
      pdf: { name: 'final.pdf', data: freshPdf() },
    });
    expect(published.statusCode, published.body).toBe(201);
    expect(filesOnDisk().filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the submission page (no JavaScript) when the file store cannot write', () => {
  it('answers 503 with the same message, what was typed kept, nothing half-written', async () => {
    const { action } = await import('../../app/routes/submission.tsx');
    const a = await t.createUser({ role: 'author', status: 'approved' });
    const auth = await t.services.accounts.authenticate(await t.login(a.username, a.password));
    const body = await multipart(
      {
        title: 'A manuscript sent from the page',
        articleType: 'Research Article',
        keywords: 'a, b, c, d',
        abstract: 'Abstract.',
        'authors.0.name': 'Priya Raman',
        'authors.0.email': 'priya@example.org',
        'authors.0.affiliation': 'IIT Madras',
      },
      { submissionFile: { name: 'm.pdf', data: freshPdf() } },
    );
    const request = new Request('http://journal.test/submission', {
      method: 'POST',
      headers: { ...body.headers, origin: 'http://journal.test', host: 'journal.test' },
      body: new Uint8Array(body.payload as Buffer),
    });
    const before = await state();
    logged.length = 0;
    faults.fail('ENOSPC');
    let result: unknown;
    try {
      result = await action({
        request,
        params: {},
        context: { services: t.services, auth, clientIp: '127.0.0.1', userAgent: 'test', secure: false },
      } as never);
    } finally {
      faults.heal();
    }
    const answer = result as {
      init?: { status?: number };
      data?: { message?: string; values?: { title?: string } };
    };
    expect(answer.init?.status, JSON.stringify(result)).toBe(503);
    expect(answer.data?.message).toBe(STORAGE_UNAVAILABLE_MESSAGE);
    expect(answer.data?.values?.title).toBe('A manuscript sent from the page');
    expect(await state()).toEqual(before);
    expect(logged).toEqual([expect.objectContaining({ code: 'ENOSPC' })]);
  });
});
