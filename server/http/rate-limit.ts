import type { RateLimit } from '../config.ts';
import { HttpError } from './errors.ts';

/**
 * Fixed-window counters kept in memory: enough for one server process. A limit of `null` never refuses.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limit: RateLimit,
    private readonly message: string,
  ) {
    this.timer = setInterval(() => this.sweep(), 60_000);
    this.timer.unref();
  }

  /** Counts one attempt for `key`; throws 429 once the window's allowance is spent. */
  hit(key: string, now = Date.now()): void {
    if (!this.limit) return;
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + this.limit.windowSeconds * 1000 };
      this.hits.set(key, entry);
    }
    entry.count++;
    if (entry.count > this.limit.max) {
      const retryAfter = Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
      throw new HttpError(429, this.message, undefined, { 'retry-after': String(retryAfter) });
    }
  }

  /** Forgets a key, e.g. a username after a successful login. */
  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now = Date.now()): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}
