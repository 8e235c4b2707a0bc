import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from './compression.ts';

describe('negotiateEncoding', () => {
  it('prefers brotli, honours q-values and refusals', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBe(null);
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding(undefined)).toBe(null);
    expect(negotiateEncoding('')).toBe(null);
  });
});
