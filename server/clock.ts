/**
 * The one source of "now" for every rule with a deadline, an expiry or a schedule (reset links, rate-limit
 * windows, digests, reminders). Services take it from `Services.clock`; tests pass a `ManualClock` and move
 * it forward instead of waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  date(): Date;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
};

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  private at: number;

  constructor(start: number | Date = Date.now()) {
    this.at = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.at;
  }

  date(): Date {
    return new Date(this.at);
  }

  /** Moves forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.at += ms;
  }

  set(to: number | Date): void {
    this.at = typeof to === 'number' ? to : to.getTime();
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
