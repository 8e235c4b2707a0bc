import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { submissionAuthors, submissionFiles, submissions } from '../../server/submissions/tables.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

let t: TestContext;
let token: string;
let authorEmail: string;

beforeAll(async () => {
  t = await createTestContext({ MAX_MANUSCRIPT_SIZE: '300KB', MAX_ADDITIONAL_SIZE: '1KB' });
  const author = await t.createUser({ role: 'author', status: 'pending' });
  authorEmail = author.email;
  token = await t.login(author.username, author.password);
});
afterAll(() => t?.close());

const fields = (over: Record<string, string> = {}) => ({
  title: 'Energy-aware task offloading for battery-powered IoT gateways',
  articleType: 'Research Article',
  keywords: 'IoT, edge computing, offloading, energy',
  abstract: 'We schedule offloading to save energy on gateways.',
  conflictOfInterest: 'None.',
  fundingStatement: '',
  dataAvailabilityStatement: 'On request.',
  authors: JSON.stringify([
    { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
    { name: 'Jon Olsen', email: 'jon@example.org', affiliation: 'NTNU' },
  ]),
  ...over,
});

type FileSpec = { name: string; data: Buffer };
async function submit(f: Record<string, string>, files: { submissionFile?: FileSpec; additionalZip?: FileSpec } = {}) {
  const body = await multipart(f, files as Record<string, FileSpec>);
  return t.app.inject({
    method: 'POST',
    url: '/api/submission/submit',
    headers: { authorization: `Bearer ${token}`, ...body.headers },
    payload: body.payload,
  });
}

async function counts() {
  return {
    submissions: (await t.services.db.select().from(submissions)).length,
    files: (await t.services.db.select().from(storedFiles)).length,
    blobs: (await t.blobFiles()).length,
  };
}

describe('manuscript submission', () => {
  it.each([['manuscript.pdf'], ['manuscript.docx'], ['manuscript.doc'], ['owner-locked.pdf']])(
    'accepts %s with the supplementary ZIP, stores everything, and acknowledges by e-mail',
    async (name) => {
      const mailsBefore = t.mail.length;
      const res = await submit(fields(), {
        submissionFile: { name, data: fixture(name) },
        additionalZip: { name: 'supplementary.zip', data: fixture('supplementary.zip') },
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body.message).toBe(MESSAGES.submissionSuccess);
      expect(body.reference).toMatch(/^COL-\d{4}-\d{4}$/);

      const [row] = await t.services.db.select().from(submissions).where(eq(submissions.id, body.id));
      expect(row).toMatchObject({ status: 'submitted', articleType: 'Research Article', conflictOfInterest: 'None.' });
      const authors = await t.services.db.select().from(submissionAuthors).where(eq(submissionAuthors.submissionId, body.id));
      expect(authors.map((a) => [a.position, a.name, a.superscript])).toEqual([
        [1, 'Priya Raman', '1'],
        [2, 'Jon Olsen', ''],
      ]);
      const files = await t.services.db
        .select({ kind: submissionFiles.kind, name: storedFiles.originalName, size: storedFiles.size })
        .from(submissionFiles)
        .innerJoin(storedFiles, eq(storedFiles.id, submissionFiles.fileId))
        .where(eq(submissionFiles.submissionId, body.id));
      expect(files).toEqual(
        expect.arrayContaining([
          { kind: 'manuscript', name, size: fixture(name).length },
          { kind: 'additional', name: 'supplementary.zip', size: fixture('supplementary.zip').length },
        ]),
      );
      const mails = t.mail.slice(mailsBefore);
      expect(mails.map((m) => m.to)).toEqual([authorEmail, 'editorial@colophon-journal.org']);
      expect(mails[0].subject).toContain(body.reference);
      expect(mails[0].text).toContain(body.reference);
    },
  );

  it('accepts a scanned PDF (no text layer) as a manuscript', async () => {
    const res = await submit(fields(), { submissionFile: { name: 'scanned.pdf', data: fixture('scanned.pdf') } });
    expect(res.statusCode).toBe(201);
  });

  it('asks for the main file with the spec message', async () => {
    const res = await submit(fields());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.mainFileMissing);
    expect(res.json().errors.submissionFile).toBe(MESSAGES.mainFileMissing);
  });

  it.each([
    ['png-named.pdf', 'submissionFile', 415, /must be a Word document \(\.doc, \.docx\) or a PDF/],
    ['empty.pdf', 'submissionFile', 400, /empty/],
    ['truncated.pdf', 'submissionFile', 422, /damaged or incomplete/],
    ['encrypted.pdf', 'submissionFile', 422, /password-protected/],
    ['supplementary.zip', 'submissionFile', 415, /Word document/],
    ['not-a-zip.zip', 'additionalZip', 415, /must be a \.zip archive/],
    // The ZIP field's limit is 1 KB here: a PDF there is refused as it streams in, before its type is read.
    ['manuscript.pdf', 'additionalZip', 413, /The additional file is too large: the limit is 1 KB/],
  ])('refuses %s as %s (%i) and keeps nothing', async (name, field, status, message) => {
    const before = await counts();
    const files: Record<string, FileSpec> = { submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') } };
    files[field] = { name, data: fixture(name) };
    const res = await submit(fields(), files);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it('refuses files over the configured limits with 413', async () => {
    const big = Buffer.concat([fixture('manuscript.pdf'), Buffer.alloc(300 * 1024, 32), Buffer.from('\n%%EOF\n')]);
    const res = await submit(fields(), { submissionFile: { name: 'big.pdf', data: big } });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large/);
  });

  it('validates the fields, with a message tied to each', async () => {
    const res = await submit(
      { title: '', articleType: 'Poem', keywords: '', abstract: '', authors: '[]' },
      { submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') } },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      title: 'Title is required.',
      articleType: expect.stringMatching(/Article type must be one of/),
      keywords: 'Keywords is required.',
      abstract: 'Abstract is required.',
      authors: 'At least one author is required.',
    });
    const author = await submit(fields({ authors: JSON.stringify([{ name: 'A', email: 'nope', affiliation: '' }]) }), {
      submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') },
    });
    expect(author.json().errors).toMatchObject({
      'authors.0.email': 'Author email must be a valid email address.',
      'authors.0.affiliation': 'Author affiliation is required.',
    });
  });

  it('refuses non-multipart bodies and unexpected file fields', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/submission/submit',
      headers: { authorization: `Bearer ${token}` },
      payload: fields(),
    });
    expect(json.statusCode).toBe(415);
    const extra = await multipart(fields(), { virus: { name: 'x.exe', data: Buffer.from('MZ') } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/submission/submit',
      headers: { authorization: `Bearer ${token}`, ...extra.headers },
      payload: extra.payload,
    });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a second manuscript part in one form, storing nothing', async () => {
    const before = await counts();
    const form = new FormData();
    for (const [k, v] of Object.entries(fields())) form.append(k, v);
    for (const name of ['first.pdf', 'second.pdf']) {
      form.append('submissionFile', new Blob([new Uint8Array(fixture('manuscript.pdf'))]), name);
    }
    const probe = new Request('http://local/', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/submission/submit',
      headers: { authorization: `Bearer ${token}`, 'content-type': probe.headers.get('content-type')! },
      payload: Buffer.from(await probe.arrayBuffer()),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.submissionFile).toBe('Choose one file only.');
    expect(await counts()).toEqual(before);
  });

  it('strips bidirectional controls from file names, as stored and as downloaded', async () => {
    // "report<RLO>fdp.exe" reads as "reportexe.pdf" where the override is honoured.
    const res = await submit(fields(), {
      submissionFile: { name: 'report\u202efdp.exe\u2066.pdf', data: fixture('manuscript.pdf') },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as number;
    const [stored] = await t.services.db
      .select({ id: storedFiles.id, name: storedFiles.originalName })
      .from(submissionFiles)
      .innerJoin(storedFiles, eq(storedFiles.id, submissionFiles.fileId))
      .where(eq(submissionFiles.submissionId, id));
    expect(stored.name).toBe('reportfdp.exe.pdf');
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/submissions/${id}/files/${stored.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.statusCode).toBe(200);
    const disposition = String(download.headers['content-disposition']);
    expect(decodeURIComponent(disposition)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(disposition).toContain('reportfdp.exe.pdf');
  });

  it('keeps no row and no file when the database write fails after the files were stored', async () => {
    const before = await counts();
    const original = t.services.audit.record.bind(t.services.audit);
    t.services.audit.record = async () => {
      throw new Error('simulated failure');
    };
    try {
      const unique = Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% ${Date.now()}\n%%EOF\n`)]);
      const res = await submit(fields(), {
        submissionFile: { name: 'unique.pdf', data: unique },
        additionalZip: { name: 'supplementary.zip', data: fixture('supplementary.zip') },
      });
      expect(res.statusCode).toBe(500);
    } finally {
      t.services.audit.record = original;
    }
    expect(await counts()).toEqual(before);
  });

  it('tells researchers and signed-out visitors that submitting needs an author account', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/api/submission/submit' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().message).toBe(MESSAGES.mustBeAuthor);
    const r = await t.createUser({ role: 'researcher', status: 'approved' });
    const rt = await t.login(r.username, r.password);
    const res = await t.app.inject({ method: 'POST', url: '/api/submission/submit', headers: { authorization: `Bearer ${rt}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGES.mustBeAuthor);
  });
});
