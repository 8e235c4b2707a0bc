import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, ilike, isNull, lt, or, sql } from 'drizzle-orm';
import { MEMBERSHIP_MESSAGES } from '../../common/account.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { Role, Status } from '../../common/roles.ts';
import type { LoginInput, RegisterInput } from '../../common/schemas.ts';
import type { AuditService } from '../audit/service.ts';
import { type Clock, MINUTE } from '../clock.ts';
import { ConfigError } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { asSite, currentJournalId } from '../db/scope.ts';
import { isUniqueViolation, pgConstraint } from '../db/errors.ts';
import type { RateLimiter } from '../counters/attempts.ts';
import { conflict, forbidden, notFound, unauthenticated } from '../errors.ts';
import type { MailService } from '../mail/service.ts';
import type { FailureAlarm, LoginThrottle } from './login-throttle.ts';
import { accountApprovedMail, accountRejectedMail, failedSignInsMail, roleChangedMail } from './mail.ts';
import { burnPasswordCheck, hashPassword, hasNoPassword, needsRehash, verifyPassword } from './passwords.ts';
import { revokeSessions } from './sessions.ts';
import { memberHere, membershipHere } from './membership.ts';
import { journalMemberships as members, sessions, users } from './tables.ts';
import { type TokenClaims, TokenSigner } from './tokens.ts';

/** A signed-in account, with its role and status in the journal at hand (null: not a member of it). */
export interface SessionUser {
  id: number;
  username: string;
  fullName: string;
  email: string;
  role: Role | null;
  status: Status | null;
}

export interface AuthContext {
  user: SessionUser;
  sessionId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export type PublicUser = ReturnType<typeof presentUser>;

/** A member of the journal at hand: the site's account and its role and status in this journal. */
export function presentUser(u: typeof users.$inferSelect, m: { role: Role; status: Status }) {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    fullName: u.fullName,
    contactNumber: u.contactNumber,
    institution: u.institution,
    orcid: u.orcid,
    role: m.role,
    status: m.status,
    createdAt: u.createdAt.toISOString(),
  };
}

/** A session's "last seen" is written at most this often (not on every request). */
const LAST_SEEN_EVERY_MS = 5 * MINUTE;
/** Any fixed number: the advisory lock under which one process at a time may create the admin account. */
const ADMIN_LOCK = 0x63616461;
const {
  usernameTaken: USERNAME_TAKEN,
  emailTaken: EMAIL_TAKEN,
  signInAndJoin: SIGN_IN_AND_JOIN,
  notAMember: NOT_A_MEMBER,
} = MEMBERSHIP_MESSAGES;

const sessionUserColumns = {
  id: users.id,
  username: users.username,
  fullName: users.fullName,
  email: users.email,
  role: members.role,
  status: members.status,
};

/** The session behind a token and its account, as every signed-in request reads them. */
function sessionQuery(db: Db) {
  return db
    .select({ ...sessionUserColumns, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(members, membershipHere)
    .where(
      and(
        eq(users.suspended, false),
        eq(sessions.id, sql.placeholder('sid')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('colophon_session_user');
}

export class AccountsService {
  private readonly signer: TokenSigner;
  /** Built once: building it took more of a signed-in page's time than running it (decision 0040). */
  private readonly session: ReturnType<typeof sessionQuery>;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      secret: string;
      sessionTtlSeconds: number;
      audit: AuditService;
      mail: MailService;
      journalName: () => Promise<string>;
      publicUrl: () => string;
      clock: Clock;
      /** Wrong passwords: slowed per username and address, never a lock-out of the owner. */
      throttle: LoginThrottle;
      limits: { register: RateLimiter };
    },
  ) {
    this.signer = new TokenSigner(deps.secret);
    this.session = sessionQuery(db);
  }

  /**
   * Registers at the journal at hand: the site's account and its membership of this journal, pending until
   * the journal's editors approve it (decision 0054). A username or e-mail address already taken is the
   * spec's 409, with a word to the owner of that account: sign in, and join this journal from there.
   */
  async register(input: RegisterInput, meta: { ip?: string } = {}): Promise<PublicUser> {
    await this.deps.limits.register.hit(meta.ip ?? 'unknown');
    const taken = await this.db
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(
        or(
          sql`lower(${users.username}) = lower(${input.username})`,
          sql`lower(${users.email}) = lower(${input.email})`,
        ),
      );
    if (taken.some((u) => u.username.toLowerCase() === input.username.toLowerCase())) {
      throw conflict(USERNAME_TAKEN, { username: `${USERNAME_TAKEN} ${SIGN_IN_AND_JOIN}` });
    }
    if (taken.length) throw conflict(EMAIL_TAKEN, { email: `${EMAIL_TAKEN} ${SIGN_IN_AND_JOIN}` });
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({
            username: input.username,
            passwordHash,
            email: input.email,
            fullName: input.fullName,
            contactNumber: input.contactNumber,
            institution: input.institution,
          })
          .returning();
        const [m] = await tx
          .insert(members)
          .values({ userId: row.id, role: input.role, status: 'pending' })
          .returning({ role: members.role, status: members.status });
        return presentUser(row, m);
      });
    } catch (err) {
      // Two registrations racing for one name: the unique index decides.
      if (isUniqueViolation(err)) {
        const onEmail = pgConstraint(err)?.includes('email');
        throw conflict(onEmail ? EMAIL_TAKEN : USERNAME_TAKEN);
      }
      throw err;
    }
  }

  /**
   * A signed-in account asks to join the journal at hand as a researcher or an author: a pending membership,
   * approved (or not) by this journal's editors as a registration is. 409 when it already is a member.
   */
  async join(who: SessionUser, role: RegisterInput['role']): Promise<PublicUser> {
    // The site's own pages and API (no journal at the site's root) have no journal to join: a row written
    // there would name none (decision 0054).
    if (currentJournalId() === null) throw notFound(MEMBERSHIP_MESSAGES.noJournalHere);
    const [account] = await this.db.select().from(users).where(eq(users.id, who.id));
    if (!account) throw notFound('No such user.');
    const [m] = await this.db
      .insert(members)
      .values({ userId: who.id, role, status: 'pending' })
      .onConflictDoNothing()
      .returning({ role: members.role, status: members.status });
    if (!m) throw conflict(MEMBERSHIP_MESSAGES.alreadyMember);
    return presentUser(account, m);
  }

  /**
   * The account's memberships of every journal of the site (the site's home lists them to the signed-in
   * account, decision 0054): read in the site's scope, which sees every journal's rows.
   */
  async membershipsEverywhere(userId: number): Promise<{ journalId: number; role: Role; status: Status }[]> {
    return asSite(() =>
      this.db
        .select({ journalId: members.journalId, role: members.role, status: members.status })
        .from(members)
        .where(eq(members.userId, userId)),
    );
  }

  /** The account's membership of the journal at hand, if any. */
  private async membership(userId: number): Promise<{ role: Role; status: Status } | null> {
    const [m] = await this.db
      .select({ role: members.role, status: members.status })
      .from(members)
      .where(memberHere(userId));
    return m ?? null;
  }

  /** Checks the password and opens a session; the token and the cookie carry the same JWT. */
  async login(
    input: LoginInput,
    meta: { userAgent?: string; ip?: string } = {},
  ): Promise<{ token: string; user: SessionUser; expiresAt: number; message?: string }> {
    const address = meta.ip ?? 'unknown';
    const { throttle } = this.deps;
    await throttle.admit(input.username, address);
    const [user] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${input.username})`);
    if (!user) {
      await burnPasswordCheck(input.password);
      await throttle.failed(input.username, address);
      throw unauthenticated(MESSAGES.invalidLogin);
    }
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      const alarm = await throttle.failed(input.username, address);
      if (alarm) await this.notifyFailedSignIns(user, alarm);
      // An account moved in from OJS whose password could not come along (decision 0066): say how to go on.
      if (hasNoPassword(user.passwordHash)) throw unauthenticated(MESSAGES.passwordToSet);
      throw unauthenticated(MESSAGES.invalidLogin);
    }
    await throttle.succeeded(input.username, address);
    // A password kept from OJS (bcrypt) is hashed again our way now that we have it (issue 26).
    if (needsRehash(user.passwordHash)) {
      await this.db
        .update(users)
        .set({ passwordHash: await hashPassword(input.password) })
        .where(eq(users.id, user.id));
    }
    const membership = await this.membership(user.id);
    if (user.suspended || membership?.status === 'suspended') {
      throw forbidden('This account is suspended. Please contact the editorial office.');
    }
    const now = this.deps.clock.date();
    const expiresAt = Math.floor(now.getTime() / 1000) + this.deps.sessionTtlSeconds;
    const [session] = await this.db
      .insert(sessions)
      .values({
        userId: user.id,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(expiresAt * 1000),
        userAgent: meta.userAgent?.slice(0, 500),
        ip: meta.ip,
      })
      .returning({ id: sessions.id });
    const role = membership?.role ?? null;
    const status = membership?.status ?? null;
    // The claims' role and status are those of the journal signed in at, for the client's information: the
    // server never reads them (authenticate reads the membership of the journal each request is for).
    const token = await this.signer.sign(
      { sub: String(user.id), username: user.username, role, status, sid: session.id, exp: expiresAt },
      now,
    );
    const sessionUser: SessionUser = {
      id: user.id,
      username: user.username,
      fullName: user.fullName,
      email: user.email,
      role,
      status,
    };
    const message =
      status === 'pending'
        ? 'Your account is awaiting approval by the editorial board: you can sign in, but downloading articles needs approval.'
        : status === 'rejected'
          ? 'Your registration was not approved by the editorial board.'
          : status === null
            ? NOT_A_MEMBER
            : undefined;
    return { token, user: sessionUser, expiresAt, ...(message ? { message } : {}) };
  }

  /**
   * The session behind a token, with the account's current role and status (not the token's copy), so a
   * suspension or a role change takes effect on the next request. Null for anything not valid now.
   */
  async authenticate(token: string): Promise<AuthContext | null> {
    const now = this.deps.clock.date();
    const claims: TokenClaims | null = await this.signer.verify(token, now);
    if (!claims) return null;
    const userId = Number(claims.sub);
    if (!Number.isSafeInteger(userId) || !/^[0-9a-f-]{36}$/i.test(claims.sid)) return null;
    // timestamptz: the instant as drizzle itself sends a Date.
    const [row] = await this.session.execute({ sid: claims.sid, userId, now: now.toISOString() });
    if (!row) return null;
    const { lastSeenAt, ...user } = row;
    if (!lastSeenAt || now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
      // The account page shows when each session was last used; a few minutes' precision is enough.
      await this.db
        .update(sessions)
        .set({ lastSeenAt: now })
        .where(
          and(eq(sessions.id, claims.sid), or(isNull(sessions.lastSeenAt), lt(sessions.lastSeenAt, now))),
        );
    }
    return { user, sessionId: claims.sid, expiresAt: claims.exp };
  }

  /** An account as a signed-in request in the journal at hand sees it (its membership there, or none). */
  async sessionUser(id: number): Promise<SessionUser> {
    const [row] = await this.db
      .select(sessionUserColumns)
      .from(users)
      .leftJoin(members, membershipHere)
      .where(eq(users.id, id));
    if (!row) throw notFound('No such user.');
    return row;
  }

  async logout(sessionId: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: this.deps.clock.date() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  /** Tells the account holder about repeated wrong passwords (how many, from how many addresses). */
  private async notifyFailedSignIns(user: typeof users.$inferSelect, alarm: FailureAlarm): Promise<void> {
    await this.deps.mail.queue(
      this.db,
      failedSignInsMail({
        to: user.email,
        fullName: user.fullName,
        username: user.username,
        journal: await this.deps.journalName(),
        publicUrl: this.deps.publicUrl(),
        ...alarm,
      }),
    );
  }

  /** Accounts waiting for approval, oldest first: all of them (the API), or one page and the total (the dashboard). */
  async pendingUsers() {
    return this.pendingQuery();
  }

  /** How many accounts wait for approval (the dashboard's link shows it). */
  async pendingCount(): Promise<number> {
    const [{ total }] = await this.db
      .select({ total: count() })
      .from(members)
      .where(eq(members.status, 'pending'));
    return total;
  }

  async pendingUsersPage(page: { limit: number; offset: number }) {
    const [rows, [{ total }]] = await Promise.all([
      this.pendingQuery().limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(members).where(eq(members.status, 'pending')),
    ]);
    return { users: rows, total };
  }

  private pendingQuery() {
    return this.db
      .select({ id: users.id, username: users.username, email: users.email, role: members.role })
      .from(members)
      .innerJoin(users, membershipHere)
      .where(eq(members.status, 'pending'))
      .orderBy(asc(members.createdAt), asc(users.id))
      .$dynamic();
  }

  async listUsers(filter: { q?: string; role?: Role; status?: Status; limit: number; offset: number }) {
    const conditions = [
      filter.role ? eq(members.role, filter.role) : undefined,
      filter.status ? eq(members.status, filter.status) : undefined,
      filter.q
        ? or(
            ilike(users.username, `%${escapeLike(filter.q)}%`),
            ilike(users.email, `%${escapeLike(filter.q)}%`),
            ilike(users.fullName, `%${escapeLike(filter.q)}%`),
          )
        : undefined,
    ].filter(Boolean);
    const where = conditions.length ? and(...conditions) : undefined;
    // The journal's members only: an account of the site that is not one is none of its admins' business.
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ user: users, role: members.role, status: members.status })
        .from(members)
        .innerJoin(users, membershipHere)
        .where(where)
        .orderBy(desc(users.id))
        .limit(filter.limit)
        .offset(filter.offset),
      this.db.select({ total: count() }).from(members).innerJoin(users, membershipHere).where(where),
    ]);
    return { users: rows.map((r) => presentUser(r.user, r)), total };
  }

  /** A member of the journal at hand; 404 for any other account, whether or not it exists elsewhere. */
  async getUser(id: number): Promise<PublicUser> {
    const [row] = await this.db
      .select({ user: users, role: members.role, status: members.status })
      .from(members)
      .innerJoin(users, membershipHere)
      .where(memberHere(id));
    if (!row) throw notFound('No such user.');
    return presentUser(row.user, row);
  }

  /**
   * The site admin suspends an account (or lifts it) everywhere: signed out at once, and refused sign-in and
   * every request in every journal until lifted (decision 0054). Memberships are left as they are.
   */
  async setSuspended(actor: SessionUser, id: number, suspended: boolean) {
    await this.requireSiteAdmin(actor);
    if (id === actor.id && suspended) throw conflict('You cannot suspend your own account.');
    const now = this.deps.clock.date();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ suspended, updatedAt: now })
        .where(eq(users.id, id))
        .returning({ id: users.id, username: users.username, suspended: users.suspended });
      if (!row) throw notFound('No such user.');
      if (suspended) await revokeSessions(tx, id, now);
      await this.deps.audit.record(
        tx,
        actor,
        suspended ? 'user.suspend' : 'user.unsuspend',
        { type: 'user', id },
        {
          username: row.username,
        },
      );
      return row;
    });
  }

  /** Whether an account runs the site (users.site_admin): its role in a journal says nothing of it. */
  async isSiteAdmin(userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ siteAdmin: users.siteAdmin })
      .from(users)
      .where(eq(users.id, userId));
    return row?.siteAdmin === true;
  }

  private async requireSiteAdmin(actor: SessionUser): Promise<void> {
    if (!(await this.isSiteAdmin(actor.id)))
      throw forbidden('Only the site admin manages accounts site-wide.');
  }

  /**
   * Changes an account's role and/or status, records who did it, and tells the account holder when the
   * account is approved or rejected.
   */
  async update(
    actor: SessionUser,
    id: number,
    change: { role?: Role; status?: Status },
  ): Promise<PublicUser> {
    const before = await this.getUser(id);
    if (
      before.id === actor.id &&
      ((change.role && change.role !== before.role) || (change.status && change.status !== 'approved'))
    ) {
      throw conflict('You cannot change your own role or suspend your own account.');
    }
    // Read before the transaction: on PGlite a query outside it would wait for it (one connection).
    const journal = await this.deps.journalName();
    const updated = await this.db.transaction(async (tx) => {
      const [m] = await tx
        .update(members)
        .set({ ...change, updatedAt: this.deps.clock.date() })
        .where(memberHere(id))
        .returning({ role: members.role, status: members.status });
      if (!m) throw notFound('No such user.');
      const [account] = await tx.select().from(users).where(eq(users.id, id));
      if (change.status && change.status !== before.status && change.status !== 'approved') {
        // A suspended or rejected account is signed out at once (sessions are the site's: everywhere; it signs
        // in again at the journals it is a member of in good standing).
        await revokeSessions(tx, id, this.deps.clock.date());
      }
      await this.deps.audit.record(
        tx,
        actor,
        'user.update',
        { type: 'user', id },
        {
          username: before.username,
          from: { role: before.role, status: before.status },
          to: m,
        },
      );
      const user = presentUser(account, m);
      if (user.status !== before.status && (user.status === 'approved' || user.status === 'rejected')) {
        await this.notifyDecision(tx, user, journal);
      } else if (user.role !== before.role && user.status === 'approved') {
        // Made an editor (or given any other role): told what the account can do now, and where.
        await this.deps.mail.queue(
          tx,
          roleChangedMail({
            to: user.email,
            fullName: user.fullName,
            username: user.username,
            role: user.role,
            journal,
            publicUrl: this.deps.publicUrl(),
          }),
        );
      }
      return user;
    });
    return updated;
  }

  /**
   * The editors' decision on an account waiting for approval (pending; a rejected one may still be approved).
   * Anything else is refused with 409: changing other accounts' status is the admin's Users section.
   */
  async decide(actor: SessionUser, id: number, status: 'approved' | 'rejected'): Promise<PublicUser> {
    const target = await this.getUser(id);
    const waiting: Status[] = status === 'approved' ? ['pending', 'rejected'] : ['pending'];
    if (!waiting.includes(target.status)) {
      throw conflict(`This account is ${target.status}, not waiting for approval.`);
    }
    return this.update(actor, id, { status });
  }

  private async notifyDecision(tx: Tx, user: PublicUser, journal: string): Promise<void> {
    const about = {
      to: user.email,
      fullName: user.fullName,
      username: user.username,
      journal,
      publicUrl: this.deps.publicUrl(),
    };
    await this.deps.mail.queue(
      tx,
      user.status === 'approved'
        ? accountApprovedMail({ ...about, role: user.role })
        : accountRejectedMail(about),
    );
  }

  /**
   * Makes sure the admin account exists: whether this call created it, and the password when it was
   * generated here, to be printed once. Server processes started together on a new PostgreSQL database all
   * find no admin: the insert is checked again under a lock, so one creates it and the others find it
   * (the second insert used to fail its process's start-up, and a generated password printed by it would
   * have signed nobody in). The password is hashed before the lock, which is held for two short statements.
   */
  async ensureAdmin(opts: {
    username: string;
    password?: string;
    email: string;
  }): Promise<{ created: boolean; password: string | null }> {
    const none = { created: false, password: null };
    const find = (tx: Tx) =>
      tx.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${opts.username})`);
    if ((await find(this.db)).length) return none;
    const password = opts.password ?? randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK})`);
      if ((await find(tx)).length) return none;
      const [emailTaken] = await tx
        .select({ username: users.username })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${opts.email})`);
      if (emailTaken) {
        throw new ConfigError(
          `Cannot create the admin account "${opts.username}": ADMIN_EMAIL ${opts.email} already belongs to the account "${emailTaken.username}". Set ADMIN_EMAIL to another address.`,
        );
      }
      await tx.insert(users).values({
        username: opts.username,
        passwordHash,
        email: opts.email,
        fullName: 'Journal Administrator',
        contactNumber: '+0 000 000 0000',
        institution: 'Editorial office',
        siteAdmin: true,
      });
      // The first admin runs the site and is the admin of the journal at hand (the first journal at start-up).
      const [{ id }] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${opts.username})`);
      await tx.insert(members).values({ userId: id, role: 'admin', status: 'approved' });
      return { created: true, password: opts.password ? null : password };
    });
  }

  /** Removes sessions that ended long ago; the table otherwise grows with every sign-in. */
  async pruneSessions(): Promise<void> {
    const weekAgo = new Date(this.deps.clock.now() - 7 * 24 * 60 * MINUTE);
    await this.db.delete(sessions).where(lt(sessions.expiresAt, weekAgo));
  }
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
