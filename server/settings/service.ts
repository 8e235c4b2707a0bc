import { eq, inArray, sql } from 'drizzle-orm';
import { type JournalSettings, journalSettingsSchema } from '../../common/journal.ts';
import { SITE, contentTag, dependsOn } from '../cache/dependencies.ts';
import type { Db, Tx } from '../db/client.ts';
import { asSite, currentJournalId, withJournal } from '../db/scope.ts';
import { journals } from '../journals/tables.ts';
import { settings } from './tables.ts';

export const JOURNAL_KEY = 'journal';

export class SettingsService {
  /** Each journal's settings as last read (decision 0053: one entry per journal). */
  private cache = new Map<number, JournalSettings>();
  /** Counts `forget`s: a read begun before one is not kept (it may hold the settings from before the change). */
  private generation = 0;

  constructor(private readonly db: Db) {}

  async journal(): Promise<JournalSettings> {
    dependsOn(SITE);
    const journalId = currentJournalId();
    const kept = journalId === null ? undefined : this.cache.get(journalId);
    if (kept) return kept;
    const generation = this.generation;
    const [row] = await this.db.select().from(settings).where(eq(settings.key, JOURNAL_KEY));
    if (!row)
      throw new Error('The journal settings are missing: run the seed (npm start does it on first run).');
    const journal = journalSettingsSchema.parse(row.value);
    if (generation === this.generation && journalId !== null) this.cache.set(journalId, journal);
    return journal;
  }

  /**
   * Every journal's settings, by journal (the site's home lists the journals: decision 0056), read in the
   * site's scope; a kept answer showing them is dropped when any of them changes.
   */
  async ofEveryJournal(): Promise<Map<number, JournalSettings>> {
    const rows = await asSite(() =>
      this.db
        .select({ journalId: settings.journalId, value: settings.value })
        .from(settings)
        .where(eq(settings.key, JOURNAL_KEY)),
    );
    const result = new Map<number, JournalSettings>();
    for (const row of rows) {
      withJournal(row.journalId, () => dependsOn(SITE));
      const parsed = journalSettingsSchema.safeParse(row.value);
      if (parsed.success) result.set(row.journalId, parsed.data);
    }
    return result;
  }

  /**
   * Drops the kept journal settings: told by the change feed when a change to them has committed, in this
   * process or another (server/cache/changes.ts, wired in server/services.ts).
   */
  forget(journalId?: number): void {
    this.generation++;
    if (journalId === undefined) this.cache.clear();
    else this.cache.delete(journalId);
  }

  async get<T>(key: string): Promise<T | undefined> {
    dependsOn(key === JOURNAL_KEY ? SITE : contentTag(key));
    const [row] = await this.db.select().from(settings).where(eq(settings.key, key));
    return row?.value as T | undefined;
  }

  /** When each of these settings was last written (absent keys are left out). */
  async changedAt(keys: string[]): Promise<Map<string, Date>> {
    if (!keys.length) return new Map();
    const rows = await this.db
      .select({ key: settings.key, at: settings.updatedAt })
      .from(settings)
      .where(inArray(settings.key, keys));
    return new Map(rows.map((r) => [r.key, r.at]));
  }

  /** Writes a setting only when it is not there yet (seeding is idempotent and never overwrites edits). */
  async setDefault(tx: Tx, key: string, value: unknown): Promise<void> {
    const [made] = await tx.insert(settings).values({ key, value }).onConflictDoNothing().returning();
    if (made && key === JOURNAL_KEY) await this.nameJournal(tx, value);
  }

  /** The site's list of journals names each by its settings' name (decision 0053). */
  private async nameJournal(tx: Tx, value: unknown): Promise<void> {
    const journalId = currentJournalId();
    const name = (value as { name?: unknown }).name;
    if (journalId !== null && typeof name === 'string' && name.trim())
      await tx.update(journals).set({ title: name.trim() }).where(eq(journals.id, journalId));
  }

  async set(tx: Tx, key: string, value: unknown): Promise<void> {
    if (key === JOURNAL_KEY) journalSettingsSchema.parse(value);
    await tx
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({
        target: [settings.journalId, settings.key],
        set: { value, updatedAt: sql`now()` },
      });
    if (key === JOURNAL_KEY) await this.nameJournal(tx, value);
    if (key === JOURNAL_KEY) this.forget(currentJournalId() ?? undefined);
  }
}
