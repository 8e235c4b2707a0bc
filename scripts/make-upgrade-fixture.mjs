#!/usr/bin/env node
// Makes tests/fixtures/upgrade/: a one-journal data folder of the PREVIOUS release, for the upgrade test
// (server/db/upgrade.test.ts, issue 24). Run from the repository's root, with a checkout of the previous
// release (its node_modules installed) as the first argument:
//
//   git worktree add --detach ../colophon-old <previous release> && (cd ../colophon-old && npm ci)
//   node scripts/make-upgrade-fixture.mjs ../colophon-old [port]
//
// It starts the old release's own server (its API: no site build needed) on a fresh data folder, drives a
// real workflow through its HTTP API (accounts registered and approved, a manuscript submitted, reviewed,
// accepted and published into a new issue, a subscriber), stops it, dumps its embedded database with the old
// release's own `npm run cli -- db dump FILE`, and writes here: database.sql.gz, the files folder's blobs
// (files/, content-addressed as the old release stored them) and facts.json (what the test checks: ids,
// titles, every table's row count, the session token and the secret that signed it).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const oldTree = path.resolve(process.argv[2] ?? '');
const port = Number(process.argv[3] ?? 4561);
if (!process.argv[2] || !existsSync(path.join(oldTree, 'server', 'main.ts'))) {
  console.error('Usage: node scripts/make-upgrade-fixture.mjs <checkout of the previous release> [port]');
  process.exit(2);
}
const out = path.resolve('tests/fixtures/upgrade');
const manuscripts = path.resolve('tests/fixtures/manuscripts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-upgrade-fixture-'));
const base = `http://127.0.0.1:${port}`;
const ADMIN_PASSWORD = 'admin-pass-upgrade-1';
const PASSWORD = 'password-upgrade-1';

const env = {
  ...process.env,
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: String(port),
  PUBLIC_URL: base,
  ADMIN_PASSWORD,
  RATE_LIMIT_REGISTER: 'off',
  RATE_LIMIT_LOGIN: 'off',
  RATE_LIMIT_LOGIN_USER: 'off',
  MAIL_LIMIT_RECIPIENT: 'off',
  SIMILARITY_GRAMMAR: 'false',
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
delete env.SESSION_SECRET; // generated into the data folder, as on a real first start

// ---- the old server, API only (its pages need `npm run build`; the data does not) ------------------------
const serverLog = path.join(dataDir, 'server.log');
const entry = path.join(dataDir, 'old-server.mjs');
writeFileSync(
  entry,
  `const { startServer } = await import(${JSON.stringify(pathToFileURL(path.join(oldTree, 'server', 'main.ts')).href)});\n` +
    'await startServer({ pages: async () => undefined });\n',
);
const server = spawn(process.execPath, ['--import', 'tsx', entry], {
  cwd: oldTree,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const logged = [];
server.stdout.on('data', (d) => logged.push(d));
server.stderr.on('data', (d) => logged.push(d));
const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));

async function waitReady() {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) break;
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the old server did not start:\n${Buffer.concat(logged).toString()}`);
}

async function call(method, url, { token, json, form, expect = [200, 201] } = {}) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = new FormData();
    for (const [k, v] of Object.entries(form)) {
      if (v && typeof v === 'object' && 'file' in v) {
        body.append(k, new Blob([readFileSync(path.join(manuscripts, v.file))], { type: v.type }), v.name);
      } else body.append(k, String(v));
    }
  }
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const login = async (username, password) =>
  (await call('POST', '/api/auth/login', { json: { username, password } })).token;

async function register(username, role, fullName, institution) {
  await call('POST', '/api/auth/register', {
    json: {
      username,
      password: PASSWORD,
      email: `${username}@upgrade.example`,
      fullName,
      contactNumber: '+91 44 1234 5678',
      institution,
      role,
    },
  });
}

const facts = {
  madeAt: '',
  oldRelease: '',
  passwords: { admin: ADMIN_PASSWORD, others: PASSWORD },
  accounts: {},
  ids: {},
  titles: {},
};
try {
  await waitReady();
  console.log(`The old server answers at ${base} (data folder ${dataDir}).`);
  facts.oldRelease = spawnSync('git', ['rev-parse', 'HEAD'], {
    cwd: oldTree,
    encoding: 'utf8',
  }).stdout.trim();

  const admin = await login('admin', ADMIN_PASSWORD);
  await register('upg_editor', 'author', 'Edith Upgrade', 'Upgrade University');
  await register('upg_author', 'author', 'Arun Upgrade', 'Upgrade Institute of Technology');
  await register('upg_reviewer', 'researcher', 'Rosa Upgrade', 'Upgrade Research Centre');
  await register('upg_subscriber', 'researcher', 'Sami Upgrade', 'Upgrade College');
  await register('upg_pending', 'author', 'Pat Pending', 'Pending Polytechnic');

  const pending = await call('GET', '/api/editor/pending-users', { token: admin });
  const list = pending;
  const idOf = (username) => {
    const u = list.find((x) => x.username === username);
    if (!u) throw new Error(`${username} is not among the pending accounts: ${JSON.stringify(pending)}`);
    return u.id;
  };
  for (const name of ['upg_editor', 'upg_author', 'upg_reviewer', 'upg_subscriber']) {
    facts.accounts[name] = { id: idOf(name) };
    await call('POST', `/api/editor/approve-user/${idOf(name)}`, { token: admin });
  }
  facts.accounts.upg_pending = { id: idOf('upg_pending') };
  await call('PATCH', `/api/admin/users/${facts.accounts.upg_editor.id}`, {
    token: admin,
    json: { role: 'editor', status: 'approved' },
  });

  const editor = await login('upg_editor', PASSWORD);
  const author = await login('upg_author', PASSWORD);
  const reviewer = await login('upg_reviewer', PASSWORD);
  const subscriber = await login('upg_subscriber', PASSWORD);

  // The editor opens a volume and an issue.
  const volume = (
    await call('POST', '/api/editor/volume', {
      token: editor,
      json: { title: 'Volume 7: upgrades', volume_number: 7, year: 2026 },
    })
  ).volume;
  const issue = (
    await call('POST', '/api/editor/issue', {
      token: editor,
      json: {
        volume_id: volume.id,
        title: 'Issue 1',
        description: 'Before several journals',
        publication_month: 11,
      },
    })
  ).issue;
  facts.ids.volume = volume.id;
  facts.ids.issue = issue.id;

  // The author submits a manuscript (a PDF).
  const title = 'Upgrading a journal without losing a byte';
  facts.titles.article = title;
  const submitted = await call('POST', '/api/submission/submit', {
    token: author,
    form: {
      title,
      articleType: 'Research Article',
      keywords: 'upgrades, migrations, journals, tenancy',
      abstract: 'We upgrade a one-journal installation to a site of several journals and keep everything.',
      authors: JSON.stringify([
        {
          name: 'Arun Upgrade',
          email: 'upg_author@upgrade.example',
          affiliation: 'Upgrade Institute of Technology',
          superscript: '1',
        },
        {
          name: 'Bea Coauthor',
          email: 'bea@upgrade.example',
          affiliation: 'Coauthor University',
          superscript: '2',
        },
      ]),
      submissionFile: { file: 'manuscript.pdf', name: 'upgrade-manuscript.pdf', type: 'application/pdf' },
    },
  });
  facts.ids.submission = submitted.id;
  facts.ids.submissionReference = submitted.reference;

  // The editor sends it to review and invites the reviewer; the reviewer accepts and submits a review
  // with an attachment.
  const decide = (status, extra = {}) =>
    call('POST', `/api/editor/submissions/${submitted.id}/decision`, {
      token: editor,
      json: { status, message: `Moved to ${status}.`, ...extra },
    });
  await decide('under_review');
  const invited = await call('POST', `/api/editor/submissions/${submitted.id}/review/invitations`, {
    token: editor,
    json: { userId: facts.accounts.upg_reviewer.id, message: 'Would you review this manuscript?' },
  });
  facts.ids.assignment = invited.assignmentId;
  await call('POST', `/api/reviews/${invited.assignmentId}/accept`, { token: reviewer });
  await call('POST', `/api/reviews/${invited.assignmentId}/attachment`, {
    token: reviewer,
    form: { file: { file: 'manuscript.pdf', name: 'review-notes.pdf', type: 'application/pdf' } },
  });
  const review = await call('POST', `/api/reviews/${invited.assignmentId}/submit`, {
    token: reviewer,
    json: {
      recommendation: 'accept',
      commentsForAuthor: 'A careful migration: every row kept.',
      confidentialComments: 'No concerns for the editors.',
    },
  });
  facts.titles.reviewComments = 'A careful migration: every row kept.';
  facts.reviewStatus = review.status ?? null;

  // The editor accepts (sharing the review) and publishes it into the new issue, with the Word file too.
  await decide('accepted', { shareReviews: [invited.assignmentId] });
  const published = await call('POST', `/api/editor/submissions/${submitted.id}/publish`, {
    token: editor,
    form: {
      issue_id: issue.id,
      pages: '1-12',
      doi: '10.5555/cjei.2026.7.1.001',
      word: {
        file: 'manuscript.docx',
        name: 'final.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
    },
  });
  facts.ids.article = published.articleId;

  // A subscriber subscribes to new-issue alerts.
  await call('POST', '/api/user/subscription', { token: subscriber });

  // The sessions kept: the author's (used by the upgrade test), and the subscriber's.
  const me = await call('GET', '/api/auth/me', { token: author });
  facts.session = { username: 'upg_author', token: author, me };
  facts.subscriberToken = subscriber;

  // Let the queue finish what the workflow queued (e-mails, the similarity corpus), then stop.
  await new Promise((r) => setTimeout(r, 8000));
  facts.madeAt = new Date().toISOString();
} finally {
  server.kill('SIGTERM');
  const how = await exited;
  writeFileSync(serverLog, Buffer.concat(logged));
  console.log(`The old server stopped (${JSON.stringify(how)}); its log: ${serverLog}`);
}

// ---- the dump, by the old release's own command ------------------------------------------------------------
const dumpFile = path.join(dataDir, 'database.sql');
const dumped = spawnSync('npm', ['run', 'cli', '--', 'db', 'dump', dumpFile], {
  cwd: oldTree,
  env,
  stdio: 'inherit',
});
if (dumped.status !== 0) throw new Error('npm run cli -- db dump failed');
const sql = readFileSync(dumpFile);

// Every table's row count, from the old database itself (PGlite on the stopped folder).
// The old release's own PGlite, the version that wrote the folder.
const require = createRequire(path.join(oldTree, 'package.json'));
const { PGlite } = await import(pathToFileURL(require.resolve('@electric-sql/pglite')).href);
const pg = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
const tables = (
  await pg.query(
    "select table_schema || '.' || table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1",
  )
).rows.map((r) => r.name);
facts.rowCounts = {};
for (const name of tables) {
  const [schema, table] = name.split('.');
  const { rows } = await pg.query(`select count(*)::int as n from "${schema}"."${table}"`);
  facts.rowCounts[name] = rows[0].n;
}
const one = async (q) => (await pg.query(q)).rows;
facts.users = await one('select id, username, role, status from users order by id');
facts.articles = await one('select id, title, issue_id, pdf_file_id from articles order by id');
facts.files = await one(
  'select id, key, sha256, size, media_type, original_name from stored_files order by id',
);
await pg.close();
facts.sessionSecret = readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim();

// ---- the fixture ---------------------------------------------------------------------------------------
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'database.sql.gz'), gzipSync(sql, { level: 9 }));
const filesDir = path.join(dataDir, 'files');
let total = 0;
const blobs = [];
for (const entry of readdirSync(filesDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const full = path.join(entry.parentPath ?? entry.path, entry.name);
  const bytes = readFileSync(full);
  total += bytes.length;
  blobs.push({
    path: path.relative(filesDir, full),
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
}
facts.blobs = blobs.sort((a, b) => a.path.localeCompare(b.path));
if (total > 3 * 1024 * 1024)
  throw new Error(`the files folder holds ${total} bytes: more than the fixture keeps`);
cpSync(filesDir, path.join(out, 'files'), { recursive: true });
writeFileSync(path.join(out, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
console.log(
  `Written ${out}: database.sql.gz (${statSync(path.join(out, 'database.sql.gz')).size} bytes), ${blobs.length} files (${total} bytes), facts.json.`,
);
rmSync(dataDir, { recursive: true, force: true });
