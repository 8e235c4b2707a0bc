/**
 * The grammar measure, around harper.js (which runs in its own worker thread: grammar-worker.ts).
 *
 * grammarQualityPercentage = sentences of the body with no counted issue / sentences of the body × 100.
 *
 * - The body is the text before the bibliography (reference lists are not prose).
 * - Counted issues are those harper files as agreement, grammar, spelling, typo, usage, word choice or
 *   order, repetition (doubled words), boundary errors (a lot / alot), eggcorns, malapropisms, nonstandard
 *   forms and "miscellaneous" (where harper puts a/an). Style, readability, formatting, punctuation,
 *   capitalisation, regional variants and suggested enhancements are not counted: PDF extraction breaks
 *   formatting and punctuation, and style is the author's.
 * - British and American spellings are both accepted (see variantKey).
 * - A spelling issue is not counted for a word the journal's own corpus uses (in at least
 *   `vocabularyMinDocs` indexed documents: technical terms, names), nor for words with digits, inner capitals
 *   (acronyms, LoRaWAN) or a capital initial inside a sentence (names).
 */
import { sentenceRanges } from './text.ts';

export const COUNTED_KINDS = new Set([
  'Agreement',
  'BoundaryError',
  'Eggcorn',
  'Grammar',
  'Malapropism',
  'Miscellaneous',
  'Nonstandard',
  'Repetition',
  'Spelling',
  'Typo',
  'Usage',
  'WordChoice',
  'WordOrder',
]);

/**
 * The rules harper runs by default ("core"). harper 2.10 has about 885 rules, each costing a few ms per
 * 1,000 words; on new text (harper caches sentences it has seen) all of them take about 4.5–5 s of CPU for
 * 8,000 words on this machine, these about 2 s (most of it harper's parsing, which every rule set pays).
 * They are every rule that reported a counted kind on a third of the Brown corpus and on sentences with
 * common errors (bench/similarity), less IGNORED_RULES, plus common confusions picked by name. On the
 * benchmark they catch more injected errors than all rules together (fewer overlapping lints hide them).
 * `grammarRules: 'all'` runs every rule. ("BoringWords" panics inside harper when enabled: not used.)
 */
export const CORE_RULES: readonly string[] = [
  // Seen reporting counted kinds on the Brown corpus and on common error sentences.
  'AWhile',
  'AllIntentsAndPurposes',
  'AnA',
  'AsHow',
  'ClicheAccent',
  'Confident',
  'CraveFor',
  'Damages',
  'Everyone',
  'ExpandMemoryShorthands',
  'FeelFell',
  'FillerWords',
  'FindOut',
  'GoodAt',
  'HadOf',
  'InflectedVerbAfterTo',
  'Insofar',
  'InterestedIn',
  'ItsPossessive',
  'KindSortOf',
  'LeftRightHand',
  'LetsConfusion',
  'MissingDeterminer',
  'MissingTo',
  'ModalBeAdjective',
  'ModalOf',
  'MultipleFrequencyAdverbs',
  'MultipleSequentialPronouns',
  'NoLonger',
  'Nonetheless',
  'NounVerbConfusion',
  'OneOfTheSingular',
  'Overall',
  'Payed',
  'PhrasalVerbAsCompoundNoun',
  'PluralDecades',
  'PossessiveYour',
  'PronounContraction',
  'PronounInflectionBe',
  'PronounKnew',
  'PronounVerbAgreement',
  'QuantifierNumeralConflict',
  'QuiteQuiet',
  'RedundantThat',
  'RegularIrregulars',
  'RepeatedWords',
  'SimplePastToPastParticiple',
  'Someone',
  'SpellCheck',
  'SpinalChord',
  'ThatThan',
  'TheirToThere',
  'TheirToTheyre',
  'ThenThan',
  'There',
  'ThereIsAgreement',
  'ThereToTheir',
  'TheyToThem',
  'ToSomeDegree',
  'ToTwoToo',
  'WayTooAdjective',
  'WereWhere',
  'WhomSubjectOfVerb',
  'Worthwhile',
  'WrongNegative',
  // Common confusions, by name.
  'AnAnother',
  'ColdModalTypo',
  'DefiniteArticle',
  'IAmAgreement',
  'IfWouldve',
  'ItsContraction',
  'LessWorse',
  'Misspell',
  'PluralWrongWordOfPhrase',
  'PrincipleToPrincipalRoleNoun',
  'RelayOnForRely',
  'SubjunctiveWasToWere',
  'ThereMissingIsClause',
  'ThereOwn',
  'TheyreConfusions',
  'TheyreToTheir',
  'ToLoseTooLoose',
  'WishCould',
  'WouldNeverHave',
  'WrongApostrophe',
  'YourOutClauseAgreement',
  'YourPredicateAdjective',
];

/**
 * Rules (by harper's name) whose flags on clean, edited prose were mostly wrong in our benchmark
 * (bench/similarity): they are not counted.
 */
export const IGNORED_RULES = new Set<string>([
  // Frequent on the Brown corpus's edited prose and mostly wrong there: compounds harper wants split, joined
  // or hyphenated ("SplitWords", "MergeWords", "CompoundNouns", "DisjointPrefixes", "OpenCompounds"), mass
  // nouns, prepositions, place names and abbreviations it would modernise, mild language.
  'AvoidCurses',
  'CompoundNouns',
  'DisjointPrefixes',
  'ExpandTimeShorthands',
  'HyphenateNumberDay',
  'MassNouns',
  'MergeWords',
  'MissingPreposition',
  'OkToOkay',
  'OpenCompounds',
  'SplitWords',
  'UpdatePlaceNames',
]);

/** One issue found by harper, as the worker returns it (offsets in the text it was given). */
export interface RawIssue {
  start: number;
  end: number;
  kind: string;
  rule: string;
  message: string;
  text: string;
  suggestions: string[];
}

export interface GrammarIssue extends RawIssue {}

export interface GrammarChunk {
  /** Offset of the chunk in the full text. */
  offset: number;
  text: string;
}

/**
 * The body as harper should read it: the text before the bibliography, with single line breaks (inside
 * paragraphs of a PDF) turned into spaces. Lengths are kept, so offsets stay those of the full text.
 */
export function grammarBody(text: string, bodyEnd: number): string {
  return text.slice(0, bodyEnd).replace(/([^\n])\n(?!\n)/g, '$1 ');
}

/** Splits the body at sentence ends into chunks of about `maxWords` words, for the workers. */
export function grammarChunks(body: string, sentences: [number, number][], maxWords = 1200): GrammarChunk[] {
  const chunks: GrammarChunk[] = [];
  let start = 0;
  let words = 0;
  for (const [a, b] of sentences) {
    words += (body.slice(a, b).match(/\S+/g) ?? []).length;
    if (words >= maxWords) {
      chunks.push({ offset: start, text: body.slice(start, b) });
      start = b;
      words = 0;
    }
  }
  if (start < body.length && /\S/.test(body.slice(start)))
    chunks.push({ offset: start, text: body.slice(start) });
  return chunks;
}

/** Sentence ranges of the body, as used for the measure. */
export const bodySentences = (body: string) => sentenceRanges(body);

/**
 * Spelling flags on words that are not errors: digits, inner capitals, a capital initial inside a
 * sentence. Returns the lower-cased word to look up in the corpus vocabulary, or null when exempt already.
 */
export function spellingCandidate(
  issue: RawIssue,
  body: string,
  sentences: [number, number][],
): string | null {
  const word = issue.text.trim();
  if (!word || /\s/.test(word)) return word.toLowerCase() || null;
  if (/\p{N}/u.test(word)) return null;
  if (/\p{Lu}/u.test(word.slice(1))) return null;
  if (/^\p{Lu}/u.test(word)) {
    // The first word of a sentence says nothing by its capital; any other capitalised word is a name.
    const s = sentenceAt(sentences, issue.start);
    const before = s >= 0 ? body.slice(sentences[s][0], issue.start) : body.slice(0, issue.start);
    if (/[\p{L}\p{N}]/u.test(before)) return null;
  }
  return word.toLowerCase().replace(/\u2019/g, "'");
}

/**
 * British and American spellings are both accepted: "optimisation" flagged with the suggestion
 * "optimization" is a regional variant, not an error. Two spellings are variants when they agree after
 * folding s/z, -our/-or, -re/-er, -ogue/-og, -ence/-ense, doubled l, ae/oe and -ement/-ment.
 */
export function variantKey(word: string): string {
  return word
    .toLowerCase()
    .replace(/ement/g, 'ment')
    .replace(/ogue(s?)$/, 'og$1')
    .replace(/our/g, 'or')
    .replace(/([^aeiou])re(s|d)?$/, '$1er$2')
    .replace(/ence(s?)$/, 'ense$1')
    .replace(/ll/g, 'l')
    .replace(/ae|oe/g, 'e')
    .replace(/[sz]/g, 'z');
}

export function isRegionalVariant(issue: RawIssue): boolean {
  const word = issue.text.trim();
  const key = variantKey(word);
  if (issue.suggestions.some((s) => variantKey(s) === key)) return true;
  // -ise/-yse verbs and their forms, which the dictionary may only know with z ("discretise").
  return /[a-z]{3}(?:is|ys)(?:e|es|ed|ing|ation|ations|er|ers)$/i.test(word);
}

export interface GrammarResult {
  grammarQualityPercentage: number | null;
  sentences: number;
  sentencesWithIssues: number;
  words: number;
  issues: GrammarIssue[];
}

/**
 * Keeps the counted issues (see the file's comment), given the words the corpus knows, and computes the
 * measure over the body's sentences.
 */
export function scoreGrammar(
  body: string,
  sentences: [number, number][],
  raw: RawIssue[],
  knownWords: Set<string>,
): GrammarResult {
  const issues = raw.filter((issue) => {
    if (!COUNTED_KINDS.has(issue.kind) || IGNORED_RULES.has(issue.rule)) return false;
    if (issue.kind === 'Spelling' || issue.kind === 'Typo') {
      if (isRegionalVariant(issue)) return false;
      const word = spellingCandidate(issue, body, sentences);
      if (word === null || knownWords.has(word)) return false;
    }
    return true;
  });
  issues.sort((a, b) => a.start - b.start);
  const flagged = new Set<number>();
  for (const issue of issues) {
    const s = sentenceAt(sentences, issue.start);
    if (s >= 0) flagged.add(s);
  }
  const words = (body.match(/[\p{L}\p{N}]+/gu) ?? []).length;
  return {
    grammarQualityPercentage: sentences.length
      ? ((sentences.length - flagged.size) / sentences.length) * 100
      : null,
    sentences: sentences.length,
    sentencesWithIssues: flagged.size,
    words,
    issues,
  };
}

function sentenceAt(sentences: [number, number][], offset: number): number {
  let lo = 0;
  let hi = sentences.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (offset < sentences[mid][0]) hi = mid - 1;
    else if (offset >= sentences[mid][1]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Words to look up in the vocabulary for a list of raw issues. */
export function spellingWords(body: string, sentences: [number, number][], raw: RawIssue[]): string[] {
  const words = new Set<string>();
  for (const issue of raw) {
    if (issue.kind !== 'Spelling' && issue.kind !== 'Typo') continue;
    const w = spellingCandidate(issue, body, sentences);
    if (w) words.add(w);
  }
  return [...words];
}
