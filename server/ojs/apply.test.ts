import { describe, expect, it } from 'vitest';
import { abstractText, articleTypeOf, bcp47, fingerprint, issueNumberOf, pagesOf } from './apply.ts';

/** What an OJS record's values become here (issue 26, decision 0066). */
describe('OJS values as the catalog keeps them', () => {
  it('an HTML abstract as plain paragraphs', () => {
    expect(abstractText('<p>First &amp; <em>best</em>.</p><p>Second<br/>line&nbsp;here &#8211; ok</p>')).toBe(
      'First & best.\n\nSecond\nline here – ok',
    );
    expect(abstractText('<script>alert(1)</script><p>Only &lt;this&gt;</p>')).toBe('Only <this>');
    expect(abstractText('plain text')).toBe('plain text');
    expect(abstractText('&#xD800; &bogus;')).toBe('&bogus;');
  });

  it('pages as a range, one page, or none', () => {
    expect(pagesOf('12-25')).toEqual({ first: 12, last: 25 });
    expect(pagesOf(' 3 – 9 ')).toEqual({ first: 3, last: 9 });
    expect(pagesOf('7')).toEqual({ first: 7, last: 7 });
    expect(pagesOf('e1234')).toBeNull();
    expect(pagesOf('25-12')).toBeNull();
    expect(pagesOf('')).toBeNull();
  });

  it('issue numbers: an integer, a leading integer (warned), or none (warned)', () => {
    expect(issueNumberOf('3')).toEqual({ number: 3, warning: null });
    expect(issueNumberOf('2a')).toEqual({ number: 2, warning: 'The issue number "2a" is read as 2.' });
    expect(issueNumberOf('Special').number).toBeNull();
    expect(issueNumberOf('Special').warning).toMatch(/next free number/);
    expect(issueNumberOf('')).toEqual({ number: null, warning: null });
  });

  it('a section as the nearest article type, a locale as BCP 47', () => {
    expect(articleTypeOf('Book Reviews')).toBe('Review Article');
    expect(articleTypeOf('Data Papers')).toBe('Novel Data Collection Article');
    expect(articleTypeOf('Articles')).toBe('Research Article');
    expect(bcp47('en_US')).toBe('en-US');
  });

  it('a fingerprint that does not depend on the order of keys', () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2, d: null }] })).toBe(
      fingerprint({ b: [1, { d: null, c: 2 }], a: 1 }),
    );
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
  });
});
