import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../clock.ts';
import { type TestContext, createTestContext, silentLog } from '../testing/harness.ts';
import { PendingDigest } from './pending-digest.ts';

let t: TestContext;
let editorEmail: string;
beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(new Date('2026-03-02T09:00:00Z'));
  editorEmail = (await t.createUser({ role: 'editor', status: 'approved' })).email;
  // Only approved editors and admins get the digest.
  await t.createUser({ role: 'editor', status: 'rejected' });
  await t.createUser({ role: 'editor', status: 'suspended' });
});
afterAll(() => t?.close());

const digests = () => t.mail.filter((m) => /waiting for approval/.test(m.subject));
/** One pass of the digest, then its queued e-mails sent. */
const run = async () => {
  const n = await t.services.pendingDigest.run();
  await t.runJobs();
  return n;
};

async function setDigest(on: boolean) {
  const { settings } = await t.services.content.journalSettingsForEdit();
  await t.services.content.editJournalSettings(
    { id: 1, username: 'admin' },
    { ...settings, pendingAccountsDigest: on },
  );
}

describe("the editors' digest of accounts waiting for approval", () => {
  it('says nothing while no account waits', async () => {
    expect(await run()).toBe(0);
    expect(digests()).toHaveLength(0);
  });

  it('goes to approved editors and admins, listing each waiting account, once a day', async () => {
    const waiting = await t.createUser({ role: 'author', status: 'pending', username: 'grace_pending' });
    expect(await run()).toBe(2);
    const sent = digests();
    expect(sent.map((m) => m.to).sort()).toEqual(['admin@colophon-journal.org', editorEmail].sort());
    expect(sent[0].subject).toBe(
      '1 account waiting for approval at Colophon Journal of Engineering and Informatics',
    );
    expect(sent[0].text).toContain(
      `- Test grace_pending (${waiting.username}), author, Test University  [new]`,
    );
    expect(sent[0].text).toContain('http://journal.test/editor-dashboard/pending-users\n');

    // The same day: not again, even with a new account, and not from a second process or after a restart.
    await t.createUser({ role: 'researcher', status: 'pending', username: 'alan_pending' });
    t.clock.advance(10 * HOUR);
    const restarted = new PendingDigest(t.services.db, {
      clock: t.clock,
      mail: t.services.mail,
      settings: t.services.settings,
      publicUrl: () => 'http://journal.test',
      log: silentLog,
      journals: () => [1],
    });
    expect(await Promise.all([run(), restarted.run()])).toEqual([0, 0]);
    await t.runJobs();
    expect(digests()).toHaveLength(2);
  });

  it('goes out the next day with the new account marked, exactly once however many run at once', async () => {
    t.clock.set(new Date('2026-03-03T00:05:00Z'));
    const twins = [run(), run(), run()];
    expect((await Promise.all(twins)).sort()).toEqual([0, 0, 2]);
    const latest = digests().slice(-2);
    expect(latest).toHaveLength(2);
    expect(latest[0].subject).toMatch(/^2 accounts waiting/);
    expect(latest[0].text).toContain(
      'One new account has registered since the last digest; 2 accounts are waiting',
    );
    expect(latest[0].text).toMatch(/grace_pending\), author, Test University\n/);
    expect(latest[0].text).toMatch(/alan_pending\), researcher, Test University {2}\[new\]/);
  });

  it('skips days without new accounts, even though some still wait', async () => {
    t.clock.advance(DAY);
    expect(await run()).toBe(0);
    expect(digests()).toHaveLength(4);
  });

  it('stays silent while the journal setting is off', async () => {
    await setDigest(false);
    await t.createUser({ role: 'researcher', status: 'pending' });
    t.clock.advance(DAY);
    expect(await run()).toBe(0);
    await setDigest(true);
    expect(await run()).toBe(2);
    expect(digests()).toHaveLength(6);
  });

  it('runs by itself on the job queue, ten minutes apart, one pass whatever the number of processes', async () => {
    await t.createUser({ role: 'author', status: 'pending' });
    t.clock.advance(DAY);
    await Promise.all([t.services.jobs.ensureRecurring(), t.services.jobs.ensureRecurring()]);
    const [pass] = await t.services.jobs.byKeys(['every:accounts.pending-digest']);
    expect(pass.runAt.getTime()).toBe(t.clock.now() + MINUTE);
    t.clock.advance(MINUTE);
    await t.runJobs();
    expect(digests()).toHaveLength(8);
    const [next] = await t.services.jobs.byKeys(['every:accounts.pending-digest']);
    expect(next).toMatchObject({ status: 'queued', lastError: null });
    expect(next.runAt.getTime()).toBe(t.clock.now() + 10 * MINUTE);
  });
});
