import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Role, Status } from '../../common/roles.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { journalMemberships, users } from '../accounts/tables.ts';
import { buildApp } from '../app.ts';
import { buildDir, loadProductionBuild } from '../http/ssr.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { type Database, type Db, openDatabase } from '../db/client.ts';
import { type BlobStore, LocalBlobStore } from '../files/blob-store.ts';
import { type TestS3Server, startS3Server } from './s3-server.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { seed } from '../seed/seed.ts';
import { type Services, createServices } from '../services.ts';

export const silentLog = { info() {}, warn() {}, error() {} };

/** A transport that keeps what it was asked to send, for assertions. */
export function captureMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
    async close() {},
  };
}

/**
 * A fresh, empty database on the PostgreSQL server at `serverUrl` (any database on it: only its server and
 * credentials are used): its URL, and `drop()`, which removes it even while connections remain (those of a
 * killed server process, say).
 */
export async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `colophon_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A database of its own for one test file: in-memory PGlite, or (when DATABASE_URL is set) a fresh
 * database on that PostgreSQL server, dropped afterwards.
 */
export async function testDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({ memory: true });
  const scratch = await scratchDatabase(url);
  const database = await openDatabase({ url: scratch.url });
  return {
    ...database,
    close: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export interface TestContext {
  services: Services;
  app: FastifyInstance;
  mail: Mail[];
  dataDir: string;
  /** The services' clock: stands still until a test moves it (`clock.advance(ms)`). */
  clock: ManualClock;
  /**
   * Runs every job due at the clock's now (e-mail, alerts...), as a started queue would. `app.inject` does it
   * after each request; a test that calls services directly calls it before looking at `mail`.
   */
  runJobs(): Promise<number>;
  /** `app.inject` without running the jobs after it: for a test of what an answer does not wait for. */
  injectOnly: FastifyInstance['inject'];
  /** Creates an account directly in the database. */
  createUser(opts: { role: Role; status: Status; username?: string; password?: string }): Promise<{
    id: number;
    username: string;
    password: string;
    email: string;
  }>;
  /**
   * Every file the blob store holds, by name: on disk the half-written `.tmp` ones too; in the object store
   * (COLOPHON_TEST_BLOBS=s3) every blob object.
   */
  blobFiles(): Promise<string[]>;
  /** Signs in through the API and returns the bearer token. */
  login(username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/** Creates an account directly in the database (username `{role}_{status}_…` unless given; e-mail from it). */
export async function insertUser(
  db: Db,
  opts: { role: Role; status: Status; username?: string; password?: string; fullName?: string },
): Promise<{ id: number; username: string; password: string; email: string }> {
  const { role, status, password = 'password-123' } = opts;
  const name = opts.username ?? `${role}_${status}_${++counter}_${randomBytes(2).toString('hex')}`;
  const email = `${name}@example.org`;
  const [row] = await db
    .insert(users)
    .values({
      username: name,
      passwordHash: await hashPassword(password),
      email,
      fullName: opts.fullName ?? `Test ${name}`,
      contactNumber: '+91 44 1234 5678',
      institution: 'Test University',
    })
    .returning({ id: users.id });
  // Its role and status are its membership of the journal in scope (journal 1 unless the test says).
  await db.insert(journalMemberships).values({ userId: row.id, role, status });
  return { id: row.id, username: name, password, email };
}

/** The API on a fresh database with the journal settings and the admin account (admin / admin-pass-123). */
export async function createTestContext(
  env: Record<string, string> = {},
  opts: {
    demo?: boolean;
    /**
     * A blob store of the test's own (one that fails, say), under the context's data folder. Without it,
     * the local store; or, when COLOPHON_TEST_BLOBS=s3, a bucket on an S3 test server of the context's own
     * (so any API test file runs on the object store too).
     */
    blobs?: (dataDir: string) => BlobStore;
    /** The pages too, from the production build (`npm run build` first): for tests of page actions. */
    pages?: boolean;
    /** A pino logger for the services and Fastify (default: nothing logged). */
    logger?: import('pino').Logger;
    /**
     * A database the test opened itself (an upgraded one, say) instead of a fresh one, and the data folder
     * that goes with it: both the context's from then on (closed and removed with it).
     */
    existing?: { database: Database; dataDir: string };
  } = {},
): Promise<TestContext> {
  const dataDir = opts.existing?.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'colophon-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'admin-pass-123',
    RATE_LIMIT_LOGIN: 'off',
    RATE_LIMIT_LOGIN_USER: 'off',
    RATE_LIMIT_REGISTER: 'off',
    RATE_LIMIT_PASSWORD_RESET: 'off',
    RATE_LIMIT_CONTACT: 'off',
    MAIL_LIMIT_RECIPIENT: 'off',
    RATE_LIMIT_PLAGIARISM: 'off',
    // No background indexing and arrival checks, no grammar (harper.js) unless a test asks for them.
    SIMILARITY_BACKGROUND: 'false',
    SIMILARITY_GRAMMAR: 'false',
    PUBLIC_URL: 'http://journal.test',
    LOG_LEVEL: 'silent',
    // Deposits (decision 0064) reach only the fakes on loopback, whatever a test's settings say.
    DEPOSIT_LOOPBACK_ONLY: 'true',
    ...env,
  });
  const database = opts.existing?.database ?? (await testDatabase());
  const mailer = captureMailer();
  const clock = new ManualClock();
  let s3: TestS3Server | null = null;
  let blobs = opts.blobs?.(dataDir);
  if (!blobs && process.env.COLOPHON_TEST_BLOBS === 's3') {
    s3 = await startS3Server(['colophon-test']);
    // Loaded only here: the S3 client costs every other test file's start a sixth of a second.
    const { S3BlobStore } = await import('../files/s3-blob-store.ts');
    blobs = new S3BlobStore(s3.options('colophon-test'));
  }
  const services = createServices(config, database, opts.logger ?? silentLog, { mailer, clock, blobs });
  await seed(services, { demo: opts.demo ?? false });
  const app = await buildApp(services, {
    checkResponses: true,
    ...(opts.logger ? { logger: opts.logger } : {}),
    ...(opts.pages
      ? {
          pages: {
            build: await loadProductionBuild(),
            mode: 'production' as const,
            clientDir: path.join(buildDir, 'client'),
          },
        }
      : {}),
  });
  await app.ready();
  // The queue is not started in tests (no timers): what a request queued runs as soon as it has answered.
  const inject = app.inject.bind(app);
  app.inject = (async (...args: Parameters<typeof inject>) => {
    if (!args.length) return inject();
    const res = await (inject as (...a: unknown[]) => Promise<unknown>)(...args);
    await services.jobs.runDue();
    return res;
  }) as typeof app.inject;

  const ctx: TestContext = {
    services,
    app,
    mail: mailer.sent,
    dataDir,
    clock,
    runJobs: () => services.jobs.runDue(),
    injectOnly: inject,
    createUser: (opts) => insertUser(services.db, opts),
    async login(username, password) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password },
      });
      if (res.statusCode !== 200)
        throw new Error(`login failed for ${username}: ${res.statusCode} ${res.body}`);
      return res.json().token as string;
    },
    async blobFiles() {
      const root = path.join(dataDir, 'files');
      if (services.files.blobs instanceof LocalBlobStore) {
        try {
          return readdirSync(root, { recursive: true, withFileTypes: true })
            .filter((d) => d.isFile())
            .map((d) => d.name);
        } catch {
          return [];
        }
      }
      const keys: string[] = [];
      for await (const b of services.files.blobs.list()) keys.push(b.key);
      return keys;
    },
    async close() {
      await app.close();
      await database.close();
      await s3?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ctx;
}

/** A multipart body for `app.inject`, built the way a browser builds it. */
export async function multipart(
  fields: Record<string, string>,
  files: Record<string, { name: string; data: Buffer; type?: string }> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, f] of Object.entries(files)) {
    form.append(
      k,
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  }
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

/** Posts a multipart body (built as `multipart` builds it) through `app.inject`. */
export async function postMultipart(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  files: Record<string, { name: string; data: Buffer; type?: string }> = {},
) {
  const body = await multipart(fields, files);
  return app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
}

export const fixturesDir = path.resolve('tests/fixtures/manuscripts');
export const fixture = (name: string) => readFileSync(path.join(fixturesDir, name));

/** Decodes a JWT's payload without checking it (the tests check what clients can read). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}
