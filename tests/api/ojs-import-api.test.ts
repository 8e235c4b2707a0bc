import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOOSE_A_FILE, JOURNAL_CHOICE } from '../../common/imports.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { nativeExport, sampleJournal, sampleUsers, usersExport } from '../fixtures/ojs/make.ts';

/**
 * The site admin's OJS import over HTTP (issue 26, decision 0069): an upload of a generated export streamed to
 * the import's folder, the run followed to its report; a dry run, then run for real with the same files; the
 * same export again changing nothing; every refusal (not a site admin, bad fields, not XML, too large) with
 * its status and message, and nothing left on disk.
 */
let t: TestContext;
let siteAdmin: Record<string, string>;
let journalAdmin: Record<string, string>;

const native = Buffer.from([...nativeExport('3.4', sampleJournal({ issues: 2, perIssue: 2 }))].join(''));
const users = Buffer.from(usersExport('3.4', sampleUsers()));
const NATIVE = { name: 'native-issues.xml', data: native, type: 'text/xml' };
const USERS = { name: 'users.xml', data: users, type: 'text/xml' };

type Files = Array<{ name: string; data: Buffer; type?: string }>;

/** A multipart body with any number of `file` parts (the harness's helper takes one per field). */
async function body(fields: Record<string, string>, files: Files) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('file', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'text/xml' }), f.name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

async function upload(
  ctx: TestContext,
  fields: Record<string, string>,
  files: Files,
  headers: Record<string, string> = siteAdmin,
) {
  const b = await body(fields, files);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/admin/imports',
    headers: { ...headers, ...b.headers },
    payload: b.payload,
  });
}

/** Polls the run (running the queue's jobs between) until it has finished. */
async function finished(id: number) {
  for (let i = 0; i < 200; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/imports/${id}`, headers: siteAdmin });
    expect(res.statusCode).toBe(200);
    const run = res.json().run;
    if (run.status === 'done' || run.status === 'failed') return run;
    await t.runJobs();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`import ${id} did not finish`);
}

/** The uploads' folders still on disk (the runs' own folders are the import service's). */
async function importFolders(ctx: TestContext): Promise<string[]> {
  return (await readdir(path.join(ctx.dataDir, 'imports')).catch(() => [] as string[])).filter((name) =>
    name.startsWith('upload-'),
  );
}

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  siteAdmin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const admin = await t.createUser({ role: 'admin', status: 'approved' });
  journalAdmin = { authorization: `Bearer ${await t.login(admin.username, admin.password)}` };
}, 120_000);
afterAll(() => t?.close());

describe('POST /api/admin/imports', () => {
  it('is the site admin’s alone: 401 signed out, 403 for a journal’s admin, nothing stored', async () => {
    const before = await importFolders(t);
    expect((await upload(t, { journal: 'x' }, [NATIVE], {})).statusCode).toBe(401);
    const res = await upload(t, { newPath: 'refused-one', newTitle: 'Refused' }, [NATIVE], journalAdmin);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/site admin/);
    expect(await importFolders(t)).toEqual(before);
    for (const url of ['/api/admin/imports', '/api/admin/imports/1']) {
      expect((await t.app.inject({ method: 'GET', url, headers: journalAdmin })).statusCode).toBe(403);
    }
  });

  it('refuses bad fields with 400 and each field’s message, keeping no file', async () => {
    const before = await importFolders(t);
    let res = await upload(t, {}, [NATIVE]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ journal: JOURNAL_CHOICE });

    res = await upload(t, { newPath: 'Bad Path!', oldPath: 'no/slashes' }, [NATIVE]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      newPath: expect.stringMatching(/lower-case/),
      newTitle: 'The journal title is required.',
      oldPath: expect.stringMatching(/after \/index.php\//),
    });

    res = await upload(t, { journal: 'no-such-journal' }, [NATIVE]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ journal: 'There is no journal at that path.' });

    res = await upload(t, { newPath: 'no-file', newTitle: 'No file' }, []);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ file: CHOOSE_A_FILE });

    res = await upload(t, { newPath: 'not-xml', newTitle: 'Not XML' }, [
      { name: 'issues.pdf', data: Buffer.from('%PDF-1.7\n'), type: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().errors.file).toMatch(/“issues.pdf” is not an XML file/);

    expect(await importFolders(t)).toEqual(before);
    // No journal was made by a refused upload.
    const journals = (await t.services.journalAdmin.list()).map((j) => j.path);
    expect(journals).not.toContain('not-xml');
    expect(journals).not.toContain('no-file');
  });

  it('imports an export into a new journal: 202 with the run, followed to its report', async () => {
    const res = await upload(
      t,
      { newPath: 'jeii', newTitle: 'Journal of Imported Issues', oldPath: 'JEII' },
      [NATIVE, USERS],
    );
    expect(res.statusCode).toBe(202);
    const { run } = res.json();
    expect(res.headers.location).toBe(`/api/admin/imports/${run.id}`);
    expect(run).toMatchObject({
      journal: { title: 'Journal of Imported Issues', url: 'http://journal.test/jeii' },
      dryRun: false,
      oldPath: 'jeii',
    });
    // The accounts are read first (an article's people exist before it), whatever the upload's order.
    expect([...run.files].sort()).toEqual(['native-issues.xml', 'users.xml']);
    const done = await finished(run.id);
    expect(done.status).toBe('done');
    expect(done.report.issues.created).toBe(2);
    expect(done.report.articles.created).toBeGreaterThanOrEqual(4);
    expect(done.report.users.created).toBeGreaterThan(0);
    expect(done.done).toBe(done.total);

    const list = await t.app.inject({ method: 'GET', url: '/api/admin/imports', headers: siteAdmin });
    expect(list.statusCode).toBe(200);
    expect(list.json().runs[0]).toMatchObject({ id: run.id, status: 'done' });

    // The same export again: nothing changes.
    const again = await upload(t, { journal: 'jeii' }, [NATIVE, USERS]);
    expect(again.statusCode).toBe(202);
    const second = await finished(again.json().run.id);
    expect(second.status).toBe('done');
    expect(second.report.issues).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(second.report.articles.created).toBe(0);
    expect(second.report.articles.updated).toBe(0);
  });

  it('runs a dry run (nothing written), then the same files for real', async () => {
    const res = await upload(t, { newPath: 'dry-journal', newTitle: 'Dry journal', dryRun: 'true' }, [
      NATIVE,
    ]);
    expect(res.statusCode).toBe(202);
    const dry = await finished(res.json().run.id);
    expect(dry).toMatchObject({ status: 'done', dryRun: true, filesKept: true });
    expect(dry.report.issues.created).toBe(2);
    const journal = (await t.services.journalAdmin.list()).find((j) => j.path === 'dry-journal')!;
    expect(journal.articles).toBe(0);

    const real = await t.app.inject({
      method: 'POST',
      url: `/api/admin/imports/${dry.id}/run`,
      headers: siteAdmin,
    });
    expect(real.statusCode).toBe(202);
    const run = await finished(real.json().run.id);
    expect(run).toMatchObject({ status: 'done', dryRun: false });
    expect(run.report.issues.created).toBe(2);
    const after = (await t.services.journalAdmin.list()).find((j) => j.path === 'dry-journal')!;
    expect(after.articles).toBeGreaterThan(0);

    // Only a finished dry run is run again.
    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/admin/imports/${run.id}/run`,
      headers: siteAdmin,
    });
    expect(twice.statusCode).toBe(409);
  });

  it('shows a broken export’s refusal in the report, not a 500', async () => {
    const broken = Buffer.from(native.toString('utf8').slice(0, Math.floor(native.length / 2)));
    const res = await upload(t, { journal: 'jeii' }, [{ name: 'broken.xml', data: broken }]);
    expect(res.statusCode).toBe(202);
    const run = await finished(res.json().run.id);
    const refused = [...(run.report?.notices ?? [])].filter((n: { level: string }) => n.level === 'refused');
    expect(run.status === 'failed' ? run.error : refused[0]?.message).toBeTruthy();
  });

  it('answers a browser’s plain form post with a 303 to the run’s page, or back to the form', async () => {
    let res = await upload(t, { journal: 'jeii', dryRun: 'on' }, [NATIVE], {
      ...siteAdmin,
      accept: 'text/html',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/admin\/imports\/\d+$/);
    await finished(Number(String(res.headers.location).split('/').pop()));
    res = await upload(t, {}, [NATIVE], { ...siteAdmin, accept: 'text/html' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/admin/imports?${new URLSearchParams({ refused: JOURNAL_CHOICE })}`);
  });

  it('404s a run that is not there', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/imports/999999', headers: siteAdmin });
    expect(res.statusCode).toBe(404);
  });
});

describe('an upload past IMPORT_MAX_BYTES', () => {
  let small: TestContext;
  beforeAll(async () => {
    small = await createTestContext({ IMPORT_MAX_BYTES: '16KB' });
  }, 120_000);
  afterAll(() => small?.close());

  it('is refused with 413, and nothing is left on disk', async () => {
    const headers = { authorization: `Bearer ${await small.login('admin', 'admin-pass-123')}` };
    const big = {
      name: 'big.xml',
      data: Buffer.concat([Buffer.from('<issues>'), Buffer.alloc(64 * 1024, 32)]),
    };
    const res = await upload(small, { newPath: 'too-big', newTitle: 'Too big' }, [big], headers);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The upload is too large: OJS exports of at most 16 KB together.');
    expect(await importFolders(small)).toEqual([]);
    expect((await small.services.journalAdmin.list()).map((j) => j.path)).not.toContain('too-big');
  });
});
