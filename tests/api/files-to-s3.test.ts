import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { sql } from 'drizzle-orm';
import { issues } from '../../server/catalog/tables.ts';
import { blobPath, sha256 } from '../../server/files/blob-store.ts';
import { S3BlobStore } from '../../server/files/s3-blob-store.ts';
import { openBlobStore } from '../../server/files/stores.ts';
import { openRuntime } from '../../server/lifecycle.ts';
import { seed } from '../../server/seed/seed.ts';
import { createServices } from '../../server/services.ts';
import { captureMailer, fixture, postMultipart, silentLog } from '../../server/testing/harness.ts';
import { type TestS3Server, startS3Server } from '../../server/testing/s3-server.ts';

/**
 * The migration path (README, "Moving to PostgreSQL and an object store"), in one process: a journal on the
 * embedded default (a PGlite data folder, the demo volume and an uploaded article) is dumped with
 * `npm run cli -- db dump` and restored into PostgreSQL with psql, has its files copied to the object store
 * with `npm run cli -- files copy --to s3`, then runs on both with its local files gone: every article's
 * PDF and the admin's account are still there. The commands run as a person runs them. Where no
 * PostgreSQL server (or no psql) is at hand, the database step is skipped, loudly, and the rest runs on
 * the data folder's PGlite.
 */
let s3: TestS3Server;
let dataDir: string;
const env = () => ({
  DATA_DIR: dataDir,
  SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  ADMIN_PASSWORD: 'admin-pass-123',
  SIMILARITY_BACKGROUND: 'false',
  SIMILARITY_GRAMMAR: 'false',
  PUBLIC_URL: 'http://journal.test',
  LOG_LEVEL: 'silent',
});
const root = path.resolve(import.meta.dirname, '../..');

/** The PostgreSQL server of the tests (as `npm test` finds it), if one answers and psql is there. */
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let restored: string | null = null;

async function emptyDatabase(): Promise<string | null> {
  if (spawnSync('psql', ['--version']).status !== 0) return null;
  const name = `colophon_moved_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

beforeAll(async () => {
  s3 = await startS3Server(['journal']);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-migrate-'));
  restored = await emptyDatabase();
  if (!restored)
    console.warn(
      `\n*** The migration path's DATABASE step is NOT tested: no PostgreSQL server at ${serverUrl}, or no psql. The file step still is. ***\n`,
    );
}, 60_000);
afterAll(async () => {
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (restored) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(restored).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
  }
});

/** The server's own start-up steps, in this process: runtime, the configured blob store, services, seed, app. */
async function serve(vars: Record<string, string>) {
  const runtime = await openRuntime('test', vars as NodeJS.ProcessEnv);
  try {
    const blobs = await openBlobStore(runtime.config, silentLog);
    const services = createServices(runtime.config, runtime.database, silentLog, {
      blobs,
      mailer: captureMailer(),
    });
    await seed(services, { demo: runtime.config.SEED_DEMO });
    const app = await buildApp(services, {});
    await app.ready();
    const close = async () => {
      await app.close();
      await services.jobs.stop();
      await runtime.database.close();
      runtime.lock.release();
    };
    return { app, services, close };
  } catch (err) {
    await runtime.database.close();
    runtime.lock.release();
    throw err;
  }
}

/** `npm run cli -- …` as a child process, with only the variables given (no TTY: plain progress lines). */
function cli(args: string[], vars: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...vars },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

type App = Awaited<ReturnType<typeof serve>>['app'];

/** Signs the admin in (the account survives the move too) and returns the header. */
async function adminAuth(app: App) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'admin', password: 'admin-pass-123' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json().token}` };
}

/** Publishes an article (its PDF made unique by `when`) into the issue; 201 expected. */
async function uploadArticle(
  app: App,
  auth: Record<string, string>,
  issueId: number,
  when: 'before' | 'after',
) {
  const pdf = Buffer.concat([
    fixture('manuscript.pdf'),
    Buffer.from(`\n% uploaded ${when} the move\n%%EOF\n`),
  ]);
  const response = await postMultipart(
    app,
    '/api/articles/admin/upload',
    auth,
    {
      title: `An article uploaded ${when} the move`,
      abstract: 'Its PDF must be there after the move.',
      keywords: 'migration, object storage, S3, PostgreSQL',
      pages: '1-4',
      doi: `10.5555/cjei.move.${when}`,
      issue_id: String(issueId),
      authors: JSON.stringify([
        { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University' },
      ]),
    },
    { pdf: { name: `${when}.pdf`, data: pdf, type: 'application/pdf' } },
  );
  expect(response.statusCode, response.body).toBe(201);
  return { response, pdf };
}

/** Every published article's PDF, by article id. */
async function pdfs(app: App, auth: Record<string, string>) {
  const papers = (await app.inject({ method: 'GET', url: '/api/papers' })).json() as {
    id: number;
    pdfPath: string;
  }[];
  const out = new Map<number, Buffer>();
  for (const p of papers) {
    const res = await app.inject({ method: 'GET', url: p.pdfPath, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    out.set(p.id, res.rawPayload);
  }
  return out;
}

describe('moving a journal from DATA_DIR/files to an object store', () => {
  it('copies every file with the command, resumes, and serves every article PDF from the bucket with the local files gone', async () => {
    // 1. The embedded default: the demo volume and an uploaded article.
    const before = await serve(env());
    const admin = await adminAuth(before.app);
    const [issue] = await before.services.db.select({ id: issues.id }).from(issues).limit(1);
    const { response: up, pdf: uploaded } = await uploadArticle(before.app, admin, issue.id, 'before');
    const originals = await pdfs(before.app, admin);
    expect(originals.size).toBeGreaterThanOrEqual(6);
    expect(originals.get(up.json().article.id)?.equals(uploaded)).toBe(true);
    await before.close();
    const localFiles = readdirSync(path.join(dataDir, 'files'), {
      recursive: true,
      withFileTypes: true,
    }).filter((d) => d.isFile()).length;

    // 2. The database: dumped by the command, restored with psql as the README says.
    const vars: Record<string, string> = { ...env(), ...s3.env('journal') };
    if (restored) {
      const sqlFile = path.join(dataDir, 'colophon.sql');
      const dump = cli(['db', 'dump', sqlFile], env());
      expect(dump.status, dump.stderr).toBe(0);
      expect(dump.stdout).toContain(`Wrote ${sqlFile}`);
      const restore = spawnSync('psql', ['-v', 'ON_ERROR_STOP=1', '-q', '-d', restored, '-f', sqlFile], {
        encoding: 'utf8',
      });
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stderr).toBe('');
      vars.DATABASE_URL = restored;
    }

    // 3. The files: copied by the command, then again (nothing left to copy).
    const copy = cli(['files', 'copy', '--to', 's3'], vars);
    expect(copy.status, copy.stderr).toBe(0);
    expect(copy.stdout).toContain(
      `Copying every file from the folder ${path.join(dataDir, 'files')} to the S3 bucket "journal" at ${s3.endpoint}.`,
    );
    expect(copy.stdout).toMatch(new RegExp(`\\[-{24}\\]   0%  0/${localFiles} files`));
    expect(copy.stdout).toMatch(new RegExp(`\\[#{24}\\] 100%  ${localFiles}/${localFiles} files`));
    expect(copy.stdout).toMatch(
      new RegExp(
        `Done in [\\d.]+ s: ${localFiles} copied, 0 already there, 0 failed, of ${localFiles} files`,
      ),
    );
    expect(copy.stderr).toBe('');
    const again = cli(['files', 'copy', '--to', 's3'], vars);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`0 copied, ${localFiles} already there, 0 failed`);

    // 4. The journal on PostgreSQL and the object store, its local files gone: every PDF as before, a range
    // too, and the admin signs in with the same password.
    rmSync(path.join(dataDir, 'files'), { recursive: true, force: true });
    const after = await serve(vars);
    try {
      expect(after.services.files.blobs.description).toBe(`the S3 bucket "journal" at ${s3.endpoint}`);
      if (restored) {
        const result = await after.services.db.execute(sql`select current_database() as name`);
        expect((result as unknown as { rows: { name: string }[] }).rows[0].name).toBe(
          new URL(restored).pathname.slice(1),
        );
      }
      const auth = await adminAuth(after.app);
      const served = await pdfs(after.app, auth);
      expect([...served.keys()].sort()).toEqual([...originals.keys()].sort());
      for (const [id, bytes] of originals) expect(served.get(id)?.equals(bytes), `article ${id}`).toBe(true);
      const part = await after.app.inject({
        method: 'GET',
        url: `/api/articles/${up.json().article.id}/download`,
        headers: { ...auth, range: 'bytes=0-1023' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(uploaded.subarray(0, 1024))).toBe(true);

      // And it goes on: a new article (new rows after the restored ones, its PDF into the bucket).
      const { pdf: later } = await uploadArticle(after.app, auth, issue.id, 'after');
      expect(await after.services.files.blobs.size(sha256(later))).toBe(later.length);
    } finally {
      await after.close();
    }
  }, 180_000);

  it('the command refuses a damaged file (exit 1, named), copies the rest; a missing bucket is one line', async () => {
    const store = new S3BlobStore(s3.options('journal', { prefix: 'damaged/' }));
    const good = Buffer.from('a good blob');
    await store.put(good);
    const claimed = sha256(Buffer.from('what the name promises'));
    await store.client.send(
      new PutObjectCommand({
        Bucket: 'journal',
        Key: `damaged/${blobPath(claimed)}`,
        Body: 'something else',
      }),
    );
    const target = mkdtempSync(path.join(os.tmpdir(), 'colophon-back-'));
    try {
      const back = cli(['files', 'copy', '--to', 'local'], {
        ...env(),
        ...s3.env('journal'),
        DATA_DIR: target,
        S3_PREFIX: 'damaged',
      });
      expect(back.status).toBe(1);
      expect(back.stdout).toContain('Done in');
      expect(back.stdout).toContain('1 copied, 0 already there, 1 failed, of 2 files');
      expect(back.stderr).toContain(`The blob ${claimed} is damaged: its bytes do not hash to its name.`);
      expect(
        readdirSync(path.join(target, 'files'), { recursive: true, withFileTypes: true })
          .filter((d) => d.isFile())
          .map((d) => d.name),
      ).toEqual([sha256(good)]);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }

    const missing = cli(['files', 'copy', '--to', 's3'], { ...env(), ...s3.env('no-such-bucket') });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim()).toBe(
      `Cannot use the object store: there is no bucket "no-such-bucket" at ${s3.endpoint}. Create it, or set S3_BUCKET to one that exists.`,
    );
  }, 120_000);

  it('the server does not start on a bucket it cannot use, and says why in one line', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-nostart-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          ...env(),
          DATA_DIR: dir,
          PORT: '0',
          ...s3.env('journal'),
          S3_ACCESS_KEY_ID: 'WRONG-KEY',
        },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toMatch(
        new RegExp(
          `^Cannot use the object store: ${s3.endpoint} refused the credentials \\(InvalidAccessKeyId: [^\\n]*\\)\\. Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY\\.$`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
