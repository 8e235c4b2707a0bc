import { describe, expect, it } from 'vitest';
import { ManualClock, MINUTE, SECOND } from '../clock.ts';
import { isDomainError } from '../errors.ts';
import { MemoryAttemptStore } from '../counters/attempts.ts';
import { failureDelayMs, type LoginLimits, LoginThrottle } from './login-throttle.ts';

const limits: LoginLimits = {
  perAddress: { max: 100, windowSeconds: 15 * 60 },
  perAccount: { max: 5, windowSeconds: 15 * 60 },
};

function setup(over: Partial<LoginLimits> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const throttle = new LoginThrottle(new MemoryAttemptStore(), { ...limits, ...over }, clock);
  return { clock, throttle };
}

/** The refusal a try would get now, or null when it may go ahead. */
async function refusal(throttle: LoginThrottle, user: string, address: string) {
  try {
    await throttle.admit(user, address);
    return null;
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return { code: err.code, retryAfter: err.detail.retryAfterSeconds ?? 0, message: err.message };
  }
}

describe('LoginThrottle', () => {
  it('slows one address guessing one username (1 s, 2 s, 4 s, 8 s), then refuses it until the window ends', async () => {
    const { clock, throttle } = setup();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(await refusal(throttle, 'admin', '198.51.100.7')).toBeNull();
      await throttle.failed('admin', '198.51.100.7');
      const refused = await refusal(throttle, 'admin', '198.51.100.7');
      expect(refused?.code).toBe('too_many_attempts');
      waits.push(refused!.retryAfter);
      clock.advance(refused!.retryAfter * SECOND);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    await throttle.admit('admin', '198.51.100.7');
    await throttle.failed('admin', '198.51.100.7');
    // Fifth wrong password: refused for what is left of the 15 minutes, with a message that says so.
    const locked = await refusal(throttle, 'ADMIN', '198.51.100.7');
    expect(locked?.code).toBe('too_many_attempts');
    expect(locked!.retryAfter).toBeGreaterThan(14 * 60);
    expect(locked!.message).toMatch(/wait 15 minutes/);
    clock.advance(15 * MINUTE);
    expect(await refusal(throttle, 'admin', '198.51.100.7')).toBeNull();
  });

  it('lets the owner through from an address that has not failed, while the attacker is refused', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i++) {
      await throttle.failed('admin', '203.0.113.9');
    }
    expect((await refusal(throttle, 'admin', '203.0.113.9'))?.code).toBe('too_many_attempts');
    expect(await refusal(throttle, 'admin', '192.0.2.1')).toBeNull();
    // And the attacker's address may still try other usernames (its own allowance permitting).
    expect(await refusal(throttle, 'someone-else', '203.0.113.9')).toBeNull();
  });

  it('forgives an address after a correct password', async () => {
    const { throttle } = setup();
    await throttle.failed('ada', '192.0.2.1');
    await throttle.failed('ada', '192.0.2.1');
    await throttle.succeeded('ada', '192.0.2.1');
    expect(await refusal(throttle, 'ada', '192.0.2.1')).toBeNull();
  });

  it('raises the alarm once per window, counting failures and addresses from everywhere', async () => {
    const { clock, throttle } = setup();
    const alarms = [];
    for (let i = 0; i < 12; i++) alarms.push(await throttle.failed('admin', `203.0.113.${i % 3}`));
    const raised = alarms.filter(Boolean);
    expect(raised).toEqual([{ failures: 5, addresses: 3, windowMs: 15 * MINUTE }]);
    expect(alarms.indexOf(raised[0])).toBe(4);
    clock.advance(15 * MINUTE);
    const later = [];
    for (let i = 0; i < 5; i++) later.push(await throttle.failed('admin', '203.0.113.50'));
    expect(later.filter(Boolean)).toEqual([{ failures: 5, addresses: 1, windowMs: 15 * MINUTE }]);
  });

  it('keeps the per-address allowance, whatever the usernames', async () => {
    const { throttle } = setup({ perAddress: { max: 3, windowSeconds: 60 } });
    for (let i = 0; i < 3; i++) await throttle.admit(`user${i}`, '198.51.100.1');
    expect((await refusal(throttle, 'user9', '198.51.100.1'))?.code).toBe('too_many_attempts');
    expect(await refusal(throttle, 'user9', '198.51.100.2')).toBeNull();
  });

  it('does nothing when the limits are off', async () => {
    const { throttle } = setup({ perAddress: null, perAccount: null });
    for (let i = 0; i < 50; i++) {
      await throttle.admit('admin', '203.0.113.1');
      expect(await throttle.failed('admin', '203.0.113.1')).toBeNull();
    }
  });

  it('doubles the wait with each failure', () => {
    expect([0, 1, 2, 3, 4].map(failureDelayMs)).toEqual([0, 1000, 2000, 4000, 8000]);
  });
});
