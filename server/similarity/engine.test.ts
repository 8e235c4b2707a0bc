import { describe, expect, it } from 'vitest';
import { DEFAULT_ALIGN, align, chain, indexManuscript } from './align.ts';
import { alignAll, bytesToHashes, defaultPrepareOptions, hashesToBytes, prepareText } from './engine.ts';
import { DEFAULT_WINNOW, gramHashes, guaranteedRun, winnow, wordHash, wordHashes } from './fingerprint.ts';
import { creditWords } from './score.ts';
import { tokenize } from './text.ts';

/** A deterministic pseudo-random generator, so the tests are the same on every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const VOCAB = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
function randomWords(n: number, rand: () => number): string[] {
  // Zipf-like: frequent words are frequent, as in prose.
  return Array.from({ length: n }, () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)]);
}
const hashesOf = (words: string[]) => wordHashes(words);
const noMask = (n: number) => new Uint8Array(n);

describe('hashes', () => {
  it('are stable: the same words give the same 32-bit values on every run and machine', () => {
    expect(wordHash('')).toBe(0x811c9dc5);
    expect(wordHash('a')).toBe(0xe40c292c); // FNV-1a test vector
    expect(wordHash('foobar')).toBe(0xbf9cf968); // FNV-1a test vector
    const grams = gramHashes(wordHashes(['the', 'gateway', 'evaluates', 'it', 'in', 'microseconds']), 5);
    // Pinned: changing the hash would invalidate every stored index (re-index everything if it must change).
    expect(Array.from(grams)).toEqual([2498304593, 231752776]);
  });

  it('round-trip through the stored bytes', () => {
    const h = wordHashes(['a', 'b', 'offloading']);
    expect(Array.from(bytesToHashes(hashesToBytes(h)))).toEqual(Array.from(h));
  });
});

describe('winnowing', () => {
  it(`guarantees a shared fingerprint for every verbatim run of ${guaranteedRun(DEFAULT_WINNOW)} words`, () => {
    const rand = rng(7);
    const run = guaranteedRun(DEFAULT_WINNOW);
    expect(run).toBe(8);
    for (let trial = 0; trial < 300; trial++) {
      const a = randomWords(200, rand);
      const b = randomWords(200, rand);
      const at = Math.floor(rand() * (200 - run));
      const bt = Math.floor(rand() * (200 - run));
      for (let i = 0; i < run; i++) b[bt + i] = a[at + i];
      const fa = new Set(winnow(hashesOf(a)).hashes);
      const shared = Array.from(winnow(hashesOf(b)).hashes).filter((h) => fa.has(h));
      expect(shared.length, `trial ${trial}`).toBeGreaterThan(0);
    }
  });

  it('selects about 2/(w+1) of the k-grams, and none inside skipped words', () => {
    const words = hashesOf(randomWords(5000, rng(3)));
    const fp = winnow(words);
    expect(fp.hashes.length / words.length).toBeGreaterThan(0.3);
    expect(fp.hashes.length / words.length).toBeLessThan(0.5);
    const skip = new Uint8Array(words.length);
    skip.fill(1, 1000, 2000);
    const kept = winnow(words, DEFAULT_WINNOW, skip);
    for (const p of kept.positions) expect(p + DEFAULT_WINNOW.k <= 1000 || p >= 2000).toBe(true);
  });
});

describe('alignment', () => {
  it('finds a verbatim passage exactly', () => {
    const rand = rng(11);
    const source = randomWords(1000, rand);
    const manuscript = randomWords(1000, rand);
    manuscript.splice(400, 60, ...source.slice(200, 260));
    const passages = align(indexManuscript(hashesOf(manuscript), noMask(manuscript.length)), hashesOf(source));
    expect(passages).toEqual([{ mStart: 400, mEnd: 460, sStart: 200, sEnd: 260, exactWords: 60, longest: 60 }]);
  });

  it('finds an 8-word verbatim run, and ignores runs shorter than minMatchWords', () => {
    const rand = rng(5);
    const source = randomWords(500, rand);
    const manuscript = randomWords(500, rand);
    manuscript.splice(100, 8, ...source.slice(300, 308));
    manuscript.splice(300, 7, ...source.slice(50, 57));
    const passages = align(indexManuscript(hashesOf(manuscript), noMask(500)), hashesOf(source));
    expect(passages.map((p) => [p.mStart, p.mEnd])).toEqual([[100, 108]]);
  });

  it('merges a lightly edited passage (1 word in 8 changed) into one passage', () => {
    const rand = rng(21);
    const source = randomWords(2000, rand);
    const manuscript = randomWords(2000, rand);
    const copied = source.slice(500, 700);
    for (let i = 4; i < copied.length; i += 8) copied[i] = `changed${i}`;
    // Two neighbouring words swapped, one dropped, one added.
    [copied[50], copied[51]] = [copied[51], copied[50]];
    copied.splice(120, 1);
    copied.splice(150, 0, 'inserted');
    manuscript.splice(1000, copied.length, ...copied);
    const passages = align(indexManuscript(hashesOf(manuscript), noMask(2000)), hashesOf(source));
    expect(passages).toHaveLength(1);
    const [p] = passages;
    expect(p.mStart).toBe(1000);
    expect(p.mEnd).toBe(1000 + copied.length);
    expect(p.sStart).toBe(500);
    expect(p.sEnd).toBe(700);
  });

  it('does not match unrelated texts', () => {
    const rand = rng(99);
    const a = randomWords(3000, rand);
    const b = randomWords(3000, rand);
    expect(align(indexManuscript(hashesOf(a), noMask(3000)), hashesOf(b))).toEqual([]);
  });

  it('never matches masked (quoted or bibliography) words', () => {
    const rand = rng(4);
    const source = randomWords(300, rand);
    const manuscript = randomWords(300, rand);
    manuscript.splice(100, 40, ...source.slice(100, 140));
    const mask = new Uint8Array(300);
    mask.fill(1, 95, 145);
    expect(align(indexManuscript(hashesOf(manuscript), mask), hashesOf(source))).toEqual([]);
  });

  it('chains runs only when they follow each other in both texts', () => {
    // Two runs close in the manuscript but far apart in the source stay two passages.
    const segments = [
      { m: 0, s: 0, len: 10 },
      { m: 12, s: 500, len: 10 },
    ];
    expect(chain(segments, DEFAULT_ALIGN)).toHaveLength(2);
    expect(chain([{ m: 0, s: 0, len: 10 }, { m: 12, s: 12, len: 10 }], DEFAULT_ALIGN)).toEqual([
      { mStart: 0, mEnd: 22, sStart: 0, sEnd: 22, exactWords: 20, longest: 10 },
    ]);
  });
});

describe('scoring', () => {
  it('credits each word to one source: shares add up to the total', () => {
    const rand = rng(8);
    const s1 = randomWords(1000, rand);
    const s2 = randomWords(1000, rand);
    const manuscript = randomWords(1000, rand);
    // Words 100–199 appear in both sources; 300–349 only in s2.
    manuscript.splice(100, 100, ...s1.slice(0, 100));
    s2.splice(500, 100, ...s1.slice(0, 100));
    manuscript.splice(300, 50, ...s2.slice(0, 50));
    const matches = alignAll({ wordHashes: hashesOf(manuscript), mask: noMask(1000) }, [
      { key: 1, hashes: hashesOf(s1) },
      { key: 2, hashes: hashesOf(s2) },
    ]);
    const score = creditWords(
      1000,
      noMask(1000),
      matches.map((m) => ({ key: m.key, published: true, passages: m.passages })),
    );
    // s2 covers 150 words and takes them all; s1's 100 are all already credited.
    expect(score.credits).toEqual([{ key: 2, words: 150 }]);
    expect(score.matchedWords).toBe(150);
    const owned = Array.from(score.owner).filter((o) => o !== -1).length;
    expect(owned).toBe(150);
  });

  it('breaks ties towards the published source', () => {
    const passage = { mStart: 0, mEnd: 20, sStart: 0, sEnd: 20, exactWords: 20, longest: 20 };
    const score = creditWords(100, noMask(100), [
      { key: 1, published: false, passages: [passage] },
      { key: 2, published: true, passages: [passage] },
    ]);
    expect(score.credits).toEqual([{ key: 2, words: 20 }]);
  });

  it('does not credit excluded words', () => {
    const passage = { mStart: 0, mEnd: 20, sStart: 0, sEnd: 20, exactWords: 20, longest: 20 };
    const mask = new Uint8Array(100);
    mask.fill(1, 0, 5);
    expect(creditWords(100, mask, [{ key: 1, published: true, passages: [passage] }]).matchedWords).toBe(15);
  });
});

describe('prepareText with exclusions', () => {
  const body = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} says something about gateways.`).join(' ');
  const text = `${body} As Smith put it, “the quoted words are not the author's own at all” in his paper.\nReferences\n[1] J. Smith, Gateways and their batteries, 2020.`;

  it('leaves the bibliography out of the counted words, and quotes out of the fingerprints', () => {
    const tokens = tokenize(text);
    const all = prepareText(text, defaultPrepareOptions({ excludeBibliography: false }));
    const both = prepareText(text, defaultPrepareOptions({ excludeBibliography: true, excludeQuotes: true }));
    expect(all.mask.every((m) => m === 0)).toBe(true);
    const bib = tokens.words.length - tokens.words.indexOf('references');
    expect(Array.from(both.mask).filter((m) => m === 2)).toHaveLength(bib);
    expect(Array.from(both.mask).filter((m) => m === 1)).toHaveLength(10);
    expect(both.fingerprints.hashes.length).toBeLessThan(all.fingerprints.hashes.length);
    expect(both.bodyEnd).toBe(text.indexOf('References'));
  });
});
