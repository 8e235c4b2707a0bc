import { describe, expect, it } from 'vitest';
import { demoArticles } from '../content/demo-articles.ts';
import { orcidUrl } from './citation.ts';
import { authorOrcidField, authorSchema, orcidCheckOk } from './schemas.ts';

const author = (orcid: unknown) =>
  authorSchema.safeParse({ name: 'Ada Lovelace', email: 'ada@example.org', affiliation: 'Uni', orcid });

describe('ORCID iD', () => {
  it('checks the ISO 7064 MOD 11-2 check character', () => {
    // The examples from ORCID's own documentation, one ending in X.
    expect(orcidCheckOk('0000-0002-1825-0097')).toBe(true);
    expect(orcidCheckOk('0000-0001-5109-3700')).toBe(true);
    expect(orcidCheckOk('0000-0002-1694-233X')).toBe(true);
    expect(orcidCheckOk('0000-0002-1825-0098')).toBe(false);
    expect(orcidCheckOk('0000-0002-1694-2330')).toBe(false);
    expect(orcidCheckOk('0000-0002-1825-009')).toBe(false);
  });

  it('makes the orcid.org address from the bare iD', () => {
    expect(orcidUrl('0000-0002-1694-233X')).toBe('https://orcid.org/0000-0002-1694-233X');
  });
});

describe("an author's ORCID iD", () => {
  it.each([
    ['0000-0002-1825-0097', '0000-0002-1825-0097'],
    ['https://orcid.org/0000-0002-1825-0097', '0000-0002-1825-0097'],
    ['http://orcid.org/0000-0002-1825-0097', '0000-0002-1825-0097'],
    ['https://www.orcid.org/0000-0002-1825-0097', '0000-0002-1825-0097'],
    ['orcid.org/0000-0001-5109-3700', '0000-0001-5109-3700'],
    ['ORCID.ORG/0000-0002-1694-233x', '0000-0002-1694-233X'],
    ['  0000-0002-1694-233x ', '0000-0002-1694-233X'],
  ])('takes %j and keeps it bare', (typed, kept) => {
    expect(author(typed).data?.orcid).toBe(kept);
  });

  it('is optional: empty, null or missing is no iD (null)', () => {
    expect(author('').data?.orcid).toBeNull();
    expect(author('   ').data?.orcid).toBeNull();
    expect(author(null).data?.orcid).toBeNull();
    expect(author(undefined).data?.orcid).toBeNull();
    expect(authorOrcidField.parse(undefined)).toBeNull();
  });

  it.each([
    ['0000-0002-1825', 'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).'],
    ['0000000218250097', 'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).'],
    [
      'https://example.org/0000-0002-1825-0097',
      'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).',
    ],
    ['0000-0002-1825-0098', "This ORCID iD has a wrong check digit: copy it from the author's ORCID record."],
    [42, 'ORCID iD must be text.'],
    ['x'.repeat(61), 'ORCID iD must be at most 60 characters.'],
  ])('refuses %j on its own field with a clear message', (typed, message) => {
    const parsed = author(typed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['orcid', message]]);
  });
});

describe('the demo authors’ ORCID iDs', () => {
  it('pass the checker, bare, and come from a block ORCID does not issue (no real person’s record)', () => {
    const ids = demoArticles.flatMap((a) => a.authors.flatMap((au) => (au.orcid ? [au.orcid] : [])));
    expect(ids.length).toBeGreaterThanOrEqual(5);
    for (const id of ids) {
      expect(authorOrcidField.parse(id)).toBe(id);
      expect(id.startsWith('0000-0000-')).toBe(true);
    }
    // Every demo article shows at least one.
    for (const a of demoArticles) expect(a.authors.some((au) => au.orcid)).toBe(true);
  });
});
