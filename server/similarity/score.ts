/**
 * The similarity score: matched words / counted words × 100, each matched word credited to ONE source, so
 * the per-source shares add up to the total.
 *
 * Crediting is greedy: the source that covers the most still-uncredited words takes them all, then the
 * next, and so on (ties: a published source first, then the lower document id, so reports are stable).
 * A word counts as matched when it lies inside a passage's span (exact words and the few edited words
 * between them), except words excluded from matching (quotes, bibliography).
 */
import type { Passage } from './align.ts';

export interface SourceMatches {
  /** The caller's key for the source (a document id). */
  key: number;
  published: boolean;
  passages: Passage[];
}

export interface Credit {
  key: number;
  /** Words credited to this source. */
  words: number;
}

export interface ScoreResult {
  /** For each manuscript word: the key of the source it is credited to, or -1. */
  owner: Int32Array;
  /** Sources with at least one credited word, most words first. */
  credits: Credit[];
  matchedWords: number;
}

/**
 * @param wordCount manuscript words
 * @param excluded  1 where a word may not be credited (quoted, bibliography)
 */
export function creditWords(wordCount: number, excluded: Uint8Array, sources: SourceMatches[]): ScoreResult {
  const owner = new Int32Array(wordCount).fill(-1);
  // Each source's coverage as merged word ranges.
  const coverage = sources.map((s) => ({ source: s, ranges: mergeRanges(s.passages.map((p) => [p.mStart, p.mEnd])) }));
  const uncredited = (ranges: [number, number][]) => {
    let n = 0;
    for (const [a, b] of ranges) for (let i = a; i < b; i++) if (owner[i] === -1 && !excluded[i]) n++;
    return n;
  };
  const credits: Credit[] = [];
  const remaining = new Set(coverage);
  while (remaining.size) {
    let best: (typeof coverage)[number] | null = null;
    let bestWords = 0;
    for (const c of remaining) {
      const n = uncredited(c.ranges);
      if (n === 0) {
        remaining.delete(c);
        continue;
      }
      const better =
        n > bestWords ||
        (n === bestWords &&
          best !== null &&
          (Number(c.source.published) > Number(best.source.published) ||
            (c.source.published === best.source.published && c.source.key < best.source.key)));
      if (better) {
        best = c;
        bestWords = n;
      }
    }
    if (!best) break;
    for (const [a, b] of best.ranges) for (let i = a; i < b; i++) if (owner[i] === -1 && !excluded[i]) owner[i] = best.source.key;
    credits.push({ key: best.source.key, words: bestWords });
    remaining.delete(best);
  }
  return { owner, credits, matchedWords: credits.reduce((n, c) => n + c.words, 0) };
}

export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = ranges.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Percentages shown with two decimals. */
export const round2 = (x: number) => Math.round(x * 100) / 100;

export const percentage = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
