import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../accounts/service.ts';
import { auditLog } from '../audit/tables.ts';
import { type TestContext, createTestContext } from '../testing/harness.ts';
import { issueAlertDeliveries, issueAlerts, subscriptions } from './tables.ts';

let t: TestContext;
let issueId: number;
let admin: SessionUser;

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  const [first] = await t.services.catalog.papers();
  issueId = (await t.services.catalog.article(first.id)).issue_id;
  admin = (await t.services.accounts.listUsers({ role: 'admin', limit: 1, offset: 0 })).users[0];
});
afterAll(async () => {
  await t?.close();
});

async function subscriber(status: 'approved' | 'pending' | 'suspended') {
  const u = await t.createUser({ role: 'researcher', status });
  await t.services.subscriptions.subscribe(u.id);
  return u;
}

describe('new-issue alerts', () => {
  it('mails each approved subscriber once, with the contents, links and an unsubscribe link', async () => {
    const a = await subscriber('approved');
    const b = await subscriber('approved');
    const pending = await subscriber('pending');
    const suspended = await subscriber('suspended');
    const notSubscribed = await t.createUser({ role: 'author', status: 'approved' });
    t.mail.length = 0;

    const { recipients, label } = await t.services.subscriptions.sendIssueAlert(admin, issueId);
    expect(recipients).toBe(2);
    expect(label).toBe('Volume 1, issue 1');
    await t.runJobs();

    const to = t.mail.map((m) => m.to).sort();
    expect(to).toEqual([a.email, b.email].sort());
    for (const u of [pending, suspended, notSubscribed]) expect(to).not.toContain(u.email);

    const mail = t.mail.find((m) => m.to === a.email)!;
    const articles = await t.services.catalog.issueArticles(issueId);
    expect(mail.subject).toMatch(/Volume 1, Issue 1 \(\d{4}\) is out$/);
    for (const article of articles) {
      expect(mail.text).toContain(article.title);
      expect(mail.text).toContain(`http://journal.test/article/${article.id}`);
      expect(mail.html).toContain(`href="http://journal.test/article/${article.id}"`);
    }
    expect(mail.text).toContain('http://journal.test/volumes?volume=1&issue=1');
    const [{ token }] = await t.services.db
      .select({ token: subscriptions.unsubscribeToken })
      .from(subscriptions)
      .where(eq(subscriptions.userId, a.id));
    expect(mail.text).toContain(`http://journal.test/unsubscribe?token=${token}`);
    expect(mail.headers?.['List-Unsubscribe']).toBe(`<http://journal.test/unsubscribe?token=${token}>`);
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    const status = (await t.services.subscriptions.alertStatuses()).get(issueId)!;
    expect(status).toMatchObject({ recipients: 2, sent: 2, failed: 0, requestedBy: 'admin' });
    expect(status.finishedAt).not.toBeNull();
    const audit = await t.services.db.select().from(auditLog).where(eq(auditLog.action, 'issue.alert'));
    expect(audit).toHaveLength(1);
    expect(audit[0].targetId).toBe(String(issueId));
  });

  it('is sent only once per issue, even when two editors press at the same moment', async () => {
    await expect(t.services.subscriptions.sendIssueAlert(admin, issueId)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/already sent/),
    });
    const volume = (await t.services.catalog.editorVolumes())[0];
    const issue = await t.services.catalog.createIssue(admin, {
      title: 'Race issue',
      description: 'Two editors, one alert.',
      volume_id: volume.id,
    });
    // Move one article into it, so there is something to announce.
    const [article] = await t.services.catalog.issueArticles(issueId);
    const { articles } = await import('../catalog/tables.ts');
    await t.services.db.update(articles).set({ issueId: issue.id }).where(eq(articles.id, article.id));
    await subscriber('approved');
    t.mail.length = 0;
    const results = await Promise.allSettled([
      t.services.subscriptions.sendIssueAlert(admin, issue.id),
      t.services.subscriptions.sendIssueAlert(admin, issue.id),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    await t.runJobs();
    const recipients = t.mail.map((m) => m.to);
    expect(new Set(recipients).size).toBe(recipients.length);
    await t.services.db.update(articles).set({ issueId }).where(eq(articles.id, article.id));
  });

  it('refuses an issue without published articles, and one that does not exist', async () => {
    const volume = (await t.services.catalog.editorVolumes())[0];
    const empty = await t.services.catalog.createIssue(admin, {
      title: 'Empty',
      description: 'Nothing yet.',
      volume_id: volume.id,
    });
    await expect(t.services.subscriptions.sendIssueAlert(admin, empty.id)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/no published articles/),
    });
    expect(
      await t.services.db.select().from(issueAlerts).where(eq(issueAlerts.issueId, empty.id)),
    ).toHaveLength(0);
    await expect(t.services.subscriptions.sendIssueAlert(admin, 99_999_999)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('resumes an interrupted alert without a second copy to anyone already handled', async () => {
    const volume = (await t.services.catalog.editorVolumes())[0];
    const issue = await t.services.catalog.createIssue(admin, {
      title: 'Interrupted',
      description: 'Half sent.',
      volume_id: volume.id,
    });
    const [article] = await t.services.catalog.issueArticles(issueId);
    const { articles } = await import('../catalog/tables.ts');
    await t.services.db.update(articles).set({ issueId: issue.id }).where(eq(articles.id, article.id));
    try {
      const done = await subscriber('approved');
      const claimedBeforeCrash = await subscriber('approved');
      await t.services.db
        .insert(issueAlerts)
        .values({ issueId: issue.id, requestedByUsername: 'admin', recipients: 9 });
      await t.services.db.insert(issueAlertDeliveries).values([
        { issueId: issue.id, userId: done.id, email: done.email, status: 'sent' },
        {
          issueId: issue.id,
          userId: claimedBeforeCrash.id,
          email: claimedBeforeCrash.email,
          status: 'sending',
        },
      ]);
      t.mail.length = 0;
      await t.services.subscriptions.resumeAlerts();
      await t.runJobs();
      const to = t.mail.map((m) => m.to);
      expect(to).not.toContain(done.email);
      expect(to).not.toContain(claimedBeforeCrash.email);
      expect(to.length).toBe(new Set(to).size);
      expect(to.length).toBeGreaterThan(0);
      expect(
        (await t.services.subscriptions.alertStatuses([issue.id])).get(issue.id)?.finishedAt,
      ).not.toBeNull();
    } finally {
      await t.services.db.update(articles).set({ issueId }).where(eq(articles.id, article.id));
    }
  });

  it('answers 202 through the API, then 409', async () => {
    const volume = (await t.services.catalog.editorVolumes())[0];
    const issue = await t.services.catalog.createIssue(admin, {
      title: 'Via the API',
      description: 'API.',
      volume_id: volume.id,
    });
    const [article] = await t.services.catalog.issueArticles(issueId);
    const { articles } = await import('../catalog/tables.ts');
    await t.services.db.update(articles).set({ issueId: issue.id }).where(eq(articles.id, article.id));
    try {
      const token = await t.login('admin', 'admin-pass-123');
      const call = () =>
        t.app.inject({
          method: 'POST',
          url: `/api/editor/issues/${issue.id}/alert`,
          headers: { authorization: `Bearer ${token}` },
        });
      const first = await call();
      expect(first.statusCode).toBe(202);
      expect(first.json().message).toMatch(/is being sent to \d+ subscribers?\./);
      await t.runJobs();
      expect((await call()).statusCode).toBe(409);
    } finally {
      await t.services.db.update(articles).set({ issueId }).where(eq(articles.id, article.id));
    }
  });
});

describe('unsubscribe links', () => {
  it('end the subscription without signing in, once', async () => {
    const u = await subscriber('approved');
    const [{ token }] = await t.services.db
      .select({ token: subscriptions.unsubscribeToken })
      .from(subscriptions)
      .where(eq(subscriptions.userId, u.id));
    expect(await t.services.subscriptions.subscriptionByToken(token)).toMatchObject({ email: u.email });
    expect(await t.services.subscriptions.unsubscribeByToken(token)).toBe(u.email);
    expect(await t.services.subscriptions.isSubscribed(u.id)).toBe(false);
    expect(await t.services.subscriptions.unsubscribeByToken(token)).toBeNull();
    expect(await t.services.subscriptions.subscriptionByToken('not-a-token')).toBeNull();
    // Subscribing again makes a new link: the old one stays dead.
    await t.services.subscriptions.subscribe(u.id);
    expect(await t.services.subscriptions.subscriptionByToken(token)).toBeNull();
  });
});

describe('shutting down', () => {
  it('stops with the queue: what was sent is recorded as sent, the rest goes out at the next start', async () => {
    const fresh = await createTestContext({}, { demo: true });
    try {
      const [first] = await fresh.services.catalog.papers();
      const demoIssue = (await fresh.services.catalog.article(first.id)).issue_id;
      const actor = (await fresh.services.accounts.listUsers({ role: 'admin', limit: 1, offset: 0 }))
        .users[0];
      for (let i = 0; i < 5; i++) {
        const u = await fresh.createUser({ role: 'author', status: 'approved' });
        await fresh.services.subscriptions.subscribe(u.id);
      }
      await fresh.services.jobs.start();
      await fresh.services.subscriptions.sendIssueAlert(actor, demoIssue);
      await fresh.services.jobs.stop();
      const status = (await fresh.services.subscriptions.alertStatuses()).get(demoIssue)!;
      // Whatever was sent is recorded as sent; nothing is left running.
      expect(status.sent).toBe(fresh.mail.length);
      expect(await fresh.services.jobs.list('running')).toHaveLength(0);
      // The next start (here: the queue run by hand) sends the rest, each subscriber once.
      await fresh.runJobs();
      const after = (await fresh.services.subscriptions.alertStatuses()).get(demoIssue)!;
      expect(after).toMatchObject({ recipients: 5, sent: 5, failed: 0 });
      expect(after.finishedAt).not.toBeNull();
      expect(new Set(fresh.mail.map((m) => m.to)).size).toBe(5);
      expect(fresh.mail).toHaveLength(5);
    } finally {
      await fresh.close();
    }
  });
});
