import { journalMemberships } from '../../server/accounts/tables.ts';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../server/accounts/service.ts';
import { JOURNALS } from '../../server/cache/dependencies.ts';
import { asSite, withJournal } from '../../server/db/scope.ts';
import { journals } from '../../server/journals/tables.ts';
import type { Services } from '../../server/services.ts';
import { fixture, insertUser } from '../../server/testing/harness.ts';
import { Cluster, type ClusterNode } from './harness.ts';

/**
 * Issue 24: "three processes, two domains, a change in one journal seen through every process, nothing of the
 * other journal dropped" (decisions 0053, 0058). Journal 2 answers at /pa on the site's host, journal 3 at its
 * own domain (the Host header). Every process keeps both journals' article pages; a change in one journal,
 * made through the third process, shows through the other two at once, while the other journal's kept page is
 * still the one each process kept: its row is changed behind the cache's back beforehand (no change named),
 * so a page rendered again would show it, and a kept one does not.
 */

const T0 = Date.parse('2026-03-02T09:00:00Z');
const BY_PATH = 2;
const BY_DOMAIN = 3;
const DOMAIN = 'b.journal.test';

let c: Cluster;
let services: Services;
let token = '';
let adminId = 0;
const articles = new Map<number, { id: number; issueId: number }>();

/** A request through one process with a Host header (a journal's own domain, or the site's); JSON in and out. */
function request(
  node: ClusterNode,
  method: string,
  url: string,
  opts: { host?: string; token?: string; json?: unknown } = {},
) {
  const { port } = new URL(node.url);
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers: Record<string, string> = { host: opts.host ?? 'journal.test' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (body) headers['content-type'] = 'application/json';
  return new Promise<{ status: number; body: string; json: any; etag: string | undefined }>(
    (resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: url, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: text, json, etag: res.headers.etag });
        });
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

/** Where each journal's article page is asked for: its path on the site's host, or its own domain. */
const pageOf = (journal: number) =>
  journal === BY_PATH
    ? { url: `/pa/article/${articles.get(journal)!.id}`, host: 'journal.test' }
    : { url: `/article/${articles.get(journal)!.id}`, host: DOMAIN };

async function page(node: ClusterNode, journal: number) {
  const { url, host } = pageOf(journal);
  const res = await request(node, 'GET', url, { host });
  if (res.status !== 200) throw new Error(`GET ${host}${url} through ${node.name}: ${res.status}`);
  return res;
}

async function makeJournal(id: number, values: { path?: string; domain?: string }, name: string) {
  const first = await services.settings.journal();
  await asSite(() =>
    services.db.transaction(async (tx) => {
      await tx.insert(journals).values({ id, title: name, ...values });
      // Every process reads the journals again (the change feed's `journals` name).
      await services.changes.publish(tx, [JOURNALS]);
    }),
  );
  // Its settings, and the admin of journal 1 made its admin too: roles are each journal's (decision 0054).
  await withJournal(id, () =>
    services.db.transaction(async (tx) => {
      await services.settings.set(tx, 'journal', { ...first, name });
      await tx.insert(journalMemberships).values({ userId: adminId, role: 'admin', status: 'approved' });
    }),
  );
}

async function publish(journal: number, admin: SessionUser, title: string) {
  await withJournal(journal, async () => {
    const volume = await services.catalog.createVolume(admin, { title: 'Vol', volume_number: 1, year: 2026 });
    const issue = await services.catalog.createIssue(admin, {
      title: 'First issue',
      description: 'D',
      volume_id: volume.id,
    });
    const id = await services.catalog.publishNew(admin, {
      issueId: issue.id,
      title,
      abstract: 'How sampling adapts.',
      keywords: 'sensors',
      firstPage: 1,
      lastPage: 10,
      doi: `10.5555/cluster.j${journal}`,
      authors: [
        { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
      ],
      pdf: {
        field: 'pdf',
        filename: 'a.pdf',
        data: fixture('manuscript.pdf'),
        kind: 'pdf',
        mediaType: 'application/pdf',
      },
    });
    articles.set(journal, { id, issueId: issue.id });
  });
}

/** Changes an article's title in the database without naming the change: only a render reads it. */
async function behindTheCacheBack(journal: number, title: string) {
  await c.sql.query('update articles set title = $1 where id = $2', [title, articles.get(journal)!.id]);
}

beforeAll(async () => {
  c = await Cluster.start({
    size: 3,
    time: T0,
    env: { RATE_LIMIT_LOGIN: 'off', SIMILARITY_BACKGROUND: 'false' },
  });
  services = await c.services();
  const row = await insertUser(services.db, { role: 'admin', status: 'approved', username: 'ada_admin' });
  adminId = row.id;
  const admin: SessionUser = {
    id: row.id,
    username: row.username,
    email: row.email,
    fullName: 'Ada Admin',
    role: 'admin',
    status: 'approved',
  };
  token = (
    await c
      .node(0)
      .api('POST', '/api/auth/login', { json: { username: row.username, password: row.password } })
  ).json.token;
  await makeJournal(BY_PATH, { path: 'pa' }, 'Journal by Path');
  await makeJournal(BY_DOMAIN, { domain: DOMAIN }, 'Journal by Domain');
  await publish(BY_PATH, admin, 'Path journal before the edit');
  await publish(BY_DOMAIN, admin, 'Domain journal before the edit');
});
afterAll(() => c?.close());

describe('two journals, by path and by domain, across three processes', () => {
  it("an article edited in one journal through process 3 shows through processes 1 and 2 at once; the other journal's kept pages stay", async () => {
    // Every process serves each journal its own page, and keeps it (the second answer is the kept copy).
    for (const node of c.nodes) {
      for (let i = 0; i < 2; i++) {
        expect((await page(node, BY_PATH)).body).toContain('Path journal before the edit');
        expect((await page(node, BY_DOMAIN)).body).toContain('Domain journal before the edit');
      }
    }
    const kept = new Map(
      await Promise.all(c.nodes.map(async (n) => [n.name, (await page(n, BY_DOMAIN)).etag] as const)),
    );
    await behindTheCacheBack(BY_DOMAIN, 'Domain journal changed behind the cache');

    const edited = await request(c.node(2), 'PATCH', `/pa/api/editor/articles/${articles.get(BY_PATH)!.id}`, {
      token,
      json: {
        title: 'Path journal after the edit',
        abstract: 'How sampling adapts.',
        keywords: 'sensors',
        pages: '1-10',
        doi: `10.5555/cluster.j${BY_PATH}`,
        issue_id: String(articles.get(BY_PATH)!.issueId),
        authors: JSON.stringify([
          {
            name: 'Meera Iyer',
            email: 'meera@example.org',
            affiliation: 'Anna University',
            superscript: '1',
          },
        ]),
      },
    });
    expect(edited.status, edited.body).toBe(200);

    for (const node of [c.node(0), c.node(1)]) {
      const changed = await page(node, BY_PATH);
      expect(changed.body, `path journal through ${node.name}`).toContain('Path journal after the edit');
      expect(changed.body).not.toContain('Path journal before the edit');
      // The other journal's page is the one this process kept: same ETag, not rendered again.
      const other = await page(node, BY_DOMAIN);
      expect(other.body, `domain journal through ${node.name}`).toContain('Domain journal before the edit');
      expect(other.etag).toBe(kept.get(node.name));
    }
  });

  it("the domain journal's settings changed through process 3 show through processes 1 and 2 at once; the path journal's kept pages stay", async () => {
    for (const node of c.nodes) for (let i = 0; i < 2; i++) await page(node, BY_PATH);
    const kept = new Map(
      await Promise.all(c.nodes.map(async (n) => [n.name, (await page(n, BY_PATH)).etag] as const)),
    );
    await behindTheCacheBack(BY_PATH, 'Path journal changed behind the cache');

    const { json } = await request(c.node(2), 'GET', '/api/admin/journal-settings', { token, host: DOMAIN });
    const saved = await request(c.node(2), 'PUT', '/api/admin/journal-settings', {
      token,
      host: DOMAIN,
      json: { ...json.settings, name: 'Journal by Domain, Renamed', version: json.version },
    });
    expect(saved.status, saved.body).toBe(200);

    for (const node of [c.node(0), c.node(1)]) {
      expect((await page(node, BY_DOMAIN)).body, `domain journal through ${node.name}`).toContain(
        'Journal by Domain, Renamed',
      );
      const other = await page(node, BY_PATH);
      expect(other.body).toContain('Path journal after the edit');
      expect(other.body).not.toContain('Journal by Domain, Renamed');
      expect(other.etag).toBe(kept.get(node.name));
    }
  });
});
