import { sql } from 'drizzle-orm';
import { type Database, rowsOf, type TransactionHooks, type Tx, transactionHooks } from '../db/client.ts';
import type { Logger } from '../services.ts';
import { qualifyTag } from './dependencies.ts';
import { cacheVersion } from './tables.ts';

/** What changed: the names of decision 0018 (server/cache/dependencies.ts), or everything. */
export type Changed = ReadonlySet<string> | 'all';
export type ChangeFollower = (changed: Changed) => void;

export const CHANGES_CHANNEL = 'colophon_changes';
/** PostgreSQL refuses a payload of 8,000 bytes or more: a longer list of names says "everything" instead. */
const MAX_PAYLOAD = 7000;
/** Waits before listening again after the connection was lost (the last one repeats). */
const RELISTEN_MS = [1000, 5000, 30_000];

/**
 * How a committed change reaches what every process keeps in memory (the cache of pages and public JSON,
 * the journal's settings): decision 0031.
 *
 * A service names what it changed with `publish(tx, names)` inside the change's transaction. In this process
 * the followers hear it right after the commit (before the request answers). On PostgreSQL the same
 * transaction bumps the one-row `cache_version` and sends `NOTIFY colophon_changes` with the version and the
 * names: delivered at commit, to every process LISTENing on a connection of its own. A notification may still
 * be on its way when a request reaches another process just after the change's request returned, so every
 * request first reads the version (`sync`: one indexed row, one read shared by the requests of one turn of the
 * event loop): a version this process has not heard of drops everything it keeps. A lost LISTEN connection
 * drops everything too, and listening starts again. On PGlite (one process) nothing is sent or read.
 */
export class ChangeFeed {
  private readonly followers: ChangeFollower[] = [];
  /** The names published so far in each open transaction (sent together at its end). */
  private readonly pending = new WeakMap<TransactionHooks, Set<string>>();
  /** Every version up to this one has been applied here. */
  private seen = 0;
  /** Versions above `seen` applied already (this process's own changes, heard before an earlier one). */
  private readonly ahead = new Set<number>();
  /** The version read the callers of this turn of the event loop wait for, not sent yet. */
  private gathering: Promise<void> | null = null;
  /** The version's read, built once (it runs before nearly every request: decision 0040). */
  private versionQuery: { execute(): Promise<{ version: string | number | bigint }[]> } | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private connection = 0;
  private retries = 0;
  private retry: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;

  constructor(
    private readonly opts: {
      db: Database['db'];
      log: Logger;
      /** PostgreSQL's LISTEN (Database.listen); absent on PGlite, where one process is all there is. */
      listen?: Database['listen'];
    },
  ) {}

  /** Whether other processes may share the database (PostgreSQL): changes are sent and versions read. */
  get shared(): boolean {
    return this.opts.listen !== undefined;
  }

  /** `fn` hears every change committed by any process (`'all'`: drop everything). */
  follow(fn: ChangeFollower): void {
    this.followers.push(fn);
  }

  /**
   * Says, inside the change's transaction `tx` (or after it, when `tx` is the database), that what these
   * names show has changed. Every process's followers hear it once the transaction has committed. The names
   * of one transaction go out together, in one statement at its very end (on PostgreSQL the version's row
   * lock is then the last lock it takes, held only through its commit: no deadlock can pass through it).
   */
  async publish(tx: Tx, names: Iterable<string>): Promise<void> {
    // Each name as the journal's whose change it is (decision 0053): another journal's answers stay.
    const list = [...names].map(qualifyTag);
    if (!list.length) return;
    const hooks = transactionHooks(tx);
    if (!hooks) {
      const changed = new Set(list);
      this.apply(await this.send(tx, changed), changed);
      return;
    }
    const pending = this.pending.get(hooks);
    if (pending) {
      for (const name of list) pending.add(name);
      return;
    }
    const changed = new Set(list);
    this.pending.set(hooks, changed);
    let version: number | null = null;
    hooks.before.push(async () => {
      this.pending.delete(hooks);
      version = await this.send(hooks.tx, changed);
    });
    hooks.after.push(() => this.apply(version, changed));
  }

  /** PostgreSQL: bumps the version and notifies every process, in `tx`; returns the version (null on PGlite). */
  private async send(tx: Tx, changed: ReadonlySet<string>): Promise<number | null> {
    if (!this.shared) return null;
    const json = JSON.stringify([...changed]);
    const named = json.length <= MAX_PAYLOAD ? json : 'null';
    const result = await tx.execute(sql`
      with bumped as (
        update ${cacheVersion} set version = ${cacheVersion.version} + 1 where ${cacheVersion.id} = 1
        returning version
      )
      select version, pg_notify(${CHANGES_CHANNEL}, '{"v":' || version || ',"t":' || ${named}::text || '}')
      from bumped`);
    const [row] = rowsOf<{ version: string | number }>(result);
    if (!row) throw new Error('cache_version has no row: the migrations did not run to the end');
    return Number(row.version);
  }

  /**
   * Before a request (or a job) reads anything kept: makes sure every change committed before this call is
   * applied here. The calls of one turn of the event loop share one read of the version, sent once that turn's
   * arrivals have all been seen (`setImmediate`: after the poll phase that parsed them); a call arriving after
   * the read was sent gets the next turn's read, sent at once beside it rather than after it (decision 0031,
   * "overlapping reads"): every caller waits for a read sent after it arrived, and for one round trip only.
   */
  sync(): Promise<void> {
    if (!this.shared) return Promise.resolve();
    if (this.gathering) return this.gathering;
    const read = new Promise<void>((resolve) => {
      setImmediate(() => {
        // From here on, a caller may have arrived after this read's snapshot: it waits for the next one.
        this.gathering = null;
        this.readVersion().then(resolve, resolve);
      });
    });
    this.gathering = read;
    return read;
  }

  private async readVersion(): Promise<void> {
    let version: number;
    try {
      this.versionQuery ??= this.opts.db
        .select({ version: cacheVersion.version })
        .from(cacheVersion)
        .limit(1)
        .prepare('colophon_cache_version');
      const [row] = await this.versionQuery.execute();
      version = Number(row?.version ?? 0);
    } catch (err) {
      // Whether anything changed cannot be told: nothing kept is trusted.
      this.opts.log.warn({ err }, 'changes: could not read the change version; dropping what is kept');
      this.notify('all');
      return;
    }
    if (version <= this.seen) return;
    // Committed, and not heard of yet (its notification is on its way, or was lost with the connection).
    this.seen = version;
    for (const v of this.ahead) if (v <= version) this.ahead.delete(v);
    this.notify('all');
  }

  /**
   * Starts listening (PostgreSQL); called by the app when it is ready. Without it (a CLI command) `sync`
   * still finds every change, by its version, and drops everything kept.
   */
  async start(): Promise<void> {
    if (!this.opts.listen || this.started || this.stopped) return;
    this.started = true;
    await this.listen();
    // From here on, what this process keeps was read after this version (and later ones are heard).
    await this.readVersion();
  }

  /** Stops listening (at shutdown, before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.connection++;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (!this.opts.listen || this.stopped) return;
    const connection = ++this.connection;
    try {
      const unlisten = await this.opts.listen(
        CHANGES_CHANNEL,
        (payload) => {
          if (connection === this.connection) this.heard(payload);
        },
        (err) => {
          if (connection === this.connection) this.lost(err);
        },
      );
      if (connection !== this.connection) {
        await unlisten().catch(() => undefined);
        return;
      }
      this.unlisten = unlisten;
      this.retries = 0;
    } catch (err) {
      if (connection === this.connection) this.lost(err as Error);
    }
  }

  /** The LISTEN connection is gone: changes may pass unheard, so everything kept goes; listen again soon. */
  private lost(err: Error): void {
    this.connection++;
    const unlisten = this.unlisten;
    this.unlisten = null;
    void unlisten?.().catch(() => undefined);
    this.notify('all');
    if (this.stopped) return;
    const wait = RELISTEN_MS[Math.min(this.retries++, RELISTEN_MS.length - 1)];
    this.opts.log.warn(
      { err },
      `changes: lost the LISTEN connection; dropped what is kept, listening again in ${wait / 1000} s`,
    );
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.listen();
    }, wait);
    this.retry.unref();
  }

  private heard(payload: string): void {
    let message: { v?: unknown; t?: unknown };
    try {
      message = JSON.parse(payload) as typeof message;
    } catch {
      message = {};
    }
    const version = typeof message.v === 'number' ? message.v : null;
    const names =
      Array.isArray(message.t) && message.t.every((t) => typeof t === 'string')
        ? new Set(message.t as string[])
        : 'all';
    this.apply(version, names);
  }

  /** A committed change, heard once here whether it comes from this process's commit or a notification. */
  private apply(version: number | null, changed: Changed): void {
    if (version !== null) {
      if (version <= this.seen || this.ahead.has(version)) return;
      this.ahead.add(version);
      while (this.ahead.delete(this.seen + 1)) this.seen++;
    }
    this.notify(changed);
  }

  private notify(changed: Changed): void {
    for (const follower of this.followers) {
      try {
        follower(changed);
      } catch (err) {
        this.opts.log.error({ err }, 'changes: a follower failed');
      }
    }
  }
}
