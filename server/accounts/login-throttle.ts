import { MESSAGES } from '../../common/messages.ts';
import type { Clock } from '../clock.ts';
import type { RateLimit } from '../config.ts';
import { type AttemptStore, waitText } from '../counters/attempts.ts';
import { tooManyAttempts } from '../errors.ts';

export interface LoginLimits {
  /** RATE_LIMIT_LOGIN: sign-in attempts from one address, whatever the usernames. */
  perAddress: RateLimit;
  /**
   * RATE_LIMIT_LOGIN_USER: wrong passwords for one username from one address, after which that address is
   * refused for that username until the window ends; also how many wrong passwords from anywhere make the
   * account holder get an e-mail (once per window).
   */
  perAccount: RateLimit;
}

/** What the account holder is told after repeated wrong passwords. */
export interface FailureAlarm {
  failures: number;
  /** From how many different addresses. */
  addresses: number;
  windowMs: number;
}

/** After n wrong passwords for one username from one address, the next try waits 1 s, 2 s, 4 s, … */
export function failureDelayMs(failures: number): number {
  return failures < 1 ? 0 : 2 ** Math.min(failures - 1, 12) * 1000;
}

const refusal = (ms: number) =>
  `Too many wrong passwords for this account from your address. Please wait ${waitText(ms)} and try again, or use “Forgot your password?”.`;

const pairKey = (username: string, address: string) => `login-pair:${JSON.stringify([username, address])}`;

/**
 * Password guessing is slowed per username *and* address, so that an attacker cannot lock the owner out:
 * each wrong password doubles the wait before the same address may try the same username again, and past
 * RATE_LIMIT_LOGIN_USER wrong passwords that address is refused for that username until the window ends. A
 * correct password from an address that has not failed goes through at once. Each address also has its own
 * allowance of attempts (RATE_LIMIT_LOGIN). Usernames are compared lower-cased; unknown usernames are
 * counted like known ones, so the answers say nothing about which accounts exist.
 */
export class LoginThrottle {
  constructor(
    private readonly store: AttemptStore,
    private readonly limits: LoginLimits,
    private readonly clock: Clock,
  ) {}

  /** Before a password is checked: throws 429 (with Retry-After) when this attempt must not be tried now. */
  async admit(username: string, address: string): Promise<void> {
    const now = this.clock.now();
    const { perAddress, perAccount } = this.limits;
    if (perAddress) {
      const from = await this.store.add(`login-address:${address}`, perAddress.windowSeconds * 1000, now);
      if (from.count > perAddress.max) throw tooManyAttempts(MESSAGES.tooManyRequests, from.resetAt - now);
    }
    if (!perAccount) return;
    const pair = await this.store.get(pairKey(username.toLowerCase(), address), now);
    if (!pair) return;
    const until =
      pair.count >= perAccount.max
        ? pair.resetAt
        : Math.min(pair.resetAt, pair.lastAt + failureDelayMs(pair.count));
    if (until > now) throw tooManyAttempts(refusal(until - now), until - now);
  }

  /**
   * After a wrong password. Returns what to tell the account holder when the account has now had
   * RATE_LIMIT_LOGIN_USER wrong passwords in the window (from anywhere) and has not been told in this window.
   */
  async failed(username: string, address: string): Promise<FailureAlarm | null> {
    const { perAccount } = this.limits;
    if (!perAccount) return null;
    const now = this.clock.now();
    const windowMs = perAccount.windowSeconds * 1000;
    const name = username.toLowerCase();
    await this.store.add(pairKey(name, address), windowMs, now);
    const account = await this.store.add(`login-account:${name}`, windowMs, now, address);
    if (account.count < perAccount.max) return null;
    const notice = await this.store.add(`login-notice:${name}`, windowMs, now);
    return notice.count === 1 ? { failures: account.count, addresses: account.tags, windowMs } : null;
  }

  /** After a correct password: that address starts afresh for that username. */
  async succeeded(username: string, address: string): Promise<void> {
    await this.store.delete(pairKey(username.toLowerCase(), address));
  }
}
