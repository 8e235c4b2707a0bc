import { expect } from 'vitest';
import type { ReviewMode } from '../../common/review.ts';
import type { TestContext } from '../../server/testing/harness.ts';
import { postMultipart } from '../../server/testing/harness.ts';
import { fixture, multipart } from '../../server/testing/harness.ts';

/** Peer review tests' shared steps, all through the API (app.inject). */

export const pdf = fixture('manuscript.pdf');

export interface Person {
  id: number;
  username: string;
  email: string;
  token: string;
}

export async function person(
  t: TestContext,
  role: 'researcher' | 'author' | 'editor',
  fullName: string,
  institution: string,
  username?: string,
): Promise<Person> {
  const u = await t.createUser({ role, status: 'approved', username });
  const { users } = await import('../../server/accounts/tables.ts');
  const { eq } = await import('drizzle-orm');
  await t.services.db.update(users).set({ fullName, institution }).where(eq(users.id, u.id));
  return { id: u.id, username: u.username, email: u.email, token: await t.login(u.username, u.password) };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An inject that returns status and parsed JSON (or text), and records the body for leak checks. */
export function caller(t: TestContext, seen?: string[]) {
  return async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    opts: { token?: string; payload?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { ...(opts.token ? bearer(opts.token) : {}), ...(opts.headers ?? {}) },
      payload: opts.payload as never,
    });
    seen?.push(res.body);
    let json: unknown = null;
    try {
      json = res.json();
    } catch {}
    return { status: res.statusCode, json: json as any, body: res.body, headers: res.headers };
  };
}

/** Submits a manuscript as `author` with the given authors; returns its id. */
export async function submitManuscript(
  t: TestContext,
  author: Person,
  authors: { name: string; email: string; affiliation: string }[],
  title = 'Adaptive sampling for sensor networks',
): Promise<number> {
  const body = await multipart(
    {
      title,
      articleType: 'Research Article',
      keywords: 'sensors, sampling',
      abstract: 'We study adaptive sampling.',
      authors: JSON.stringify(authors.map((a) => ({ ...a, superscript: '1' }))),
    },
    { submissionFile: { name: 'Authorname-draft.pdf', data: pdf, type: 'application/pdf' } },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/submission/submit',
    headers: { ...bearer(author.token), ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

export async function decide(
  t: TestContext,
  editorToken: string,
  id: number,
  payload: Record<string, unknown>,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/editor/submissions/${id}/decision`,
    headers: bearer(editorToken),
    payload: { message: 'From the editors.', ...payload },
  });
  if (res.statusCode !== 200) throw new Error(`decision failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The invitation link's token from the last mail to `to` that carries one (for assignment `id`, if given). */
export function linkToken(t: TestContext, to: string, id?: number): { id: number; token: string } {
  for (const mail of [...t.mail].reverse()) {
    if (mail.to !== to) continue;
    const m = /\/reviews\/(\d+)\?token=([\w.-]+)/.exec(mail.text);
    if (m && (id === undefined || Number(m[1]) === id)) return { id: Number(m[1]), token: m[2] };
  }
  throw new Error(`no review link mailed to ${to}`);
}

/**
 * A page as the browser gets it, signed in by the session cookie when a token is given; an invitation link
 * (`?token=`) is followed through its redirect with the cookie it sets (decision 0025). The HTML, with the
 * route data it carries, is recorded for leak checks.
 */
async function visit(t: TestContext, seen: string[], url: string, token?: string) {
  const cookies: string[] = token ? [`colophon_session=${token}`] : [];
  let at = url;
  for (let hop = 0; hop < 3; hop++) {
    const res = await t.app.inject({
      method: 'GET',
      url: at,
      headers: cookies.length ? { cookie: cookies.join('; ') } : {},
    });
    seen.push(res.body);
    const set = res.headers['set-cookie'];
    for (const c of Array.isArray(set) ? set : set ? [set] : []) cookies.push(c.split(';')[0]);
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      at = String(res.headers.location);
      continue;
    }
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    return;
  }
  throw new Error(`${url}: too many redirects`);
}

/**
 * The anonymity leak test's flow (issue 14): the whole review flow through the API (and, with `pages`, the
 * reviewer's and the author's pages too), every body each party receives collected for the caller to search
 * for the other party's names, e-mails, affiliations and usernames.
 */
export async function anonymityFlow(
  t: TestContext,
  editor: Person,
  mode: ReviewMode,
  n: number,
  /** Also collect the pages each party opens (needs a TestContext made with `pages: true`). */
  pages = false,
) {
  const author = await person(
    t,
    'author',
    `Zelda Quillfeather${n}`,
    `Quillfeather Polytechnic${n}`,
    `zquill${n}`,
  );
  const reviewer = await person(
    t,
    'researcher',
    `Yannick Marginalia${n}`,
    `Marginalia Institute${n}`,
    `ymarg${n}`,
  );
  const newcomer = {
    name: `Xenia Footnote${n}`,
    email: `xenia${n}@footnote.example`,
    affiliation: `Footnote College${n}`,
  };
  const coauthor = {
    name: `Ulrich Inkwell${n}`,
    email: `ulrich${n}@inkwell.example`,
    affiliation: `Inkwell Academy${n}`,
  };
  const authorStrings = [
    author.username,
    author.email,
    `Zelda Quillfeather${n}`,
    `Quillfeather Polytechnic${n}`,
    ...Object.values(coauthor),
  ];
  const reviewerStrings = [
    reviewer.username,
    reviewer.email,
    `Yannick Marginalia${n}`,
    `Marginalia Institute${n}`,
    ...Object.values(newcomer),
    `xenia${n}`,
  ];

  const toReviewers: string[] = [];
  const toAuthor: string[] = [];
  const asReviewer = caller(t, toReviewers);
  const asAuthor = caller(t, toAuthor);
  const asEditor = caller(t);
  const reviewerPage = (url: string, token?: string) => pages && visit(t, toReviewers, url, token);
  const authorPage = (url: string) => pages && visit(t, toAuthor, url, author.token);

  const id = await submitManuscript(t, author, [
    { name: `Zelda Quillfeather${n}`, email: author.email, affiliation: `Quillfeather Polytechnic${n}` },
    coauthor,
  ]);
  await decide(t, editor.token, id, { status: 'under_review' });
  expect(
    (
      await asEditor('PUT', `/api/editor/submissions/${id}/review/mode`, {
        token: editor.token,
        payload: { mode },
      })
    ).status,
  ).toBe(200);
  const a1 = (
    await asEditor('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: reviewer.id },
    })
  ).json.assignmentId;
  const a2 = (
    await asEditor('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: newcomer,
    })
  ).json.assignmentId;
  expect(a1 && a2).toBeTruthy();
  const link1 = linkToken(t, reviewer.email);
  const link2 = linkToken(t, newcomer.email);

  // Reviewers: the invitation by link and by account, accept, files, drafts, attachment, submit, lists.
  await reviewerPage(`/reviews/${a2}?token=${link2.token}`);
  await reviewerPage('/reviews', reviewer.token);
  await reviewerPage(`/reviews/${a1}`, reviewer.token);
  await asReviewer('GET', `/api/reviews/${a1}?token=${link1.token}`);
  await asReviewer('GET', `/api/reviews/${a2}?token=${link2.token}`);
  await asReviewer('GET', '/api/reviews', { token: reviewer.token });
  const accepted = await asReviewer('POST', `/api/reviews/${a1}/accept`, { token: reviewer.token });
  await asReviewer('POST', `/api/reviews/${a2}/accept?token=${link2.token}`);
  for (const f of accepted.json.files)
    await asReviewer('GET', `/api/reviews/${a1}/files/${f.id}`, { token: reviewer.token });
  await asReviewer('PUT', `/api/reviews/${a1}/draft`, {
    token: reviewer.token,
    payload: { commentsForAuthor: 'Draft one.' },
  });
  const att = await postMultipart(
    t.app,
    `/api/reviews/${a1}/attachment`,
    bearer(reviewer.token),
    {},
    {
      file: { name: `Marginalia${n}-notes.pdf`, data: pdf, type: 'application/pdf' },
    },
  );
  toReviewers.push(att.body);
  await asReviewer('POST', `/api/reviews/${a1}/submit`, {
    token: reviewer.token,
    payload: {
      recommendation: 'minor-revisions',
      commentsForAuthor: 'Please clarify the method.',
      publishAgreed: mode === 'open',
    },
  });
  await asReviewer('POST', `/api/reviews/${a2}/submit?token=${link2.token}`, {
    payload: {
      recommendation: 'accept',
      commentsForAuthor: 'Convincing.',
      confidentialComments: 'No concerns.',
    },
  });
  await asReviewer('GET', `/api/reviews/${a1}/attachment`, { token: reviewer.token });
  await asReviewer('GET', '/api/reviewer/profile', { token: reviewer.token });
  await reviewerPage(`/reviews/${a1}`, reviewer.token);
  await reviewerPage(`/reviews/${a2}?token=${link2.token}`);
  await reviewerPage('/reviews/profile', reviewer.token);

  // The editor decides, sharing both reviews; the author reads everything they can reach.
  await decide(t, editor.token, id, {
    status: 'revisions_requested',
    revisions: 'minor',
    shareReviews: [a1, a2],
  });
  await asAuthor('GET', `/api/submissions/${id}`, { token: author.token });
  await asAuthor('GET', '/api/submissions/mine', { token: author.token });
  const shared = await asAuthor('GET', `/api/submissions/${id}/reviews`, { token: author.token });
  expect(shared.json.rounds[0].reviews.map((r: { label: string }) => r.label)).toEqual([
    'Reviewer 1',
    'Reviewer 2',
  ]);
  await asAuthor('GET', `/api/submissions/${id}/reviews/${a1}/attachment`, { token: author.token });
  await authorPage('/my-submissions');
  await authorPage(`/my-submissions/${id}`);
  const revised = await postMultipart(
    t.app,
    `/api/submissions/${id}/revision`,
    bearer(author.token),
    { message: 'Revised.', responseToReviewers: 'Thank you, clarified.' },
    { submissionFile: { name: 'v2.pdf', data: pdf, type: 'application/pdf' } },
  );
  toAuthor.push(revised.body);

  // Round 2: the reviewer sees the response; the decision; the author reads again.
  await decide(t, editor.token, id, { status: 'under_review' });
  const b1 = (
    await asEditor('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: reviewer.id },
    })
  ).json.assignmentId;
  const round2 = await asReviewer('GET', `/api/reviews/${b1}`, { token: reviewer.token });
  await reviewerPage(`/reviews/${b1}`, reviewer.token);
  expect(round2.json.authorResponse).toBe('Thank you, clarified.');
  await asReviewer('POST', `/api/reviews/${b1}/accept`, { token: reviewer.token });
  await asReviewer('POST', `/api/reviews/${b1}/submit`, {
    token: reviewer.token,
    payload: { recommendation: 'accept', commentsForAuthor: 'Done.' },
  });
  await asReviewer('GET', '/api/reviews', { token: reviewer.token });
  await decide(t, editor.token, id, { status: 'accepted', shareReviews: [b1] });
  await asAuthor('GET', `/api/submissions/${id}/reviews`, { token: author.token });
  await asAuthor('GET', `/api/submissions/${id}`, { token: author.token });
  await authorPage(`/my-submissions/${id}`);
  await reviewerPage('/reviews', reviewer.token);
  await reviewerPage(`/reviews/${b1}`, reviewer.token);

  return {
    toReviewers,
    toAuthor,
    authorStrings,
    reviewerStrings,
    id,
    reviewerName: `Yannick Marginalia${n}`,
    authorName: `Zelda Quillfeather${n}`,
  };
}

/** The needles found in any of the bodies (case-insensitive). */
export const found = (bodies: string[], needles: string[]) =>
  needles.filter((s) => bodies.some((b) => b.toLowerCase().includes(s.toLowerCase())));

/** What each mode lets each side see (issue 14), over every body `anonymityFlow` collected. */
export function expectAnonymity(mode: ReviewMode, r: Awaited<ReturnType<typeof anonymityFlow>>) {
  if (mode === 'double-anonymous') expect(found(r.toReviewers, r.authorStrings)).toEqual([]);
  else expect(found(r.toReviewers, [r.authorName])).toEqual([r.authorName]);
  if (mode === 'open') expect(found(r.toAuthor, [r.reviewerName])).toEqual([r.reviewerName]);
  else expect(found(r.toAuthor, r.reviewerStrings)).toEqual([]);
  // Confidential comments reach nobody but editors.
  expect(found(r.toAuthor, ['No concerns.'])).toEqual([]);
}
