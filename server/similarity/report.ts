/**
 * The report a check returns, and the privacy rule.
 *
 * Privacy: a reader's check shows titles and passages of PUBLISHED articles only. A match with anything
 * unpublished (a submitted manuscript, an article taken down) is reported as "an unpublished manuscript
 * held by the journal" with its share, and nothing from it: no title, no author, no text, no id. Editors
 * see everything of their own journal's.
 *
 * Across journals (the corpus is the site's, decision 0058): a published article of another journal of the
 * site is shown as any published article, with that journal's name and address. An unpublished source of
 * another journal (a manuscript first sent there) is, to the editors of the journal checking, "a manuscript
 * submitted to another journal of this site" with its share, and nothing else: not its title, authors, text,
 * ids, nor which journal (the journal an author chose is theirs to tell). A reader learns what a reader
 * always learns of an unpublished source.
 */
import type { CorpusCoverage } from '../../common/similarity.ts';
import type { Passage } from './align.ts';
import type { GrammarIssue } from './grammar.ts';
import { type Credit, percentage, round2 } from './score.ts';
import type { SourceKind } from './tables.ts';

export type Viewer = 'reader' | 'editor';

export const UNPUBLISHED_LABEL = 'An unpublished manuscript held by the journal';
export const OTHER_JOURNAL_LABEL = 'A manuscript submitted to another journal of this site';

/** Another journal of the site, as a report names it. */
export interface OtherJournal {
  title: string;
  /** Its address (its articles are at `{url}/article/{id}`). */
  url: string;
}

export interface ReportSource {
  /** "S1", "S2", … in order of share: passages refer to their source by it. */
  ref: string;
  /** What it is; `unpublished` is all a reader learns about an unpublished source. */
  kind: SourceKind | 'unpublished';
  /** The similarity document's id (editors only). */
  documentId: number | null;
  /** articles.id or submission_files.id (editors; readers get it for published articles only). */
  sourceId: number | null;
  /** The article's id, for a link, when the source is a published article. */
  articleId: number | null;
  /** The other journal of the site a published source is in (absent: the checking journal's own, or not said). */
  journal?: OtherJournal | null;
  title: string | null;
  /** What to show: the title, or the unpublished label. */
  label: string;
  published: boolean;
  /** Manuscript words credited to this source (each word to one source only). */
  matchedWords: number;
  /** matchedWords / counted words × 100, two decimals; the shares add up to plagiarismPercentage. */
  sharePercentage: number;
  passageCount: number;
}

export interface TextRange {
  /** Character offsets in the text: [start, end). */
  start: number;
  end: number;
  text: string;
}

export interface ReportPassage {
  source: string;
  /** Manuscript words of this passage credited to its source. */
  words: number;
  /** Of those, words identical in both texts. */
  exactWords: number;
  manuscript: TextRange;
  /** The matching text in the source; null when the viewer may not see it. */
  sourceText: TextRange | null;
}

export interface GrammarReport {
  /** How the percentage is defined (shown beside it). */
  measure: string;
  available: boolean;
  /** Why it is not available (the checker failed or is switched off). */
  error?: string;
  sentences: number;
  sentencesWithIssues: number;
  issues: GrammarIssue[];
}

export interface SimilarityReport {
  /** Matched words / counted words × 100, two decimals. */
  plagiarismPercentage: number;
  /** Sentences without a counted issue / sentences × 100, two decimals; null when not measured. */
  grammarQualityPercentage: number | null;
  viewer: Viewer;
  settings: { excludeQuotes: boolean; excludeBibliography: boolean; minMatchWords: number };
  file: { kind: string; pages: number | null };
  words: {
    /** All words of the manuscript. */
    total: number;
    /** Words the percentage is computed over (all but the bibliography when it is excluded). */
    counted: number;
    matched: number;
    quoted: number;
    bibliography: number;
  };
  /** The manuscript's normalised text: passages and grammar issues point into it. */
  text: string;
  sources: ReportSource[];
  passages: ReportPassage[];
  grammar: GrammarReport;
  timings: Record<string, number>;
  /** What the check was compared against (null in reports stored before it was recorded). */
  corpus: CorpusCoverage | null;
}

export const GRAMMAR_MEASURE =
  'Share of the sentences of the body (before the bibliography) in which the grammar checker found no grammar, agreement, spelling, word-choice or usage issue. Spelling is not counted for words used in the journal\u2019s own articles and manuscripts (technical terms, names), nor for acronyms and names.';

export interface MatchedSource {
  documentId: number;
  /** The journal of the source (null: none known). */
  journalId?: number | null;
  sourceKind: SourceKind;
  sourceId: number;
  title: string;
  published: boolean;
  passages: Passage[];
  /** Source text and word offsets, for the passages' text. */
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

export interface ReportInput {
  viewer: Viewer;
  /** The journal the check is made for (null: the site's, which sees every journal's as its own). */
  journalId?: number | null;
  /** Names another journal of the site (its published sources are shown with it). */
  journal?: (id: number) => OtherJournal | undefined;
  settings: SimilarityReport['settings'];
  file: SimilarityReport['file'];
  text: string;
  starts: Int32Array;
  ends: Int32Array;
  mask: Uint8Array;
  owner: Int32Array;
  credits: Credit[];
  sources: MatchedSource[];
  grammar: GrammarReport & { grammarQualityPercentage: number | null };
  timings: Record<string, number>;
  corpus?: CorpusCoverage | null;
}

export function buildReport(input: ReportInput): SimilarityReport {
  const total = input.mask.length;
  let quoted = 0;
  let bibliography = 0;
  for (const m of input.mask) {
    if (m === 1) quoted++;
    else if (m === 2) bibliography++;
  }
  const counted = total - bibliography;
  const matched = input.credits.reduce((n, c) => n + c.words, 0);
  const byId = new Map(input.sources.map((s) => [s.documentId, s]));
  const editor = input.viewer === 'editor';

  const sources: ReportSource[] = [];
  const passages: ReportPassage[] = [];
  input.credits.forEach((credit, i) => {
    const s = byId.get(credit.key);
    if (!s) return;
    const ref = `S${i + 1}`;
    const other = input.journalId != null && s.journalId != null && s.journalId !== input.journalId;
    const visible = s.published || (editor && !other);
    let passageCount = 0;
    for (const p of s.passages) {
      // A passage may share words with another source that was credited them: it is reported as the runs of
      // words credited to this source, so that highlights never overlap and every counted word is marked.
      const runs: [number, number][] = [];
      for (let w = p.mStart; w < p.mEnd; w++) {
        if (input.owner[w] !== credit.key) continue;
        const last = runs.at(-1);
        if (last && last[1] === w) last[1] = w + 1;
        else runs.push([w, w + 1]);
      }
      if (!runs.length) continue; // every word of it went to another source
      passageCount++;
      const sourceText = visible ? range(s.text, s.starts[p.sStart], s.ends[p.sEnd - 1]) : null;
      for (const [from, to] of runs) {
        passages.push({
          source: ref,
          words: to - from,
          exactWords: runs.length === 1 ? p.exactWords : Math.min(p.exactWords, to - from),
          manuscript: range(input.text, input.starts[from], input.ends[to - 1]),
          sourceText,
        });
      }
    }
    // Said only of a published source in another journal of the site.
    const journal = other && visible && s.journalId != null ? input.journal?.(s.journalId) : undefined;
    sources.push({
      ref,
      kind: visible ? s.sourceKind : 'unpublished',
      documentId: editor && (visible || !other) ? s.documentId : null,
      sourceId: visible ? s.sourceId : null,
      articleId: s.sourceKind === 'article' && visible ? s.sourceId : null,
      ...(journal ? { journal } : {}),
      title: visible ? s.title : null,
      label: visible ? s.title : editor && other ? OTHER_JOURNAL_LABEL : UNPUBLISHED_LABEL,
      published: s.published,
      matchedWords: credit.words,
      sharePercentage: 0, // below: apportioned so that the shares add up to the total
      passageCount,
    });
  });
  const shares = apportion(
    sources.map((s) => s.matchedWords),
    counted,
  );
  sources.forEach((s, i) => {
    s.sharePercentage = shares[i];
  });
  passages.sort((a, b) => a.manuscript.start - b.manuscript.start);

  const { grammarQualityPercentage, ...grammar } = input.grammar;
  return {
    plagiarismPercentage: round2(percentage(matched, counted)),
    grammarQualityPercentage: grammarQualityPercentage === null ? null : round2(grammarQualityPercentage),
    viewer: input.viewer,
    settings: input.settings,
    file: input.file,
    words: { total, counted, matched, quoted, bibliography },
    text: input.text,
    sources,
    passages,
    grammar,
    timings: Object.fromEntries(Object.entries(input.timings).map(([k, v]) => [k, Math.round(v * 10) / 10])),
    corpus: input.corpus ?? null,
  };
}

const range = (text: string, start: number, end: number): TextRange => ({ start, end, text: text.slice(start, end) });

/**
 * Each source's share of `counted` words as a percentage with 2 decimals, rounded so that the shares add up
 * exactly to the rounded total (largest remainder): three equal thirds of 100 % are 33.34 + 33.33 + 33.33.
 */
export function apportion(words: number[], counted: number): number[] {
  if (!counted) return words.map(() => 0);
  const hundredths = words.map((w) => percentage(w, counted) * 100);
  const floors = hundredths.map(Math.floor);
  // The same rounding as the reported total.
  const total = Math.round(round2(percentage(words.reduce((a, b) => a + b, 0), counted)) * 100);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = hundredths.map((h, i) => [h - floors[i], i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i]++;
    left--;
  }
  return floors.map((f) => f / 100);
}
