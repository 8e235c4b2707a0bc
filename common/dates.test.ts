import { describe, expect, it } from 'vitest';
import { formatDay, formatDeadline } from './dates.ts';

describe('formatDay', () => {
  it('writes a day as Intl does for en-GB (formatDeadline), without Intl', () => {
    for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2026, 0, 1); t += 86_400_000 * 3) {
      const iso = new Date(t).toISOString().slice(0, 10);
      expect(formatDay(iso)).toBe(formatDeadline(iso));
    }
    expect(formatDay('2025-03-01')).toBe('1 March 2025');
  });

  it('leaves what is not a date as it is', () => {
    expect(formatDay('')).toBe('');
    expect(formatDay('2025-13-01')).toBe('2025-13-01');
  });
});
