import type { TestContext } from '../../server/testing/harness.ts';
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
