/**
 * Test data made through the real HTTP layer (`app.inject`), as Outline's `server/test/factories.ts`: the
 * volume, issue, article, submission and review set-up that API tests share, written once (decision 0050).
 * Each factory takes whoever acts (a bearer token, or the headers a test already holds), fills what the test
 * does not care about, and throws with the answer's status and body when the API refuses: set-up that fails
 * stops the test at the step that failed. A test about a refusal keeps its own request (or uses the
 * `post…` variant, which returns the answer as it is).
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { JournalSettings } from '../../common/journal.ts';
import { newJournalSettings } from '../../content/journal.ts';
import { journalMemberships, users } from '../accounts/tables.ts';
import { asSite, withJournal } from '../db/scope.ts';
import { journals } from '../journals/tables.ts';
import { seedJournal } from '../seed/seed.ts';
import { fixture, multipart, type TestContext } from './harness.ts';

/** Whoever acts: a bearer token, or request headers (`{ authorization: 'Bearer …' }`). */
export type As = string | Record<string, string>;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const headersOf = (as: As): Record<string, string> => (typeof as === 'string' ? bearer(as) : as);

type File = { name: string; data: Buffer; type?: string };

function expectStatus(res: LightMyRequestResponse, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
}

export interface Volume {
  id: number;
  title: string;
  volume_number: number;
  year: number;
}

/** `POST /api/editor/volume`: the volume as answered (title `Volume N` unless given). */
export async function createVolume(
  t: TestContext,
  as: As,
  volume: { number: number; year: number; title?: string },
): Promise<Volume> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/editor/volume',
    headers: headersOf(as),
    payload: {
      title: volume.title ?? `Volume ${volume.number}`,
      volume_number: volume.number,
      year: volume.year,
    },
  });
  return expectStatus(res, 201, 'create volume').volume;
}

export interface Issue {
  id: number;
  volume_id: number;
  issue_number: number;
  title: string;
  publication_month: number | null;
}

/** `POST /api/editor/issue`: the issue as answered (the API gives it the next number in its volume). */
export async function createIssue(
  t: TestContext,
  as: As,
  issue: { volumeId: number; title?: string; description?: string; publicationMonth?: number },
): Promise<Issue> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/editor/issue',
    headers: headersOf(as),
    payload: {
      volume_id: issue.volumeId,
      title: issue.title ?? 'Issue 1',
      description: issue.description ?? 'Spring',
      ...(issue.publicationMonth === undefined ? {} : { publication_month: issue.publicationMonth }),
    },
  });
  return expectStatus(res, 201, 'create issue').issue;
}

/** A volume with one issue, the set-up most tests of the desk need: the issue's id. */
export async function createIssueInNewVolume(
  t: TestContext,
  as: As,
  opts: { number: number; year: number; title?: string; description?: string },
): Promise<number> {
  const volume = await createVolume(t, as, { number: opts.number, year: opts.year });
  return (await createIssue(t, as, { volumeId: volume.id, title: opts.title, description: opts.description }))
    .id;
}

export interface ArticleAuthor {
  name: string;
  email: string;
  affiliation: string;
  superscript?: string;
  orcid?: string;
}

const ARTICLE_AUTHORS: ArticleAuthor[] = [
  { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
];

/** The fields of `POST /api/articles/admin/upload`, with whatever the test leaves out filled in. */
export function articleFields(opts: {
  issueId: number;
  title: string;
  doi: string;
  pages?: string;
  abstract?: string;
  keywords?: string;
  authors?: ArticleAuthor[] | string;
}): Record<string, string> {
  return {
    title: opts.title,
    abstract: opts.abstract ?? `An abstract about ${opts.title}.`,
    keywords: opts.keywords ?? 'tests, articles',
    pages: opts.pages ?? '1-10',
    doi: opts.doi,
    issue_id: String(opts.issueId),
    authors:
      typeof opts.authors === 'string' ? opts.authors : JSON.stringify(opts.authors ?? ARTICLE_AUTHORS),
  };
}

/**
 * Publishes an article straight into an issue (`POST /api/articles/admin/upload`, as the editors do), with
 * the fixtures' manuscript.pdf unless a PDF is given: the article as answered.
 */
export async function publishArticle(
  t: TestContext,
  as: As,
  fields: Parameters<typeof articleFields>[0] & { pdf?: File },
): Promise<{ id: number } & Record<string, unknown>> {
  const body = await multipart(articleFields(fields), {
    pdf: fields.pdf ?? { name: 'a.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/articles/admin/upload',
    headers: { ...headersOf(as), ...body.headers },
    payload: body.payload,
  });
  return expectStatus(res, 201, 'publish article').article;
}

const MANUSCRIPT_AUTHORS: ArticleAuthor[] = [
  { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
];

/** The fields of `POST /api/submission/submit`, with whatever the test leaves out filled in. */
export function manuscriptFields(
  over: Partial<Record<'title' | 'articleType' | 'keywords' | 'abstract', string>> & {
    authors?: ArticleAuthor[] | string;
  } & Record<string, unknown> = {},
): Record<string, string> {
  const { authors, ...rest } = over;
  return {
    title: 'A manuscript',
    articleType: 'Research Article',
    keywords: 'a, b, c, d',
    abstract: 'Abstract.',
    ...(rest as Record<string, string>),
    authors: typeof authors === 'string' ? authors : JSON.stringify(authors ?? MANUSCRIPT_AUTHORS),
  };
}

/**
 * `POST /api/submission/submit` as a browser sends it, the answer as it is (for tests of refusals): the
 * fixtures' manuscript.pdf unless `files.submissionFile` is given.
 */
export async function postManuscript(
  t: TestContext,
  as: As,
  fields: Parameters<typeof manuscriptFields>[0] = {},
  files: Record<string, File> = {},
) {
  const body = await multipart(manuscriptFields(fields), {
    submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') },
    ...files,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/submission/submit',
    headers: { ...headersOf(as), ...body.headers },
    payload: body.payload,
  });
}

/** Submits a manuscript (201, else it throws): its id and reference. */
export async function submitManuscript(
  t: TestContext,
  as: As,
  fields: Parameters<typeof manuscriptFields>[0] = {},
  files: Record<string, File> = {},
): Promise<{ id: number; reference: string }> {
  return expectStatus(await postManuscript(t, as, fields, files), 201, 'submit manuscript');
}

/**
 * `POST /api/editor/submissions/:id/decision`, the answer as it is. Revisions are requested as `revisions`
 * says (minor unless given: the kind is required, decision 0023); accepting confirms that no review was
 * had, as the desk tests do (they are about the desk, not peer review).
 */
export function postDecision(
  t: TestContext,
  as: As,
  id: number,
  status: string,
  opts: { message?: string; revisions?: 'minor' | 'major' } & Record<string, unknown> = {},
) {
  const { message, revisions, ...rest } = opts;
  return t.app.inject({
    method: 'POST',
    url: `/api/editor/submissions/${id}/decision`,
    headers: headersOf(as),
    payload: {
      status,
      message: message ?? `Moved to ${status}.`,
      ...(status === 'revisions_requested' ? { revisions: revisions ?? 'minor' } : {}),
      ...(status === 'accepted' ? { confirm: ['accept-without-review'] } : {}),
      ...rest,
    },
  });
}

/** Moves a submission through the desk's decisions in order (each 200, else it throws). */
export async function moveSubmission(t: TestContext, as: As, id: number, ...statuses: string[]) {
  for (const status of statuses) {
    expectStatus(await postDecision(t, as, id, status), 200, `decision ${status}`);
  }
}

/** An accepted submission, sent to review and accepted without one: its id. */
export async function acceptedSubmission(
  t: TestContext,
  author: As,
  editor: As,
  fields: Parameters<typeof manuscriptFields>[0] = {},
  files: Record<string, File> = {},
): Promise<number> {
  const { id } = await submitManuscript(t, author, fields, files);
  await moveSubmission(t, editor, id, 'under_review', 'accepted');
  return id;
}

/**
 * Invites a reviewer by name and e-mail to a submission under review
 * (`POST /api/editor/submissions/:id/review/invitations`): the assignment's id and the invitation link's
 * token, read from the e-mail the queue sent.
 */
export async function inviteReviewer(
  t: TestContext,
  as: As,
  submissionId: number,
  reviewer: { name: string; email: string } & Record<string, unknown>,
): Promise<{ assignmentId: number; token: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/editor/submissions/${submissionId}/review/invitations`,
    headers: headersOf(as),
    payload: reviewer,
  });
  const { assignmentId } = expectStatus(res, 201, 'invite reviewer') as { assignmentId: number };
  for (const mail of [...t.mail].reverse()) {
    if (mail.to !== reviewer.email) continue;
    const m = /\/reviews\/(\d+)\?token=([\w.-]+)/.exec(mail.text);
    if (m && Number(m[1]) === assignmentId) return { assignmentId, token: m[2] };
  }
  throw new Error(`no invitation mailed to ${reviewer.email}`);
}

/**
 * Another journal of the site (issue 24): its row at a path or a domain (or with a given id), its settings and
 * pages as the site admin's service makes them (`newJournalSettings`, decision 0062, with `settings` over
 * them), and an account as its admin (the seed's `admin` unless told otherwise, `null` for none: roles are
 * each journal's). The directory is read again, so the next request finds it. Not through the API: a test
 * about the site admin's journals calls `/api/admin/journals` itself. Returns the journal's id.
 */
export async function makeJournal(
  t: TestContext,
  journal: {
    title: string;
    path?: string;
    domain?: string;
    id?: number;
    status?: 'open' | 'closed' | 'archived';
  },
  settings: Partial<JournalSettings> = {},
  opts: { admin?: string | null } = {},
): Promise<number> {
  const { services } = t;
  const [row] = await asSite(() =>
    services.db.insert(journals).values(journal).returning({ id: journals.id }),
  );
  const first = await withJournal(1, () => services.settings.journal());
  const own = newJournalSettings({
    title: journal.title,
    publisherOf: first,
    email: first.email,
    year: new Date(services.clock.now()).getUTCFullYear(),
  });
  const admin = opts.admin === undefined ? 'admin' : opts.admin;
  await withJournal(row.id, () =>
    services.db.transaction(async (tx) => {
      await seedJournal(services.settings, tx, { email: first.email, settings: { ...own, ...settings } });
      if (!admin) return;
      const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.username, admin));
      if (!account) throw new Error(`makeJournal: no account ${admin}`);
      await tx.insert(journalMemberships).values({ userId: account.id, role: 'admin', status: 'approved' });
    }),
  );
  await services.journals.load();
  return row.id;
}
