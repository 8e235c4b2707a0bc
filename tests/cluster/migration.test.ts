import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../server/files/s3-blob-store.ts';
import { fixture } from '../../server/testing/harness.ts';
import { CLUSTER_BUCKET, Cluster, clusterPort } from './harness.ts';

/**
 * Issue 15's migration path, as a person follows the README ("Moving to PostgreSQL and an object store"):
 * a journal started on the embedded default by `npm start`'s own script (PGlite in a new DATA_DIR, the demo
 * volume, the admin's password printed once, a generated session secret), with accounts registered and
 * articles uploaded through the API, is moved to PostgreSQL and an S3-compatible store:
 *   - its files copied with `npm run cli -- files copy --to s3` while it still runs, an article uploaded after;
 *   - stopped (SIGTERM), its database dumped with `npm run cli -- db dump` and restored with psql into an empty
 *     PostgreSQL database;
 *   - the files copied again (only what arrived since);
 * then served by three processes of the build (the cluster harness, each on a data folder of its own, with
 * the old data folder's session secret as SESSION_SECRET), requests spread round-robin across them. Every
 * article (the public list, its page), every PDF (byte for byte), every account (role and status, and the
 * passwords), and a session signed in before the move are found again.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the test turns off in both phases: it signs in more often, from one address, than a limit allows. */
const NO_LIMITS = {
  RATE_LIMIT_LOGIN: 'off',
  RATE_LIMIT_LOGIN_USER: 'off',
  RATE_LIMIT_REGISTER: 'off',
};

let dataDir: string | undefined;
let embedded: ChildProcess | undefined;
let c: Cluster | undefined;

afterAll(async () => {
  embedded?.kill('SIGKILL');
  await c?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * `node scripts/start.mjs` (what `npm start` runs) on `dir`, with no database URL, admin password or session
 * secret: the embedded default's first start. Resolves with its address and the password it printed.
 */
async function startEmbedded(
  dir: string,
): Promise<{ url: string; adminPassword: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: dir,
      HOST: '127.0.0.1',
      PORT: String(clusterPort(9)),
      LOG_LEVEL: 'warn',
      SIMILARITY_GRAMMAR: 'false',
      ...NO_LIMITS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  embedded = child;
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const banner = await new Promise<RegExpExecArray>((resolve, reject) => {
    const look = () => {
      const m =
        /Colophon is running at (\S+)[\s\S]*Admin account created: username "admin", password "([^"]+)"/.exec(
          out,
        );
      if (m) {
        child.stdout!.off('data', look);
        resolve(m);
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) =>
      reject(new Error(`the embedded server exited (${code}) before it was ready:\n${out}`)),
    );
  });
  return {
    url: banner[1].replace('//localhost:', '//127.0.0.1:'),
    adminPassword: banner[2],
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      embedded = undefined;
      return code;
    },
  };
}

/** JSON (or bytes) from `base`; a bearer token if given. */
async function call(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; json?: unknown; form?: FormData } = {},
): Promise<{ status: number; json: any; text: string; bytes: Buffer }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text, bytes };
}

async function signIn(base: string, username: string, password: string): Promise<string> {
  const res = await call(base, 'POST', '/api/auth/login', { json: { username, password } });
  expect(res.status, `${username} signs in at ${base}: ${res.text}`).toBe(200);
  return res.json.token;
}

/** Publishes an article with a PDF of its own through the upload form's API; returns the PDF's bytes. */
async function uploadArticle(base: string, token: string, issueId: number, tag: string) {
  const pdf = Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% ${tag}\n%%EOF\n`)]);
  const form = new FormData();
  const fields: Record<string, string> = {
    title: `An article uploaded ${tag}`,
    abstract: 'Its PDF must be found again after the move.',
    keywords: 'migration, object storage, PostgreSQL',
    pages: '1-4',
    doi: `10.5555/cjei.moved.${tag.replace(/\W+/g, '-')}`,
    issue_id: String(issueId),
    authors: JSON.stringify([
      { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University' },
    ]),
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('pdf', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `${tag}.pdf`);
  const res = await call(base, 'POST', '/api/articles/admin/upload', { token, form });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.article.id as number, pdf };
}

/** `npm run cli -- ...` in the project folder, with only the variables given (as a person's shell would). */
function npmCli(args: string[], vars: Record<string, string>) {
  const run = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...vars },
    encoding: 'utf8',
    timeout: 170_000,
  });
  return { status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
}

/** The files of a local store (`DATA_DIR/files`), by name. */
function localBlobs(dir: string): string[] {
  return readdirSync(path.join(dir, 'files'), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /^[0-9a-f]{64}$/.test(d.name))
    .map((d) => d.name)
    .sort();
}

type Paper = { id: number; title: string; pdfPath: string };

/** Text as React writes it into HTML. */
const html = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
type User = { id: number; username: string; role: string; status: string; email: string };

describe('the README migration path: embedded default, then PostgreSQL + S3 under three processes', () => {
  it('finds every article, PDF and account again through the three processes', async () => {
    if (spawnSync('psql', ['--version']).status !== 0) {
      throw new Error(
        'The migration test restores the dump with psql, as the README says: install postgresql-client.',
      );
    }
    // 1. The embedded default's first start, and a journal's life on it: accounts and an uploaded article.
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-move-'));
    const one = await startEmbedded(dataDir);
    const adminToken = await signIn(one.url, 'admin', one.adminPassword);
    const accounts = [
      { username: 'ada', password: 'analytical-engine', role: 'author', approve: true },
      { username: 'grace', password: 'compiler-first-1952', role: 'researcher', approve: false },
    ];
    for (const a of accounts) {
      const reg = await call(one.url, 'POST', '/api/auth/register', {
        json: {
          username: a.username,
          password: a.password,
          email: `${a.username}@example.org`,
          fullName: a.username,
          contactNumber: '+44 20 7946 0000',
          institution: 'University of London',
          role: a.role,
        },
      });
      expect(reg.status, reg.text).toBe(201);
      if (a.approve) {
        const list = await call(one.url, 'GET', `/api/admin/users?q=${a.username}`, { token: adminToken });
        const id = (list.json.users as User[]).find((u) => u.username === a.username)!.id;
        const ok = await call(one.url, 'POST', `/api/editor/approve-user/${id}`, { token: adminToken });
        expect(ok.status, ok.text).toBe(200);
      }
    }
    const papers0 = (await call(one.url, 'GET', '/api/papers')).json as Paper[];
    expect(papers0.length).toBeGreaterThanOrEqual(5); // the demo volume
    const issueId = (
      (await call(one.url, 'GET', '/api/editor/issues', { token: adminToken })).json as { id: number }[]
    )[0].id;
    const first = await uploadArticle(one.url, adminToken, issueId, 'before the first copy');

    // 2. The empty PostgreSQL database and the bucket (the cluster's, its processes not started yet), with the
    // old folder's generated session secret as everyone's SESSION_SECRET: sessions stay valid.
    const secret = readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim();
    c = await Cluster.start({
      size: 3,
      start: false,
      // As a person sets them for the server: the admin password of the first start is in the database now.
      env: {
        SESSION_SECRET: secret,
        SEED_DEMO: 'true',
        ADMIN_PASSWORD: 'not-the-admin-password',
        ...NO_LIMITS,
      },
    });
    const s3 = c.s3!;
    const s3Vars = s3.env(CLUSTER_BUCKET);

    // README step 2: the files, copied while the journal runs.
    const copy1 = npmCli(['files', 'copy', '--to', 's3'], { DATA_DIR: dataDir, ...s3Vars });
    expect(copy1.status, copy1.stderr + copy1.stdout).toBe(0);
    // The journal runs meanwhile (its background jobs may store a file during the copy): the copy counts the
    // files there when it began, and copies each of them.
    const counted = /Done in [\d.]+ s: (\d+) copied, 0 already there, 0 failed, of (\d+) files/.exec(
      copy1.stdout,
    );
    expect(counted, copy1.stdout).not.toBeNull();
    const n1 = Number(counted![2]);
    expect(Number(counted![1])).toBe(n1);
    expect(n1).toBeGreaterThan(0);
    expect(n1).toBeLessThanOrEqual(localBlobs(dataDir).length);

    // The journal goes on meanwhile: another article (and its PDF) after the first copy.
    const second = await uploadArticle(one.url, adminToken, issueId, 'after the first copy');
    const before = {
      papers: ((await call(one.url, 'GET', '/api/papers')).json as Paper[]).sort((a, b) => a.id - b.id),
      users: (
        (await call(one.url, 'GET', '/api/admin/users?limit=200', { token: adminToken })).json.users as User[]
      ).sort((a, b) => a.id - b.id),
      pdfs: new Map<number, Buffer>(),
    };
    expect(before.papers.map((p) => p.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(before.users.map((u) => u.username).sort()).toEqual(['ada', 'admin', 'grace']);
    for (const p of before.papers) {
      const pdf = await call(one.url, 'GET', p.pdfPath, { token: adminToken });
      expect(pdf.status, `${p.pdfPath}: ${pdf.text.slice(0, 200)}`).toBe(200);
      before.pdfs.set(p.id, pdf.bytes);
    }
    expect(before.pdfs.get(first.id)!.equals(first.pdf)).toBe(true);
    expect(before.pdfs.get(second.id)!.equals(second.pdf)).toBe(true);

    // README step 3: stop the server, dump the embedded database, restore it with psql.
    expect(await one.stop()).toBe(0);
    const dumpFile = path.join(dataDir, 'colophon.sql');
    const dump = npmCli(['db', 'dump', dumpFile], { DATA_DIR: dataDir });
    expect(dump.status, dump.stderr + dump.stdout).toBe(0);
    expect(dump.stdout).toContain(`Wrote ${dumpFile}`);
    const restore = spawnSync('psql', ['-v', 'ON_ERROR_STOP=1', '-q', '-d', c.databaseUrl, '-f', dumpFile], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stderr).toBe('');

    // README step 4: the files again; only what arrived since step 2 is copied.
    const all = localBlobs(dataDir);
    const copy2 = npmCli(['files', 'copy', '--to', 's3'], { DATA_DIR: dataDir, ...s3Vars });
    expect(copy2.status, copy2.stderr + copy2.stdout).toBe(0);
    expect(copy2.stdout).toMatch(
      new RegExp(
        `Done in [\\d.]+ s: ${all.length - n1} copied, ${n1} already there, 0 failed, of ${all.length} files`,
      ),
    );
    expect(all.length - n1).toBeGreaterThanOrEqual(1); // the second article's PDF at least
    const bucket = new S3BlobStore(s3.options(CLUSTER_BUCKET));
    const inBucket: string[] = [];
    for await (const { key } of bucket.list()) inBucket.push(key);
    expect(inBucket.sort()).toEqual(all);

    // README step 5, for three processes: DATABASE_URL and S3_* on each, a data folder each; the old folder's
    // files gone, so nothing can come from them.
    rmSync(path.join(dataDir, 'files'), { recursive: true, force: true });
    await c.startAll();
    for (const node of c.nodes) {
      expect(node.output()).not.toContain('Admin account created');
    }

    // Every article: the public list through each process, each article's page through the next in turn.
    for (const node of c.nodes) {
      const papers = ((await node.api('GET', '/api/papers')).json as Paper[]).sort((a, b) => a.id - b.id);
      expect(papers, node.name).toEqual(before.papers);
    }
    for (const p of before.papers) {
      const page = await c.api('GET', `/article/${p.id}`);
      expect(page.status, `/article/${p.id}`).toBe(200);
      expect(page.text).toContain(html(p.title));
    }

    // Every account: the admin with the password printed at the first start, through every process; the
    // others as they were (role, status), ada with her password; a session made before the move still holds.
    const tokens = [];
    for (const node of c.nodes) tokens.push(await signIn(node.url, 'admin', one.adminPassword));
    const refused = await c.api('POST', '/api/auth/login', {
      json: { username: 'admin', password: 'not-the-admin-password' },
    });
    expect(refused.status).toBe(401);
    const users = (
      (await c.api('GET', '/api/admin/users?limit=200', { token: tokens[0] })).json.users as User[]
    ).sort((a, b) => a.id - b.id);
    expect(users).toEqual(before.users);
    await signIn(c.next().url, 'ada', 'analytical-engine');
    for (const node of c.nodes) {
      const me = await node.api('GET', '/api/auth/me', { token: adminToken });
      expect(me.status, `${node.name}: ${me.text}`).toBe(200);
      expect(me.json.username).toBe('admin');
    }

    // Every PDF, byte for byte, from the bucket, through the processes in turn (twice round).
    for (let round = 0; round < 2; round++) {
      for (const p of before.papers) {
        const node = c.next();
        const res = await fetch(`${node.url}${p.pdfPath}`, {
          headers: { authorization: `Bearer ${tokens[0]}` },
        });
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.status, `${p.pdfPath} through ${node.name}`).toBe(200);
        expect(bytes.equals(before.pdfs.get(p.id)!), `${p.pdfPath} through ${node.name}`).toBe(true);
      }
    }

    // And the journal goes on: an article uploaded through one process is downloaded through another.
    const third = await uploadArticle(c.node(2).url, tokens[2], issueId, 'after the move');
    const got = await c.node(0).api('GET', `/api/articles/${third.id}/download`, { token: tokens[0] });
    expect(got.status).toBe(200);
    const raw = await fetch(`${c.node(1).url}/api/articles/${third.id}/download`, {
      headers: { authorization: `Bearer ${tokens[1]}` },
    });
    expect(Buffer.from(await raw.arrayBuffer()).equals(third.pdf)).toBe(true);
  }, 600_000);
});
