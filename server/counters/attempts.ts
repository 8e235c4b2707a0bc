import { type Clock, systemClock } from '../clock.ts';
import type { RateLimit } from '../config.ts';
import { currentJournalId } from '../db/scope.ts';
import { tooManyAttempts } from '../errors.ts';

/**
 * How many times someone tried something, and whether to let them try again: a domain idea (decision 0042),
 * used by the services' rules (sign-in throttle, reset links, contact form, mail) and by the API's limits.
 *
 * A fixed-window allowance per key (an address, an account), counted in an `AttemptStore`: in this process's
 * memory, or in the database when several processes share one (decision 0030). A limit of `null` never
 * refuses. `name` keeps each limiter's keys apart in a shared store.
 *
 * `perJournal`: an allowance of each journal of the site (its contact form, its similarity checker): the key
 * names the journal of the work at hand (`contact:j3:…`), so a flood at one journal spends none of another's.
 * Without it the allowance is the site's (sign-in, registration: accounts are the site's). Decision 0058.
 */
export class RateLimiter {
  private readonly store: AttemptStore;

  constructor(
    private readonly limit: RateLimit,
    private readonly message: string,
    private readonly opts: { store?: AttemptStore; name?: string; clock?: Clock; perJournal?: boolean } = {},
  ) {
    this.store = opts.store ?? new MemoryAttemptStore();
  }

  /** Counts one attempt for `key`; refuses with `tooManyAttempts` (a wait in seconds) once the window's allowance is spent. */
  async hit(key: string, now = (this.opts.clock ?? systemClock).now()): Promise<void> {
    if (!this.limit) return;
    const journal = this.opts.perJournal ? `j${currentJournalId() ?? '*'}:` : '';
    const window = await this.store.add(
      `${this.opts.name ?? 'limit'}:${journal}${key}`,
      this.limit.windowSeconds * 1000,
      now,
    );
    if (window.count > this.limit.max) throw tooManyAttempts(this.message, window.resetAt - now);
  }
}

/** One key's counting window in an AttemptStore. */
export interface AttemptWindow {
  /** Attempts counted since the window opened. */
  count: number;
  /** When the window closes (ms since the epoch): the count starts from zero after it. */
  resetAt: number;
  /** When the last attempt was counted. */
  lastAt: number;
  /** How many different tags (e.g. client addresses) the counted attempts carried. */
  tags: number;
}

/**
 * Where attempt counters live, behind the smallest interface the login rules and rate limits need: in this
 * process's memory (`MemoryAttemptStore`), or in the database for several processes on one PostgreSQL
 * (`DbAttemptStore`, server/counters/store.ts, decision 0030). Times are passed in, from the services' clock.
 */
export interface AttemptStore {
  /** Counts one attempt under `key`, opening a window of `windowMs` at `now` when none is open. */
  add(key: string, windowMs: number, now: number, tag?: string): Promise<AttemptWindow>;
  /** The key's window open at `now`, or null. */
  get(key: string, now: number): Promise<AttemptWindow | null>;
  /** Forgets the key. */
  delete(key: string): Promise<void>;
}

/** A window keeps at most this many distinct tags (addresses): beyond, the count says "at least". */
export const MAX_TAGS = 1000;

/** Above this many keys, closed windows are swept out on the next write. */
const SWEEP_ABOVE = 10_000;

export class MemoryAttemptStore implements AttemptStore {
  private readonly windows = new Map<
    string,
    { count: number; resetAt: number; lastAt: number; tags: Set<string> }
  >();

  async add(key: string, windowMs: number, now: number, tag?: string): Promise<AttemptWindow> {
    if (this.windows.size > SWEEP_ABOVE) this.sweep(now);
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs, lastAt: now, tags: new Set() };
      this.windows.set(key, entry);
    }
    entry.count++;
    entry.lastAt = now;
    if (tag !== undefined && entry.tags.size < MAX_TAGS) entry.tags.add(tag);
    return this.view(entry);
  }

  async get(key: string, now: number): Promise<AttemptWindow | null> {
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) return null;
    return this.view(entry);
  }

  async delete(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private view(entry: { count: number; resetAt: number; lastAt: number; tags: Set<string> }): AttemptWindow {
    return { count: entry.count, resetAt: entry.resetAt, lastAt: entry.lastAt, tags: entry.tags.size };
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}

/** "40 seconds", "3 minutes", "1 hour": how long to wait, for a refusal message. */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}
