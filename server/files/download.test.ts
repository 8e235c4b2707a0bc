import { describe, expect, it } from 'vitest';
import { parseRange } from './download.ts';

describe('parseRange (one byte range of a file of 1,000 bytes)', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=900-', { start: 900, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
  ])('%s is %o', (header, range) => {
    expect(parseRange(header, 1000)).toEqual(range);
  });

  it.each(['bytes=1000-', 'bytes=1000-1001', 'bytes=-0'])('%s is unsatisfiable (416)', (header) => {
    expect(parseRange(header, 1000)).toBe('unsatisfiable');
  });

  it.each([
    undefined,
    '',
    'bytes=',
    'bytes=-',
    'bytes=5-1',
    'bytes=0-9,20-29',
    'items=0-9',
    'bytes=a-b',
    'bytes=0-9 junk',
  ])('%o is ignored: the whole file', (header) => {
    expect(parseRange(header, 1000)).toBeNull();
  });
});
