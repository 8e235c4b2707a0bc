import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/accounts/passwords.ts';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { asOwner, withJournal } from '../../server/db/scope.ts';
import { importRuns } from '../../server/ojs/tables.ts';
import { MEDIA_TYPES } from '../../server/files/content-type.ts';
import {
  type As,
  bearer,
  createIssue,
  createVolume,
  inviteReviewer,
  moveSubmission,
  publishArticle,
  submitManuscript,
} from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

/**
 * Issue 24's isolation across journals, through the real HTTP layer: an editor or admin of journal A (at `/`)
 * cannot read, change or learn the existence of journal B's (at `/jb`) unpublished submissions, reviewers,
 * members, e-mails, files or reports, through any route of the API, its listings and exports, the kept
 * answers, search or e-mail. The id routes are generated from the OpenAPI document, so a route added later is
 * swept without being listed here (decision 0053: row-level security is the one mechanism; this is its proof
 * from the outside).
 */
let t: TestContext;

/** Strings only journal B's unpublished work and people carry: none may reach A's editor or admin. */
const MARK = {
  title: 'Zqx-isolation-marker in sensor networks',
  authorName: 'Quillon Zqxauthor',
  authorEmail: 'zqx-author-b@example.org',
  reviewerEmail: 'zqx-reviewer-b@example.org',
  reviewText: 'Zqx-review-text: the sampling bound needs a second proof.',
  confidential: 'Zqx-confidential: I know the authors.',
  manuscriptName: 'Zqx-manuscript-file.pdf',
  zipName: 'Zqx-supplement.zip',
  copyrightName: 'Zqx-copyright.pdf',
  attachmentName: 'Zqx-annotated-review.pdf',
  contactText: 'Zqx-contact-message for journal B only',
  decisionText: 'Zqx-decision: please revise section 3.',
  revisionNote: 'Zqx-revision-note: section 3 is new.',
} as const;
const MARKERS: string[] = [
  ...Object.values(MARK),
  'zqx-editor-b@example.org',
  'zqx-author-b',
  'zqx-reviewer-b',
];
/** B's published article: public at B's address and in the site's search, never in A's listings. */
const B_PUBLISHED = 'Published Zqxpublished article of B';
/** The word a search or filter is asked for: in B's title, in no word of A's. */
const QUERY_WORD = 'Zqx';

/** A's people: members of A only. */
const A = { editor: '', admin: '', editorEmail: '', adminEmail: '' };
/** B's people (tokens signed in at B) and an account that is a member of no journal. */
const Bp = {
  editor: '',
  author: '',
  reviewer: '',
  stranger: '',
  editorId: 0,
  authorId: 0,
  reviewerId: 0,
};
let journalB = 0;

/** B's real ids, by the kind of record a path parameter names. */
const bIds: Record<IdKind, number | string> = {} as Record<IdKind, number | string>;
/** A's own published article and issue (the cache and search checks' A side). */
let aArticle = 0;
let aIssue = 0;
/** The mails sent while B was set up (only B's people may be among their recipients). */
let mailsOfB: typeof t.mail = [];

/** An id no record has, in each kind's form (a session's id is a UUID). */
const nowhere = (kind: IdKind): number | string =>
  kind === 'session' ? '00000000-0000-4000-8000-000000987654' : 987654;

type IdKind =
  | 'submission'
  | 'assignment'
  | 'file'
  | 'user'
  | 'article'
  | 'issue'
  | 'volume'
  | 'message'
  | 'reviewForm'
  | 'session'
  | 'journal'
  | 'invoice'
  | 'importRun';

/**
 * What each path parameter names, by the route's path up to and including it: what substitution cannot guess.
 * A parameter not here fails the sweep (so a new id route must be placed in this table). `{ literal }` is kept
 * as given in every case (a figure's name, a citation style): it names no record of a journal.
 */
const PARAMS: Record<string, IdKind | { literal: string }> = {
  '/api/account/sessions/{id}': 'session',
  '/api/apc/invoices/{id}': 'invoice',
  '/api/apc/reviews/{id}': 'assignment',
  '/api/admin/journals/{id}': 'journal',
  '/api/admin/imports/{id}': 'importRun',
  '/api/admin/users/{id}': 'user',
  '/api/site/users/{id}': 'user',
  '/api/editor/approve-user/{id}': 'user',
  '/api/editor/reject-user/{id}': 'user',
  '/api/articles/public/article/{id}': 'article',
  '/api/articles/{id}': 'article',
  '/api/articles/{id}/citation/{style}': { literal: 'apa' },
  // An article's other files (issue 26): B has none; with B's article id, A's own answer must not reach B's.
  '/api/articles/{id}/files/{fileId}': 'file',
  '/api/editor/articles/{id}': 'article',
  // An issue's cover (issue 26): public at its journal's address, and B's issue is none of A's.
  '/api/issues/{id}': 'issue',
  '/api/editor/dois/{id}': 'article',
  '/api/editor/articles/{id}/fulltext/figures/{name}': { literal: 'figure-1.png' },
  '/api/editor/articles/{id}/fulltext/pending/figures/{name}': { literal: 'figure-1.png' },
  '/api/editor/export/crossref/article/{id}': 'article',
  '/api/editor/export/crossref/issue/{id}': 'issue',
  '/api/editor/export/doaj/issue/{id}': 'issue',
  '/api/editor/issues/{id}': 'issue',
  '/api/editor/preservation/issues/{id}': 'issue',
  '/api/editor/volumes/{id}': 'volume',
  '/api/editor/messages/{id}': 'message',
  '/api/editor/review-assignments/{id}': 'assignment',
  '/api/editor/review-forms/{id}': 'reviewForm',
  '/api/editor/submissions/{id}': 'submission',
  '/api/editor/submissions/{id}/fulltext/figures/{name}': { literal: 'figure-1.png' },
  '/api/reviews/{id}': 'assignment',
  '/api/reviews/{id}/files/{fileId}': 'file',
  '/api/submissions/{id}': 'submission',
  '/api/submissions/{id}/files/{fileId}': 'file',
  '/api/submissions/{id}/reviews/{assignmentId}': 'assignment',
};

const pdf = fixture('manuscript.pdf');
const wordFile = readFileSync(new URL('../fixtures/fulltext/article.docx', import.meta.url));
const zip = Buffer.from(
  // An empty ZIP archive (end of central directory only): what the supplementary field's check accepts.
  '504b0506000000000000000000000000000000000000',
  'hex',
);

type Body = { payload?: unknown; headers?: Record<string, string> };
const json =
  (payload: unknown): (() => Promise<Body>) =>
  async () => ({ payload });
const form = (files: Record<string, { name: string; data: Buffer; type?: string }>) => async () =>
  multipart({}, files);
const aPdf = { name: 'x.pdf', data: pdf, type: 'application/pdf' };

/**
 * A payload each mutating route accepts as well-formed, so that it is refused for the record and not for its
 * body (the sweep checks that: a 400 would prove nothing). A route not here is sent an empty JSON object.
 */
const PAYLOADS: Record<string, () => Promise<Body>> = {
  'POST /api/admin/journals/{id}/move': json({ path: 'jmoved' }),
  'POST /api/admin/journals/{id}/status': json({ status: 'closed' }),
  'PATCH /api/admin/users/{id}': json({ role: 'editor' }),
  'PATCH /api/site/users/{id}': json({ suspended: true }),
  // Moving B's article into A's issue: the most a forgetful scope could be tricked into.
  'PATCH /api/editor/articles/{id}': async () => ({
    payload: {
      title: 'Changed from A',
      abstract: 'Changed.',
      keywords: 'a, b',
      pages: '1-2',
      doi: '10.5555/from.a',
      issue_id: aIssue,
      authors: JSON.stringify([
        { name: 'A Person', email: 'p@example.org', affiliation: 'A', superscript: '1' },
      ]),
    },
  }),
  'POST /api/editor/articles/{id}/fulltext': form({
    word: { name: 'a.docx', data: wordFile, type: MEDIA_TYPES.docx },
  }),
  'PATCH /api/editor/articles/{id}/fulltext/alt': json({ 'alt-1': 'Changed from A' }),
  'PATCH /api/editor/articles/{id}/fulltext/pending/alt': json({ 'alt-1': 'Changed from A' }),
  'PATCH /api/editor/articles/{id}/fulltext/references': json({ 'doi-1': '10.5555/from.a' }),
  'PATCH /api/editor/articles/{id}/fulltext/pending/references': json({ 'doi-1': '10.5555/from.a' }),
  'POST /api/editor/articles/{id}/pdf': form({ pdf: aPdf }),
  'POST /api/editor/articles/{id}/status': json({ status: 'unpublished' }),
  'PATCH /api/editor/issues/{id}': json({ title: 'Changed from A', description: 'Changed.' }),
  'PATCH /api/editor/volumes/{id}': json({ title: 'Changed from A', volume_number: 9, year: 2026 }),
  'PUT /api/editor/review-assignments/{id}/due-dates': json({ reviewDue: '2027-01-01' }),
  'PUT /api/editor/review-assignments/{id}/rating': json({ rating: 1 }),
  'PUT /api/editor/review-forms/{id}': json({
    name: 'Changed from A',
    questions: [{ id: 'q1', type: 'short-text', label: 'Anything?', required: false }],
  }),
  'POST /api/editor/submissions/{id}/decision': json({ status: 'rejected', message: 'From A.' }),
  'POST /api/editor/submissions/{id}/fulltext': form({
    word: { name: 'a.docx', data: wordFile, type: MEDIA_TYPES.docx },
  }),
  'PATCH /api/editor/submissions/{id}/fulltext/alt': json({ 'alt-1': 'Changed from A' }),
  'PATCH /api/editor/submissions/{id}/fulltext/references': json({ 'doi-1': '10.5555/from.a' }),
  'POST /api/editor/submissions/{id}/publication': form({ pdf: aPdf }),
  'PUT /api/editor/submissions/{id}/review/files': json({ fileIds: [] }),
  'POST /api/editor/submissions/{id}/review/invitations': json({
    name: 'Invited from A',
    email: 'invited-from-a@example.org',
  }),
  'PUT /api/editor/submissions/{id}/review/mode': json({ mode: 'open' }),
  'POST /api/editor/submissions/{id}/review/share': async () => ({ payload: { reviews: [bIds.assignment] } }),
  'POST /api/reviews/{id}/attachment': form({ file: aPdf }),
  'POST /api/reviews/{id}/decline': json({ reason: 'too-busy' }),
  'PUT /api/reviews/{id}/draft': json({ commentsForAuthor: 'Changed from A' }),
  'POST /api/reviews/{id}/submit': json({ recommendation: 'reject', commentsForAuthor: 'From A.' }),
  'POST /api/submissions/{id}/revision': form({ submissionFile: aPdf }),
  // The article processing charge (decision 0063).
  'POST /api/submissions/{id}/invoice/waiver': json({ reason: 'Asked from A, for B.' }),
  'POST /api/submissions/{id}/invoice/voucher': json({ code: 'ABCD-EFGH-JKLM' }),
  'POST /api/apc/invoices/{id}/waiver': json({ decision: 'grant', whole: true, message: 'From A.' }),
  'POST /api/apc/invoices/{id}/payments': json({
    paidOn: '2026-03-01',
    amount: '10',
    method: 'card',
    reference: 'FROM-A',
  }),
  'POST /api/apc/invoices/{id}/void': json({ reason: 'From A.' }),
  'POST /api/apc/reviews/{id}/vouchers': json({ kind: 'percent', percent: 10, expiresOn: '2099-12-31' }),
};

/** The article page's view beacon counts only a request from the site's own page: as if it were one. */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

async function call(
  method: string,
  url: string,
  as: As | null,
  body: Body = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(as ? (typeof as === 'string' ? bearer(as) : as) : {}) };
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...SAME_ORIGIN, ...(body.headers ?? {}) },
    ...(body.payload !== undefined ? { payload: body.payload as never } : {}),
  });
}

/** A's factories at B's address: every request of a factory goes to `/jb…`. */
function atB(): TestContext {
  return {
    ...t,
    app: {
      inject: (opts: { url: string }) => t.app.inject({ ...opts, url: `/jb${opts.url}` } as never),
    } as unknown as TestContext['app'],
  };
}

async function loginAt(prefix: string, username: string, password: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${prefix}/api/auth/login`,
    payload: { username, password },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

/** An account of the site with no membership anywhere (B's people are then made B's members only). */
async function account(username: string, email: string, fullName: string) {
  const password = 'password-123';
  const [row] = await t.services.db
    .insert(users)
    .values({
      username,
      passwordHash: await hashPassword(password),
      email,
      fullName,
      contactNumber: '+91 44 1234 5678',
      institution: 'Zqx Institute',
    })
    .returning({ id: users.id });
  return { id: row.id, username, password };
}

/** Every row of B's in every table with a journal, and B's people's accounts, as the database's owner. */
async function snapshotOfB(): Promise<Record<string, unknown[]>> {
  return asOwner(async () => {
    const tables = (await t.services.db.execute(
      sql`select table_name from information_schema.columns
          where table_schema = 'public' and column_name = 'journal_id' order by table_name`,
    )) as unknown as { rows: { table_name: string }[] };
    const snapshot: Record<string, unknown[]> = {};
    for (const { table_name } of tables.rows) {
      const rows = (await t.services.db.execute(
        sql`select * from ${sql.identifier(table_name)} where journal_id = ${journalB}`,
      )) as unknown as { rows: unknown[] };
      snapshot[table_name] = rows.rows.map((r) => JSON.stringify(r)).sort();
    }
    // The site's tables that hold B's records by their ids: usage counts and the search index of its
    // articles, its people's accounts.
    const articleIds = (
      (await t.services.db.execute(
        sql`select id from articles where journal_id = ${journalB}`,
      )) as unknown as { rows: { id: number }[] }
    ).rows.map((r) => r.id);
    // The stored files B's rows name (`stored_files` is the site's: a file is its journal's by its owner).
    const files = (await t.services.db.execute(
      sql`select * from stored_files where id in (
            select file_id from submission_files where journal_id = ${journalB}
            union select copyright_file_id from submissions where journal_id = ${journalB}
            union select final_pdf_file_id from submissions where journal_id = ${journalB}
            union select attachment_file_id from review_assignments where journal_id = ${journalB}
            union select pdf_file_id from articles where journal_id = ${journalB})`,
    )) as unknown as { rows: unknown[] };
    snapshot.stored_files = files.rows.map((r) => JSON.stringify(r)).sort();
    for (const table of ['article_usage', 'search_documents']) {
      const rows = (await t.services.db.execute(
        sql`select * from ${sql.identifier(table)} where article_id in ${sql.raw(`(${articleIds.join(',') || 0})`)}`,
      )) as unknown as { rows: unknown[] };
      snapshot[table] = rows.rows.map((r) => JSON.stringify(r)).sort();
    }
    snapshot.users = (
      await t.services.db
        .select()
        .from(users)
        .where(inArray(users.id, [Bp.editorId, Bp.authorId, Bp.reviewerId]))
    )
      .map((r) => JSON.stringify({ ...r, lastLoginAt: null }))
      .sort();
    return snapshot;
  });
}

let before: Record<string, unknown[]> = {};
let doc: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await createTestContext();
  const a = t.createUser.bind(t);
  // A's editor and admin: members of A (journal 1) only; the site's admin account is not used.
  const aEditor = await a({ role: 'editor', status: 'approved' });
  const aAdmin = await a({ role: 'admin', status: 'approved' });
  A.editor = await t.login(aEditor.username, aEditor.password);
  A.admin = await t.login(aAdmin.username, aAdmin.password);
  A.editorEmail = aEditor.email;
  A.adminEmail = aAdmin.email;
  // A has work of its own: a published article, and a submission under review.
  const aVolume = await createVolume(t, A.editor, { number: 1, year: 2026 });
  aIssue = (await createIssue(t, A.editor, { volumeId: aVolume.id, title: 'A issue' })).id;
  aArticle = (
    await publishArticle(t, A.editor, { issueId: aIssue, title: 'Plain article of A', doi: '10.5555/a.1' })
  ).id;
  const aAuthor = await a({ role: 'author', status: 'approved' });
  const aSub = await submitManuscript(t, await t.login(aAuthor.username, aAuthor.password), {
    title: 'Plain submission of A',
  });
  await moveSubmission(t, A.editor, aSub.id, 'under_review');

  // Journal B, made as the site admin makes one, its first editor an account that is no member of A.
  const bEditor = await account('zqx-editor-b', 'zqx-editor-b@example.org', 'Bea Zqxeditor');
  journalB = (
    await t.services.journalAdmin.create({ title: 'Journal B', path: 'jb', editor: bEditor.username })
  ).id;
  const bAuthor = await account('zqx-author-b', MARK.authorEmail, MARK.authorName);
  const bReviewer = await account('zqx-reviewer-b', MARK.reviewerEmail, 'Rhea Reviewerb');
  const stranger = await account('zqx-stranger', 'zqx-stranger@example.org', 'Stan Stranger');
  await withJournal(journalB, async () => {
    await t.services.db.insert(journalMemberships).values([
      { userId: bAuthor.id, role: 'author', status: 'approved' },
      { userId: bReviewer.id, role: 'researcher', status: 'approved' },
    ]);
  });
  Bp.editorId = bEditor.id;
  Bp.authorId = bAuthor.id;
  Bp.reviewerId = bReviewer.id;
  Bp.editor = await loginAt('/jb', bEditor.username, bEditor.password);
  Bp.author = await loginAt('/jb', bAuthor.username, bAuthor.password);
  Bp.reviewer = await loginAt('/jb', bReviewer.username, bReviewer.password);
  Bp.stranger = await loginAt('/jb', stranger.username, stranger.password);

  const mailsBefore = t.mail.length;
  const tb = atB();
  // B's unpublished submission: manuscript, supplementary ZIP and copyright form, by B's author.
  const sub = await submitManuscript(
    tb,
    Bp.author,
    {
      title: MARK.title,
      authors: [
        { name: MARK.authorName, email: MARK.authorEmail, affiliation: 'Zqx Institute', superscript: '1' },
      ],
    },
    {
      submissionFile: { name: MARK.manuscriptName, data: pdf, type: 'application/pdf' },
      additionalZip: { name: MARK.zipName, data: zip, type: 'application/zip' },
      copyrightForm: { name: MARK.copyrightName, data: pdf, type: 'application/pdf' },
    },
  );
  bIds.submission = sub.id;
  await moveSubmission(tb, Bp.editor, sub.id, 'under_review');
  // B's reviewer, a member of B, invited, accepting and submitting a review with a file.
  const { assignmentId } = await inviteReviewer(tb, Bp.editor, sub.id, {
    name: 'Rhea Reviewerb',
    email: MARK.reviewerEmail,
  });
  bIds.assignment = assignmentId;
  const ok = async (res: Promise<LightMyRequestResponse>, what: string) => {
    const r = await res;
    if (r.statusCode >= 300) throw new Error(`${what}: ${r.statusCode} ${r.body}`);
    return r;
  };
  await ok(call('POST', `/jb/api/reviews/${assignmentId}/accept`, Bp.reviewer), 'accept');
  await ok(
    call(
      'POST',
      `/jb/api/reviews/${assignmentId}/attachment`,
      Bp.reviewer,
      await multipart({}, { file: { name: MARK.attachmentName, data: pdf, type: 'application/pdf' } }),
    ),
    'attach',
  );
  await ok(
    call('POST', `/jb/api/reviews/${assignmentId}/submit`, Bp.reviewer, {
      payload: {
        recommendation: 'major-revisions',
        commentsForAuthor: MARK.reviewText,
        confidentialComments: MARK.confidential,
      },
    }),
    'submit review',
  );
  // The similarity report (checked and stored now), then the decision.
  await ok(
    call('GET', `/jb/api/editor/submissions/${sub.id}/similarity?refresh=true`, Bp.editor),
    'similarity',
  );
  await ok(
    call('POST', `/jb/api/editor/submissions/${sub.id}/decision`, Bp.editor, {
      payload: { status: 'revisions_requested', revisions: 'major', message: MARK.decisionText },
    }),
    'decision',
  );
  // The author's revision: its notice goes to B's office too.
  await ok(
    call(
      'POST',
      `/jb/api/submissions/${sub.id}/revision`,
      Bp.author,
      await multipart(
        { message: MARK.revisionNote, responseToReviewers: 'Section 3 is rewritten.' },
        { submissionFile: { name: 'revised.pdf', data: pdf, type: 'application/pdf' } },
      ),
    ),
    'revision',
  );
  const detail = (await ok(call('GET', `/jb/api/submissions/${sub.id}`, Bp.editor), 'detail')).json();
  bIds.file = detail.files.find((f: { name?: string; filename?: string }) =>
    JSON.stringify(f).includes(MARK.manuscriptName),
  ).id;
  // A message to B's editors.
  await ok(
    call('POST', '/jb/contact', null, {
      payload: { name: MARK.authorName, email: MARK.authorEmail, message: MARK.contactText },
    }),
    'contact',
  );
  bIds.message = (
    await withJournal(journalB, () => t.services.contact.list({ limit: 1, offset: 0 }))
  ).messages[0].id;
  bIds.reviewForm = (await ok(call('GET', '/jb/api/editor/review-forms', Bp.editor), 'forms')).json()[0]?.id;
  if (!bIds.reviewForm) {
    bIds.reviewForm = (
      await ok(
        call('POST', '/jb/api/editor/review-forms', Bp.editor, {
          payload: {
            name: 'B form',
            questions: [{ id: 'q1', type: 'short-text', label: 'Q?', required: false }],
          },
        }),
        'form',
      )
    ).json().id;
  }
  // B's published article.
  const bVolume = await createVolume(tb, Bp.editor, { number: 7, year: 2026 });
  const bIssue = await createIssue(tb, Bp.editor, { volumeId: bVolume.id, title: 'B issue' });
  bIds.volume = bVolume.id;
  bIds.issue = bIssue.id;
  bIds.article = (
    await publishArticle(tb, Bp.editor, {
      issueId: bIssue.id,
      title: B_PUBLISHED,
      doi: '10.5555/b.1',
    })
  ).id;
  bIds.user = bAuthor.id;
  bIds.session = (await ok(call('GET', '/jb/api/account/sessions', Bp.author), 'sessions')).json()[0].id;
  bIds.journal = journalB;
  // An OJS import into B (decision 0069): the site admin's, never A's people's.
  bIds.importRun = (
    await asOwner(() =>
      t.services.db
        .insert(importRuns)
        .values({ journalId: journalB, dryRun: true, files: [] })
        .returning({ id: importRuns.id }),
    )
  )[0].id;
  // B's APC invoice (decision 0063): a second manuscript of B's author, accepted.
  const charged = await submitManuscript(tb, Bp.author, { title: 'B charged paper' });
  await moveSubmission(tb, Bp.editor, charged.id, 'under_review', 'accepted');
  bIds.invoice = (
    await ok(call('GET', `/jb/api/submissions/${charged.id}/invoice`, Bp.editor), 'invoice')
  ).json().id;
  await t.runJobs();
  mailsOfB = t.mail.slice(mailsBefore);

  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  before = await snapshotOfB();
}, 180_000);

afterAll(() => t?.close());

/** The route's URL with each parameter given by `id(kind)` (literals kept). */
function fill(path: string, id: (kind: IdKind) => number | string): string {
  return path.replace(/\{(\w+)\}/g, (_, _name, offset: number) => {
    const prefix = path.slice(0, path.indexOf('}', offset) + 1);
    const kind = PARAMS[prefix];
    if (!kind) throw new Error(`${path}: which record does ${prefix} name? Add it to PARAMS.`);
    return typeof kind === 'string' ? String(id(kind)) : kind.literal;
  });
}

const idRoutes = () =>
  Object.entries(doc.paths)
    .filter(([p]) => p.includes('{'))
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })));

/** What an answer tells: its status, body and the name a download is saved under. */
const what = (r: LightMyRequestResponse) => ({
  status: r.statusCode,
  body: r.body,
  file: r.headers['content-disposition'] ?? null,
});
/** The markers an answer carries, in its body or a download's name. */
const shown = (r: LightMyRequestResponse) =>
  MARKERS.filter((m) => `${r.body}\n${r.headers['content-disposition'] ?? ''}`.includes(m));
const recipients = (mail: { to: string | string[] }) => (Array.isArray(mail.to) ? mail.to : [mail.to]);

describe('every id route of the API, as A’s editor and admin', () => {
  it('knows which record each path parameter names', () => {
    const routes = idRoutes();
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) expect(() => fill(r.path, () => 1), `${r.method} ${r.path}`).not.toThrow();
  });

  it("answers B's real ids at A's address exactly as ids that exist nowhere, and B's address as to a non-member", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { method, path } of idRoutes()) {
      const body =
        PAYLOADS[`${method} ${path}`] ?? (method === 'GET' || method === 'DELETE' ? null : json({}));
      const real = fill(path, (k) => bIds[k]);
      const none = fill(path, nowhere);
      for (const [who, token] of [
        ['editor', A.editor],
        ['admin', A.admin],
      ] as const) {
        const send = async (url: string, as: As) => call(method, url, as, body ? await body() : {});
        const label = `${who}: ${method} ${path}`;
        // (a) and (b): at A's own address.
        const aReal = await send(real, token);
        const aNone = await send(none, token);
        checked++;
        if (aReal.statusCode < 400)
          problems.push(`${label} reached B's record: ${aReal.statusCode} ${aReal.body}`);
        if (aReal.statusCode === 400 && method !== 'GET')
          problems.push(`${label} refused the payload (400), proving nothing: ${aReal.body}`);
        if (JSON.stringify(what(aReal)) !== JSON.stringify(what(aNone)))
          problems.push(
            `${label}: B's id ${JSON.stringify(what(aReal))} ≠ nowhere ${JSON.stringify(what(aNone))}`,
          );
        for (const m of shown(aReal)) problems.push(`${label} shows “${m}”`);
        // (c): at B's address, the answer a member of no journal gets, the same for B's id and none.
        const bReal = await send(`/jb${real}`, token);
        const bNone = await send(`/jb${none}`, token);
        const strangerReal = await send(`/jb${real}`, Bp.stranger);
        if (JSON.stringify(what(bReal)) !== JSON.stringify(what(strangerReal)))
          problems.push(
            `${label} at /jb: ${JSON.stringify(what(bReal))} ≠ a non-member's ${JSON.stringify(what(strangerReal))}`,
          );
        // B's published article is public at B's address (to anyone): its routes are the one exception.
        const publicArticle =
          PARAMS[path.slice(0, path.indexOf('}') + 1)] === 'article' && bReal.statusCode < 400;
        if (!publicArticle && JSON.stringify(what(bReal)) !== JSON.stringify(what(bNone)))
          problems.push(
            `${label} at /jb: B's id ${JSON.stringify(what(bReal))} ≠ nowhere ${JSON.stringify(what(bNone))}`,
          );
        if (!publicArticle) for (const m of shown(bReal)) problems.push(`${label} at /jb shows “${m}”`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 300_000);
});

describe("B's rows after the sweep", () => {
  it('are every one as they were', async () => {
    const after = await snapshotOfB();
    expect(Object.keys(before).length).toBeGreaterThan(20);
    // The unpublished one under review, and the accepted one with its APC invoice (decision 0063).
    expect(before.submissions.length).toBe(2);
    expect(before.apc_invoices?.length).toBe(1);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
  });
});

/**
 * Documents outside the OpenAPI document that list a journal's content: OAI-PMH, sitemap, robots.txt, feeds,
 * an issue's feed and a JATS file at B's volume and article numbers.
 */
const DOCUMENTS = () => [
  '/oai?verb=ListRecords&metadataPrefix=oai_dc',
  '/oai?verb=ListIdentifiers&metadataPrefix=oai_dc',
  '/oai?verb=ListSets',
  `/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:journal.test:article/${bIds.article}`,
  '/sitemap.xml',
  '/robots.txt',
  '/feed.rss',
  '/feed.atom',
  '/volumes/7/issues/1/feed.rss',
  `/article/${bIds.article}/jats.xml`,
  `/api/editor/export/crossref/issue/${aIssue}`,
  `/api/editor/export/doaj/issue/${aIssue}`,
  `/api/editor/export/crossref/article/${aArticle}`,
];

/** Routes whose answers are the site's by design (decision 0057, 0058): they may name B's published work. */
const SITE_WIDE = ['/api/site/search', '/api/editor/reviewers/site'];

describe('every listing and export at A’s address, as A’s editor and admin', () => {
  it('names nothing of B’s: no unpublished title, person, e-mail, review, file or message', async () => {
    const lists = Object.entries(doc.paths)
      .filter(([p, ops]) => !p.includes('{') && 'get' in ops)
      .map(([p]) => p);
    expect(lists).toEqual(
      expect.arrayContaining(['/api/editor/submissions', '/api/admin/users', '/api/search']),
    );
    const urls = [
      ...lists.flatMap((p) => [p, `${p}?q=${QUERY_WORD}`]),
      '/api/editor/submissions?status=all',
      '/api/admin/users?q=zqx',
      `/api/search?q=${encodeURIComponent('isolation marker')}`,
      ...DOCUMENTS(),
    ];
    const problems: string[] = [];
    let answered = 0;
    for (const url of urls) {
      for (const [who, token] of [
        ['editor', A.editor],
        ['admin', A.admin],
      ] as const) {
        const res = await call('GET', url, token);
        if (res.statusCode === 200) answered++;
        for (const m of shown(res)) problems.push(`${who}: ${url} shows “${m}”`);
        if (!SITE_WIDE.some((s) => url.startsWith(s)) && res.body.includes(B_PUBLISHED))
          problems.push(`${who}: ${url} lists B's published article`);
      }
    }
    // The listings answered (an empty 403 proves nothing), and named A's own work.
    expect(answered).toBeGreaterThan(urls.length);
    expect(problems).toEqual([]);
    const desk = await call('GET', '/api/editor/submissions', A.editor);
    expect(desk.body).toContain('Plain submission of A');
    expect((await call('GET', '/oai?verb=ListRecords&metadataPrefix=oai_dc', null)).body).toContain(
      'Plain article of A',
    );
  });

  it("shows in the site's reviewer pool B's reviewer by name only: no e-mail, submission or review", async () => {
    const pool = await call('GET', '/api/editor/reviewers/site', A.editor);
    expect(pool.statusCode).toBe(200);
    // Reviewers with an account are the site's to find (decision 0058): the name is there by design...
    expect(pool.body).toContain('Rhea Reviewerb');
    // ...and nothing else of B's.
    for (const m of MARKERS) expect(pool.body).not.toContain(m);
  });
});

describe("the markers are B's", () => {
  it("are each in B's rows, and seen by B's editor or in B's e-mails (so their absence above means something)", async () => {
    const seen: string[] = mailsOfB.map((m) => `${recipients(m)} ${m.subject} ${m.text}`);
    for (const url of [
      '/jb/api/editor/submissions',
      `/jb/api/submissions/${bIds.submission}`,
      `/jb/api/editor/submissions/${bIds.submission}/review`,
      '/jb/api/editor/messages',
      '/jb/api/editor/reviewers',
    ]) {
      const res = await call('GET', url, Bp.editor);
      expect(res.statusCode, url).toBe(200);
      seen.push(res.body);
    }
    const file = await call(
      'GET',
      `/jb/api/editor/review-assignments/${bIds.assignment}/attachment`,
      Bp.editor,
    );
    expect(file.statusCode).toBe(200);
    seen.push(String(file.headers['content-disposition']));
    const all = seen.join('\n');
    // The review's attachment is downloaded as `review-{id}.pdf` (its name is the reviewer's): its own name
    // is only in B's rows.
    for (const m of MARKERS.filter((m) => m !== MARK.attachmentName)) expect(all, m).toContain(m);
    const rows = JSON.stringify(before);
    for (const m of MARKERS) expect(rows, m).toContain(m);
  });
});

/** Anonymous GETs of the kept (cached) public answers, at an address prefix. */
const KEPT = () => [
  '/api/articles/public/articles',
  '/api/articles/public/list?page=1&size=10',
  '/api/papers',
  `/api/search?q=${QUERY_WORD}published`,
  `/api/search?q=${encodeURIComponent('Plain article')}`,
];

async function keptAnswers(prefix: '' | '/jb') {
  const out: Record<string, { status: number; etag: unknown; body: string }> = {};
  for (const url of KEPT()) {
    const res = await call('GET', `${prefix}${url}`, null);
    out[url] = { status: res.statusCode, etag: res.headers.etag, body: res.body };
  }
  return out;
}

describe('kept answers', () => {
  it('answer each journal’s own content at its own address, whichever was asked first', async () => {
    // B's first, so that a key without its journal would serve B's answer at A (and then the other way).
    const b = await keptAnswers('/jb');
    const a = await keptAnswers('');
    const b2 = await keptAnswers('/jb');
    for (const url of KEPT()) {
      expect(a[url].status, url).toBe(200);
      expect(a[url].body, url).not.toContain(B_PUBLISHED);
      expect(b[url].body, url).not.toContain('Plain article of A');
      expect(b2[url], url).toEqual(b[url]);
    }
    for (const url of KEPT().slice(0, 3)) {
      expect(a[url].body, url).toContain('Plain article of A');
      expect(b[url].body, url).toContain(B_PUBLISHED);
    }
    // B's article by its id: at B, and nowhere at A (as an id that exists nowhere), whichever is kept.
    const atB = await call('GET', `/jb/api/articles/public/article/${bIds.article}`, null);
    expect(atB.statusCode).toBe(200);
    const atA = await call('GET', `/api/articles/public/article/${bIds.article}`, null);
    const none = await call('GET', '/api/articles/public/article/987654', null);
    expect(what(atA)).toEqual(what(none));
    const citeB = await call('GET', `/jb/api/articles/${bIds.article}/citation/apa`, null);
    expect(citeB.statusCode).toBe(200);
    expect(what(await call('GET', `/api/articles/${bIds.article}/citation/apa`, null))).toEqual(
      what(await call('GET', '/api/articles/987654/citation/apa', null)),
    );
  });

  it("keep A's answers (ETag and body) when B publishes, and drop B's", async () => {
    const a = await keptAnswers('');
    const b = await keptAnswers('/jb');
    // The site's search, kept too, answers at every address: B's change reaches it wherever it is asked.
    const siteSearch = `/api/site/search?q=${QUERY_WORD}published`;
    expect((await call('GET', siteSearch, null)).body).not.toContain('Second Zqxpublished');
    await publishArticle(atB(), Bp.editor, {
      issueId: bIds.issue as number,
      title: 'Second Zqxpublished article of B',
      doi: '10.5555/b.2',
    });
    const a2 = await keptAnswers('');
    const b2 = await keptAnswers('/jb');
    expect(a2).toEqual(a);
    for (const prefix of ['', '/jb'])
      expect((await call('GET', `${prefix}${siteSearch}`, null)).body).toContain('Second Zqxpublished');
    for (const url of KEPT().slice(0, 4)) {
      expect(b2[url].body, url).toContain('Second Zqxpublished article of B');
      expect(b2[url].etag, url).not.toEqual(b[url].etag);
    }
  });
});

describe('e-mails', () => {
  it("sent for B's work go to B's people only", () => {
    const bPeople = new Set([MARK.authorEmail, MARK.reviewerEmail, 'zqx-editor-b@example.org']);
    expect(mailsOfB.length).toBeGreaterThan(3);
    const to = new Set(mailsOfB.flatMap(recipients));
    // Each of B's people had mail (the mailer is seen to work), and nobody else did: not A's editor or admin,
    // nor the installation's editorial address, which is A's office. B's office notices (the new submission,
    // the reviewer's answers, the contact message) go to B's editor while B has no address of its own
    // (decision 0060).
    expect([...to].sort()).toEqual([...bPeople].sort());
    expect(to).not.toContain(t.services.config.EDITORIAL_EMAIL);
    expect(mailsOfB.filter((m) => m.subject.includes('contact')).flatMap(recipients)).toEqual([
      'zqx-editor-b@example.org',
    ]);
  });

  it("sent for A's work name nothing of B's", async () => {
    const from = t.mail.length;
    // A's editor invites a reviewer to A's submission and decides it; A's contact form is used.
    const [aSub] = (await call('GET', '/api/editor/submissions', A.editor)).json().submissions;
    await inviteReviewer(t, A.editor, aSub.id, { name: 'A Reviewer', email: 'a-reviewer@example.org' });
    await call('POST', '/contact', null, {
      payload: { name: 'A Reader', email: 'a-reader@example.org', message: 'Hello A.' },
    });
    await t.runJobs();
    const sent = t.mail.slice(from);
    expect(sent.length).toBeGreaterThan(1);
    for (const mail of sent) {
      for (const to of recipients(mail))
        expect([MARK.authorEmail, MARK.reviewerEmail, 'zqx-editor-b@example.org']).not.toContain(to);
      for (const m of [...MARKERS, B_PUBLISHED])
        expect(`${mail.subject}\n${mail.text}\n${mail.html ?? ''}`).not.toContain(m);
    }
  });
});

describe("B's office address", () => {
  it('is the one B sets in its settings, once it has one of its own (never the installation’s)', async () => {
    await withJournal(journalB, async () => {
      const settings = await t.services.settings.journal();
      await t.services.db.transaction((tx) =>
        t.services.settings.set(tx, 'journal', { ...settings, email: 'office@journal-b.example.org' }),
      );
    });
    const from = t.mail.length;
    const sent = await call('POST', '/jb/contact', null, {
      payload: { name: 'B Reader', email: 'b-reader@example.org', message: 'Hello B.' },
    });
    expect(sent.statusCode).toBe(200);
    await call('POST', '/contact', null, {
      payload: { name: 'A Reader', email: 'a-reader@example.org', message: 'Hello A.' },
    });
    // B's to B's own address; A's (the first journal's) to the installation's, as it always was.
    expect(t.mail.slice(from).map((m) => [m.to, m.text.includes('Hello B.') ? 'B' : 'A'])).toEqual([
      ['office@journal-b.example.org', 'B'],
      [t.services.config.EDITORIAL_EMAIL, 'A'],
    ]);
  });
});

describe("B's ids in the body of A's own requests", () => {
  it('are answered as ids that exist nowhere: no issue, volume, file, profile or review of B is taken', async () => {
    const aAuthor = await t.createUser({ role: 'author', status: 'approved' });
    const { id: aSub } = await submitManuscript(t, await t.login(aAuthor.username, aAuthor.password), {
      title: 'Third submission of A',
    });
    await moveSubmission(t, A.editor, aSub, 'under_review');
    const aVolume = (await call('GET', '/api/editor/volumes', A.editor)).json()[0].id as number;
    const ofB = await asOwner(async () => {
      const one = async (query: ReturnType<typeof sql>) =>
        ((await t.services.db.execute(query)) as unknown as { rows: { id: number }[] }).rows[0].id;
      return {
        storedFile: await one(sql`select file_id as id from submission_files where journal_id = ${journalB}`),
        profile: await one(sql`select id from reviewer_profiles where journal_id = ${journalB}`),
      };
    });
    const articleFields = (issue: number) =>
      multipart(
        {
          title: 'Into B from A',
          abstract: 'A.',
          keywords: 'a, b',
          pages: '1-2',
          doi: '10.5555/into.b',
          issue_id: String(issue),
          authors: JSON.stringify([
            { name: 'A P', email: 'p@example.org', affiliation: 'A', superscript: '1' },
          ]),
        },
        { pdf: aPdf },
      );
    const cases: { name: string; send: (id: number) => Promise<LightMyRequestResponse> }[] = [
      {
        name: "PATCH A's article into B's issue",
        send: (id) =>
          call('PATCH', `/api/editor/articles/${aArticle}`, A.editor, {
            payload: {
              title: 'Plain article of A',
              abstract: 'A.',
              keywords: 'a, b',
              pages: '1-10',
              doi: '10.5555/a.1',
              issue_id: id,
              authors: JSON.stringify([
                { name: 'A P', email: 'p@example.org', affiliation: 'A', superscript: '1' },
              ]),
            },
          }),
      },
      {
        name: "an issue in B's volume",
        send: (id) =>
          call('POST', '/api/editor/issue', A.editor, {
            payload: { volume_id: id, title: 'Into B', description: 'From A.' },
          }),
      },
      {
        name: "an article uploaded into B's issue",
        send: async (id) => call('POST', '/api/articles/admin/upload', A.editor, await articleFields(id)),
      },
      {
        name: "B's stored file given to A's reviewers",
        send: (id) =>
          call('PUT', `/api/editor/submissions/${aSub}/review/files`, A.editor, {
            payload: { fileIds: [id] },
          }),
      },
      {
        name: "B's reviewer profile invited to A's submission",
        send: (id) =>
          call('POST', `/api/editor/submissions/${aSub}/review/invitations`, A.editor, {
            payload: { profileId: id },
          }),
      },
      {
        name: "B's manuscript version as A's similarity report's file",
        send: (id) => call('GET', `/api/editor/submissions/${aSub}/similarity?fileId=${id}`, A.editor),
      },
    ];
    const real = [bIds.issue, bIds.volume, bIds.issue, ofB.storedFile, ofB.profile, bIds.file] as number[];
    const problems: string[] = [];
    for (const [i, c] of cases.entries()) {
      const withB = await c.send(real[i]);
      const withNone = await c.send(987654);
      if (withB.statusCode < 400) problems.push(`${c.name}: ${withB.statusCode} ${withB.body}`);
      if (JSON.stringify(what(withB)) !== JSON.stringify(what(withNone)))
        problems.push(`${c.name}: ${JSON.stringify(what(withB))} ≠ ${JSON.stringify(what(withNone))}`);
    }
    expect(problems).toEqual([]);
    expect(aVolume).toBeGreaterThan(0);
  });
});

describe('inviting a reviewer by account', () => {
  it("finds no account of B's that is not in the site's reviewer pool: the same as an id nobody has", async () => {
    // A fresh submission of A's under review (the one above has a reviewer already).
    const aAuthor = await t.createUser({ role: 'author', status: 'approved' });
    const { id } = await submitManuscript(t, await t.login(aAuthor.username, aAuthor.password), {
      title: 'Second submission of A',
    });
    await moveSubmission(t, A.editor, id, 'under_review');
    const invite = (payload: Record<string, unknown>) =>
      call('POST', `/api/editor/submissions/${id}/review/invitations`, A.editor, { payload });
    const from = t.mail.length;
    // B's author never reviewed: an account A's editor may not reach (its name and e-mail would become A's).
    const author = await invite({ userId: Bp.authorId });
    const nobody = await invite({ userId: 987654 });
    expect(what(author)).toEqual(what(nobody));
    expect(author.statusCode).toBe(404);
    expect(t.mail.slice(from)).toEqual([]);
    const view = await call('GET', `/api/editor/submissions/${id}/review`, A.editor);
    expect(shown(view)).toEqual([]);
    // B's reviewer is in the site's pool (decision 0058): invited by the account, as designed.
    const reviewer = await invite({ userId: Bp.reviewerId });
    expect(reviewer.statusCode, reviewer.body).toBe(201);
  });
});

describe('search', () => {
  const titles = async (url: string, as: As | null = null) => {
    const res = await call('GET', url, as);
    expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    return res.body;
  };

  it("finds B's unpublished submission nowhere: A's search, B's, the site's, whoever asks", async () => {
    const q = encodeURIComponent('isolation marker');
    for (const as of [null, A.editor, Bp.editor]) {
      for (const url of [`/api/search?q=${q}`, `/jb/api/search?q=${q}`, `/api/site/search?q=${q}`]) {
        expect(await titles(url, as), url).not.toContain(MARK.title);
      }
    }
  });

  it("finds B's published article in B's search and the site's, not in A's", async () => {
    const q = `${QUERY_WORD}published`;
    expect(await titles(`/jb/api/search?q=${q}`)).toContain(B_PUBLISHED);
    expect(await titles(`/api/site/search?q=${q}`)).toContain(B_PUBLISHED);
    expect(await titles(`/jb/api/site/search?q=${q}`)).toContain(B_PUBLISHED);
    expect(await titles(`/api/search?q=${q}`)).not.toContain(B_PUBLISHED);
    expect(await titles(`/api/search?q=${q}`, A.editor)).not.toContain(B_PUBLISHED);
    // And A's own is found at A (the search works).
    expect(await titles(`/api/search?q=${encodeURIComponent('Plain article')}`)).toContain(
      'Plain article of A',
    );
  });
});
