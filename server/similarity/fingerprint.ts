/**
 * Document fingerprints by winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) over word k-grams.
 *
 * Hashes are 32-bit and stable across runs, machines and versions of Node: FNV-1a over the UTF-16 code
 * units of each lower-cased word, then the k word hashes are combined and finished with MurmurHash3's
 * fmix32. 32 bits keep the index small (4 bytes a row, an int4 column on PostgreSQL and PGlite alike);
 * collisions are harmless because a shared fingerprint only nominates a candidate, and every candidate is
 * then compared word by word (see align.ts). With 10 million stored fingerprints a random 32-bit query
 * hash collides with probability 10^7 / 2^32 ≈ 0.2 %, i.e. a handful of spurious candidates per check.
 *
 * Guarantee: with k-grams of k words and windows of w k-grams, any run of at least k + w − 1 identical
 * words in two texts shares at least one fingerprint.
 */

export interface WinnowParams {
  /** Words per k-gram. */
  k: number;
  /** K-grams per window. */
  w: number;
}

export const DEFAULT_WINNOW: WinnowParams = { k: 5, w: 4 };

/** Shortest verbatim run that is always found. */
export const guaranteedRun = (p: WinnowParams) => p.k + p.w - 1;

/** FNV-1a, 32-bit, over UTF-16 code units. */
export function wordHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function wordHashes(words: string[]): Uint32Array {
  const out = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) out[i] = wordHash(words[i]);
  return out;
}

/** MurmurHash3's finaliser: every input bit affects every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The hash of the k words starting at `at`. Order matters: "a b" and "b a" differ. */
export function gramHash(words: Uint32Array, at: number, k: number): number {
  let h = 0x9747b28c ^ k;
  for (let i = 0; i < k; i++) {
    h = Math.imul(h ^ words[at + i], 0x01000193);
    h = (h << 13) | (h >>> 19);
  }
  return fmix32(h);
}

/** Hashes of every k-gram: out[i] covers words i … i+k−1. */
export function gramHashes(words: Uint32Array, k: number): Uint32Array {
  const n = words.length - k + 1;
  if (n <= 0) return new Uint32Array(0);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = gramHash(words, i, k);
  return out;
}

export interface Fingerprints {
  /** Selected k-gram hashes (unsigned 32-bit). */
  hashes: Uint32Array;
  /** Word position of each selected k-gram's first word. */
  positions: Int32Array;
}

/**
 * Robust winnowing: in every window of w consecutive k-gram hashes the minimum is selected (the rightmost
 * on ties), and a selection is recorded once however many windows share it. `skip` marks word positions
 * whose k-grams must not be selected (excluded quotes or bibliography); a window that only holds skipped
 * k-grams selects nothing.
 */
export function winnow(words: Uint32Array, params: WinnowParams = DEFAULT_WINNOW, skip?: Uint8Array): Fingerprints {
  const { k, w } = params;
  const grams = gramHashes(words, k);
  const valid = new Uint8Array(grams.length).fill(1);
  if (skip) {
    // A k-gram is skipped when any of its words is.
    let lastSkipped = -1;
    for (let i = 0; i < words.length; i++) {
      if (skip[i]) lastSkipped = i;
      const g = i - k + 1;
      if (g >= 0 && lastSkipped >= g) valid[g] = 0;
    }
  }
  const hashes: number[] = [];
  const positions: number[] = [];
  if (grams.length === 0) return { hashes: new Uint32Array(0), positions: new Int32Array(0) };
  const windows = Math.max(1, grams.length - w + 1);
  let lastPicked = -1;
  for (let s = 0; s < windows; s++) {
    let best = -1;
    const end = Math.min(grams.length, s + w);
    for (let i = s; i < end; i++) {
      if (!valid[i]) continue;
      if (best === -1 || grams[i] <= grams[best]) best = i;
    }
    if (best !== -1 && best !== lastPicked) {
      hashes.push(grams[best]);
      positions.push(best);
      lastPicked = best;
    }
  }
  return { hashes: Uint32Array.from(hashes), positions: Int32Array.from(positions) };
}

/** Unsigned 32-bit → signed, for an int4 column. */
export const toInt4 = (h: number) => h | 0;
