import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type {
  EmailChangeInput,
  LinkProblem,
  PasswordChangeInput,
  ProfileInput,
} from '../../common/account.ts';
import { type Clock, DAY, HOUR } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { type AttemptStore, waitText } from '../counters/attempts.ts';
import { conflict, invalid, notFound, tooManyAttempts } from '../errors.ts';
import type { MailService } from '../mail/service.ts';
import { checkLink, claimLink, newLinkSecret, refuseLink } from './links.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { confirmEmailMail, emailChangedMail, emailChangeRequestedMail, passwordChangedMail } from './mail.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { AuthContext } from './service.ts';
import { openSessions, revokeSessions } from './sessions.ts';
import { membershipHere } from './membership.ts';
import { emailChanges, journalMemberships, sessions, users } from './tables.ts';

/** How long the link that confirms a new e-mail address works. */
export const EMAIL_LINK_VALID_MS = DAY;
/** Changes of address asked for per account per hour (each sends two e-mails). */
export const EMAIL_CHANGES_PER_HOUR = 5;

export const WRONG_CURRENT_PASSWORD = 'Your current password is not right.';
const EMAIL_TAKEN = 'An account with that email address already exists.';

export interface AccountProfile {
  id: number;
  username: string;
  email: string;
  fullName: string;
  institution: string;
  contactNumber: string;
  orcid: string | null;
  /** In the journal at hand; null: not a member of it. */
  role: string | null;
  status: string | null;
  createdAt: string;
  /** A new address asked for and not confirmed yet. */
  pendingEmail: { email: string; expiresAt: string } | null;
}

export interface AccountSession {
  id: string;
  createdAt: string;
  lastSeenAt: string | null;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  /** The session this request came with. */
  current: boolean;
}

export type EmailLinkState =
  | { ok: true; email: string; username: string }
  | { ok: false; problem: LinkProblem };

/**
 * The account holder's own page: profile, password, e-mail address (confirmed from the new address before
 * anything changes) and open sessions. Every change is the signed-in account's own, never another's.
 */
export class MyAccountService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      clock: Clock;
      mail: MailService;
      journalName: () => Promise<string>;
      publicUrl: () => string;
      /** A wrong current password counts as a failed sign-in for that username and address. */
      throttle: LoginThrottle;
      store: AttemptStore;
    },
  ) {}

  async profile(userId: number): Promise<AccountProfile> {
    const [row] = await this.db
      .select({ user: users, role: journalMemberships.role, status: journalMemberships.status })
      .from(users)
      .leftJoin(journalMemberships, membershipHere)
      .where(eq(users.id, userId));
    if (!row) throw notFound('No such account.');
    const { user, role, status } = row;
    const now = this.deps.clock.date();
    const [pending] = await this.db
      .select({ email: emailChanges.newEmail, expiresAt: emailChanges.expiresAt })
      .from(emailChanges)
      .where(
        and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)),
      )
      .orderBy(sql`${emailChanges.id} desc`)
      .limit(1);
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      fullName: user.fullName,
      institution: user.institution,
      contactNumber: user.contactNumber,
      orcid: user.orcid,
      role,
      status,
      createdAt: user.createdAt.toISOString(),
      pendingEmail: pending ? { email: pending.email, expiresAt: pending.expiresAt.toISOString() } : null,
    };
  }

  /** Changes the given profile fields (an ORCID iD of null or '' removes it). */
  async updateProfile(auth: AuthContext, change: Partial<ProfileInput>): Promise<AccountProfile> {
    const set: Partial<typeof users.$inferInsert> = {};
    if (change.fullName !== undefined) set.fullName = change.fullName;
    if (change.institution !== undefined) set.institution = change.institution;
    if (change.contactNumber !== undefined) set.contactNumber = change.contactNumber;
    if (change.orcid !== undefined) set.orcid = change.orcid || null;
    if (Object.keys(set).length) {
      await this.db
        .update(users)
        .set({ ...set, updatedAt: this.deps.clock.date() })
        .where(eq(users.id, auth.user.id));
    }
    return this.profile(auth.user.id);
  }

  /** Checks the current password; a wrong one is a failed sign-in (slowed, and counted for the alarm). */
  private async confirmPassword(auth: AuthContext, password: string, field: string, ip: string) {
    await this.deps.throttle.admit(auth.user.username, ip);
    const [user] = await this.db.select().from(users).where(eq(users.id, auth.user.id));
    if (!user) throw notFound('No such account.');
    if (!(await verifyPassword(user.passwordHash, password))) {
      await this.deps.throttle.failed(auth.user.username, ip);
      throw invalid(WRONG_CURRENT_PASSWORD, { [field]: WRONG_CURRENT_PASSWORD });
    }
    return user;
  }

  /** A new password, the current one required; the account's other sessions end, this one stays. */
  async changePassword(auth: AuthContext, input: PasswordChangeInput, meta: { ip?: string } = {}) {
    const user = await this.confirmPassword(
      auth,
      input.currentPassword,
      'currentPassword',
      meta.ip ?? 'unknown',
    );
    const passwordHash = await hashPassword(input.newPassword);
    const now = this.deps.clock.date();
    // Read before the transaction: on PGlite's one connection a read beside it would wait for it.
    const journal = await this.deps.journalName();
    const ended = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
      await this.deps.mail.queue(
        tx,
        passwordChangedMail({
          to: user.email,
          fullName: user.fullName,
          username: user.username,
          journal,
          publicUrl: this.deps.publicUrl(),
          how: 'changed',
        }),
      );
      return revokeSessions(tx, user.id, now, auth.sessionId);
    });
    return { endedSessions: ended };
  }

  /**
   * Asks to use a new e-mail address: a link goes to the new address, and the current address is told.
   * Nothing changes on the account until the link is opened. A newer request replaces an older one.
   */
  async requestEmailChange(auth: AuthContext, input: EmailChangeInput, meta: { ip?: string } = {}) {
    const user = await this.confirmPassword(auth, input.password, 'password', meta.ip ?? 'unknown');
    if (input.email.toLowerCase() === user.email.toLowerCase()) {
      throw invalid('That is already your email address.', {
        email: 'That is already your email address.',
      });
    }
    await this.refuseTakenEmail(input.email);
    const now = this.deps.clock.now();
    const asked = await this.deps.store.add(`email-change:${user.id}`, HOUR, now);
    if (asked.count > EMAIL_CHANGES_PER_HOUR) {
      const wait = asked.resetAt - now;
      throw tooManyAttempts(
        `You have asked to change your address too often. Please wait ${waitText(wait)}.`,
        wait,
      );
    }
    const { token, hash } = newLinkSecret();
    const journal = await this.deps.journalName();
    const common = { fullName: user.fullName, username: user.username, journal };
    // The request and both e-mails commit together. The link is asked for by the person now: a new address
    // at its daily limit of e-mails is refused at once (429), and nothing is kept.
    await this.db.transaction(async (tx) => {
      await tx
        .update(emailChanges)
        .set({ usedAt: new Date(now) })
        .where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
      await tx.insert(emailChanges).values({
        userId: user.id,
        newEmail: input.email,
        tokenHash: hash,
        createdAt: new Date(now),
        expiresAt: new Date(now + EMAIL_LINK_VALID_MS),
      });
      await this.deps.mail.queue(
        tx,
        confirmEmailMail({
          ...common,
          to: input.email,
          link: `${this.deps.publicUrl()}/account/email/confirm?${new URLSearchParams({ token })}`,
          validMs: EMAIL_LINK_VALID_MS,
        }),
        { secrets: [token], manual: true },
      );
      await this.deps.mail.queue(
        tx,
        emailChangeRequestedMail({
          ...common,
          to: user.email,
          newEmail: input.email,
          publicUrl: this.deps.publicUrl(),
        }),
      );
    });
    return { email: input.email, expiresAt: new Date(now + EMAIL_LINK_VALID_MS).toISOString() };
  }

  private async refuseTakenEmail(email: string, exceptUserId?: number) {
    const [taken] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          sql`lower(${users.email}) = lower(${email})`,
          exceptUserId ? ne(users.id, exceptUserId) : undefined,
        ),
      );
    if (taken) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
  }

  /** Whether a confirmation link can still be used, and for which address. */
  async checkEmailLink(token: string): Promise<EmailLinkState> {
    const state = await checkLink(this.db, emailChanges, token, this.deps.clock.now());
    return state.ok ? { ok: true, email: state.link.newEmail, username: state.username } : state;
  }

  /**
   * Opens a confirmation link: the account takes the new address, and the old address is told. The link is
   * claimed, the address changed and the old address's e-mail queued in one transaction; an address taken
   * meanwhile is refused with 409.
   */
  async confirmEmail(token: string): Promise<{ email: string; username: string }> {
    const now = this.deps.clock.date();
    const journal = await this.deps.journalName();
    let updated: typeof users.$inferSelect | undefined;
    try {
      await this.db.transaction(async (tx) => {
        const claimed = await claimLink(tx, emailChanges, token, now);
        if (!claimed) return;
        const [previous] = await tx.select().from(users).where(eq(users.id, claimed.userId));
        [updated] = await tx
          .update(users)
          .set({ email: claimed.newEmail, updatedAt: now })
          .where(eq(users.id, claimed.userId))
          .returning();
        await this.deps.mail.queue(
          tx,
          emailChangedMail({
            to: previous.email,
            fullName: updated.fullName,
            username: updated.username,
            journal,
            newEmail: updated.email,
            publicUrl: this.deps.publicUrl(),
          }),
        );
      });
    } catch (err) {
      // Someone registered or confirmed this address since the link was sent: the unique index decides.
      if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
      throw err;
    }
    if (!updated) throw await refuseLink(this.db, emailChanges, token, now.getTime());
    return { email: updated.email, username: updated.username };
  }

  /** The account's open sessions: the one this request came with (`current`) first, then newest first. */
  async sessions(auth: AuthContext): Promise<AccountSession[]> {
    const rows = await openSessions(this.db, auth.user.id, this.deps.clock.date());
    rows.sort((a, b) => Number(b.id === auth.sessionId) - Number(a.id === auth.sessionId));
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
      expiresAt: r.expiresAt.toISOString(),
      userAgent: r.userAgent,
      ip: r.ip,
      current: r.id === auth.sessionId,
    }));
  }

  /** Ends one of the account's own sessions (404 for anyone else's, or one already ended). */
  async endSession(auth: AuthContext, sessionId: string): Promise<{ current: boolean }> {
    const now = this.deps.clock.date();
    const [ended] = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sessions.id, sessionId),
          eq(sessions.userId, auth.user.id),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      )
      .returning({ id: sessions.id });
    if (!ended) throw notFound('No such session: it may have ended already.');
    return { current: sessionId === auth.sessionId };
  }

  /** Ends every session of the account but this one; returns how many ended. */
  async endOtherSessions(auth: AuthContext): Promise<number> {
    return revokeSessions(this.db, auth.user.id, this.deps.clock.date(), auth.sessionId);
  }
}
