import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { LINK_PROBLEMS, type LinkProblem } from '../../common/account.ts';
import { MESSAGES } from '../../common/messages.ts';
import { type Clock, HOUR } from '../clock.ts';
import type { RateLimit } from '../config.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../http/errors.ts';
import type { AttemptStore } from '../counters/attempts.ts';
import { tooManyAttempts } from '../errors.ts';
import type { MailService } from '../mail/service.ts';
import type { Logger } from '../services.ts';
import { hashLinkSecret, linkProblem, newLinkSecret } from './links.ts';
import { passwordChangedMail, passwordResetMail } from './mail.ts';
import { hashPassword } from './passwords.ts';
import { revokeSessions } from './sessions.ts';
import { emailChanges, passwordResets, users } from './tables.ts';

/** How long a reset link works. */
export const RESET_LINK_VALID_MS = HOUR;
/** At most this many reset e-mails per account per hour, whoever asks (more are dropped without a word). */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3;

export type ResetLinkState = { ok: true; username: string } | { ok: false; problem: LinkProblem };

/**
 * Forgotten passwords: a link by e-mail that works once, for an hour, and sets a new password (which ends
 * every session of the account). A request answers the same, at once, whether or not an account matches:
 * the lookup, the link and the e-mail happen after the answer, so neither the words nor the time tell.
 */
export class PasswordResetService {
  /** Deliveries under way (tests and shutdown wait for them). */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly deps: {
      clock: Clock;
      mail: MailService;
      journalName: () => Promise<string>;
      publicUrl: string;
      store: AttemptStore;
      /** RATE_LIMIT_PASSWORD_RESET: requests from one address. */
      perAddress: RateLimit;
      log: Logger;
    },
  ) {}

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
    const delivery = this.deliver(identifier).catch((err) =>
      this.deps.log.error({ err }, 'a password reset link could not be prepared'),
    );
    this.running.add(delivery);
    void delivery.finally(() => this.running.delete(delivery));
  }

  /** Resolves when every reset e-mail asked for so far has been handled. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  private async deliver(identifier: string): Promise<void> {
    const [user] = await this.db
      .select()
      .from(users)
      .where(
        or(
          sql`lower(${users.username}) = lower(${identifier})`,
          sql`lower(${users.email}) = lower(${identifier})`,
        ),
      )
      .limit(1);
    if (!user || user.status === 'suspended') return;
    const now = this.deps.clock.now();
    const sent = await this.deps.store.add(`reset-account:${user.id}`, HOUR, now);
    if (sent.count > RESETS_PER_ACCOUNT_PER_HOUR) return;
    const { token, hash } = newLinkSecret();
    const journal = await this.deps.journalName();
    // The link and its e-mail commit together; the token is kept only sealed in the queued job.
    await this.db.transaction(async (tx) => {
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
          link: `${this.deps.publicUrl}/reset-password?${new URLSearchParams({ token })}`,
        }),
        { secrets: [token] },
      );
    });
  }

  /** Whether a link can still be used (the page shows the form, or says why not). */
  async check(token: string): Promise<ResetLinkState> {
    const [row] = await this.db
      .select({
        expiresAt: passwordResets.expiresAt,
        usedAt: passwordResets.usedAt,
        username: users.username,
      })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(eq(passwordResets.tokenHash, hashLinkSecret(token)));
    const problem = linkProblem(row, this.deps.clock.now());
    if (problem || !row) return { ok: false, problem: problem ?? 'unknown' };
    return { ok: true, username: row.username };
  }

  /**
   * Sets the new password with a link's secret. The link is claimed and the password set in one
   * transaction, so a link works once even when opened twice at the same moment; every session of the
   * account ends, and so do the account's other reset links and any change of address waiting for confirmation. Refused with 400 and the reason otherwise.
   */
  async complete(token: string, password: string): Promise<{ username: string }> {
    const passwordHash = await hashPassword(password);
    const now = this.deps.clock.date();
    const done = await this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResets.tokenHash, hashLinkSecret(token)),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, now),
          ),
        )
        .returning({ userId: passwordResets.userId });
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
      return user;
    });
    if (!done) {
      const state = await this.check(token);
      const problem = state.ok ? 'used' : state.problem;
      throw new HttpError(400, LINK_PROBLEMS[problem], { token: LINK_PROBLEMS[problem] });
    }
    await this.deps.mail.queue(this.db, passwordChangedMail({
        to: done.email,
        fullName: done.fullName,
        username: done.username,
        journal: await this.deps.journalName(),
        publicUrl: this.deps.publicUrl,
        how: 'reset',
      }),
    );
    return { username: done.username };
  }
}
