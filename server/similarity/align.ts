/**
 * Word-level alignment of a manuscript with one candidate source.
 *
 * 1. Seeds: every run of at least `seedWords` identical words (compared by word hash, in the manuscript's
 *    order), found through a hash table of the manuscript's seed-grams built once per check, and extended
 *    to the full exact run (one extension per diagonal, so a long run is found once).
 * 2. Chaining: exact runs that follow each other in both texts with at most `gapWords` unmatched words
 *    between them (and a little disorder, for swapped words) join one passage, so a lightly edited
 *    paragraph is reported as one passage, not as ten fragments.
 * 3. Filtering: a passage counts when its exactly matched words reach `minMatchWords`, it holds one exact
 *    run of at least `anchorWords`, and at least `minDensity` of its span matches exactly.
 */
import { gramHash } from './fingerprint.ts';

export interface AlignParams {
  /** Shortest exact run used as a seed. */
  seedWords: number;
  /** Most unmatched words bridged between two exact runs of one passage. */
  gapWords: number;
  /** Passages with fewer exactly matched words are ignored ("small matches"). */
  minMatchWords: number;
  /** A passage must hold an exact run at least this long. */
  anchorWords: number;
  /** Share of a passage's span that must match exactly. */
  minDensity: number;
  /** Seed-grams more frequent than this in the manuscript are not used as seeds (boilerplate). */
  maxSeedOccurrences: number;
}

export const DEFAULT_ALIGN: AlignParams = {
  seedWords: 3,
  gapWords: 16,
  minMatchWords: 8,
  anchorWords: 6,
  minDensity: 0.4,
  maxSeedOccurrences: 64,
};

export interface Segment {
  /** Manuscript word position. */
  m: number;
  /** Source word position. */
  s: number;
  len: number;
}

export interface Passage {
  /** Manuscript word range [mStart, mEnd). */
  mStart: number;
  mEnd: number;
  /** Source word range [sStart, sEnd). */
  sStart: number;
  sEnd: number;
  /** Manuscript words matched exactly (no word counted twice). */
  exactWords: number;
  /** Longest exact run. */
  longest: number;
}

/** The manuscript side, prepared once per check and used for every candidate. */
export interface ManuscriptIndex {
  words: Uint32Array;
  /** 1 = excluded (quoted or bibliography): never matched. */
  mask: Uint8Array;
  seedWords: number;
  seeds: Map<number, number[]>;
}

export function indexManuscript(words: Uint32Array, mask: Uint8Array, params: AlignParams = DEFAULT_ALIGN): ManuscriptIndex {
  const k = params.seedWords;
  const seeds = new Map<number, number[]>();
  let lastMasked = -1;
  for (let i = 0; i < words.length; i++) {
    if (mask[i]) lastMasked = i;
    const g = i - k + 1;
    if (g < 0 || lastMasked >= g) continue;
    const h = gramHash(words, g, k);
    const list = seeds.get(h);
    if (list) list.push(g);
    else seeds.set(h, [g]);
  }
  for (const [h, list] of seeds) if (list.length > params.maxSeedOccurrences) seeds.delete(h);
  return { words, mask, seedWords: k, seeds };
}

/** Maximal exact runs shared by the manuscript and the source, at least `seedWords` long. */
export function exactRuns(index: ManuscriptIndex, source: Uint32Array): Segment[] {
  const { words: M, mask, seedWords: k, seeds } = index;
  const segments: Segment[] = [];
  // Per diagonal (m − s): the manuscript position up to which it is already explored.
  const explored = new Map<number, number>();
  for (let j = 0; j + k <= source.length; j++) {
    const list = seeds.get(gramHash(source, j, k));
    if (!list) continue;
    for (const i of list) {
      const d = i - j;
      const done = explored.get(d);
      if (done !== undefined && done > i) continue;
      let len = 0;
      while (i + len < M.length && j + len < source.length && M[i + len] === source[j + len] && !mask[i + len]) len++;
      explored.set(d, i + Math.max(len, 1));
      if (len < k) continue; // a hash collision, not a match
      // A run whose first seed-gram was too frequent to be a seed starts earlier: extend backwards.
      let back = 0;
      while (i - back > 0 && j - back > 0 && M[i - back - 1] === source[j - back - 1] && !mask[i - back - 1]) back++;
      segments.push({ m: i - back, s: j - back, len: len + back });
    }
  }
  return segments;
}

/** Joins exact runs into passages (see the file's comment). */
export function chain(segments: Segment[], params: AlignParams = DEFAULT_ALIGN): Passage[] {
  const sorted = [...segments].sort((a, b) => a.m - b.m || a.s - b.s);
  const open: (Passage & { coveredUntil: number })[] = [];
  const all: (Passage & { coveredUntil: number })[] = [];
  const G = params.gapWords;
  // Swapped or repeated words can make consecutive runs overlap slightly in either text.
  const slack = 3;
  for (const seg of sorted) {
    let best: (Passage & { coveredUntil: number }) | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let p = open.length - 1; p >= 0; p--) {
      const pass = open[p];
      if (pass.mEnd + G < seg.m) {
        open.splice(p, 1); // too far behind: it will never take another run
        continue;
      }
      const gm = seg.m - pass.mEnd;
      const gs = seg.s - pass.sEnd;
      if (gm < -Math.max(slack, seg.len) || gs < -slack || gm > G || gs > G) continue;
      // A run already inside the passage on both texts (a repeated phrase) joins it at no cost.
      const cost = Math.max(gm, gs, 0) + Math.abs(gm - gs);
      if (cost < bestCost) {
        bestCost = cost;
        best = pass;
      }
    }
    const end = seg.m + seg.len;
    if (best) {
      best.exactWords += Math.max(0, end - Math.max(seg.m, best.coveredUntil));
      best.coveredUntil = Math.max(best.coveredUntil, end);
      best.mEnd = Math.max(best.mEnd, end);
      best.sStart = Math.min(best.sStart, seg.s);
      best.sEnd = Math.max(best.sEnd, seg.s + seg.len);
      best.longest = Math.max(best.longest, seg.len);
    } else {
      const pass = {
        mStart: seg.m,
        mEnd: end,
        sStart: seg.s,
        sEnd: seg.s + seg.len,
        exactWords: seg.len,
        longest: seg.len,
        coveredUntil: end,
      };
      open.push(pass);
      all.push(pass);
    }
  }
  return all
    .filter(
      (p) =>
        p.exactWords >= params.minMatchWords &&
        p.longest >= Math.min(params.anchorWords, params.minMatchWords) &&
        p.exactWords / (p.mEnd - p.mStart) >= params.minDensity,
    )
    .map(({ coveredUntil: _, ...p }) => p);
}

/** Passages shared by the manuscript and one source, in manuscript order. */
export function align(index: ManuscriptIndex, source: Uint32Array, params: AlignParams = DEFAULT_ALIGN): Passage[] {
  return mergeOverlapping(chain(exactRuns(index, source), params));
}

/**
 * Passages of one source that overlap in the manuscript (the same text matching two places of the source)
 * are kept apart only when they point to different places; identical manuscript ranges collapse to the longest.
 */
function mergeOverlapping(passages: Passage[]): Passage[] {
  const out: Passage[] = [];
  for (const p of passages.sort((a, b) => a.mStart - b.mStart || b.exactWords - a.exactWords)) {
    const prev = out[out.length - 1];
    if (prev && p.mStart >= prev.mStart && p.mEnd <= prev.mEnd) continue; // contained: already shown
    out.push(p);
  }
  return out;
}
