import { describe, expect, it } from 'vitest';
import { searchQuerySchema } from './schemas.ts';
import { cleanQuery, snippetSegments, toSegments } from './service.ts';

describe('cleanQuery', () => {
  it('turns control characters and lone surrogates into spaces and keeps everything else', () => {
    expect(cleanQuery(' a\u0000b\tc\ud800d ')).toBe('a b c d');
    expect(cleanQuery('"x" -y OR (z) 😀 привет')).toBe('"x" -y OR (z) 😀 привет');
  });
});

describe('toSegments', () => {
  it('splits ts_headline output at the markers into plain text and matches', () => {
    expect(toSegments('a \u0002b\u0003 c \u0002d\u0003')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c ', match: false },
      { text: 'd', match: true },
    ]);
    expect(toSegments('\u0002x\u0003\u0002y\u0003')).toEqual([{ text: 'xy', match: true }]);
    expect(toSegments('<b>not html</b>')).toEqual([{ text: '<b>not html</b>', match: false }]);
    expect(toSegments('')).toEqual([]);
  });
});

describe('snippetSegments', () => {
  it('adds an ellipsis where the snippet starts or ends inside its text', () => {
    const whole = 'One two three four.';
    expect(snippetSegments('One \u0002two\u0003 three four.', whole)).toEqual([
      { text: 'One ', match: false },
      { text: 'two', match: true },
      { text: ' three four.', match: false },
    ]);
    expect(snippetSegments('\u0002two\u0003 three', whole)).toEqual([
      { text: '… ', match: false },
      { text: 'two', match: true },
      { text: ' three …', match: false },
    ]);
    expect(
      snippetSegments('middle of   the\nbody', null)
        .map((s) => s.text)
        .join(''),
    ).toBe('… middle of the body …');
  });
});

describe('searchQuerySchema', () => {
  it('trims the query, reads blank filters as none, and converts numbers', () => {
    expect(
      searchQuerySchema.parse({ q: '  graph  ', volume: '', year: '2025', type: ' ', page: '2', size: '5' }),
    ).toEqual({
      q: 'graph',
      year: 2025,
      page: 2,
      size: 5,
    });
  });
  it('refuses a blank or over-long query', () => {
    expect(searchQuerySchema.safeParse({ q: '  ' }).success).toBe(false);
    expect(searchQuerySchema.safeParse({ q: 'x'.repeat(501) }).success).toBe(false);
    expect(searchQuerySchema.safeParse({ q: 'x'.repeat(500) }).success).toBe(true);
  });
});
