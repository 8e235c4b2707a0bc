import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { articles, issues, volumes } from '../../server/catalog/tables.ts';
import { rowsOf } from '../../server/db/client.ts';
import { asSite, withJournal } from '../../server/db/scope.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { journals } from '../../server/journals/tables.ts';
import { seed } from '../../server/seed/seed.ts';
import { bearer } from '../../server/testing/factories.ts';
import type { TestContext } from '../../server/testing/harness.ts';
import { type Counted, facts, fixtureDir, upgradedContext } from './upgrade-helpers.ts';

/**
 * Upgrading (issue 24, decision 0053): the previous release's one-journal installation, made by that
 * release's own server and dumped by its own `db dump` (tests/fixtures/upgrade), becomes journal 1 at `/`
 * in one migration, on PGlite and on PostgreSQL, with every article, file, account, session and review kept.
 */
let t: TestContext;
let counted: Counted;

beforeAll(async () => {
  ({ t, counted } = await upgradedContext());
}, 120_000);
afterAll(() => t?.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('an installation of the previous release, upgraded', () => {
  it('keeps every row of every table, each table of a journal’s data wholly journal 1’s', () => {
    for (const [table, before] of Object.entries(facts.rowCounts)) {
      const now = counted[table];
      if (table === 'drizzle.__drizzle_migrations') {
        // 0000-0015 as the old release applied them, and this release's on top.
        expect(now.rows, table).toBeGreaterThan(before);
        continue;
      }
      expect(now.rows, table).toBe(before);
      if (now.journal1 === null || table === 'public.jobs') continue;
      expect({ table, journal1: now.journal1, seen: now.seenByJournal1 }).toEqual({
        table,
        journal1: before,
        seen: before,
      });
    }
    // The tables the issue names are among those checked, and not empty.
    for (const table of [
      'articles',
      'issues',
      'volumes',
      'users',
      'sessions',
      'submissions',
      'submission_files',
      'review_assignments',
      'review_rounds',
      'subscriptions',
      'stored_files',
      'full_texts',
      'settings',
    ]) {
      expect(facts.rowCounts[`public.${table}`], table).toBeGreaterThan(0);
      expect(counted[`public.${table}`], table).toBeDefined();
    }
  });

  it('keeps the catalogue, the accounts and the files as they were', async () => {
    const db = t.services.db;
    const now = await db
      .select({
        id: articles.id,
        title: articles.title,
        issue_id: articles.issueId,
        pdf_file_id: articles.pdfFileId,
        journal: articles.journalId,
      })
      .from(articles)
      .orderBy(asc(articles.id));
    expect(now).toEqual(facts.articles.map((a) => ({ ...a, journal: 1 })));
    const [issue] = await db.select().from(issues).where(eq(issues.id, facts.ids.issue));
    expect(issue).toMatchObject({ journalId: 1, volumeId: facts.ids.volume, title: 'Issue 1' });
    const [volume] = await db.select().from(volumes).where(eq(volumes.id, facts.ids.volume));
    expect(volume).toMatchObject({ journalId: 1, title: 'Volume 7: upgrades', volumeNumber: 7 });

    // Each account's role and standing are now its membership of journal 1 (decision 0054).
    const accounts = await db
      .select({
        id: users.id,
        username: users.username,
        role: journalMemberships.role,
        status: journalMemberships.status,
      })
      .from(users)
      .innerJoin(journalMemberships, eq(journalMemberships.userId, users.id))
      .orderBy(asc(users.id));
    expect(accounts).toEqual(facts.users);

    const files = await db
      .select({
        id: storedFiles.id,
        key: storedFiles.key,
        sha256: storedFiles.sha256,
        size: storedFiles.size,
        media_type: storedFiles.mediaType,
        original_name: storedFiles.originalName,
      })
      .from(storedFiles)
      .orderBy(asc(storedFiles.id));
    expect(files).toEqual(facts.files);
    // Every stored file's bytes are in the blob store, whole.
    for (const file of facts.files) {
      const blob = facts.blobs.find((b) => path.basename(b.path) === file.key);
      expect(blob, `the blob of stored file ${file.id}`).toBeDefined();
      const bytes = readFileSync(path.join(t.dataDir, 'files', blob!.path));
      expect(sha256(bytes)).toBe(file.sha256);
    }
    expect(existsSync(path.join(fixtureDir, 'files'))).toBe(true);
  });

  it('makes the installation journal 1, at the site’s root, named as its settings name it', async () => {
    const rows = await asSite(() => t.services.db.select().from(journals).orderBy(asc(journals.id)));
    expect(rows).toEqual([expect.objectContaining({ id: 1, path: null, domain: null, status: 'open' })]);
    expect(rows[0].title).toBe((await t.services.settings.journal()).name);
    expect(t.services.journals.rootJournal()).toMatchObject({ id: 1 });
  });

  it('gives every account its role and standing in journal 1, and the admin the site', async () => {
    const memberships = await asSite(() =>
      t.services.db
        .select({
          journal: journalMemberships.journalId,
          id: journalMemberships.userId,
          role: journalMemberships.role,
          status: journalMemberships.status,
        })
        .from(journalMemberships)
        .orderBy(asc(journalMemberships.userId)),
    );
    expect(memberships).toEqual(
      facts.users.map((u) => ({ journal: 1, id: u.id, role: u.role, status: u.status })),
    );
    const admins = await t.services.db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.siteAdmin, true));
    expect(admins).toEqual([{ username: 'admin' }]);
    // The reviewer (a researcher), the author and the one left pending: theirs, in journal 1.
    const byName = (name: string) => memberships.find((m) => m.id === facts.accounts[name].id);
    expect(byName('upg_reviewer')).toMatchObject({ role: 'researcher', status: 'approved' });
    expect(byName('upg_author')).toMatchObject({ role: 'author', status: 'approved' });
    expect(byName('upg_editor')).toMatchObject({ role: 'editor', status: 'approved' });
    expect(byName('upg_pending')).toMatchObject({ role: 'author', status: 'pending' });
  });

  it('keeps the old sessions signed in, and the old passwords', async () => {
    const me = await get('/api/auth/me', facts.session.token);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({
      id: facts.accounts.upg_author.id,
      username: 'upg_author',
      role: 'author',
      status: 'approved',
    });
    const subscription = await get('/api/user/subscription', facts.subscriberToken);
    expect(subscription.statusCode, subscription.body).toBe(200);
    expect(subscription.json()).toMatchObject({ isSubscribed: true });
    // The admin signs in with the password of the old release, and may still run the accounts.
    const admin = await t.login('admin', facts.passwords.admin);
    const pending = await get('/api/editor/pending-users', admin);
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().map((u: { username: string }) => u.username)).toEqual(['upg_pending']);
  });

  it('keeps the manuscript, its review and its publication, for the author, the reviewer and the editor', async () => {
    const author = facts.session.token;
    const submission = await get(`/api/submissions/${facts.ids.submission}`, author);
    expect(submission.statusCode, submission.body).toBe(200);
    expect(submission.json()).toMatchObject({
      id: facts.ids.submission,
      reference: facts.ids.submissionReference,
      title: facts.titles.article,
      articleId: facts.ids.article,
    });
    // The manuscript itself, byte for byte.
    const manuscript = submission.json().files[0];
    const file = await get(`/api/submissions/${facts.ids.submission}/files/${manuscript.id}`, author);
    expect(file.statusCode).toBe(200);
    expect(sha256(file.rawPayload)).toBe(
      facts.files.find((f) => f.original_name === 'upgrade-manuscript.pdf')!.sha256,
    );

    // The review the editor shared with the author.
    const reviews = await get(`/api/submissions/${facts.ids.submission}/reviews`, author);
    expect(reviews.statusCode, reviews.body).toBe(200);
    expect(JSON.stringify(reviews.json())).toContain(facts.titles.reviewComments);

    // The reviewer's own assignment, submitted.
    const reviewer = await t.login('upg_reviewer', facts.passwords.others);
    const mine = await get('/api/reviews', reviewer);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(JSON.stringify(mine.json())).toContain(`"id":${facts.ids.assignment}`);
    const assignment = await get(`/api/reviews/${facts.ids.assignment}`, reviewer);
    expect(assignment.statusCode, assignment.body).toBe(200);
    expect(assignment.json()).toMatchObject({ status: 'submitted' });
    expect(JSON.stringify(assignment.json())).toContain(facts.titles.reviewComments);

    // The editor's desk.
    const editor = await t.login('upg_editor', facts.passwords.others);
    const desk = await get(`/api/editor/submissions?q=${facts.ids.submissionReference}`, editor);
    expect(desk.statusCode, desk.body).toBe(200);
    expect(desk.json().submissions).toEqual([
      expect.objectContaining({ id: facts.ids.submission, status: 'accepted', articleId: facts.ids.article }),
    ]);
  });

  it('states the APC rule on /apc from the settings, the old hard-coded table replaced (decision 0063)', async () => {
    const source = await withJournal(1, () => t.services.content.pageSource('apc'));
    expect(source).toContain('{{apc.rule}}');
    expect(source).not.toContain('| Before 1 June 2025 |');
    expect(source).toContain('All charges are in {{apc.currencyName}} ({{apc.currency}}).');
    const page = await withJournal(1, () => t.services.content.page('apc'));
    expect(page!.html).toContain('On or after 1 June 2025');
    expect(page!.html).toContain('100 USD per accepted article');
    expect((await withJournal(1, () => t.services.apc.settings())).amountMinor).toBe(10_000);
  });

  it('answers today’s addresses at the root: the article, its PDF, the OAI-PMH repository', async () => {
    const article = await get(`/api/articles/public/article/${facts.ids.article}`);
    expect(article.statusCode, article.body).toBe(200);
    expect(article.json()).toMatchObject({ title: facts.titles.article, issue_id: facts.ids.issue });
    for (const a of facts.articles) {
      const pdf = await get(`/api/articles/${a.id}/download`, facts.session.token);
      expect(pdf.statusCode, `article ${a.id}: ${pdf.body.slice(0, 200)}`).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(sha256(pdf.rawPayload)).toBe(facts.files.find((f) => f.id === a.pdf_file_id)!.sha256);
    }
    const oai = await get('/oai?verb=Identify');
    expect(oai.statusCode, oai.body).toBe(200);
    expect(oai.body).toContain('<Identify>');
    expect(oai.body).toContain(`<repositoryName>${(await t.services.settings.journal()).name}`);
  });

  it('lets a journal made afterwards see none of journal 1’s data', async () => {
    const [second] = await asSite(() =>
      t.services.db
        .insert(journals)
        .values({ title: 'Second', path: 'second' })
        .returning({ id: journals.id }),
    );
    await withJournal(second.id, () => seed(t.services, { demo: false }));
    await t.services.journals.load();
    const db = t.services.db;
    const seen = await withJournal(second.id, async () => ({
      articles: await db.select().from(articles),
      issues: await db.select().from(issues),
      volumes: await db.select().from(volumes),
      memberships: await db.select().from(journalMemberships),
      submissions: rowsOf(await db.execute(sql`select id from submissions`)),
      reviews: rowsOf(await db.execute(sql`select id from review_assignments`)),
      subscriptions: rowsOf(await db.execute(sql`select user_id from subscriptions`)),
      files: rowsOf(await db.execute(sql`select id from submission_files`)),
      mail: rowsOf(await db.execute(sql`select id from mail_log`)),
    }));
    expect(seen).toEqual({
      articles: [],
      issues: [],
      volumes: [],
      memberships: [],
      submissions: [],
      reviews: [],
      subscriptions: [],
      files: [],
      mail: [],
    });
    // Through its address too: nothing of journal 1's, while journal 1 keeps its own at the root.
    const list = await get('/second/api/articles/public/list');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain(facts.titles.article);
    expect((await get(`/second/api/articles/public/article/${facts.ids.article}`)).statusCode).toBe(404);
    expect((await get(`/api/articles/public/article/${facts.ids.article}`)).statusCode).toBe(200);
  });
});

describe('the job queue of an upgraded installation', () => {
  // A recurring pass's key is `every:NAME` (server/jobs/queue.ts): 0016 gives journal 1 the queued jobs of a
  // request only, so an upgraded installation's chores (jobs.prune, db.vacuum, similarity.catch-up…) stay the
  // site's, as a new installation makes them.
  it('keeps the site’s recurring chores the site’s (no journal), as a new installation makes them', async () => {
    const rows = rowsOf<{ key: string; journal_id: number | null }>(
      await asSite(() =>
        t.services.db.execute(sql`select key, journal_id from jobs where key like 'every:%' order by key`),
      ),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.journal_id !== null)).toEqual([]);
  });
});
