import { and, asc, count, eq, ne, or, sql } from 'drizzle-orm';
import { journalSettingsSchema } from '../../common/journal.ts';
import {
  createJournalSchema,
  type JournalStatus,
  type JournalSummary,
  journalDomainSchema,
  journalPathSchema,
  journalStatusSchema,
} from '../../common/journals.ts';
import { journalDefaults, newJournalSettings } from '../../content/journal.ts';
import { journalMemberships, users } from '../accounts/tables.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { JOURNALS } from '../cache/dependencies.ts';
import { articles } from '../catalog/tables.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { asSite, withJournal } from '../db/scope.ts';
import { conflict, invalid, notFound, parseInput } from '../errors.ts';
import { seedJournal } from '../seed/seed.ts';
import type { SettingsService } from '../settings/service.ts';
import { JOURNAL_KEY } from '../settings/service.ts';
import { submissions } from '../submissions/tables.ts';
import type { JournalDirectory } from './directory.ts';
import { journalAliases, journals } from './tables.ts';

type Address = { kind: 'path'; value: string } | { kind: 'domain'; value: string };
type JournalRow = typeof journals.$inferSelect;

const show = (a: Address) => (a.kind === 'path' ? `/${a.value}` : a.value);

/**
 * The site admin's journals (issue 24, decision 0055): making one, closing, archiving and reopening it, and
 * moving it to another path or domain with its old address kept as a 301. Every query runs in the site's scope
 * (`asSite`): a journal's admin never reaches here (the routes and pages check `siteAdmin` first). Each change
 * names `journals` on the change feed in its transaction, so every process's JournalDirectory reads them again;
 * this process's is read again before the call returns.
 */
export class JournalsService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      settings: SettingsService;
      audit: AuditService;
      changes: ChangeFeed;
      directory: JournalDirectory;
      /** The new journal's contact address until its office sets its own (the installation's EDITORIAL_EMAIL). */
      editorialEmail: string;
      /** The site's own address: its host is no journal's domain. */
      siteUrl: string;
      /** A new journal's first year is this clock's. */
      clock: Clock;
    },
  ) {}

  /** Whether an account is a site admin (`users.site_admin`). */
  async isSiteAdmin(userId: number): Promise<boolean> {
    const [row] = await asSite(() =>
      this.db.select({ siteAdmin: users.siteAdmin }).from(users).where(eq(users.id, userId)),
    );
    return row?.siteAdmin === true;
  }

  /** Makes an account the site's admin (the first run's admin: server/seed/seed.ts). */
  async makeSiteAdmin(username: string): Promise<void> {
    await asSite(() =>
      this.db
        .update(users)
        .set({ siteAdmin: true })
        .where(sql`lower(${users.username}) = ${username.trim().toLowerCase()}`),
    );
  }

  /** Every journal of the site, oldest first, with its old addresses and how many articles and submissions it has. */
  async list(): Promise<JournalSummary[]> {
    return asSite(async () => {
      const [rows, aliases, articleCounts, submissionCounts] = await Promise.all([
        this.db.select().from(journals).orderBy(asc(journals.id)),
        this.db.select().from(journalAliases).orderBy(asc(journalAliases.id)),
        this.db
          .select({ journalId: articles.journalId, n: count() })
          .from(articles)
          .groupBy(articles.journalId),
        this.db
          .select({ journalId: submissions.journalId, n: count() })
          .from(submissions)
          .groupBy(submissions.journalId),
      ]);
      const articlesOf = new Map(articleCounts.map((r) => [r.journalId, r.n]));
      const submissionsOf = new Map(submissionCounts.map((r) => [r.journalId, r.n]));
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        path: row.path,
        domain: row.domain,
        url: this.urlOf(row),
        status: row.status,
        aliases: aliases
          .filter((a) => a.journalId === row.id)
          .map((a) => (a.kind === 'path' ? `/${a.value}` : a.value)),
        articles: articlesOf.get(row.id) ?? 0,
        submissions: submissionsOf.get(row.id) ?? 0,
        createdAt: row.createdAt.toISOString(),
      }));
    });
  }

  /** One journal of the list; not found when there is none with this id. */
  async get(id: number): Promise<JournalSummary> {
    const journal = (await this.list()).find((j) => j.id === id);
    if (!journal) throw notFound('No such journal.');
    return journal;
  }

  /**
   * The journal a command names: its id, its path (with or without the leading slash) or its domain.
   */
  async find(ref: string): Promise<number> {
    const wanted = ref.trim().toLowerCase().replace(/^\//, '');
    const rows = await asSite(() =>
      this.db.select({ id: journals.id, path: journals.path, domain: journals.domain }).from(journals),
    );
    const found = /^\d+$/.test(wanted)
      ? rows.find((r) => r.id === Number(wanted))
      : rows.find((r) => r.path?.toLowerCase() === wanted || r.domain?.toLowerCase() === wanted);
    if (!found) throw notFound(`No journal has the id, path or domain “${ref}”.`);
    return found.id;
  }

  /**
   * Makes a journal: its row, then in its own scope its settings, pages, board and special issues exactly as
   * the first run seeds the first journal's (named by `title`; no demo catalogue), and its first editor's
   * membership (editor, approved). All in one transaction: a journal is made whole or not at all.
   */
  async create(raw: unknown, actor: Actor | null = null): Promise<JournalSummary> {
    const input = parseInput(createJournalSchema, raw);
    const address: Address =
      input.path !== undefined
        ? { kind: 'path', value: input.path }
        : { kind: 'domain', value: input.domain! };
    // The publisher's facts a new journal starts with: the site's first journal's (decision 0062).
    // (A data folder never seeded has none: the demo's defaults then.)
    const stored = await withJournal(1, () => this.deps.settings.get<unknown>(JOURNAL_KEY));
    const publisherOf =
      journalSettingsSchema.safeParse(stored).data ?? journalDefaults({ email: this.deps.editorialEmail });
    const settings = newJournalSettings({
      title: input.title,
      publisherOf,
      email: this.deps.editorialEmail,
      year: new Date(this.deps.clock.now()).getUTCFullYear(),
    });
    const id = await this.write(async (tx) => {
      await this.ensureFree(tx, address, null);
      const editor = await this.account(tx, input.editor);
      const [row] = await tx
        .insert(journals)
        .values({ title: input.title, [address.kind]: address.value })
        .returning({ id: journals.id });
      // The transaction began in the site's scope; the rest is the new journal's: its rows default to it.
      await tx.execute(sql`select set_config('colophon.journal', ${String(row.id)}, true)`);
      await withJournal(row.id, async () => {
        await seedJournal(this.deps.settings, tx, { email: this.deps.editorialEmail, settings });
        // Its first editor runs it: the journal's admin (settings, accounts, other editors) as well as an
        // editor, or nobody could set the journal up (decision 0062).
        await tx
          .insert(journalMemberships)
          .values({ userId: editor.id, role: 'admin', status: 'approved' })
          .onConflictDoUpdate({
            target: [journalMemberships.journalId, journalMemberships.userId],
            set: { role: 'admin', status: 'approved', updatedAt: sql`now()` },
          });
        await this.deps.audit.record(
          tx,
          actor,
          'journal.create',
          { type: 'journal', id: row.id },
          { title: input.title, address: show(address), firstEditor: editor.id },
        );
      });
      return row.id;
    });
    return this.get(id);
  }

  /** Sets a journal's state: open, closed (reading only) or archived (hidden from the site's home). */
  async setStatus(id: number, raw: unknown, actor: Actor | null = null): Promise<JournalSummary> {
    const { status } = parseInput(journalStatusSchema, raw);
    await this.write(async (tx) => {
      const row = await this.row(tx, id);
      await tx
        .update(journals)
        .set({ status: status as JournalStatus })
        .where(eq(journals.id, id));
      await this.audited(tx, id, actor, 'journal.status', { from: row.status, to: status });
    });
    return this.get(id);
  }

  /** Moves a journal to a path on the site; its old path or domain answers a 301 to the new one. */
  async moveToPath(id: number, path: string, actor: Actor | null = null): Promise<JournalSummary> {
    const value = parseInput(journalPathSchema, path);
    return this.move(id, { kind: 'path', value }, actor);
  }

  /** Moves a journal to a domain of its own; its old path or domain answers a 301 to the new one. */
  async moveToDomain(id: number, domain: string, actor: Actor | null = null): Promise<JournalSummary> {
    const value = parseInput(journalDomainSchema, domain);
    return this.move(id, { kind: 'domain', value }, actor);
  }

  private async move(id: number, to: Address, actor: Actor | null): Promise<JournalSummary> {
    await this.write(async (tx) => {
      const row = await this.row(tx, id);
      const now: Address | null = row.path
        ? { kind: 'path', value: row.path.toLowerCase() }
        : row.domain
          ? { kind: 'domain', value: row.domain.toLowerCase() }
          : null;
      if (now && now.kind === to.kind && now.value === to.value) return;
      await this.ensureFree(tx, to, id);
      // Moving back to an old address of its own: that address is no longer an alias.
      await tx
        .delete(journalAliases)
        .where(
          and(
            eq(journalAliases.journalId, id),
            eq(journalAliases.kind, to.kind),
            sql`lower(${journalAliases.value}) = ${to.value}`,
          ),
        );
      // The old address answers a 301 (the journal at the site's root has none: `/` is then the site's home).
      if (now)
        await tx
          .insert(journalAliases)
          .values({ journalId: id, kind: now.kind, value: now.value, automatic: true })
          .onConflictDoNothing();
      await tx
        .update(journals)
        .set(to.kind === 'path' ? { path: to.value, domain: null } : { domain: to.value, path: null })
        .where(eq(journals.id, id));
      await this.audited(tx, id, actor, 'journal.move', { from: now ? show(now) : '/', to: show(to) });
    });
    return this.get(id);
  }

  /**
   * One change to the journals, in the site's scope and one transaction that names `journals` on the change
   * feed; this process's directory is read again before it returns (the others hear it by the feed). Two
   * admins racing for one address: the unique index refuses the second, in words.
   */
  private async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await asSite(() =>
        this.db.transaction(async (tx) => {
          const value = await fn(tx);
          await this.deps.changes.publish(tx, [JOURNALS]);
          return value;
        }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('That address was taken a moment ago: choose another.');
      throw err;
    }
    await this.deps.directory.load();
    return result;
  }

  /**
   * The site admin's change in the journal's own audit log (its office sees who moved or closed it): the rest
   * of the transaction is the journal's, so the entry is.
   */
  private async audited(
    tx: Tx,
    id: number,
    actor: Actor | null,
    action: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    await tx.execute(sql`select set_config('colophon.journal', ${String(id)}, true)`);
    await this.deps.audit.record(tx, actor, action, { type: 'journal', id }, details);
  }

  private async row(tx: Tx, id: number): Promise<JournalRow> {
    const [row] = await tx.select().from(journals).where(eq(journals.id, id)).for('update');
    if (!row) throw notFound('No such journal.');
    return row;
  }

  /** An existing account by username or e-mail (either, case aside). */
  private async account(tx: Tx, name: string): Promise<{ id: number }> {
    const wanted = name.trim().toLowerCase();
    const [row] = await tx
      .select({ id: users.id })
      .from(users)
      .where(or(sql`lower(${users.username}) = ${wanted}`, sql`lower(${users.email}) = ${wanted}`))
      .orderBy(asc(users.id))
      .limit(1);
    if (!row) {
      const message = `No account has the username or e-mail “${name.trim()}”: the first editor must have an account (they can register first).`;
      throw invalid(message, { editor: message });
    }
    return row;
  }

  /**
   * Refuses an address another journal answers at, or answered at (its alias: old links lead there), and
   * the site's own host as a domain.
   */
  private async ensureFree(tx: Tx, address: Address, self: number | null): Promise<void> {
    const field = address.kind;
    if (address.kind === 'domain' && address.value === new URL(this.deps.siteUrl).hostname) {
      const message = 'That is the site’s own address: a journal’s domain must be another host.';
      throw invalid(message, { [field]: message });
    }
    const column = address.kind === 'path' ? journals.path : journals.domain;
    const [taken] = await tx
      .select({ title: journals.title })
      .from(journals)
      .where(
        and(sql`lower(${column}) = ${address.value}`, self === null ? undefined : ne(journals.id, self)),
      );
    if (taken) {
      const message = `${show(address)} is the address of the journal “${taken.title}”: choose another.`;
      throw conflict(message, { [field]: message });
    }
    const [was] = await tx
      .select({ title: journals.title })
      .from(journalAliases)
      .innerJoin(journals, eq(journals.id, journalAliases.journalId))
      .where(
        and(
          eq(journalAliases.kind, address.kind),
          sql`lower(${journalAliases.value}) = ${address.value}`,
          self === null ? undefined : ne(journalAliases.journalId, self),
        ),
      );
    if (was) {
      const message = `${show(address)} was the address of the journal “${was.title}”, and its old links still lead there: choose another.`;
      throw conflict(message, { [field]: message });
    }
  }

  private urlOf(row: Pick<JournalRow, 'id' | 'path' | 'domain' | 'title' | 'status'>): string {
    return this.deps.directory.baseUrl({
      id: row.id,
      title: row.title,
      path: row.path?.toLowerCase() ?? null,
      domain: row.domain?.toLowerCase() ?? null,
      status: row.status,
    });
  }
}
