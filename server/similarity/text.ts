/**
 * Text normalisation and tokenisation for the similarity checker. Everything here is pure and fast, so
 * it runs in the worker threads and in tests alike.
 *
 * The normalised text is what the checker stores and shows: NFKC, ligatures expanded, line-end
 * hyphenation undone. Every word keeps its character range in that text, so a matched passage can be
 * shown (and highlighted) exactly.
 */

/**
 * TeX fonts without a ToUnicode map come out of PDF text extraction as their raw codes. In the T1 (Cork)
 * encoding the ligatures sit at 0x1B–0x1F; in OT1 at 0x0B–0x0F. They are mapped back only beside a letter,
 * so a real control character elsewhere is not turned into letters.
 */
const T1_LIGATURES: Record<string, string> = {
  '\u001b': 'ff',
  '\u001c': 'fi',
  '\u001d': 'fl',
  '\u001e': 'ffi',
  '\u001f': 'ffl',
};
const OT1_LIGATURES: Record<string, string> = {
  '\u000b': 'ff',
  '\u000c': 'fi',
  '\u000d': 'fl',
  '\u000e': 'ffi',
  '\u000f': 'ffl',
};

const isLetter = (ch: string | undefined) => ch !== undefined && /\p{L}/u.test(ch);

function expandControlLigatures(raw: string): string {
  // Fast path: nothing to do for ordinary text.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these control codes are what is looked for
  if (!/[\u000b-\u000f\u001b-\u001f]/.test(raw)) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    const t1 = T1_LIGATURES[ch];
    if (t1 && (isLetter(raw[i - 1]) || isLetter(raw[i + 1]))) {
      out += t1;
      continue;
    }
    const ot1 = OT1_LIGATURES[ch];
    // \f and \r are also page and line breaks: only between two letters are they ligatures.
    if (ot1) {
      const both = isLetter(raw[i - 1]) && isLetter(raw[i + 1]);
      const either = isLetter(raw[i - 1]) || isLetter(raw[i + 1]);
      if (ch === '\u000c' || ch === '\u000d' ? both : either) {
        out += ot1;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

/** Words written with a hyphen somewhere not at a line end, and words seen whole: evidence for rejoining. */
function vocabularyOf(text: string) {
  const hyphenated = new Set<string>();
  const whole = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)+/gu)) hyphenated.add(m[0].toLowerCase());
  for (const m of text.matchAll(/[\p{L}\p{M}]+/gu)) whole.add(m[0].toLowerCase());
  return { hyphenated, whole };
}

/** A hyphen at a line end, then maybe a page break with a bare page number ("cap-\n1\n\ntures"). */
const LINE_END_HYPHEN = /-[ \t]*\n(?:[ \t]*(?:\d{1,4}|[ivxlc]{1,6})?[ \t]*\n)*[ \t]*/;

/**
 * Undoes line-end hyphenation: "gate-\nway's" becomes "gateway's". A real compound broken at its hyphen
 * keeps the hyphen: one the text also writes hyphenated elsewhere ("water-\ntreatment" beside
 * "water-treatment"), or one whose two parts the text uses as words of their own while never writing them
 * joined ("signal-\nstrength" beside "signal" and "strength"). A break before a capital or a digit is not
 * a hyphenation point and is left alone.
 */
export function dehyphenate(text: string): string {
  if (!/-[ \t]*\n/.test(text)) return text;
  // The pieces around line-end hyphens are no evidence of anything: leave them out of the vocabulary.
  const vocab = vocabularyOf(text.replace(new RegExp(`[\\p{L}\\p{M}]*${LINE_END_HYPHEN.source}[\\p{L}\\p{M}]*`, 'gu'), ' '));
  const pattern = new RegExp(`([\\p{L}\\p{M}]+)${LINE_END_HYPHEN.source}([\\p{Ll}][\\p{L}\\p{M}]*)`, 'gu');
  return text.replace(pattern, (_match, a: string, b: string) => {
    const compound = `${a}-${b}`.toLowerCase();
    const joined = `${a}${b}`.toLowerCase();
    if (vocab.whole.has(joined)) return `${a}${b}`;
    if (vocab.hyphenated.has(compound)) return `${a}-${b}`;
    const wordsOfTheirOwn = a.length >= 3 && b.length >= 3 && vocab.whole.has(a.toLowerCase()) && vocab.whole.has(b.toLowerCase());
    return wordsOfTheirOwn ? `${a}-${b}` : `${a}${b}`;
  });
}

/**
 * The normalised text: control-code ligatures, NFKC (which also expands ﬀ ﬁ ﬂ ﬃ ﬄ and full-width forms),
 * line ends unified, soft hyphens and stray control characters removed, line-end hyphenation undone, and
 * runs of spaces within a line reduced to one.
 */
export function normalizeText(raw: string): string {
  let text = expandControlLigatures(raw).normalize('NFKC');
  text = text.replace(/\r\n?/g, '\n');
  // A soft hyphen at a line end is a hyphenation point; elsewhere it is invisible.
  text = text.replace(/\u00ad[ \t]*\n[ \t]*/g, '').replace(/\u00ad/g, '');
  // Typographic hyphens (U+2010, U+2011) behave as the ASCII one.
  text = text.replace(/[\u2010\u2011]/g, '-');
  // Other control characters (form feeds, vertical tabs, NULs) become spaces; tabs too.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  text = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\t]/g, ' ');
  text = text.replace(/[ \u00a0]+\n/g, '\n').replace(/\n{3,}/g, '\n\n');
  text = dehyphenate(text);
  text = text.replace(/[ \u00a0\u2000-\u200a\u202f\u205f\u3000]{2,}/g, ' ');
  return text.trim();
}

export interface Tokens {
  /** Lower-cased word forms ("gateway's", "offloading"). */
  words: string[];
  /** Character ranges of each word in the text: [starts[i], ends[i]). */
  starts: Int32Array;
  ends: Int32Array;
}

// Letters, marks and digits, with inner apostrophes: "gateway's", "don't", "o'brien". Hyphens and other
// punctuation separate words, so "battery-powered" and "battery powered" read the same.
const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu;

export function tokenize(text: string): Tokens {
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(WORD)) {
    words.push(m[0].toLowerCase().replace(/\u2019/g, "'"));
    starts.push(m.index!);
    ends.push(m.index! + m[0].length);
  }
  return { words, starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/** A document's distinct words for the vocabulary: with a letter, without digits, of a sane length. */
export const vocabularyWords = (words: string[]) =>
  [...new Set(words)].filter((w) => w.length <= 64 && /\p{L}/u.test(w) && !/\p{N}/u.test(w));

/** Word forms only (lower-cased), for comparisons in tests and the benchmark. */
export const wordsOf = (text: string) => tokenize(normalizeText(text)).words;

const BIBLIOGRAPHY_HEADING =
  /^[ \t]*(?:(?:\d+(?:\.\d+)*|[IVXLC]+|[A-Z])[.)]?[ \t]+)?(?:references?(?:[ \t]+(?:and|&)[ \t]+notes)?|bibliography|works[ \t]+cited|literature[ \t]+cited|cited[ \t]+literature|reference[ \t]+list|list[ \t]+of[ \t]+references|sources[ \t]+cited)[ \t]*:?[ \t]*$/gim;

/**
 * Where the bibliography starts: the character offset of the last heading line such as "References",
 * "6. Bibliography" or "Works Cited", or null. A heading in the first third of the text is not taken
 * (a short document whose only such line comes early would otherwise lose most of its words).
 */
export function bibliographyStart(text: string): number | null {
  let last: number | null = null;
  for (const m of text.matchAll(BIBLIOGRAPHY_HEADING)) last = m.index!;
  if (last === null || last < text.length / 3) return null;
  return last;
}

/**
 * Character ranges of quoted text: “…” pairs, and straight "…" pairs. An opening mark with no closing one
 * within `maxChars` is ignored (a stray or unbalanced quote must not hide a whole page).
 */
export function quotedRanges(text: string, maxChars = 1500): [number, number][] {
  const ranges: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    let close: string | null = null;
    if (ch === '\u201c') close = '\u201d';
    else if (ch === '"') close = '"';
    else if (ch === '\u00ab') close = '\u00bb';
    if (!close) {
      i++;
      continue;
    }
    const end = text.indexOf(close, i + 1);
    if (end === -1 || end - i > maxChars) {
      i++;
      continue;
    }
    ranges.push([i, end + 1]);
    i = end + 1;
  }
  return ranges;
}

/**
 * Marks each word: 1 = in quotes, 2 = in the bibliography (bibliography wins). Words marked are not
 * matched and, for the bibliography, not counted.
 */
export function exclusionMask(text: string, tokens: Tokens, opts: { quotes: boolean; bibliography: boolean }) {
  const mask = new Uint8Array(tokens.words.length);
  if (opts.quotes) {
    const ranges = quotedRanges(text);
    let r = 0;
    for (let i = 0; i < mask.length && r < ranges.length; i++) {
      while (r < ranges.length && ranges[r][1] <= tokens.starts[i]) r++;
      if (r < ranges.length && tokens.starts[i] >= ranges[r][0]) mask[i] = 1;
    }
  }
  if (opts.bibliography) {
    const start = bibliographyStart(text);
    if (start !== null) for (let i = 0; i < mask.length; i++) if (tokens.starts[i] >= start) mask[i] = 2;
  }
  return mask;
}

/** Sentence ranges for the grammar measure: ends at . ! ? (with closing quotes) before a space, or at a blank line. */
export function sentenceRanges(text: string, from = 0, to = text.length): [number, number][] {
  const out: [number, number][] = [];
  const re = /[.!?]+["'\u201d\u2019)\]]*(?=\s)|\n[ \t]*\n/g;
  re.lastIndex = from;
  let start = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const end = m.index + m[0].length;
    // "e.g. the", "Fig. 3", "et al. (2020)": a full stop before a lower-case word or a digit does not end a sentence.
    const next = /\S/.exec(text.slice(end, end + 40));
    const after = next ? text[end + next.index] : '';
    if (m[0][0] === '.' && (/\p{Ll}|\d/u.test(after) || /\b(?:al|Fig|Eq|No|vs|pp|Vol|e\.g|i\.e|cf|Dr|Mr|Mrs|Ms|St)\.$/.test(text.slice(Math.max(0, m.index - 5), m.index + 1))))
      continue;
    if (/\p{L}|\p{N}/u.test(text.slice(start, end))) out.push([start, end]);
    start = end;
  }
  if (/\p{L}|\p{N}/u.test(text.slice(start, to))) out.push([start, to]);
  return out;
}
