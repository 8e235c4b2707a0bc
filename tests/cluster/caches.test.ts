import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, insertUser, multipart } from '../../server/testing/harness.ts';
import { Cluster, type ClusterNode } from './harness.ts';

/**
 * Issue 15: "an article edited through process 3 shows the change on its page through process 1 at once",
 * and the journal's settings likewise (decision 0031). Three processes of the built server, each keeping
 * pages and public JSON in its own memory (decision 0018): the kept copies are made first on every process,
 * then the change goes through the third, and the very next request to each of the others must show it.
 */

const T0 = Date.parse('2026-03-02T09:00:00Z');

let c: Cluster;
let token = '';
let articleId = 0;
let issueId = 0;

const authors = JSON.stringify([
  { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
]);
const fields = (title: string) => ({
  title,
  abstract: 'How sampling adapts.',
  keywords: 'sensors, sampling',
  pages: '1-10',
  doi: '10.5555/cluster.001',
  issue_id: String(issueId),
  authors,
});

async function call(node: ClusterNode, status: number, method: string, url: string, json?: unknown) {
  const res = await node.api(method, url, { token, json });
  if (res.status !== status)
    throw new Error(`${method} ${url} through ${node.name}: ${res.status} ${res.text}`);
  return res.json;
}

const etags = new Map<string, string | null>();

/** A page as an anonymous reader gets it (kept after its first render: it has a strong ETag then). */
async function page(node: ClusterNode, url: string): Promise<string> {
  const res = await fetch(`${node.url}${url}`);
  if (res.status !== 200) throw new Error(`GET ${url} through ${node.name}: ${res.status}`);
  etags.set(`${node.name} ${url}`, res.headers.get('etag'));
  return res.text();
}

/** What a reader would see of the article, through one process: its page and its public JSON. */
async function shown(node: ClusterNode) {
  const html = await page(node, `/article/${articleId}`);
  const json = await call(node, 200, 'GET', `/api/articles/public/article/${articleId}`);
  return { html, title: json.article?.title ?? json.title };
}

beforeAll(async () => {
  c = await Cluster.start({
    size: 3,
    time: T0,
    env: { RATE_LIMIT_LOGIN: 'off', SIMILARITY_BACKGROUND: 'false' },
  });
  const services = await c.services();
  const admin = await insertUser(services.db, { role: 'admin', status: 'approved', username: 'ada_admin' });
  const login = await c.node(0).api('POST', '/api/auth/login', {
    json: { username: admin.username, password: admin.password },
  });
  token = login.json.token;
  const volume = await call(c.node(0), 201, 'POST', '/api/editor/volume', {
    title: 'Vol',
    volume_number: 1,
    year: 2026,
  });
  issueId = (
    await call(c.node(0), 201, 'POST', '/api/editor/issue', {
      title: 'First issue',
      description: 'D',
      volume_id: volume.volume.id,
    })
  ).issue.id;
  const body = await multipart(fields('Sampling before the edit'), {
    pdf: { name: 'a.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' },
  });
  const uploaded = await c.node(0).api('POST', '/api/articles/admin/upload', {
    token,
    body: body.payload,
    headers: body.headers,
  });
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
  articleId = uploaded.json.article.id;
});
afterAll(() => c?.close());

describe('kept pages and public JSON across three processes', () => {
  it('an article edited through process 3 shows the change through processes 1 and 2 at once', async () => {
    // Every process renders and keeps the page and the JSON (twice: the second is the kept copy).
    for (const node of c.nodes) {
      for (let i = 0; i < 2; i++) {
        const before = await shown(node);
        expect(before.html).toContain('Sampling before the edit');
        expect(before.title).toBe('Sampling before the edit');
      }
      // Kept: what a process would go on sending if it did not hear of the change.
      expect(etags.get(`${node.name} /article/${articleId}`)).toMatch(/^"[0-9a-f]{32}/);
    }
    const { article: edited } = await call(
      c.node(2),
      200,
      'PATCH',
      `/api/editor/articles/${articleId}`,
      fields('Sampling after the edit'),
    );
    expect(edited.title).toBe('Sampling after the edit');
    for (const node of [c.node(0), c.node(1)]) {
      const after = await shown(node);
      expect(after.title, `JSON through ${node.name}`).toBe('Sampling after the edit');
      expect(after.html, `page through ${node.name}`).toContain('Sampling after the edit');
      expect(after.html).not.toContain('Sampling before the edit');
    }
    // And again (kept anew, not dropped on every request), and on the process that made the change.
    for (const node of c.nodes) expect((await shown(node)).title).toBe('Sampling after the edit');
  });

  it("the journal's settings changed through process 3 show through processes 1 and 2 at once", async () => {
    for (const node of c.nodes) {
      for (let i = 0; i < 2; i++) expect(await page(node, '/')).not.toContain('Journal of Kept Copies');
      await page(node, `/article/${articleId}`);
    }
    const { settings, version } = await call(c.node(2), 200, 'GET', '/api/admin/journal-settings');
    const saved = await call(c.node(2), 200, 'PUT', '/api/admin/journal-settings', {
      ...settings,
      name: 'Journal of Kept Copies',
      version,
    });
    expect(saved.changed).toEqual(['name']);
    for (const node of [c.node(0), c.node(1)]) {
      expect(await page(node, '/'), `home through ${node.name}`).toContain('Journal of Kept Copies');
      expect(await page(node, `/article/${articleId}`)).toContain('Journal of Kept Copies');
      // The settings each process keeps apart from the pages (its e-mails, its forms) follow too.
      const { settings: now } = await call(node, 200, 'GET', '/api/admin/journal-settings');
      expect(now.name).toBe('Journal of Kept Copies');
    }
  });
});
