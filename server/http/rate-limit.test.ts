import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('refuses past the allowance with 429 and Retry-After, then forgives after the window', () => {
    const limiter = new RateLimiter({ max: 2, windowSeconds: 60 }, 'Slow down.');
    limiter.hit('ip', 0);
    limiter.hit('ip', 1);
    expect(() => limiter.hit('ip', 2)).toThrow(expect.objectContaining({ status: 429, message: 'Slow down.' }));
    try {
      limiter.hit('ip', 30_000);
    } catch (err) {
      expect((err as { headers: Record<string, string> }).headers['retry-after']).toBe('30');
    }
    limiter.hit('other', 2);
    limiter.hit('ip', 60_001);
  });

  it('never refuses when off', () => {
    const limiter = new RateLimiter(null, 'x');
    for (let i = 0; i < 100; i++) limiter.hit('ip');
  });
});
