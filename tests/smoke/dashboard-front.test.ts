import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

/**
 * Issue 22, item 9, on the production build's pages with a journal of their own (nothing shared with other
 * tests, so counts and empty lists are known): the dashboard's front door is the submissions desk, whose link
 * counts what waits for the editor; the empty Messages section says what arrives there; the article page
 * dates its issue as /volumes does (decision 0039).
 */
let t: TestContext;
let editorCookie = '';
let editorAuth: Record<string, string>;
let authorAuth: Record<string, string>;

beforeAll(async () => {
  t = await createTestContext({}, { pages: true });
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  const token = await t.login(e.username, e.password);
  editorCookie = `colophon_session=${token}`;
  editorAuth = { authorization: `Bearer ${token}` };
  const a = await t.createUser({ role: 'author', status: 'approved' });
  authorAuth = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
}, 120_000);
afterAll(() => t?.close());

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: editorCookie } });

/** The dashboard's section links as text: "Submissions 2 need your attention", "Pending users", … */
function sectionLinks(html: string): string[] {
  const nav = /<nav[^>]*aria-label="Dashboard sections"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a[^>]*>([\s\S]*?)<\/a>/g)].map((m) =>
    m[1]
      .replace(/<!-- -->/g, '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

async function submit(title: string): Promise<number> {
  const body = await multipart(
    {
      title,
      articleType: 'Research Article',
      keywords: 'a, b, c, d',
      abstract: 'Abstract.',
      authors: JSON.stringify([{ name: 'Ana Lima', email: 'ana@example.org', affiliation: 'USP', superscript: '' }]),
    },
    { submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') } },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/submission/submit',
    headers: { ...authorAuth, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function decide(id: number, status: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/editor/submissions/${id}/decision`,
    headers: editorAuth,
    payload: { status, message: 'Decided.', confirm: ['accept-without-review'] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('the editorial dashboard', () => {
  it('opens at the submissions desk, not at the pending users', async () => {
    const res = await page('/editor-dashboard');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/editor-dashboard/submissions');
    const desk = await page('/editor-dashboard/submissions');
    expect(desk.statusCode).toBe(200);
    expect(sectionLinks(desk.body).slice(0, 2)).toEqual(['Submissions', 'Pending users']);
    const pending = await page('/editor-dashboard/pending-users');
    expect(pending.statusCode).toBe(200);
    expect(pending.body).toContain('No accounts are waiting for approval.');
  });

  it('counts the submissions that wait for an editor beside "Submissions"', async () => {
    const first = await submit('The first manuscript');
    const second = await submit('The second manuscript');
    expect(sectionLinks((await page('/editor-dashboard/submissions')).body)[0]).toBe(
      'Submissions 2 need your attention',
    );
    // Sent to review: it waits for the reviewers now, not for the editor.
    await decide(first, 'under_review');
    expect(sectionLinks((await page('/editor-dashboard/volumes')).body)[0]).toBe(
      'Submissions 1 need your attention',
    );
    await decide(second, 'rejected');
    expect(sectionLinks((await page('/editor-dashboard/volumes')).body)[0]).toBe('Submissions');
    // Accepted: it waits for the editor again, to be published.
    await decide(first, 'accepted');
    expect(sectionLinks((await page('/editor-dashboard/volumes')).body)[0]).toBe(
      'Submissions 1 need your attention',
    );
  });

  it('says what the empty Messages section holds', async () => {
    const res = await page('/editor-dashboard/messages');
    expect(res.statusCode).toBe(200);
    const text = res.body
      .replace(/<[^>]*>/g, '')
      .replace(/&#x27;/g, "'")
      .replace(/\s+/g, ' ');
    expect(text).toContain('No messages yet');
    expect(text).toMatch(/messages readers send with the journal's contact form/);
    expect(res.body).toContain('href="/contact"');
  });
});

describe("an issue's date", () => {
  it('is the same on /volumes and on the article page: the year alone, then the month once it is set', async () => {
    const v = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: editorAuth,
      payload: { title: 'Volume 3', volume_number: 3, year: 2026 },
    });
    const issue = await t.app.inject({
      method: 'POST',
      url: '/api/editor/issue',
      headers: editorAuth,
      payload: { title: 'First', description: 'The first.', volume_id: v.json().volume.id },
    });
    const issueId = issue.json().issue.id;
    const body = await multipart(
      {
        title: 'A dated article',
        abstract: 'Abstract.',
        keywords: 'a, b',
        pages: '1-10',
        doi: '10.5555/dated.1',
        issue_id: String(issueId),
        authors: JSON.stringify([{ name: 'Ana Lima', email: 'ana@example.org', affiliation: 'USP', superscript: '1' }]),
      },
      { pdf: { name: 'a.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' } },
    );
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/articles/admin/upload',
      headers: { ...editorAuth, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const articleId = up.json().article.id;
    const shown = async () => {
      const volumes = (await t.app.inject({ method: 'GET', url: '/volumes?volume=3&issue=1' })).body.replace(/<!-- -->/g, '');
      const article = (await t.app.inject({ method: 'GET', url: `/article/${articleId}` })).body.replace(
        /<!-- -->/g,
        '',
      );
      const onArticle = /Volume 3, Issue 1<\/a> \(([^)]*)\)/.exec(article)?.[1];
      return { volumes, onArticle };
    };
    let now = await shown();
    expect(now.onArticle).toBe('2026');
    expect(now.volumes).toContain('(2026)');

    const set = await t.app.inject({
      method: 'PATCH',
      url: `/api/editor/issues/${issueId}`,
      headers: editorAuth,
      payload: { title: 'First', description: 'The first.', publication_month: 3 },
    });
    expect(set.statusCode, set.body).toBe(200);
    now = await shown();
    expect(now.onArticle).toBe('March 2026');
    expect(now.volumes).toContain('March 2026');
    expect(now.volumes).not.toMatch(/Issue 1 \(2026\)/);
  });
});
