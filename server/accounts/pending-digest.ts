import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { type Clock, MINUTE } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { MailService } from '../mail/service.ts';
import type { Logger } from '../services.ts';
import type { SettingsService } from '../settings/service.ts';
import { pendingDigestMail } from './mail.ts';
import { editorsHere, membershipHere } from './membership.ts';
import { dailyDigests, journalMemberships, users } from './tables.ts';

const DIGEST = 'pending-accounts';

/** The UTC day of a moment, as YYYY-MM-DD: the digest's "once a day". */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The editors' daily e-mail about accounts waiting for approval: at most one a UTC day, only when accounts
 * registered since the last digest are waiting, and only while the journal setting is on. The day is claimed
 * with one conditional UPDATE, in the transaction that queues the e-mails, so two processes, or a restart in
 * the middle, never send a day's digest twice, and a claimed day always has its e-mails. A recurring job
 * (every ten minutes, on the job queue) runs it; the clock decides what "today" is.
 */
export class PendingDigest {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      clock: Clock;
      mail: MailService;
      /** The queue that runs it every ten minutes (a second instance for the same queue passes none). */
      jobs?: JobQueue;
      settings: SettingsService;
      publicUrl: () => string;
      log: Logger;
    },
  ) {
    // For each journal, in its scope: its settings, its editors, its day (decision 0058).
    deps.jobs?.recurring(
      'accounts.pending-digest',
      { every: 10 * MINUTE, firstAfter: MINUTE, perJournal: true },
      async () => {
        await this.run();
      },
    );
  }

  /** Queues the journal at hand's digest when one is due; returns how many editors it goes to (0: none). */
  async run(): Promise<number> {
    const journal = await this.deps.settings.journal();
    if (!journal.pendingAccountsDigest) return 0;
    const waiting = await this.db
      .select({
        id: users.id,
        username: users.username,
        fullName: users.fullName,
        role: journalMemberships.role,
        institution: users.institution,
      })
      .from(journalMemberships)
      .innerJoin(users, membershipHere)
      .where(eq(journalMemberships.status, 'pending'))
      .orderBy(asc(journalMemberships.createdAt), asc(users.id));
    if (!waiting.length) return 0;
    const newest = Math.max(...waiting.map((u) => u.id));

    await this.db.insert(dailyDigests).values({ name: DIGEST }).onConflictDoNothing();
    const [state] = await this.db.select().from(dailyDigests).where(eq(dailyDigests.name, DIGEST));
    const previous = state?.lastUserId ?? 0;
    if (newest <= previous) return 0;
    const now = this.deps.clock.date();
    const today = utcDay(now);
    const accounts = waiting.map((u) => ({ ...u, isNew: u.id > previous }));
    const sent = await this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(dailyDigests)
        .set({ sentOn: today, sentAt: now, lastUserId: newest })
        .where(
          and(
            eq(dailyDigests.name, DIGEST),
            or(isNull(dailyDigests.sentOn), lt(dailyDigests.sentOn, today)),
            eq(dailyDigests.lastUserId, previous),
          ),
        )
        .returning({ name: dailyDigests.name });
      if (!claimed) return null;
      const editors = await editorsHere(tx);
      for (const editor of editors) {
        await this.deps.mail.queue(
          tx,
          pendingDigestMail({
            to: editor.email,
            journal: journal.name,
            accounts,
            link: `${this.deps.publicUrl()}/editor-dashboard/pending-users`,
            settingsLink: `${this.deps.publicUrl()}/editor-dashboard/settings`,
          }),
        );
      }
      return editors.length;
    });
    if (sent === null) return 0;
    this.deps.log.info({ waiting: waiting.length, editors: sent }, 'pending-accounts digest queued');
    return sent;
  }
}
