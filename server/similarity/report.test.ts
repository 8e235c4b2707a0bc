import { describe, expect, it } from 'vitest';
import { type MatchedSource, type ReportInput, UNPUBLISHED_LABEL, apportion, buildReport } from './report.ts';
import { creditWords } from './score.ts';
import { tokenize } from './text.ts';

const manuscript = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon';
const m = tokenize(manuscript);

function source(documentId: number, published: boolean, text: string, mStart: number, mEnd: number): MatchedSource {
  const t = tokenize(text);
  return {
    documentId,
    sourceKind: published ? 'article' : 'submission_version',
    sourceId: documentId * 10,
    title: published ? 'A published article' : 'A secret manuscript by Jane Roe',
    published,
    passages: [{ mStart, mEnd, sStart: 0, sEnd: mEnd - mStart, exactWords: mEnd - mStart, longest: mEnd - mStart }],
    text,
    starts: t.starts,
    ends: t.ends,
  };
}

function input(viewer: 'reader' | 'editor'): ReportInput {
  const sources = [
    source(1, true, 'alpha beta gamma delta epsilon zeta eta theta', 0, 8),
    source(2, false, 'kappa lambda mu nu xi omicron pi rho sigma tau', 9, 19),
  ];
  const mask = new Uint8Array(m.words.length);
  const score = creditWords(
    m.words.length,
    mask,
    sources.map((s) => ({ key: s.documentId, published: s.published, passages: s.passages })),
  );
  return {
    viewer,
    settings: { excludeQuotes: false, excludeBibliography: true, minMatchWords: 8 },
    file: { kind: 'pdf', pages: 1 },
    text: manuscript,
    starts: m.starts,
    ends: m.ends,
    mask,
    owner: score.owner,
    credits: score.credits,
    sources,
    grammar: { measure: 'm', available: false, sentences: 0, sentencesWithIssues: 0, issues: [], grammarQualityPercentage: null },
    timings: {},
  };
}

describe('the privacy rule', () => {
  it('gives editors every source with its title and passages', () => {
    const r = buildReport(input('editor'));
    expect(r.plagiarismPercentage).toBe(90);
    expect(r.sources.map((s) => [s.ref, s.title, s.sharePercentage])).toEqual([
      ['S1', 'A secret manuscript by Jane Roe', 50],
      ['S2', 'A published article', 40],
    ]);
    expect(r.passages.every((p) => p.sourceText)).toBe(true);
  });

  it('gives readers the share of an unpublished source and nothing else', () => {
    const r = buildReport(input('reader'));
    expect(r.plagiarismPercentage).toBe(90);
    const hidden = r.sources.find((s) => !s.published)!;
    expect(hidden).toMatchObject({ kind: 'unpublished', title: null, label: UNPUBLISHED_LABEL, documentId: null, sourceId: null, sharePercentage: 50 });
    const shown = r.sources.find((s) => s.published)!;
    expect(shown).toMatchObject({ kind: 'article', title: 'A published article', articleId: 10, documentId: null });
    expect(r.passages.find((p) => p.source === hidden.ref)?.sourceText).toBeNull();
    expect(r.passages.find((p) => p.source === shown.ref)?.sourceText?.text).toBe('alpha beta gamma delta epsilon zeta eta theta');
    expect(JSON.stringify(r)).not.toMatch(/Jane Roe|secret/);
  });
});

describe('shares and passages', () => {
  it('apportions shares so that they add up exactly to the total', () => {
    expect(apportion([1, 1, 1], 3)).toEqual([33.34, 33.33, 33.33]);
    expect(apportion([2, 1], 3)).toEqual([66.67, 33.33]);
    expect(apportion([1, 1, 1, 1, 1, 1], 7)).toEqual([14.29, 14.29, 14.29, 14.28, 14.28, 14.28]);
    expect(apportion([], 10)).toEqual([]);
    expect(apportion([0], 0)).toEqual([0]);
    for (const counted of [7, 13, 97, 1001]) {
      const words = [1, 2, 3].map((k) => Math.min(k * 2, Math.floor(counted / 4)));
      const sum = apportion(words, counted).reduce((a, b) => a + b, 0);
      expect(Math.round(sum * 100)).toBe(Math.round(((words[0] + words[1] + words[2]) / counted) * 10_000));
    }
  });

  it('reports only the words credited to a source when two sources share a passage, without overlaps', () => {
    // Source 1 matches words 0-12, source 2 words 5-19: source 2, with more words, takes 5-19 and source 1 keeps 0-4.
    const sources = [
      source(1, true, manuscript.split(' ').slice(0, 13).join(' '), 0, 13),
      source(2, true, manuscript.split(' ').slice(5, 20).join(' '), 5, 20),
    ];
    const mask = new Uint8Array(m.words.length);
    const score = creditWords(
      m.words.length,
      mask,
      sources.map((s) => ({ key: s.documentId, published: s.published, passages: s.passages })),
    );
    const r = buildReport({ ...input('editor'), sources, owner: score.owner, credits: score.credits });
    const marked = r.passages.reduce((n, p) => n + p.words, 0);
    expect(marked).toBe(r.words.matched);
    const spans = r.passages.map((p) => [p.manuscript.start, p.manuscript.end]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
    expect(r.passages.map((p) => p.manuscript.text)).toEqual([
      'alpha beta gamma delta epsilon',
      'zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon',
    ]);
  });
});
