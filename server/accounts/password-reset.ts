import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { LinkProblem } from '../../common/account.ts';
import { MESSAGES } from '../../common/messages.ts';
import { type Clock, HOUR } from '../clock.ts';
import type { RateLimit } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AttemptStore } from '../counters/attempts.ts';
import { tooManyAttempts } from '../errors.ts';
import type { JobContext, JobQueue } from '../jobs/queue.ts';
import type { MailService } from '../mail/service.ts';
import { checkLink, claimLink, newLinkSecret, refuseLink } from './links.ts';
import { passwordChangedMail, passwordResetMail } from './mail.ts';
import { hashPassword } from './passwords.ts';
import { revokeSessions } from './sessions.ts';
import { membershipHere } from './membership.ts';
import { emailChanges, journalMemberships, passwordResets, users } from './tables.ts';

/** How long a reset link works. */
export const RESET_LINK_VALID_MS = HOUR;
/** At most this many reset e-mails per account per hour, whoever asks (more are dropped without a word). */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3;

/** The job that looks the account up and sends its link, after the request has had its answer. */
export const RESET_JOB = 'accounts.password-reset';

export type ResetLinkState = { ok: true; username: string } | { ok: false; problem: LinkProblem };

/**
 * Forgotten passwords: a link by e-mail that works once, for an hour, and sets a new password (which ends
 * every session of the account). A request answers the same, at once, whether or not an account matches:
 * the lookup, the link and the e-mail happen after the answer, in a job of the queue (so neither the words nor
 * the time tell, and a process stopped meanwhile loses no request: another takes the job).
 */
export class PasswordResetService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      clock: Clock;
      mail: MailService;
      jobs: JobQueue;
      journalName: () => Promise<string>;
      publicUrl: () => string;
      store: AttemptStore;
      /** RATE_LIMIT_PASSWORD_RESET: requests from one address. */
      perAddress: RateLimit;
    },
  ) {
    deps.jobs.define<{ identifier: string }>(RESET_JOB, (payload, ctx) =>
      this.deliver(payload.identifier, ctx),
    );
  }

  /** Asks for a reset link for the account with this username or e-mail address. Throws only 429. */
  async request(identifier: string, meta: { ip?: string } = {}): Promise<void> {
    const { perAddress, store, clock } = this.deps;
    if (perAddress) {
      const now = clock.now();
      const from = await store.add(
        `reset-address:${meta.ip ?? 'unknown'}`,
        perAddress.windowSeconds * 1000,
        now,
      );
      if (from.count > perAddress.max) throw tooManyAttempts(MESSAGES.tooManyRequests, from.resetAt - now);
    }
    // The same insert whoever asks: the lookup is the job's.
    await this.deps.jobs.enqueue(this.db, RESET_JOB, { identifier });
  }

  /** The job: the account, its link and the link's e-mail, committed with the job's completion. */
  private async deliver(identifier: string, ctx: JobContext): Promise<void> {
    const [found] = await this.db
      .select({ user: users, status: journalMemberships.status })
      .from(users)
      .leftJoin(journalMemberships, membershipHere)
      .where(
        or(
          sql`lower(${users.username}) = lower(${identifier})`,
          sql`lower(${users.email}) = lower(${identifier})`,
        ),
      )
      .limit(1);
    // Suspended by the site, or by the journal asked at (where it could not sign in): no link.
    if (!found || found.user.suspended || found.status === 'suspended') return;
    const { user } = found;
    const now = this.deps.clock.now();
    const sent = await this.deps.store.add(`reset-account:${user.id}`, HOUR, now);
    if (sent.count > RESETS_PER_ACCOUNT_PER_HOUR) return;
    const { token, hash } = newLinkSecret();
    const journal = await this.deps.journalName();
    // The link and its e-mail commit together; the token is kept only sealed in the queued job.
    await ctx.complete(async (tx) => {
      await tx.insert(passwordResets).values({
        userId: user.id,
        tokenHash: hash,
        createdAt: new Date(now),
        expiresAt: new Date(now + RESET_LINK_VALID_MS),
      });
      await this.deps.mail.queue(
        tx,
        passwordResetMail({
          to: user.email,
          fullName: user.fullName,
          username: user.username,
          journal,
          link: `${this.deps.publicUrl()}/reset-password?${new URLSearchParams({ token })}`,
        }),
        { secrets: [token] },
      );
    });
  }

  /** Whether a link can still be used (the page shows the form, or says why not). */
  async check(token: string): Promise<ResetLinkState> {
    const state = await checkLink(this.db, passwordResets, token, this.deps.clock.now());
    return state.ok ? { ok: true, username: state.username } : state;
  }

  /**
   * Sets the new password with a link's secret. The link is claimed and the password set in one
   * transaction, so a link works once even when opened twice at the same moment; every session of the
   * account ends, and so do the account's other reset links and any change of address waiting for
   * confirmation; the e-mail saying so is queued with the change. Refused with 400 and the reason otherwise.
   */
  async complete(token: string, password: string): Promise<{ username: string }> {
    const passwordHash = await hashPassword(password);
    const now = this.deps.clock.date();
    // Read before the transaction: on PGlite's one connection a read beside it would wait for it.
    const journal = await this.deps.journalName();
    const done = await this.db.transaction(async (tx) => {
      const claimed = await claimLink(tx, passwordResets, token, now);
      if (!claimed) return null;
      const [user] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: now })
        .where(eq(users.id, claimed.userId))
        .returning();
      await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
      // A change of address asked for from a session that may not have been the owner's is dropped too.
      await tx
        .update(emailChanges)
        .set({ usedAt: now })
        .where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
      await revokeSessions(tx, user.id, now);
      await this.deps.mail.queue(
        tx,
        passwordChangedMail({
          to: user.email,
          fullName: user.fullName,
          username: user.username,
          journal,
          publicUrl: this.deps.publicUrl(),
          how: 'reset',
        }),
      );
      return user;
    });
    if (!done) throw await refuseLink(this.db, passwordResets, token, now.getTime());
    return { username: done.username };
  }
}
