/**
 * `npm run bench:review`: peer review on a large journal (issue 14): 5,000 submissions under review, each
 * with a round, 2,000 reviewer profiles and 20,000 assignments in every state, due dates spread around
 * "now". Measures the reminder pass (the first, which claims and mails everything due, then steady passes
 * a minute apart) and the reviewer pool query (all, and searched), BENCH_RUNS times each (default 20).
 *
 * On PGlite by default; with DATABASE_URL on a fresh database of that PostgreSQL server (dropped after).
 * Figures, not a test: the exit status is 1 when the pass's median passes 1 s or the pool's 200 ms.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ASSIGNMENT_STATES } from '../common/review.ts';
import { hashPassword } from '../server/accounts/passwords.ts';
import { journalMemberships, users } from '../server/accounts/tables.ts';
import { reviewAssignments, reviewRounds, reviewerProfiles } from '../server/review/tables.ts';
import { addDays } from '../server/review/rules.ts';
import { submissions } from '../server/submissions/tables.ts';
import { createTestContext } from '../server/testing/harness.ts';
import { chunked, personOf, titleOf } from './lib/seed.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const COUNTS = { submissions: 5_000, reviewers: 2_000, assignments: 20_000 };
const BUDGET = { pass: 1_000, pool: 200 };

const t0 = performance.now();
const t = await createTestContext({}, { demo: false });
const { db } = t.services;
const kind = t.services.database.kind;
const now = Date.UTC(2026, 5, 15, 9);
t.clock.set(now);
const today = new Date(now).toISOString().slice(0, 10);
const areas = (await t.services.settings.journal()).areas;

const [author] = await db
  .insert(users)
  .values({
    username: 'bench_author',
    passwordHash: await hashPassword('bench-password-1'),
    email: 'bench_author@example.org',
    fullName: 'Bench Author',
    contactNumber: '',
    institution: 'Bench University',
  })
  .returning({ id: users.id });
await db.insert(journalMemberships).values({ userId: author.id, role: 'author', status: 'approved' });
const submissionIds: number[] = [];
await chunked(
  Array.from({ length: COUNTS.submissions }, (_, i) => ({
    reference: `REV-2026-${String(i + 1).padStart(5, '0')}`,
    userId: author.id,
    title: titleOf(i),
    articleType: 'Research Article',
    keywords: 'k',
    abstract: 'A.',
    status: (i % 10 === 0 ? 'revisions_requested' : 'under_review') as 'under_review' | 'revisions_requested',
  })),
  async (chunk) =>
    submissionIds.push(
      ...(await db.insert(submissions).values(chunk).returning({ id: submissions.id })).map((r) => r.id),
    ),
);
const roundIds: number[] = [];
await chunked(
  submissionIds.map((submissionId, i) => ({
    submissionId,
    number: 1,
    version: 1,
    mode: 'double-anonymous' as const,
    reviewerFileIds: [],
    // One in ten has its round decided with revisions due around now (revision reminders).
    ...(i % 10 === 0
      ? {
          decision: 'major-revisions',
          decidedAt: new Date(now - 40 * 86_400_000),
          revisionDue: addDays(today, (i % 21) - 10),
        }
      : {}),
  })),
  async (chunk) =>
    roundIds.push(
      ...(await db.insert(reviewRounds).values(chunk).returning({ id: reviewRounds.id })).map((r) => r.id),
    ),
);
const profileIds: number[] = [];
await chunked(
  Array.from({ length: COUNTS.reviewers }, (_, i) => ({
    name: personOf(i),
    email: `reviewer${i}@bench.example`,
    affiliation: `Institute ${i % 300}`,
    interests: [areas[i % areas.length], areas[(i * 7) % areas.length]],
  })),
  async (chunk) =>
    profileIds.push(
      ...(await db.insert(reviewerProfiles).values(chunk).returning({ id: reviewerProfiles.id })).map(
        (r) => r.id,
      ),
    ),
);
const day = 86_400_000;
await chunked(
  Array.from({ length: COUNTS.assignments }, (_, i) => {
    const state = ASSIGNMENT_STATES[i % ASSIGNMENT_STATES.length];
    const invitedAt = new Date(now - ((i % 60) + 1) * day);
    const responded = state !== 'invited';
    return {
      roundId: roundIds[i % roundIds.length],
      submissionId: submissionIds[i % submissionIds.length],
      profileId: profileIds[(i * 13) % profileIds.length],
      state,
      responseDue: addDays(today, (i % 17) - 8),
      reviewDue: addDays(today, (i % 41) - 20),
      linkNonce: `nonce${i}`,
      invitedAt,
      respondedAt: responded ? new Date(invitedAt.getTime() + 2 * day) : null,
      submittedAt: state === 'submitted' ? new Date(invitedAt.getTime() + ((i % 30) + 5) * day) : null,
      recommendation: state === 'submitted' ? ('accept' as const) : null,
      rating: state === 'submitted' ? (i % 5) + 1 : null,
    };
  }),
  (chunk) => db.insert(reviewAssignments).values(chunk),
);
await db.execute(sql`analyze`);
const seeded = performance.now() - t0;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const results: { name: string; median: number; p95: number; budget: number }[] = [];
async function measure(name: string, budget: number, run: (i: number) => Promise<unknown>, warm = 2) {
  for (let i = 0; i < warm; i++) await run(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await run(i);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  results.push({ name, median: quantile(times, 0.5), p95: quantile(times, 0.95), budget });
}

const review = t.services.review;
const firstStart = performance.now();
const first = await review.reminderPass(new Date(now));
const firstMs = performance.now() - firstStart;
await measure('Reminder pass, steady (a minute apart, nothing new due)', BUDGET.pass, (i) =>
  review.reminderPass(new Date(now + (i + 3) * 60_000)),
);
// A pass that finds new work: each run a day later than the last, so the reminders of that day fall due.
let later = now;
const sentLater: number[] = [];
await measure(
  'Reminder pass, a day later each run (new reminders due)',
  BUDGET.pass,
  async () => {
    later += day;
    sentLater.push((await review.reminderPass(new Date(later))).sent);
  },
  0,
);
await measure('Reviewer pool, everyone (2,000 reviewers)', BUDGET.pool, () => review.pool());
await measure('Reviewer pool, search by interest', BUDGET.pool, () => review.pool(areas[3].slice(0, 8)));
await measure('Reviewer pool, search by name', BUDGET.pool, () => review.pool('son'));

const width = Math.max(...results.map((r) => r.name.length));
console.log(
  `\nPeer review on ${kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL'}: ${COUNTS.submissions} submissions, ${COUNTS.assignments} assignments, ${COUNTS.reviewers} reviewers (seeded in ${(seeded / 1000).toFixed(1)} s); ${RUNS} runs each\n`,
);
console.log(
  `First pass (claims and mails everything due at once): ${first.sent} reminders in ${firstMs.toFixed(0)} ms`,
);
console.log(`Passes a day apart sent ${Math.min(...sentLater)}–${Math.max(...sentLater)} reminders each\n`);
console.log(`| ${'call'.padEnd(width)} | median ms | p95 ms |`);
console.log(`|${'-'.repeat(width + 2)}|----------:|-------:|`);
for (const r of results) {
  const flag = r.median > r.budget ? ' ⚠' : '';
  console.log(
    `| ${r.name.padEnd(width)} | ${r.median.toFixed(1).padStart(9)} | ${r.p95.toFixed(1).padStart(6)} |${flag}`,
  );
}
const slow = results.filter((r) => r.median > r.budget);
await t.close();
if (slow.length) {
  console.log(`\nOver budget (median): ${slow.map((r) => r.name).join('; ')}`);
  process.exitCode = 1;
}
