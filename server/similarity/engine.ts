/**
 * The CPU-heavy steps of indexing and checking, as plain functions: the worker threads call them, and so
 * do the tests and the benchmark (directly, to measure the engine without thread hand-offs).
 */
import { threadId } from 'node:worker_threads';
import { type AlignParams, DEFAULT_ALIGN, type Passage, align, indexManuscript } from './align.ts';
import { extractText } from './extract.ts';
import { DEFAULT_WINNOW, type WinnowParams, winnow, wordHashes } from './fingerprint.ts';
import { bibliographyStart, exclusionMask, tokenize, vocabularyWords } from './text.ts';

export interface PrepareOptions {
  /** Leave quoted text out of matching (a check's option). */
  excludeQuotes: boolean;
  /** Leave the bibliography out of matching and of the word count (a check's option). */
  excludeBibliography: boolean;
  winnow: WinnowParams;
  /** Also list the document's distinct words (for the vocabulary, when indexing). */
  vocabulary?: boolean;
}

export interface PreparedText {
  kind: 'pdf' | 'doc' | 'docx' | 'text';
  pages: number | null;
  /** The normalised text. */
  text: string;
  wordCount: number;
  wordHashes: Uint32Array;
  /** Per word: 0 = matched normally, 1 = quoted (not matched), 2 = bibliography (not matched, not counted). */
  mask: Uint8Array;
  /** Where the body ends for the grammar checker (the bibliography's heading), as a character offset. */
  bodyEnd: number;
  fingerprints: { hashes: Uint32Array; positions: Int32Array };
  vocabulary?: string[];
  /** Where the work was done: the process and its thread (0 is a process's main thread). */
  ranIn: { pid: number; threadId: number };
  timings: { extractMs: number; fingerprintMs: number };
}

export const defaultPrepareOptions = (over: Partial<PrepareOptions> = {}): PrepareOptions => ({
  excludeQuotes: false,
  excludeBibliography: true,
  winnow: DEFAULT_WINNOW,
  ...over,
});

export async function prepareFile(data: Uint8Array, opts: PrepareOptions): Promise<PreparedText> {
  const t0 = performance.now();
  const extracted = await extractText(data);
  const extractMs = performance.now() - t0;
  const prepared = prepareText(extracted.text, opts, extracted.kind, extracted.pages);
  prepared.timings.extractMs = extractMs;
  return prepared;
}

/** Tokenises, hashes and winnows an already normalised text. */
export function prepareText(
  text: string,
  opts: PrepareOptions,
  kind: PreparedText['kind'] = 'text',
  pages: number | null = null,
): PreparedText {
  const t0 = performance.now();
  const tokens = tokenize(text);
  const hashes = wordHashes(tokens.words);
  const mask = exclusionMask(text, tokens, { quotes: opts.excludeQuotes, bibliography: opts.excludeBibliography });
  const fingerprints = winnow(hashes, opts.winnow, mask.some((m) => m > 0) ? mask : undefined);
  let vocabulary: string[] | undefined;
  if (opts.vocabulary) {
    vocabulary = vocabularyWords(tokens.words);
  }
  return {
    kind,
    pages,
    text,
    wordCount: tokens.words.length,
    wordHashes: hashes,
    mask,
    bodyEnd: bibliographyStart(text) ?? text.length,
    fingerprints,
    vocabulary,
    ranIn: { pid: process.pid, threadId },
    timings: { extractMs: 0, fingerprintMs: performance.now() - t0 },
  };
}

export interface SourceWords {
  key: number;
  hashes: Uint32Array;
  /** Position of hashes[0] in the source (a window of a document); 0 for a whole document. */
  offset?: number;
}

export interface SourcePassages {
  key: number;
  passages: Passage[];
}

/** Aligns the manuscript with every candidate; sources without a passage are left out. */
export function alignAll(
  manuscript: { wordHashes: Uint32Array; mask: Uint8Array },
  sources: SourceWords[],
  params: AlignParams = DEFAULT_ALIGN,
): SourcePassages[] {
  const binaryMask = manuscript.mask.map((m) => (m ? 1 : 0));
  const index = indexManuscript(manuscript.wordHashes, binaryMask, params);
  const byKey = new Map<number, Passage[]>();
  for (const s of sources) {
    const offset = s.offset ?? 0;
    const passages = align(index, s.hashes, params).map((p) => ({ ...p, sStart: p.sStart + offset, sEnd: p.sEnd + offset }));
    if (!passages.length) continue;
    const list = byKey.get(s.key);
    if (list) list.push(...passages);
    else byKey.set(s.key, passages);
  }
  return [...byKey].map(([key, passages]) => ({ key, passages: passages.sort((a, b) => a.mStart - b.mStart) }));
}

/** Word hashes as stored (little-endian bytes) and back. */
export function hashesToBytes(hashes: Uint32Array): Buffer {
  const out = Buffer.alloc(hashes.length * 4);
  for (let i = 0; i < hashes.length; i++) out.writeUInt32LE(hashes[i], i * 4);
  return out;
}

export function bytesToHashes(bytes: Uint8Array): Uint32Array {
  const n = bytes.byteLength >>> 2;
  const out = new Uint32Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}
