import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalMemberships } from '../../server/accounts/tables.ts';
import { articleFiles, issues } from '../../server/catalog/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { MEDIA_TYPES } from '../../server/files/content-type.ts';
import type { FullTextOwner } from '../../server/fulltext/service.ts';
import { journals } from '../../server/journals/tables.ts';
import { reviewAssignments } from '../../server/review/tables.ts';
import { barChartPng } from '../../server/seed/png.ts';
import { seed } from '../../server/seed/seed.ts';
import {
  createIssue,
  createVolume,
  inviteReviewer,
  moveSubmission,
  publishArticle,
  submitManuscript,
} from '../../server/testing/factories.ts';
import { createTestContext, fixture, multipart, type TestContext } from '../../server/testing/harness.ts';
import { KNOWN } from '../fixtures/fulltext/manuscripts.ts';
import { nativeExport, sampleJournal } from '../fixtures/ojs/make.ts';

/**
 * Every API route × every kind of caller → the status they get. Nobody reaches what they should not, and
 * everybody reaches what the spec (as resolved in issue 2) gives them.
 */
const PERSONAS = [
  'anonymous',
  'pendingResearcher',
  'approvedResearcher',
  'pendingAuthor',
  'approvedAuthor',
  'rejectedAuthor',
  'editor',
  'admin',
  'suspended',
] as const;
type Persona = (typeof PERSONAS)[number];

type Expect = Record<Persona, number>;
const all = (status: number): Expect => Object.fromEntries(PERSONAS.map((p) => [p, status])) as Expect;
const signedIn = (ok: number): Expect => ({
  ...all(ok),
  anonymous: 401,
  suspended: 403,
  rejectedAuthor: 403,
});
const editorial = (ok: number): Expect => ({ ...all(403), anonymous: 401, editor: ok, admin: ok });
const adminOnly = (ok: number): Expect => ({ ...all(403), anonymous: 401, admin: ok });
const submit: Expect = {
  ...all(403),
  anonymous: 401,
  pendingAuthor: 201,
  approvedAuthor: 201,
  editor: 201,
  admin: 201,
};
/** Reading or revising someone else's submission: authors and editors alike find nothing there to revise. */
const notOwner: Expect = {
  ...all(403),
  anonymous: 401,
  pendingAuthor: 404,
  approvedAuthor: 404,
  editor: 404,
  admin: 404,
};
const ownerOrEditor: Expect = { ...notOwner, editor: 200, admin: 200 };
const download: Expect = {
  ...all(403),
  anonymous: 401,
  approvedResearcher: 200,
  approvedAuthor: 200,
  editor: 200,
  admin: 200,
};

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

let t: TestContext;
const tokens = {} as Record<Persona, string | null>;
let articleId = 0;
/** One of the seed article's other files (an imported galley, issue 26). */
let articleFileId = 0;
let coverIssueId = 0;
let volumeId = 0;
let seq = 100;
let submitterToken = '';
let messageId = 0;

/** A fresh submission by a dedicated author (none of the personas), optionally moved on by the admin. */
async function newSubmission(...moves: string[]): Promise<{ id: number; fileId: number }> {
  return newSubmissionWith({}, ...moves);
}

/** An accepted submission of the submitter's, with its APC invoice (decision 0063). */
async function anInvoice(): Promise<{ submissionId: number; invoiceId: number }> {
  const { id } = await newSubmission('under_review', 'accepted');
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/submissions/${id}/invoice`,
    headers: { authorization: `Bearer ${tokens.admin}` },
  });
  expect(res.statusCode).toBe(200);
  return { submissionId: id, invoiceId: res.json().id };
}

/** An editor acting through the services (for what a route needs to find in place). */
async function anEditor() {
  const u = (await t.services.accounts.listUsers({ role: 'admin', limit: 1, offset: 0 })).users[0];
  return {
    id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    role: 'admin' as const,
    status: 'approved' as const,
  };
}

/** The same, with more files (the signed copyright form). */
async function newSubmissionWith(
  files: Record<string, { name: string; data: Buffer; type?: string }>,
  ...moves: string[]
): Promise<{ id: number; fileId: number }> {
  const { id } = await submitManuscript(
    t,
    submitterToken,
    { title: `Submission ${++seq}`, keywords: 'k', abstract: 'A.', authors: author('S. Author') },
    { submissionFile: { name: 'paper.pdf', data: pdf, type: 'application/pdf' }, ...files },
  );
  await moveSubmission(t, tokens.admin!, id, ...moves);
  const detail = await t.app.inject({
    method: 'GET',
    url: `/api/submissions/${id}`,
    headers: { authorization: `Bearer ${tokens.admin}` },
  });
  return { id, fileId: detail.json().files[0].id };
}

/**
 * Peer review: a fresh assignment (for someone who is none of the personas) in a fresh submission under
 * review, taken to `state` through its invitation link.
 */
async function newAssignment(state: 'invited' | 'accepted' | 'submitted' = 'invited') {
  const { id: submissionId } = await newSubmission('under_review');
  const email = `reviewer${++seq}@matrix.example`;
  const { assignmentId, token } = await inviteReviewer(t, tokens.admin!, submissionId, {
    name: 'Matrix Reviewer',
    email,
  });
  if (state !== 'invited') await t.services.review.accept({ token }, assignmentId);
  if (state === 'submitted') {
    await t.services.review.submit({ token }, assignmentId, {
      recommendation: 'accept',
      commentsForAuthor: 'Good.',
    });
  }
  return { submissionId, assignmentId, token };
}
/** A reviewer's route reached by an account that is not the reviewer: nothing there (or no account). */
const notReviewer = signedIn(404);

async function call(c: Call, persona: Persona) {
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (tokens[persona]) headers.authorization = `Bearer ${tokens[persona]}`;
  return t.app.inject({ method: c.method, url: c.url, payload: c.payload as never, headers });
}

const pdf = fixture('manuscript.pdf');
const author = (name: string) =>
  JSON.stringify([{ name, email: 'a@example.org', affiliation: 'Uni', superscript: '1' }]);
const firstIssueId = async () => String((await t.services.catalog.editorIssues())[0].id);
/** The issue of the seed article (published, with a DOI and a PDF): what the deposit exports need. */
const seedIssueId = async () => (await t.services.catalog.article(articleId)).issue_id;

/** Logout revokes the caller's session: it stays last among the routes that need one. */
const wordFile = readFileSync(new URL('../fixtures/fulltext/article.docx', import.meta.url));

/** A converted full text for `owner` (the test manuscript: two figures, the second without alt text). */
async function withFullText(owner: FullTextOwner) {
  await t.services.fulltext.store(
    null,
    owner,
    { field: 'word', filename: 'final.docx', data: wordFile, kind: 'docx', mediaType: MEDIA_TYPES.docx },
    KNOWN,
  );
}

/**
 * The full text's editor routes: an accepted submission's, the article's (a Word file sent there becomes its
 * pending one), and the article's pending one.
 */
const fullTextRoutes = (
  kind: 'submissions' | 'articles' | 'articles-pending',
  owner: () => Promise<{ id: number; owner: FullTextOwner }>,
) => {
  const base = kind === 'articles-pending' ? 'articles' : kind;
  const tail = kind === 'articles-pending' ? 'fulltext/pending' : 'fulltext';
  const path = (id: number | string) => `/api/editor/${base}/${id}/${tail}`;
  return [
    ...(kind === 'articles-pending'
      ? []
      : [
          {
            name: `POST ${path(':id')}`,
            build: async () => {
              const { id } = await owner();
              const body = await multipart(
                {},
                { word: { name: 'final.docx', data: wordFile, type: MEDIA_TYPES.docx } },
              );
              return { method: 'POST' as const, url: path(id), ...body };
            },
            expect: editorial(201),
          },
        ]),
    {
      name: `GET ${path(':id')}`,
      build: async () => {
        const o = await owner();
        await withFullText(o.owner);
        return { method: 'GET' as const, url: path(o.id) };
      },
      expect: editorial(200),
    },
    {
      name: `PATCH ${path(':id')}/alt`,
      build: async () => {
        const o = await owner();
        await withFullText(o.owner);
        return { method: 'PATCH' as const, url: `${path(o.id)}/alt`, payload: { 'alt-2': 'Two bars.' } };
      },
      expect: editorial(200),
    },
    {
      name: `PATCH ${path(':id')}/references`,
      build: async () => {
        const o = await owner();
        await withFullText(o.owner);
        return {
          method: 'PATCH' as const,
          url: `${path(o.id)}/references`,
          payload: { 'doi-1': '10.5555/ref.1' },
        };
      },
      expect: editorial(200),
    },
    {
      name: `GET ${path(':id')}/figures/:name`,
      build: async () => {
        const o = await owner();
        await withFullText(o.owner);
        return { method: 'GET' as const, url: `${path(o.id)}/figures/figure-1.png` };
      },
      expect: editorial(200),
    },
  ];
};

const ROUTES: { name: string; build: () => Promise<Call> | Call; expect: Expect }[] = [
  ...fullTextRoutes('submissions', async () => {
    const s = await newSubmission('under_review', 'accepted');
    return { id: s.id, owner: { submissionId: s.id } };
  }),
  ...fullTextRoutes('articles', async () => ({ id: articleId, owner: { articleId } })),
  ...fullTextRoutes('articles-pending', async () => ({
    id: articleId,
    owner: { pendingArticleId: articleId },
  })),
  {
    name: 'POST /api/editor/articles/:id/fulltext/pending/publish',
    build: async () => {
      // A pending full text whose figures all have alt text, for the seed article (each persona's own).
      await withFullText({ pendingArticleId: articleId });
      await t.services.fulltext.setAltText(
        await anEditor(),
        { pendingArticleId: articleId },
        new Map([[2, 'Two bars.']]),
      );
      return { method: 'POST', url: `/api/editor/articles/${articleId}/fulltext/pending/publish` };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/submissions/:id/publication',
    build: async () => {
      const s = await newSubmission('under_review', 'accepted');
      const body = await multipart({}, { pdf: { name: 'final.pdf', data: pdf, type: 'application/pdf' } });
      return { method: 'POST', url: `/api/editor/submissions/${s.id}/publication`, ...body };
    },
    expect: editorial(201),
  },
  {
    name: 'GET /api/editor/submissions/:id/publication',
    build: async () => {
      const s = await newSubmission('under_review', 'accepted');
      return { method: 'GET', url: `/api/editor/submissions/${s.id}/publication` };
    },
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/submissions/:id/final-pdf',
    build: async () => {
      const s = await newSubmission('under_review', 'accepted');
      await t.services.submissions.setFinalPdf(await anEditor(), s.id, {
        field: 'pdf',
        filename: 'final.pdf',
        data: pdf,
        kind: 'pdf',
        mediaType: 'application/pdf',
      });
      return { method: 'GET', url: `/api/editor/submissions/${s.id}/final-pdf` };
    },
    expect: editorial(200),
  },
  {
    name: 'GET /api/submissions/:id/copyright-form',
    build: async () => {
      const s = await newSubmissionWith({
        copyrightForm: { name: 'form.pdf', data: pdf, type: 'application/pdf' },
      });
      return { method: 'GET', url: `/api/submissions/${s.id}/copyright-form` };
    },
    expect: ownerOrEditor,
  },
  {
    name: 'GET /api/articles/public/articles',
    build: () => ({ method: 'GET', url: '/api/articles/public/articles' }),
    expect: all(200),
  },
  {
    name: 'GET /api/articles/public/article/:id',
    build: () => ({ method: 'GET', url: `/api/articles/public/article/${articleId}` }),
    expect: all(200),
  },
  {
    name: 'GET /api/articles/public/list',
    build: () => ({ method: 'GET', url: '/api/articles/public/list?page=1&size=10' }),
    expect: all(200),
  },
  { name: 'GET /api/papers', build: () => ({ method: 'GET', url: '/api/papers' }), expect: all(200) },
  {
    name: 'GET /api/search',
    build: () => ({ method: 'GET', url: '/api/search?q=article' }),
    expect: all(200),
  },
  {
    name: 'GET /api/site/search',
    build: () => ({ method: 'GET', url: '/api/site/search?q=article' }),
    expect: all(200),
  },
  {
    name: 'GET /api/articles/:id/citation',
    build: () => ({ method: 'GET', url: `/api/articles/${articleId}/citation?format=ris` }),
    expect: all(200),
  },
  {
    name: 'GET /api/articles/:id/citation/:style',
    build: () => ({ method: 'GET', url: `/api/articles/${articleId}/citation/mla` }),
    expect: all(200),
  },
  {
    name: 'GET /api/articles/:id/metrics',
    build: () => ({ method: 'GET', url: `/api/articles/${articleId}/metrics` }),
    expect: all(200),
  },
  {
    // Public; counted only from the site's own pages (the matrix's requests carry no such signal).
    name: 'POST /api/articles/:id/views',
    build: () => ({ method: 'POST', url: `/api/articles/${articleId}/views` }),
    expect: all(204),
  },
  {
    name: 'GET /api/articles/:id/download',
    build: () => ({ method: 'GET', url: `/api/articles/${articleId}/download` }),
    expect: download,
  },
  {
    // An article's other files: the PDF's rule (decision 0067).
    name: 'GET /api/articles/:id/files/:fileId',
    build: () => ({ method: 'GET', url: `/api/articles/${articleId}/files/${articleFileId}` }),
    expect: download,
  },
  {
    name: 'GET /api/issues/:id/cover',
    build: () => ({ method: 'GET', url: `/api/issues/${coverIssueId}/cover` }),
    expect: all(200),
  },
  { name: 'GET /api/auth/me', build: () => ({ method: 'GET', url: '/api/auth/me' }), expect: signedIn(200) },
  {
    name: 'GET /api/user/subscription',
    build: () => ({ method: 'GET', url: '/api/user/subscription' }),
    expect: signedIn(200),
  },
  {
    name: 'POST /api/user/subscription',
    build: () => ({ method: 'POST', url: '/api/user/subscription' }),
    expect: signedIn(200),
  },
  {
    name: 'DELETE /api/user/subscription',
    build: () => ({ method: 'DELETE', url: '/api/user/subscription' }),
    expect: signedIn(200),
  },
  {
    name: 'POST /api/submission/submit',
    build: async () => {
      const body = await multipart(
        {
          title: 'A matrix submission',
          articleType: 'Research Article',
          keywords: 'a, b, c, d',
          abstract: 'An abstract.',
          authors: author('A. Author'),
        },
        { submissionFile: { name: 'paper.pdf', data: pdf, type: 'application/pdf' } },
      );
      return { method: 'POST', url: '/api/submission/submit', ...body };
    },
    expect: submit,
  },
  {
    name: 'GET /api/submissions/mine',
    build: () => ({ method: 'GET', url: '/api/submissions/mine' }),
    expect: { ...submit, pendingAuthor: 200, approvedAuthor: 200, editor: 200, admin: 200 },
  },
  {
    name: 'GET /api/submissions/:id',
    build: async () => ({ method: 'GET', url: `/api/submissions/${(await newSubmission()).id}` }),
    expect: ownerOrEditor,
  },
  {
    name: 'GET /api/submissions/:id/files/:fileId',
    build: async () => {
      const s = await newSubmission();
      return { method: 'GET', url: `/api/submissions/${s.id}/files/${s.fileId}` };
    },
    expect: ownerOrEditor,
  },
  {
    name: 'POST /api/submissions/:id/revision',
    build: async () => {
      const s = await newSubmission('under_review', 'revisions_requested');
      const body = await multipart(
        {},
        { submissionFile: { name: 'v2.pdf', data: pdf, type: 'application/pdf' } },
      );
      return { method: 'POST', url: `/api/submissions/${s.id}/revision`, ...body };
    },
    expect: notOwner,
  },
  {
    name: 'GET /api/editor/submissions',
    build: () => ({ method: 'GET', url: '/api/editor/submissions' }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/submissions/:id/decision',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/submissions/${(await newSubmission()).id}/decision`,
      payload: { status: 'under_review', message: 'Reviewing.' },
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/submissions/:id/publish',
    build: async () => {
      const s = await newSubmission('under_review', 'accepted');
      const body = await multipart({
        issue_id: await firstIssueId(),
        pages: '1-2',
        doi: `10.5555/matrix.sub.${++seq}`,
      });
      return { method: 'POST', url: `/api/editor/submissions/${s.id}/publish`, ...body };
    },
    expect: editorial(201),
  },
  // The article processing charge (decision 0063): an invoice of an accepted submission of the submitter's.
  {
    name: 'GET /api/submissions/:id/invoice',
    build: async () => ({
      method: 'GET',
      url: `/api/submissions/${(await anInvoice()).submissionId}/invoice`,
    }),
    expect: ownerOrEditor,
  },
  {
    name: 'GET /api/submissions/:id/invoice.pdf',
    build: async () => ({
      method: 'GET',
      url: `/api/submissions/${(await anInvoice()).submissionId}/invoice.pdf`,
    }),
    expect: ownerOrEditor,
  },
  {
    // Only the submission's own author asks: an editor finds nothing of theirs to ask about.
    name: 'POST /api/submissions/:id/invoice/waiver',
    build: async () => ({
      method: 'POST',
      url: `/api/submissions/${(await anInvoice()).submissionId}/invoice/waiver`,
      payload: { reason: 'No funding for this paper.' },
    }),
    expect: notOwner,
  },
  {
    name: 'POST /api/submissions/:id/invoice/voucher',
    build: async () => ({
      method: 'POST',
      url: `/api/submissions/${(await anInvoice()).submissionId}/invoice/voucher`,
      payload: { code: 'ABCD-EFGH-JKLM' },
    }),
    expect: notOwner,
  },
  {
    name: 'GET /api/apc/invoices',
    build: () => ({ method: 'GET', url: '/api/apc/invoices?state=due' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/apc/invoices.csv',
    build: () => ({ method: 'GET', url: '/api/apc/invoices.csv' }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/apc/invoices/:id/waiver',
    build: async () => {
      const { submissionId, invoiceId } = await anInvoice();
      const asked = await t.app.inject({
        method: 'POST',
        url: `/api/submissions/${submissionId}/invoice/waiver`,
        headers: { authorization: `Bearer ${submitterToken}` },
        payload: { reason: 'No funding for this paper.' },
      });
      expect(asked.statusCode).toBe(200);
      return {
        method: 'POST',
        url: `/api/apc/invoices/${invoiceId}/waiver`,
        payload: { decision: 'decline', message: 'Declined.' },
      };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/apc/invoices/:id/payments',
    build: async () => ({
      method: 'POST',
      url: `/api/apc/invoices/${(await anInvoice()).invoiceId}/payments`,
      payload: { paidOn: '2026-03-01', amount: '10', method: 'card', reference: 'R-1' },
    }),
    expect: editorial(201),
  },
  {
    name: 'POST /api/apc/invoices/:id/void',
    build: async () => ({
      method: 'POST',
      url: `/api/apc/invoices/${(await anInvoice()).invoiceId}/void`,
      payload: { reason: 'Withdrawn.' },
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/apc/reviews/:id/vouchers',
    build: async () => {
      const { id } = await newSubmission('under_review');
      const { assignmentId } = await inviteReviewer(t, tokens.admin!, id, {
        name: 'Vera Voucher',
        email: `vera${++seq}@example.org`,
      });
      await t.services.db
        .update(reviewAssignments)
        .set({ state: 'submitted', submittedAt: new Date() })
        .where(eq(reviewAssignments.id, assignmentId));
      return {
        method: 'POST',
        url: `/api/apc/reviews/${assignmentId}/vouchers`,
        payload: { kind: 'percent', percent: 20, expiresOn: '2099-12-31' },
      };
    },
    expect: editorial(201),
  },
  {
    name: 'GET /api/apc/settings',
    build: () => ({ method: 'GET', url: '/api/apc/settings' }),
    expect: editorial(200),
  },
  {
    name: 'PUT /api/apc/settings',
    build: async () => ({
      method: 'PUT',
      url: '/api/apc/settings',
      payload: (
        await t.app.inject({
          method: 'GET',
          url: '/api/apc/settings',
          headers: { authorization: `Bearer ${tokens.admin}` },
        })
      ).json(),
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/plagiarism',
    build: async () => {
      const body = await multipart({}, { file: { name: 'paper.pdf', data: pdf, type: 'application/pdf' } });
      return { method: 'POST', url: '/api/plagiarism', ...body };
    },
    expect: signedIn(200),
  },
  {
    name: 'GET /api/editor/submissions/:id/similarity',
    build: async () => ({
      method: 'GET',
      url: `/api/editor/submissions/${(await newSubmission()).id}/similarity`,
    }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/messages',
    build: () => ({ method: 'GET', url: '/api/editor/messages' }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/messages/:id/handled',
    build: () => ({ method: 'POST', url: `/api/editor/messages/${messageId}/handled` }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/audit',
    build: () => ({ method: 'GET', url: '/api/editor/audit' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/volumes',
    build: () => ({ method: 'GET', url: '/api/editor/volumes' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/issues',
    build: () => ({ method: 'GET', url: '/api/editor/issues' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/articles',
    build: () => ({ method: 'GET', url: '/api/editor/articles' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/export/crossref/issue/:id',
    build: async () => ({ method: 'GET', url: `/api/editor/export/crossref/issue/${await seedIssueId()}` }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/export/crossref/article/:id',
    build: () => ({ method: 'GET', url: `/api/editor/export/crossref/article/${articleId}` }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/export/doaj/issue/:id',
    build: async () => ({ method: 'GET', url: `/api/editor/export/doaj/issue/${await seedIssueId()}` }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/pending-users',
    build: () => ({ method: 'GET', url: '/api/editor/pending-users' }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/volume',
    build: () => ({
      method: 'POST',
      url: '/api/editor/volume',
      payload: { title: `Volume ${++seq}`, volume_number: seq, year: 2026 },
    }),
    expect: editorial(201),
  },
  {
    name: 'POST /api/editor/issue',
    build: () => ({
      method: 'POST',
      url: '/api/editor/issue',
      payload: { title: 'Issue', description: 'An issue', volume_id: volumeId },
    }),
    expect: editorial(201),
  },
  {
    name: 'PATCH /api/editor/volumes/:id',
    build: async () => {
      const v = (await t.services.catalog.editorVolumes()).find((x) => x.id === volumeId)!;
      return {
        method: 'PATCH',
        url: `/api/editor/volumes/${volumeId}`,
        payload: { title: v.title, volume_number: v.volume_number, year: v.year },
      };
    },
    expect: editorial(200),
  },
  {
    name: 'PATCH /api/editor/issues/:id',
    build: async () => ({
      method: 'PATCH',
      url: `/api/editor/issues/${await firstIssueId()}`,
      payload: { title: 'Issue (edited)', description: 'An edited issue' },
    }),
    expect: editorial(200),
  },
  {
    name: 'PATCH /api/editor/articles/:id',
    build: async () => {
      const a = await t.services.catalog.article(articleId, { includeUnpublished: true });
      return {
        method: 'PATCH',
        url: `/api/editor/articles/${articleId}`,
        payload: {
          title: a.title,
          abstract: a.abstract,
          keywords: a.keywords,
          pages: a.pages,
          doi: a.doi,
          issue_id: a.issue_id,
          authors: JSON.stringify(
            a.authors.map((x) => ({
              name: x.name,
              email: x.email,
              affiliation: x.affiliation,
              superscript: x.superscript,
            })),
          ),
        },
      };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/articles/:id/pdf',
    build: async () => {
      const body = await multipart({}, { pdf: { name: 'article.pdf', data: pdf, type: 'application/pdf' } });
      return { method: 'POST', url: `/api/editor/articles/${articleId}/pdf`, ...body };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/articles/:id/status',
    build: () => ({
      method: 'POST',
      url: `/api/editor/articles/${articleId}/status`,
      payload: { status: 'published' },
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/articles/admin/upload',
    build: async () => {
      const body = await multipart(
        {
          title: 'Matrix article',
          abstract: 'Abstract.',
          keywords: 'x, y',
          pages: '1-5',
          doi: `10.5555/matrix.${++seq}`,
          issue_id: await firstIssueId(),
          authors: author('B. Author'),
        },
        { pdf: { name: 'article.pdf', data: pdf, type: 'application/pdf' } },
      );
      return { method: 'POST', url: '/api/articles/admin/upload', ...body };
    },
    expect: editorial(201),
  },
  {
    name: 'POST /api/editor/approve-user/:id',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/approve-user/${(await t.createUser({ role: 'researcher', status: 'pending' })).id}`,
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/reject-user/:id',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/reject-user/${(await t.createUser({ role: 'author', status: 'pending' })).id}`,
    }),
    expect: editorial(200),
  },
  {
    // A fresh issue without articles: editors get as far as the rule that there is nothing to announce.
    name: 'POST /api/editor/issues/:id/alert',
    build: async () => {
      const admin = (await t.services.accounts.listUsers({ role: 'admin', limit: 1, offset: 0 })).users[0];
      const issue = await t.services.catalog.createIssue(admin, {
        title: `Alert issue ${++seq}`,
        description: 'Empty.',
        volume_id: volumeId,
      });
      return { method: 'POST', url: `/api/editor/issues/${issue.id}/alert` };
    },
    expect: editorial(409),
  },
  {
    name: 'GET /api/admin/users',
    build: () => ({ method: 'GET', url: '/api/admin/users' }),
    expect: adminOnly(200),
  },
  {
    name: 'PATCH /api/admin/users/:id',
    build: async () => ({
      method: 'PATCH',
      url: `/api/admin/users/${(await t.createUser({ role: 'researcher', status: 'pending' })).id}`,
      payload: { role: 'editor', status: 'approved' },
    }),
    expect: adminOnly(200),
  },
  {
    name: 'GET /api/admin/journal-settings',
    build: () => ({ method: 'GET', url: '/api/admin/journal-settings' }),
    expect: adminOnly(200),
  },
  {
    name: 'GET /api/reviews',
    build: () => ({ method: 'GET', url: '/api/reviews' }),
    expect: signedIn(200),
  },
  {
    name: 'GET /api/reviews/:id',
    build: async () => ({ method: 'GET', url: `/api/reviews/${(await newAssignment()).assignmentId}` }),
    expect: notReviewer,
  },
  {
    name: 'POST /api/reviews/:id/accept',
    build: async () => ({
      method: 'POST',
      url: `/api/reviews/${(await newAssignment()).assignmentId}/accept`,
    }),
    expect: notReviewer,
  },
  {
    name: 'POST /api/reviews/:id/decline',
    build: async () => ({
      method: 'POST',
      url: `/api/reviews/${(await newAssignment()).assignmentId}/decline`,
      payload: { reason: 'too-busy' },
    }),
    expect: notReviewer,
  },
  {
    name: 'PUT /api/reviews/:id/draft',
    build: async () => ({
      method: 'PUT',
      url: `/api/reviews/${(await newAssignment('accepted')).assignmentId}/draft`,
      payload: { commentsForAuthor: 'Not mine to write.' },
    }),
    expect: notReviewer,
  },
  {
    name: 'POST /api/reviews/:id/attachment',
    build: async () => {
      const body = await multipart({}, { file: { name: 'notes.pdf', data: pdf, type: 'application/pdf' } });
      const { assignmentId } = await newAssignment('accepted');
      return {
        method: 'POST',
        url: `/api/reviews/${assignmentId}/attachment`,
        headers: body.headers,
        payload: body.payload,
      };
    },
    expect: notReviewer,
  },
  {
    name: 'DELETE /api/reviews/:id/attachment',
    build: async () => {
      const { assignmentId, token } = await newAssignment('accepted');
      const body = await multipart({}, { file: { name: 'notes.pdf', data: pdf, type: 'application/pdf' } });
      const url = `/api/reviews/${assignmentId}/attachment`;
      const attached = await t.app.inject({ method: 'POST', url: `${url}?token=${token}`, ...body });
      expect(attached.statusCode, attached.body).toBe(200);
      return { method: 'DELETE', url };
    },
    expect: notReviewer,
  },
  {
    name: 'GET /api/reviews/:id/attachment',
    build: async () => ({
      method: 'GET',
      url: `/api/reviews/${(await newAssignment('submitted')).assignmentId}/attachment`,
    }),
    expect: notReviewer,
  },
  {
    name: 'POST /api/reviews/:id/submit',
    build: async () => ({
      method: 'POST',
      url: `/api/reviews/${(await newAssignment('accepted')).assignmentId}/submit`,
      payload: { recommendation: 'reject', commentsForAuthor: 'Not mine.' },
    }),
    expect: notReviewer,
  },
  {
    name: 'GET /api/reviews/:id/files/:fileId',
    build: async () => {
      const { assignmentId, submissionId } = await newAssignment('accepted');
      const round = (await t.services.review.editorView(submissionId)).rounds[0];
      return { method: 'GET', url: `/api/reviews/${assignmentId}/files/${round.reviewerFileIds[0]}` };
    },
    expect: notReviewer,
  },
  {
    name: 'GET /api/reviewer/profile',
    build: () => ({ method: 'GET', url: '/api/reviewer/profile' }),
    expect: signedIn(200),
  },
  {
    name: 'PUT /api/reviewer/profile',
    build: () => ({
      method: 'PUT',
      url: '/api/reviewer/profile',
      payload: { name: 'A Reviewer', interests: [] },
    }),
    expect: signedIn(200),
  },
  {
    // The author's view of their own submission's review; nobody else's (editors have theirs).
    name: 'GET /api/submissions/:id/reviews',
    build: async () => ({
      method: 'GET',
      url: `/api/submissions/${(await newSubmission('under_review')).id}/reviews`,
    }),
    expect: notOwner,
  },
  {
    name: 'GET /api/submissions/:id/reviews/:assignmentId/attachment',
    build: async () => {
      const { submissionId, assignmentId } = await newAssignment('submitted');
      return { method: 'GET', url: `/api/submissions/${submissionId}/reviews/${assignmentId}/attachment` };
    },
    expect: notOwner,
  },
  {
    name: 'GET /api/articles/:id/reviews',
    build: () => ({ method: 'GET', url: `/api/articles/${articleId}/reviews` }),
    expect: all(200),
  },
  {
    name: 'GET /api/editor/submissions/:id/review',
    build: async () => ({
      method: 'GET',
      url: `/api/editor/submissions/${(await newSubmission('under_review')).id}/review`,
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/submissions/:id/review/invitations',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/submissions/${(await newSubmission('under_review')).id}/review/invitations`,
      payload: { name: 'Invited Person', email: `invited${++seq}@matrix.example` },
    }),
    expect: editorial(201),
  },
  {
    name: 'PUT /api/editor/submissions/:id/review/mode',
    build: async () => ({
      method: 'PUT',
      url: `/api/editor/submissions/${(await newSubmission('under_review')).id}/review/mode`,
      payload: { mode: 'open' },
    }),
    expect: editorial(200),
  },
  {
    name: 'PUT /api/editor/submissions/:id/review/files',
    build: async () => ({
      method: 'PUT',
      url: `/api/editor/submissions/${(await newSubmission('under_review')).id}/review/files`,
      payload: { fileIds: [] },
    }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/submissions/:id/review/file-properties',
    build: async () => ({
      method: 'GET',
      url: `/api/editor/submissions/${(await newSubmission('under_review')).id}/review/file-properties`,
    }),
    expect: editorial(200),
  },
  {
    // The fixture manuscript names nobody: an editor is told there is nothing to remove.
    name: 'POST /api/editor/submissions/:id/review/files/without-properties',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/submissions/${(await newSubmission('under_review')).id}/review/files/without-properties`,
    }),
    expect: editorial(409),
  },
  {
    // A review withheld with the decision, shared afterwards (issue 22).
    name: 'POST /api/editor/submissions/:id/review/share',
    build: async () => {
      const { submissionId, assignmentId } = await newAssignment('submitted');
      const admin = {
        id: 1,
        username: 'admin',
        fullName: 'Admin',
        email: 'admin@example.org',
        role: 'admin',
        status: 'approved',
      } as const;
      await t.services.submissions.decide(admin, submissionId, {
        status: 'rejected',
        message: 'No.',
        shareReviews: [],
        confirm: ['withhold-reviews'],
      });
      return {
        method: 'POST',
        url: `/api/editor/submissions/${submissionId}/review/share`,
        payload: { reviews: [assignmentId] },
      };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/review-assignments/:id/cancel',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/review-assignments/${(await newAssignment()).assignmentId}/cancel`,
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/review-assignments/:id/reinstate',
    build: async () => {
      const { assignmentId } = await newAssignment();
      await t.services.review.cancel({ id: 1, username: 'admin' }, assignmentId);
      return { method: 'POST', url: `/api/editor/review-assignments/${assignmentId}/reinstate` };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/review-assignments/:id/remind',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/review-assignments/${(await newAssignment()).assignmentId}/remind`,
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/review-assignments/:id/read',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/review-assignments/${(await newAssignment('submitted')).assignmentId}/read`,
    }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/review-assignments/:id/thank',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/review-assignments/${(await newAssignment('submitted')).assignmentId}/thank`,
    }),
    expect: editorial(200),
  },
  {
    name: 'PUT /api/editor/review-assignments/:id/due-dates',
    build: async () => ({
      method: 'PUT',
      url: `/api/editor/review-assignments/${(await newAssignment()).assignmentId}/due-dates`,
      payload: { reviewDue: '2099-12-31' },
    }),
    expect: editorial(200),
  },
  {
    name: 'PUT /api/editor/review-assignments/:id/rating',
    build: async () => ({
      method: 'PUT',
      url: `/api/editor/review-assignments/${(await newAssignment('submitted')).assignmentId}/rating`,
      payload: { rating: 5 },
    }),
    expect: editorial(200),
  },
  {
    // This review has no attached file: editors are told so; nobody else gets that far.
    name: 'GET /api/editor/review-assignments/:id/attachment',
    build: async () => ({
      method: 'GET',
      url: `/api/editor/review-assignments/${(await newAssignment('submitted')).assignmentId}/attachment`,
    }),
    expect: editorial(404),
  },
  {
    name: 'GET /api/editor/reviewers',
    build: () => ({ method: 'GET', url: '/api/editor/reviewers?q=matrix' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/reviewers/site',
    build: () => ({ method: 'GET', url: '/api/editor/reviewers/site?q=matrix' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/review-forms',
    build: () => ({ method: 'GET', url: '/api/editor/review-forms' }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/review-forms',
    build: () => ({
      method: 'POST',
      url: '/api/editor/review-forms',
      payload: { name: `Form ${++seq}`, questions: [{ id: 'q1', type: 'long-text', label: 'Comments?' }] },
    }),
    expect: editorial(201),
  },
  {
    name: 'PUT /api/editor/review-forms/:id',
    build: async () => {
      const form = await t.services.review.createForm(
        { id: 1, username: 'admin' },
        { name: 'Draft form', questions: [] },
      );
      return {
        method: 'PUT',
        url: `/api/editor/review-forms/${form.id}`,
        payload: { name: 'Renamed form', questions: [] },
      };
    },
    expect: editorial(200),
  },
  {
    name: 'PUT /api/admin/journal-settings',
    build: async () => ({
      method: 'PUT',
      url: '/api/admin/journal-settings',
      payload: (await t.services.content.journalSettingsForEdit()).settings,
    }),
    expect: adminOnly(200),
  },
  // The journal's logo (decision 0062): none yet when it is read; the admin's to set, then to remove.
  {
    name: 'GET /api/journal/logo',
    build: () => ({ method: 'GET', url: '/api/journal/logo' }),
    expect: { ...all(404), anonymous: 404 },
  },
  {
    name: 'PUT /api/admin/journal-logo',
    build: async () => {
      const body = await multipart(
        {},
        { logo: { name: 'logo.png', data: barChartPng([2, 3], { width: 96, height: 96 }) } },
      );
      return { method: 'PUT', url: '/api/admin/journal-logo', headers: body.headers, payload: body.payload };
    },
    expect: adminOnly(200),
  },
  {
    name: 'DELETE /api/admin/journal-logo',
    build: () => ({ method: 'DELETE', url: '/api/admin/journal-logo' }),
    expect: adminOnly(200),
  },
  // Preservation (decision 0065): the editors' archive page and bags, the admin's settings.
  {
    name: 'GET /api/editor/preservation',
    build: () => ({ method: 'GET', url: '/api/editor/preservation' }),
    expect: editorial(200),
  },
  {
    name: 'PUT /api/admin/preservation',
    build: () => ({
      method: 'PUT',
      url: '/api/admin/preservation',
      payload: { lockss: false, clockss: false, crawlerAddresses: ['192.0.2.0/24'] },
    }),
    expect: adminOnly(200),
  },
  {
    name: 'GET /api/editor/preservation/issues/:id/bag',
    build: async () => {
      const issueId = await seedIssueId();
      await withJournal(1, () => t.services.preservation.makeBag(issueId));
      return { method: 'GET', url: `/api/editor/preservation/issues/${issueId}/bag` };
    },
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/preservation/issues/:id/bag',
    build: async () => ({
      method: 'POST',
      url: `/api/editor/preservation/issues/${await seedIssueId()}/bag`,
    }),
    expect: editorial(202),
  },
  // Moving out (decision 0068): the journal as OJS Native XML and Users XML, the journal admin's downloads.
  {
    name: 'GET /api/admin/export/ojs.xml',
    build: () => ({ method: 'GET', url: '/api/admin/export/ojs.xml' }),
    expect: adminOnly(200),
  },
  {
    name: 'GET /api/admin/export/users.xml',
    build: () => ({ method: 'GET', url: '/api/admin/export/users.xml' }),
    expect: adminOnly(200),
  },
  // The site admin's journals (decision 0055): the seed's admin is the site's admin; no other persona is.
  // DOI registration (decision 0064): the editors' DOI page; its settings the admin's. No Crossref account is
  // set here, so a deposit is refused (409) for whoever may ask for one.
  {
    name: 'GET /api/editor/dois',
    build: () => ({ method: 'GET', url: '/api/editor/dois?state=failed' }),
    expect: editorial(200),
  },
  {
    name: 'GET /api/editor/dois/:id',
    build: () => ({ method: 'GET', url: `/api/editor/dois/${articleId}` }),
    expect: editorial(200),
  },
  {
    name: 'POST /api/editor/dois/deposit',
    build: () => ({ method: 'POST', url: '/api/editor/dois/deposit', payload: { article_ids: [articleId] } }),
    expect: editorial(409),
  },
  {
    name: 'GET /api/admin/doi-settings',
    build: () => ({ method: 'GET', url: '/api/admin/doi-settings' }),
    expect: editorial(200),
  },
  {
    name: 'PUT /api/admin/doi-settings',
    build: () => ({
      method: 'PUT',
      url: '/api/admin/doi-settings',
      payload: {
        pattern: '{prefix}/matrix.{year}.{number}',
        crossref_username: '',
        crossref_mode: 'test',
        auto_deposit: true,
        doaj_enabled: false,
      },
    }),
    expect: adminOnly(200),
  },
  {
    name: 'GET /api/admin/journals',
    build: () => ({ method: 'GET', url: '/api/admin/journals' }),
    expect: adminOnly(200),
  },
  {
    name: 'POST /api/admin/journals',
    build: () => ({
      method: 'POST',
      url: '/api/admin/journals',
      payload: { title: 'Matrix journal', path: `matrix-${++seq}`, editor: 'admin' },
    }),
    expect: adminOnly(201),
  },
  {
    name: 'POST /api/admin/journals/:id/status',
    build: () => ({ method: 'POST', url: '/api/admin/journals/1/status', payload: { status: 'open' } }),
    expect: adminOnly(200),
  },
  {
    name: 'POST /api/admin/journals/:id/move',
    build: async () => {
      const journal = await t.services.journalAdmin.create({
        title: 'Moving',
        path: `moving-${++seq}`,
        editor: 'admin',
      });
      return {
        method: 'POST',
        url: `/api/admin/journals/${journal.id}/move`,
        payload: { path: `moved-${++seq}` },
      };
    },
    expect: adminOnly(200),
  },
  {
    name: 'POST /api/admin/imports',
    build: async () => {
      const xml = [...nativeExport('3.4', sampleJournal({ issues: 1, perIssue: 1 }))].join('');
      const body = await multipart(
        { journal: 'jb', dryRun: 'true' },
        { file: { name: 'native.xml', data: Buffer.from(xml), type: 'text/xml' } },
      );
      return { method: 'POST', url: '/api/admin/imports', ...body };
    },
    expect: adminOnly(202),
  },
  {
    name: 'GET /api/admin/imports',
    build: () => ({ method: 'GET', url: '/api/admin/imports' }),
    expect: adminOnly(200),
  },
  {
    name: 'GET /api/admin/imports/:id',
    build: () => ({ method: 'GET', url: '/api/admin/imports/999999' }),
    expect: adminOnly(404),
  },
  {
    name: 'POST /api/admin/imports/:id/run',
    build: () => ({ method: 'POST', url: '/api/admin/imports/999999/run' }),
    expect: adminOnly(404),
  },
  {
    name: 'POST /api/auth/login',
    build: () => ({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'nobody', password: 'wrong-password' },
    }),
    expect: all(401),
  },
  {
    name: 'POST /api/auth/register',
    build: () => ({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        username: `reg${++seq}`,
        password: 'long-enough-1',
        email: `reg${seq}@example.org`,
        fullName: 'Reg Istrant',
        contactNumber: '+91 44 2222 3333',
        institution: 'Somewhere',
        role: 'researcher',
      },
    }),
    expect: all(201),
  },
  {
    name: 'POST /contact',
    build: () => ({
      method: 'POST',
      url: '/contact',
      payload: { name: 'Reader', email: 'reader@example.org', message: 'Hello' },
    }),
    expect: all(200),
  },
  {
    name: 'GET /healthz',
    build: () => ({ method: 'GET', url: '/healthz' }),
    expect: all(200),
  },
  {
    name: 'GET /readyz',
    build: () => ({ method: 'GET', url: '/readyz' }),
    expect: all(200),
  },
  {
    name: 'POST /api/auth/password-reset',
    build: () => ({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { identifier: 'nobody-at-all' },
    }),
    expect: all(202),
  },
  {
    name: 'POST /api/auth/password-reset/confirm',
    build: () => ({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token: 'no-such-link', password: 'long-enough-1' },
    }),
    expect: all(400),
  },
  {
    name: 'POST /api/account/email/confirm',
    build: () => ({ method: 'POST', url: '/api/account/email/confirm', payload: { token: 'no-such-link' } }),
    expect: all(400),
  },
  { name: 'GET /api/account', build: () => ({ method: 'GET', url: '/api/account' }), expect: signedIn(200) },
  {
    name: 'PATCH /api/account',
    build: () => ({ method: 'PATCH', url: '/api/account', payload: { institution: 'Matrix Institute' } }),
    expect: signedIn(200),
  },
  {
    // A wrong current password: each persona gets as far as that check, and nobody's password changes.
    name: 'POST /api/account/password',
    build: () => ({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: 'not-the-password', newPassword: 'long-enough-1' },
    }),
    expect: signedIn(400),
  },
  {
    name: 'POST /api/account/email',
    build: () => ({
      method: 'POST',
      url: '/api/account/email',
      payload: { email: `matrix${++seq}@example.org`, password: 'not-the-password' },
    }),
    expect: signedIn(400),
  },
  {
    name: 'GET /api/account/sessions',
    build: () => ({ method: 'GET', url: '/api/account/sessions' }),
    expect: signedIn(200),
  },
  {
    name: 'POST /api/account/sessions/end-others',
    build: () => ({ method: 'POST', url: '/api/account/sessions/end-others' }),
    expect: signedIn(200),
  },
  {
    // Nobody's session: only the owner of a session may end it, and this one has none.
    name: 'DELETE /api/account/sessions/:id',
    build: () => ({ method: 'DELETE', url: '/api/account/sessions/0b7f3e52-9d8c-4c1a-8f7e-2a4b6c8d0e1f' }),
    expect: signedIn(404),
  },
  {
    // Every persona is a member of journal 1 already (decision 0054): asking again is 409.
    name: 'POST /api/auth/join',
    build: () => ({ method: 'POST', url: '/api/auth/join', payload: { role: 'researcher' } }),
    expect: signedIn(409),
  },
  {
    // The site admin's (users.site_admin), not a journal role's: an editor or a journal's admin is refused.
    name: 'PATCH /api/site/users/:id',
    build: async () => ({
      method: 'PATCH',
      url: `/api/site/users/${(await t.createUser({ role: 'researcher', status: 'approved' })).id}`,
      payload: { suspended: false },
    }),
    expect: { ...signedIn(403), admin: 200 },
  },
  {
    name: 'POST /api/auth/logout',
    build: () => ({ method: 'POST', url: '/api/auth/logout' }),
    expect: all(200),
  },
];

beforeAll(async () => {
  t = await createTestContext();
  const signIn = async (
    role: 'researcher' | 'author' | 'editor',
    status: 'pending' | 'approved' | 'rejected',
  ) => {
    const u = await t.createUser({ role, status });
    return t.login(u.username, u.password);
  };
  tokens.anonymous = null;
  tokens.pendingResearcher = await signIn('researcher', 'pending');
  tokens.approvedResearcher = await signIn('researcher', 'approved');
  tokens.pendingAuthor = await signIn('author', 'pending');
  tokens.approvedAuthor = await signIn('author', 'approved');
  tokens.rejectedAuthor = await signIn('author', 'rejected');
  tokens.editor = await signIn('editor', 'approved');
  tokens.admin = await t.login('admin', 'admin-pass-123');
  // Suspended after signing in: the session is still open, but the account's current status rules.
  const s = await t.createUser({ role: 'researcher', status: 'approved' });
  tokens.suspended = await t.login(s.username, s.password);
  await t.services.db
    .update(journalMemberships)
    .set({ status: 'suspended' })
    .where(eq(journalMemberships.userId, s.id));

  const submitter = await t.createUser({ role: 'author', status: 'approved' });
  submitterToken = await t.login(submitter.username, submitter.password);
  const contact = await t.app.inject({
    method: 'POST',
    url: '/contact',
    payload: { name: 'N', email: 'n@example.org', message: 'M' },
  });
  expect(contact.statusCode).toBe(200);
  messageId = (await t.services.contact.list({ limit: 1, offset: 0 })).messages[0].id;

  volumeId = (await createVolume(t, tokens.admin!, { number: 1, year: 2025 })).id;
  const issue = await createIssue(t, tokens.admin!, { volumeId, title: 'Issue 1', description: 'First' });
  articleId = (
    await publishArticle(t, tokens.admin!, {
      issueId: issue.id,
      title: 'Seed article',
      abstract: 'Abstract.',
      keywords: 'k1, k2',
      pages: '1-10',
      doi: '10.5555/matrix.seed',
      authors: author('C. Author'),
      pdf: { name: 'a.pdf', data: pdf, type: 'application/pdf' },
    })
  ).id;
  articleFileId = await withJournal(1, () =>
    t.services.files.withStoredFiles(
      [{ field: 'file', filename: 'a.pdf', data: pdf, kind: 'pdf', mediaType: 'application/pdf' }],
      async (tx, [file]) => {
        const [row] = await tx
          .insert(articleFiles)
          .values({ articleId, position: 1, label: 'PDF (Français)', locale: 'fr', fileId: file.id })
          .returning();
        return row.id;
      },
    ),
  );
  // The issue's cover (an imported OJS issue's): public.
  coverIssueId = issue.id;
  await withJournal(1, () =>
    t.services.files.withStoredFiles(
      [
        {
          field: 'cover',
          filename: 'cover.png',
          data: barChartPng([2, 3], { width: 60, height: 80 }),
          kind: 'png',
          mediaType: 'image/png',
        },
      ],
      (tx, [file]) => tx.update(issues).set({ coverFileId: file.id }).where(eq(issues.id, issue.id)),
    ),
  );
});

afterAll(() => t?.close());

/**
 * The same personas at journal B (`/jb`), where none of them is a member (decision 0054): signed in, they
 * read their own account and may ask to join, and nothing of B's members, pending accounts or roles reaches
 * them; an account that exists in B and one that exists nowhere get the same answer. The site admin is no
 * editor of B for running the site, but suspends accounts from any journal's address.
 */
let journalB = 0;
const nonMember = (ok: number): Expect => ({ ...all(ok), anonymous: 401 });
const inB = (role: 'researcher' | 'author', status: 'pending' | 'approved') =>
  withJournal(journalB, () => t.createUser({ role, status }));
const ROUTES_IN_B: { name: string; build: () => Promise<Call> | Call; expect: Expect }[] = [
  {
    name: 'GET /jb/api/auth/me',
    build: () => ({ method: 'GET', url: '/jb/api/auth/me' }),
    expect: nonMember(200),
  },
  {
    name: 'GET /jb/api/account',
    build: () => ({ method: 'GET', url: '/jb/api/account' }),
    expect: nonMember(200),
  },
  {
    name: 'GET /jb/api/editor/pending-users',
    build: () => ({ method: 'GET', url: '/jb/api/editor/pending-users' }),
    expect: nonMember(403),
  },
  {
    name: 'POST /jb/api/editor/approve-user/:id (pending in B)',
    build: async () => ({
      method: 'POST',
      url: `/jb/api/editor/approve-user/${(await inB('author', 'pending')).id}`,
    }),
    expect: nonMember(403),
  },
  {
    name: 'POST /jb/api/editor/approve-user/:id (no such account)',
    build: () => ({ method: 'POST', url: '/jb/api/editor/approve-user/987654' }),
    expect: nonMember(403),
  },
  {
    name: 'POST /jb/api/editor/reject-user/:id (pending in B)',
    build: async () => ({
      method: 'POST',
      url: `/jb/api/editor/reject-user/${(await inB('researcher', 'pending')).id}`,
    }),
    expect: nonMember(403),
  },
  {
    name: 'GET /jb/api/admin/users',
    build: () => ({ method: 'GET', url: '/jb/api/admin/users' }),
    expect: nonMember(403),
  },
  {
    name: 'PATCH /jb/api/admin/users/:id (member of B)',
    build: async () => ({
      method: 'PATCH',
      url: `/jb/api/admin/users/${(await inB('researcher', 'approved')).id}`,
      payload: { role: 'editor' },
    }),
    expect: nonMember(403),
  },
  {
    name: 'PATCH /jb/api/site/users/:id',
    build: async () => ({
      method: 'PATCH',
      url: `/jb/api/site/users/${(await inB('researcher', 'approved')).id}`,
      payload: { suspended: false },
    }),
    expect: { ...nonMember(403), admin: 200 },
  },
  // Last: each persona becomes a pending member of B.
  {
    name: 'POST /jb/api/auth/join',
    build: () => ({ method: 'POST', url: '/jb/api/auth/join', payload: { role: 'author' } }),
    expect: nonMember(201),
  },
];

describe("authorization matrix across journals: journal A's personas at journal B", () => {
  beforeAll(async () => {
    const [b] = await t.services.db.insert(journals).values({ title: 'Journal B', path: 'jb' }).returning();
    journalB = b.id;
    await t.services.journals.load();
    await withJournal(journalB, () => seed(t.services, { demo: false }));
  });

  for (const route of ROUTES_IN_B) {
    describe(route.name, () => {
      for (const persona of PERSONAS) {
        it(`${persona} → ${route.expect[persona]}`, async () => {
          const res = await call(await route.build(), persona);
          expect(res.statusCode, res.body).toBe(route.expect[persona]);
          if (res.statusCode >= 400) expect(res.json().message).toEqual(expect.any(String));
        });
      }
    });
  }

  it("leaves every persona's role in journal A as it was", async () => {
    const me = await call({ method: 'GET', url: '/api/auth/me' }, 'editor');
    expect(me.json()).toMatchObject({ role: 'editor', status: 'approved' });
    const inJournalB = await call({ method: 'GET', url: '/jb/api/auth/me' }, 'editor');
    expect(inJournalB.json()).toMatchObject({ role: 'author', status: 'pending' });
  });
});

describe('authorization matrix', () => {
  for (const route of ROUTES) {
    describe(route.name, () => {
      for (const persona of PERSONAS) {
        it(`${persona} → ${route.expect[persona]}`, async () => {
          const res = await call(await route.build(), persona);
          expect(res.statusCode, res.body).toBe(route.expect[persona]);
          if (res.statusCode >= 400) expect(res.json().message).toEqual(expect.any(String));
        });
      }
    });
  }

  it('covers every route of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const tested = ROUTES.map((r) => r.name);
    expect(documented.length).toBeGreaterThan(20);
    for (const d of documented) expect(tested, `${d} is not in the matrix`).toContain(d);
  });
});
