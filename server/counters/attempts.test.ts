import { describe, expect, it } from 'vitest';
import { withJournal } from '../db/scope.ts';
import { isDomainError } from '../errors.ts';
import { MemoryAttemptStore, RateLimiter } from './attempts.ts';

/** The refusal `hit` gave, or null when it let the attempt through. */
async function refusal(limiter: RateLimiter, key: string, at: number) {
  try {
    await limiter.hit(key, at);
    return null;
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return { code: err.code, message: err.message, retryAfter: err.detail.retryAfterSeconds };
  }
}

describe('RateLimiter', () => {
  it('refuses past the allowance with too_many_attempts and the wait, then forgives after the window', async () => {
    const limiter = new RateLimiter({ max: 2, windowSeconds: 60 }, 'Slow down.');
    expect(await refusal(limiter, 'ip', 0)).toBeNull();
    expect(await refusal(limiter, 'ip', 1)).toBeNull();
    expect(await refusal(limiter, 'ip', 2)).toEqual({
      code: 'too_many_attempts',
      message: 'Slow down.',
      retryAfter: 60,
    });
    expect((await refusal(limiter, 'ip', 30_000))?.retryAfter).toBe(30);
    expect(await refusal(limiter, 'other', 2)).toBeNull();
    expect(await refusal(limiter, 'ip', 60_001)).toBeNull();
  });

  it('never refuses when off', async () => {
    const limiter = new RateLimiter(null, 'x');
    for (let i = 0; i < 100; i++) expect(await refusal(limiter, 'ip', i)).toBeNull();
  });

  it('keeps the keys of limiters sharing one store apart by name', async () => {
    const store = new MemoryAttemptStore();
    const contact = new RateLimiter({ max: 1, windowSeconds: 60 }, 'c', { store, name: 'contact' });
    const register = new RateLimiter({ max: 1, windowSeconds: 60 }, 'r', { store, name: 'register' });
    expect(await refusal(contact, 'ip', 0)).toBeNull();
    expect(await refusal(register, 'ip', 0)).toBeNull();
    expect((await refusal(contact, 'ip', 1))?.message).toBe('c');
  });

  it("counts a journal's allowance apart from another's, and the site's across journals", async () => {
    const store = new MemoryAttemptStore();
    const contact = new RateLimiter({ max: 1, windowSeconds: 60 }, 'c', {
      store,
      name: 'contact',
      perJournal: true,
    });
    const register = new RateLimiter({ max: 1, windowSeconds: 60 }, 'r', { store, name: 'register' });
    expect(await withJournal(1, () => refusal(contact, 'ip', 0))).toBeNull();
    expect(await withJournal(2, () => refusal(contact, 'ip', 0))).toBeNull();
    expect((await withJournal(1, () => refusal(contact, 'ip', 1)))?.message).toBe('c');
    expect(await withJournal(1, () => refusal(register, 'ip', 0))).toBeNull();
    expect((await withJournal(2, () => refusal(register, 'ip', 1)))?.message).toBe('r');
    expect(await store.get('contact:j2:ip', 1)).toMatchObject({ count: 1 });
  });
});
