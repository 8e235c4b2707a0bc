import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../server/audit/tables.ts';
import { articleTag } from '../../server/cache/dependencies.ts';
import { readZipDirectory, readZipEntry, replaceZipEntries } from '../../server/content/zip.ts';
import { personalProperties } from '../../server/files/document-properties.ts';
import { docWithWordTables } from '../../server/files/testing.ts';
import { fixture } from '../../server/testing/harness.ts';
import { type TestContext, createTestContext, postMultipart } from '../../server/testing/harness.ts';
import {
  type Person,
  bearer,
  caller,
  decide,
  linkToken,
  pdf,
  person,
  submitManuscript,
} from './review-helpers.ts';

/**
 * Double-anonymous review and the manuscript's own properties (issue 14, decisions 0023 and 0024): the
 * editor is warned when a reviewer file names a person and can give reviewers copies without those
 * properties; the author's original stays as it was. Also: the author's view carries the revision's due day,
 * and an open review shown on a published article's page drops that page from the cache when it changes.
 */

let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let author: Person;
let rex: Person;

/** The fixture manuscript with a PDF Author naming the author, as Word's "Save as PDF" writes it. */
async function namedPdf(name: string): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf);
  doc.setAuthor(name);
  return Buffer.from(await doc.save());
}

const submitPlain = (title: string) =>
  submitManuscript(
    t,
    author,
    [{ name: 'Ada Authorname', email: author.email, affiliation: 'Authorton Institute' }],
    title,
  );

async function submitNamed(title: string): Promise<number> {
  const res = await postMultipart(
    t.app,
    '/api/submission/submit',
    bearer(author.token),
    {
      title,
      articleType: 'Research Article',
      keywords: 'sensors, sampling',
      abstract: 'We study adaptive sampling.',
      authors: JSON.stringify([
        { name: 'Ada Authorname', email: author.email, affiliation: 'Authorton Institute', superscript: '1' },
      ]),
    },
    {
      submissionFile: { name: 'draft.pdf', data: await namedPdf('Ada Authorname'), type: 'application/pdf' },
    },
  );
  if (res.statusCode !== 201) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  rex = await person(t, 'researcher', 'Rex Reviewer', 'Reviewville University');
});
afterAll(() => t?.close());

describe('file properties that name a person, in double-anonymous review', () => {
  it('warns the editor, makes copies for reviewers, and leaves the author’s original as it was', async () => {
    const id = await submitNamed('Named properties');
    await decide(t, editor.token, id, { status: 'under_review' });
    const url = `/api/editor/submissions/${id}/review/file-properties`;

    const before = await api('GET', url, { token: editor.token });
    expect(before.status, before.body).toBe(200);
    expect(before.json).toMatchObject({ round: 1, mode: 'double-anonymous', warn: true });
    expect(before.json.files).toHaveLength(1);
    const original = before.json.files[0];
    expect(original).toMatchObject({ copy: false, removable: true, problem: null });
    expect(original.properties.join('\n')).toMatch(/Author — Ada Authorname/);

    const scrubbed = await api('POST', `/api/editor/submissions/${id}/review/files/without-properties`, {
      token: editor.token,
    });
    expect(scrubbed.status, scrubbed.body).toBe(200);
    expect(scrubbed.json.warn).toBe(false);
    const [copy] = scrubbed.json.files;
    expect(copy).toMatchObject({ copy: true, properties: [], removable: false });
    expect(copy.fileId).not.toBe(original.fileId);

    // The round's reviewer files are the copy; the submission's own files still the author's upload.
    const view = await api('GET', `/api/editor/submissions/${id}/review`, { token: editor.token });
    expect(view.json.rounds[0].reviewerFileIds).toEqual([copy.fileId]);
    const detail = await api('GET', `/api/submissions/${id}`, { token: author.token });
    expect(detail.json.files.map((f: { id: number }) => f.id)).toEqual([original.fileId]);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/submissions/${id}/files/${original.fileId}`,
      headers: bearer(author.token),
    });
    expect(own.statusCode).toBe(200);
    const ownScan = await personalProperties(own.rawPayload, 'pdf');
    expect(ownScan.properties.map((p) => p.value)).toContain('Ada Authorname');

    // A reviewer who accepts downloads the copy, without the name.
    const invited = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    expect(invited.status).toBe(201);
    const link = linkToken(t, rex.email, invited.json.assignmentId);
    expect((await api('POST', `/api/reviews/${link.id}/accept?token=${link.token}`)).status).toBe(200);
    const got = await api('GET', `/api/reviews/${link.id}?token=${link.token}`);
    expect(got.json.files.map((f: { id: number }) => f.id)).toEqual([copy.fileId]);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/reviews/${link.id}/files/${copy.fileId}?token=${link.token}`,
    });
    expect(file.statusCode).toBe(200);
    expect((await personalProperties(file.rawPayload, 'pdf')).properties).toEqual([]);
    expect(file.rawPayload.includes(Buffer.from('Ada Authorname'))).toBe(false);

    // Audited; a second request has nothing left to remove.
    const rows = await t.services.db.select().from(auditLog);
    expect(rows.some((r) => r.action === 'review.round.files')).toBe(true);
    const again = await api('POST', `/api/editor/submissions/${id}/review/files/without-properties`, {
      token: editor.token,
    });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(
      'No file of this round has properties naming a person that can be removed.',
    );
  });

  it('does not warn outside double-anonymous review, nor for a file that names nobody', async () => {
    const open = await submitNamed('Named, open review');
    await decide(t, editor.token, open, { status: 'under_review' });
    await api('PUT', `/api/editor/submissions/${open}/review/mode`, {
      token: editor.token,
      payload: { mode: 'open' },
    });
    const inOpen = await api('GET', `/api/editor/submissions/${open}/review/file-properties`, {
      token: editor.token,
    });
    expect(inOpen.json).toMatchObject({ mode: 'open', warn: false });
    expect(inOpen.json.files[0].properties.length).toBeGreaterThan(0);

    const plain = await submitPlain('Nothing named');
    await decide(t, editor.token, plain, { status: 'under_review' });
    const none = await api('GET', `/api/editor/submissions/${plain}/review/file-properties`, {
      token: editor.token,
    });
    expect(none.json.warn).toBe(false);
  });

  it('answers before review starts, 404 for no submission, and only to editors', async () => {
    const fresh = await submitPlain('Not yet in review');
    const early = await api('GET', `/api/editor/submissions/${fresh}/review/file-properties`, {
      token: editor.token,
    });
    expect(early.json).toEqual({ round: null, mode: null, warn: false, files: [] });
    const refused = await api('POST', `/api/editor/submissions/${fresh}/review/files/without-properties`, {
      token: editor.token,
    });
    expect(refused.status).toBe(409);
    const missing = await api('GET', '/api/editor/submissions/999999/review/file-properties', {
      token: editor.token,
    });
    expect(missing.status).toBe(404);
    const asAuthor = await api('GET', `/api/editor/submissions/${fresh}/review/file-properties`, {
      token: author.token,
    });
    expect(asAuthor.status).toBe(403);
  });
});

/** The fixture .docx as the reviewer's notes: Word's properties name them and their institution. */
function reviewerNotesDocx(): Buffer {
  const source = fixture('manuscript.docx');
  const directory = readZipDirectory(source);
  const text = (name: string) =>
    readZipEntry(source, directory.entries.find((e) => e.name === name)!, 1 << 20).toString('utf8');
  return replaceZipEntries(
    source,
    directory,
    new Map([
      [
        'docProps/core.xml',
        Buffer.from(
          text('docProps/core.xml')
            .replace('<dc:creator></dc:creator>', '<dc:creator>Rex Reviewer</dc:creator>')
            .replace(
              '<cp:lastModifiedBy></cp:lastModifiedBy>',
              '<cp:lastModifiedBy>Rex Reviewer</cp:lastModifiedBy>',
            ),
        ),
      ],
      [
        'docProps/app.xml',
        Buffer.from(
          text('docProps/app.xml').replace(
            '</Properties>',
            '<Company>Reviewville University</Company></Properties>',
          ),
        ),
      ],
    ]),
  );
}

/** Every entry of a .docx inflated, as text: what anyone who unzips it can read. */
const unzipped = (docx: Buffer) =>
  readZipDirectory(docx)
    .entries.map((e) => readZipEntry(docx, e, 1 << 24).toString('utf8'))
    .join('\n');

describe('a reviewer’s attached file that names the reviewer in its own properties (issue 22)', () => {
  /** A double-anonymous round with Rex's review submitted with `file` attached and shared with the author. */
  async function reviewedWith(title: string, file: { name: string; data: Buffer; type: string }) {
    const id = await submitPlain(title);
    await decide(t, editor.token, id, { status: 'under_review' });
    const invited = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    const link = linkToken(t, rex.email, invited.json.assignmentId);
    expect((await api('POST', `/api/reviews/${link.id}/accept?token=${link.token}`)).status).toBe(200);
    const attached = await postMultipart(
      t.app,
      `/api/reviews/${link.id}/attachment?token=${link.token}`,
      {},
      {},
      { file },
    );
    expect(attached.statusCode, attached.body).toBe(200);
    const submitted = await api('POST', `/api/reviews/${link.id}/submit?token=${link.token}`, {
      payload: { recommendation: 'minor-revisions', commentsForAuthor: 'See the attached notes.' },
    });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
    const view = await api('GET', `/api/editor/submissions/${id}/review`, { token: editor.token });
    const assignment = view.json.rounds[0].assignments[0];
    await decide(t, editor.token, id, {
      status: 'revisions_requested',
      revisions: 'minor',
      shareReviews: [link.id],
    });
    return { id, assignmentId: link.id as number, assignment };
  }

  it('warns the editor, and the author gets a copy without them, the same each time', async () => {
    const notes = reviewerNotesDocx();
    const { id, assignmentId, assignment } = await reviewedWith('Reviewer notes with a name', {
      name: 'notes.docx',
      data: notes,
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(assignment.hasAttachment).toBe(true);
    expect(assignment.attachmentProperties).toEqual({
      properties: [
        'Document properties: Author — Rex Reviewer',
        'Document properties: Last modified by — Rex Reviewer',
        'Document properties: Company — Reviewville University',
      ],
      problem: null,
      forAuthor: 'copy',
    });

    const reviews = await api('GET', `/api/submissions/${id}/reviews`, { token: author.token });
    expect(reviews.json.rounds[0].reviews[0]).toMatchObject({ label: 'Reviewer 1', hasAttachment: true });
    const url = `/api/submissions/${id}/reviews/${assignmentId}/attachment`;
    const got = await t.app.inject({ method: 'GET', url, headers: bearer(author.token) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-disposition']).toMatch(/round-1-reviewer-1\.docx/);
    const copy = got.rawPayload;
    for (const name of ['Rex Reviewer', 'Reviewville']) expect(unzipped(copy)).not.toContain(name);
    expect((await personalProperties(copy, 'docx')).properties).toEqual([]);
    const again = await t.app.inject({ method: 'GET', url, headers: bearer(author.token) });
    expect(again.rawPayload.equals(copy)).toBe(true);

    // The editors keep the file as the reviewer sent it.
    const original = await t.app.inject({
      method: 'GET',
      url: `/api/editor/review-assignments/${assignmentId}/attachment`,
      headers: bearer(editor.token),
    });
    expect(original.rawPayload.equals(notes)).toBe(true);
  });

  it('a file whose names cannot be removed is not given to the author, and the editor is told', async () => {
    const { id, assignmentId, assignment } = await reviewedWith('Reviewer notes as a .doc with changes', {
      name: 'notes.doc',
      data: docWithWordTables({ reviewed: true }),
      type: 'application/msword',
    });
    expect(assignment.attachmentProperties).toMatchObject({ forAuthor: 'withheld' });
    expect(assignment.attachmentProperties.properties).toContain('Tracked changes: Author — Rex Reviewer');
    const reviews = await api('GET', `/api/submissions/${id}/reviews`, { token: author.token });
    expect(reviews.json.rounds[0].reviews[0].hasAttachment).toBe(false);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/submissions/${id}/reviews/${assignmentId}/attachment`,
      headers: bearer(author.token),
    });
    expect(got.statusCode).toBe(404);
  });
});

describe('the author’s view and the article page', () => {
  it('gives the author the revision’s due day and the journal’s time zone', async () => {
    const id = await submitPlain('Due day');
    await decide(t, editor.token, id, { status: 'under_review' });
    await decide(t, editor.token, id, {
      status: 'revisions_requested',
      revisions: 'minor',
      authorDue: '2026-04-15',
    });
    const view = await api('GET', `/api/submissions/${id}/reviews`, { token: author.token });
    expect(view.status).toBe(200);
    expect(view.json.timeZone).toBe('UTC');
    expect(view.json.rounds[0]).toMatchObject({ decision: 'minor-revisions', revisionDue: '2026-04-15' });
  });

  it('drops a published article’s page when an open review it shows changes', async () => {
    const id = await submitPlain('Open and published');
    await decide(t, editor.token, id, { status: 'under_review' });
    await api('PUT', `/api/editor/submissions/${id}/review/mode`, {
      token: editor.token,
      payload: { mode: 'open' },
    });
    const invited = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    const assignment = invited.json.assignmentId as number;
    await api('POST', `/api/reviews/${assignment}/accept`, { token: rex.token });
    const submitted = await api('POST', `/api/reviews/${assignment}/submit`, {
      token: rex.token,
      payload: { recommendation: 'accept', commentsForAuthor: 'Sound and clear.', publishAgreed: true },
    });
    expect(submitted.status, submitted.body).toBe(200);
    await decide(t, editor.token, id, { status: 'accepted' });
    const volume = await api('POST', '/api/editor/volume', {
      token: editor.token,
      payload: { title: 'Volume 1', volume_number: 1, year: 2026 },
    });
    const issue = await api('POST', '/api/editor/issue', {
      token: editor.token,
      payload: { title: 'Issue 1', description: 'D', volume_id: volume.json.volume.id },
    });
    const published = await postMultipart(
      t.app,
      `/api/editor/submissions/${id}/publish`,
      bearer(editor.token),
      { issue_id: String(issue.json.issue.id), pages: '1-7', doi: '10.5555/open.1' },
    );
    expect(published.statusCode, published.body).toBe(201);
    const articleId = published.json().articleId as number;
    const reviews = await api('GET', `/api/articles/${articleId}/reviews`);
    expect(reviews.json).toEqual([
      expect.objectContaining({ reviewer: 'Rex Reviewer', comments: 'Sound and clear.' }),
    ]);

    // The reviewer changes the name the page shows: the article's cached page goes.
    const invalidate = vi.spyOn(t.services.cache, 'invalidate');
    const profile = await api('PUT', '/api/reviewer/profile', {
      token: rex.token,
      payload: { name: 'Rex R. Reviewer', affiliation: 'Reviewville University', interests: [] },
    });
    expect(profile.status, profile.body).toBe(200);
    // Named as the first journal's page (decision 0053).
    expect(invalidate).toHaveBeenCalledWith(expect.arrayContaining([`j1:${articleTag(articleId)}`]));
    invalidate.mockRestore();
    const renamed = await api('GET', `/api/articles/${articleId}/reviews`);
    expect(renamed.json[0].reviewer).toBe('Rex R. Reviewer');
  });
});
