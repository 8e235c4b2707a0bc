/**
 * `npm run bench:dashboard`: the editorial dashboard's list calls on a journal with 5,000 submissions and
 * 2,000 articles (plus 2,000 accounts, 2,000 contact messages, 10,000 audit entries). The data goes in with
 * bulk inserts straight into the services' tables (seconds, not thousands of HTTP calls); then each call
 * the dashboard's pages make (the JSON API through Fastify's inject, the page loaders' service calls) runs
 * BENCH_RUNS times (default 30) after a warm-up, and the median and 95th percentile are printed.
 *
 * On PGlite by default; with DATABASE_URL on a fresh database of that PostgreSQL server (dropped after).
 * Figures, not a test: the exit status is 1 only when a call's median passes BUDGET_MS (100 ms).
 */
import { performance } from 'node:perf_hooks';
import { ARTICLE_TYPES } from '../common/limits.ts';
import { SUBMISSION_STATUSES } from '../common/submissions.ts';
import { hashPassword } from '../server/accounts/passwords.ts';
import { users } from '../server/accounts/tables.ts';
import { auditLog } from '../server/audit/tables.ts';
import { contactMessages } from '../server/contact/tables.ts';
import { submissionAuthors, submissionEvents, submissions } from '../server/submissions/tables.ts';
import { subscriptions } from '../server/subscriptions/tables.ts';
import { createTestContext } from '../server/testing/harness.ts';
import { chunked, personOf, seedArchive, titleOf, word } from './lib/seed.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BUDGET_MS = 100;
const COUNTS = { users: 2_000, submissions: 5_000, articles: 2_000, messages: 2_000, audit: 10_000 };

const t0 = performance.now();
const t = await createTestContext({}, { demo: false });
const { db } = t.services;
const kind = t.services.database.kind;

// ---- Seed ----------------------------------------------------------------------------------------------
const passwordHash = await hashPassword('bench-password-1');
const day = 86_400_000;
const start = Date.UTC(2025, 0, 1);
await chunked(
  Array.from({ length: COUNTS.users }, (_, i) => ({
    username: `bench_user_${i}`,
    passwordHash,
    email: `bench_user_${i}@example.org`,
    fullName: personOf(i),
    contactNumber: '+91 44 1234 5678',
    institution: 'Bench University',
    role: (i % 2 ? 'author' : 'researcher') as 'author' | 'researcher',
    status: (i % 7 === 0 ? 'pending' : 'approved') as 'pending' | 'approved',
    createdAt: new Date(start + (i % 600) * day),
  })),
  (chunk) => db.insert(users).values(chunk),
);
const userIds = (await db.select({ id: users.id }).from(users)).map((u) => u.id);
await chunked(
  userIds.filter((_, i) => i % 2 === 0).map((userId) => ({ userId })),
  (chunk) => db.insert(subscriptions).values(chunk),
);

// 25 volumes × 4 issues × 20 articles, each article with three authors, 1 in 50 unpublished.
await seedArchive(db, {
  issueSizes: Array.from({ length: 100 }, () => 20),
  issuesPerVolume: 4,
  firstVolumeNumber: 1,
  firstYear: 2001,
  unpublishedEvery: 50,
});

const submissionValues = Array.from({ length: COUNTS.submissions }, (_, i) => {
  const created = new Date(start + (i % 700) * day + i * 1000);
  return {
    reference: `BEN-${created.getUTCFullYear()}-${String(i + 1).padStart(5, '0')}`,
    userId: userIds[(i * 2 + 1) % userIds.length],
    title: titleOf(i + 10_000),
    articleType: ARTICLE_TYPES[i % ARTICLE_TYPES.length],
    keywords: `${word(i, 2)}, ${word(i, 4)}`,
    abstract: `A manuscript on ${titleOf(i)}. `.repeat(10),
    status: SUBMISSION_STATUSES[i % SUBMISSION_STATUSES.length],
    createdAt: created,
    updatedAt: created,
  };
});
const submissionIds: number[] = [];
await chunked(submissionValues, async (chunk) => {
  const rows = await db.insert(submissions).values(chunk).returning({ id: submissions.id });
  submissionIds.push(...rows.map((r) => r.id));
});
await chunked(
  submissionIds.flatMap((submissionId, i) =>
    [0, 1].map((p) => ({
      submissionId,
      position: p,
      name: personOf(i * 3 + p),
      email: `s${i}.${p}@example.org`,
      affiliation: 'Bench University',
    })),
  ),
  (chunk) => db.insert(submissionAuthors).values(chunk),
);
await chunked(
  submissionIds.map((submissionId) => ({ submissionId, actorUsername: 'bench', toStatus: 'submitted' })),
  (chunk) => db.insert(submissionEvents).values(chunk),
);
await chunked(
  Array.from({ length: COUNTS.messages }, (_, i) => ({
    name: personOf(i),
    email: `reader${i}@example.org`,
    message: `Question number ${i} about the journal. `.repeat(5),
    handledAt: i % 3 ? new Date() : null,
  })),
  (chunk) => db.insert(contactMessages).values(chunk),
);
await chunked(
  Array.from({ length: COUNTS.audit }, (_, i) => ({
    actorUsername: 'bench',
    action: ['article.publish', 'user.update', 'submission.decision', 'volume.update'][i % 4],
    targetType: 'bench',
    targetId: String(i),
    details: { n: i, note: 'benchmark entry' },
  })),
  (chunk) => db.insert(auditLog).values(chunk),
);
await db.execute('ANALYZE');
const seeded = performance.now() - t0;

// ---- Measure -------------------------------------------------------------------------------------------
const token = await t.login('admin', 'admin-pass-123');
const api = (url: string) => async () => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
};
const { accounts, catalog, audit, contact, subscriptions: alerts } = t.services;
const author = personOf(4_242 * 3);
const CASES: [string, () => Promise<unknown>][] = [
  ['API submissions, first page', api('/api/editor/submissions')],
  ['API submissions, page 100 (offset 4950)', api('/api/editor/submissions?offset=4950')],
  ['API submissions, status filter', api('/api/editor/submissions?status=under_review')],
  [
    'API submissions, type filter',
    api(`/api/editor/submissions?type=${encodeURIComponent('Review Article')}`),
  ],
  ['API submissions, date range', api('/api/editor/submissions?from=2025-06-01&to=2025-09-30')],
  [
    'API submissions, all filters',
    api(
      `/api/editor/submissions?status=submitted&type=${encodeURIComponent('Research Article')}&from=2025-01-01&to=2026-12-31`,
    ),
  ],
  ['API submissions, title search', api('/api/editor/submissions?q=turbine')],
  ['API submissions, author search', api(`/api/editor/submissions?q=${encodeURIComponent(author)}`)],
  ['API submissions, reference search', api('/api/editor/submissions?q=BEN-2026-04')],
  ['API articles (100)', api('/api/editor/articles')],
  ['API pending users', api('/api/editor/pending-users')],
  ['API users search', api('/api/admin/users?q=user_19&role=author')],
  ['Pending users, first page (loader)', () => accounts.pendingUsersPage({ limit: 50, offset: 0 })],
  ['Users, first page (loader)', () => accounts.listUsers({ limit: 25, offset: 0 })],
  [
    'Users, search + filters (loader)',
    () => accounts.listUsers({ q: 'okafor', role: 'author', status: 'approved', limit: 25, offset: 0 }),
  ],
  ['Articles, first page (loader)', () => catalog.editorArticles({ limit: 25, offset: 0 })],
  ['Articles, last page (loader)', () => catalog.editorArticles({ limit: 25, offset: 1_975 })],
  ['Volumes (loader)', () => catalog.editorVolumes()],
  ['Issues (loader)', () => catalog.editorIssues()],
  [
    'Alert statuses + subscribers (loader)',
    () => Promise.all([alerts.alertStatuses(), alerts.recipientCount()]),
  ],
  ['Audit log, first page (loader)', () => audit.page(50, 0)],
  ['Audit log, last page (loader)', () => audit.page(50, 9_950)],
  ['Messages, first page (loader)', () => contact.list({ limit: 25, offset: 0 })],
];

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const results: { name: string; median: number; p95: number }[] = [];
for (const [name, run] of CASES) {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await run();
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  results.push({ name, median: quantile(times, 0.5), p95: quantile(times, 0.95) });
}

const width = Math.max(...results.map((r) => r.name.length));
console.log(
  `\nDashboard list calls on ${kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL'}: ${COUNTS.submissions} submissions, ${COUNTS.articles} articles, ${COUNTS.users} accounts, ${COUNTS.messages} messages, ${COUNTS.audit} audit entries (seeded in ${(seeded / 1000).toFixed(1)} s); ${RUNS} runs each\n`,
);
console.log(`| ${'call'.padEnd(width)} | median ms | p95 ms |`);
console.log(`|${'-'.repeat(width + 2)}|----------:|-------:|`);
for (const r of results) {
  const flag = r.median > BUDGET_MS ? ' ⚠' : '';
  console.log(
    `| ${r.name.padEnd(width)} | ${r.median.toFixed(1).padStart(9)} | ${r.p95.toFixed(1).padStart(6)} |${flag}`,
  );
}
const slow = results.filter((r) => r.median > BUDGET_MS);
if (slow.length)
  console.log(`\nOver the ${BUDGET_MS} ms budget (median): ${slow.map((r) => r.name).join('; ')}`);
await t.close();
process.exit(slow.length ? 1 : 0);
