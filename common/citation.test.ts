import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  citationParts,
  formatCitation,
  formatPages,
  joinNames,
  keywordList,
  numberAffiliations,
  pageRange,
} from './citation.ts';

const base = {
  title: 'Energy-Aware Duty Cycling for LoRaWAN Sensor Networks',
  journal: 'Colophon Journal of Engineering and Informatics',
  volume: 1,
  issue: 2,
  monthYear: 'March 2025',
  pages: '11-20',
  doi: '10.5555/cjei.2025.1.2.003',
};

describe('formatCitation', () => {
  it('lists several authors, then title, journal, volume, issue, month and year, pages and the DOI link', () => {
    const text = formatCitation({
      ...base,
      authors: [{ name: 'Karthikeyan Ramasamy' }, { name: 'Priya Venkatesan' }, { name: 'Daniel Okafor' }],
    });
    expect(text).toBe(
      'Karthikeyan Ramasamy, Priya Venkatesan, and Daniel Okafor, “Energy-Aware Duty Cycling for LoRaWAN Sensor Networks,” Colophon Journal of Engineering and Informatics, vol. 1, no. 2, March 2025, pp. 11–20, https://doi.org/10.5555/cjei.2025.1.2.003.',
    );
  });

  it('writes two authors with "and" and one author alone', () => {
    expect(formatCitation({ ...base, authors: [{ name: 'A. Rao' }, { name: 'B. Ng' }] })).toMatch(
      /^A\. Rao and B\. Ng, “/,
    );
    expect(formatCitation({ ...base, authors: [{ name: 'Meera Iyer' }] })).toMatch(
      /^Meera Iyer, “Energy-Aware/,
    );
  });

  it('leaves the DOI out when there is none, or links the article instead', () => {
    const noDoi = formatCitation({ ...base, doi: null, authors: [{ name: 'Meera Iyer' }] });
    expect(noDoi).not.toContain('doi.org');
    expect(noDoi.endsWith('pp. 11–20.')).toBe(true);
    const withUrl = formatCitation({
      ...base,
      doi: '',
      url: 'https://journal.example/article/7',
      authors: [{ name: 'Meera Iyer' }],
    });
    expect(withUrl.endsWith('pp. 11–20, https://journal.example/article/7.')).toBe(true);
  });

  it('uses the default pages 1–10 when the pages are missing', () => {
    expect(formatCitation({ ...base, pages: null, authors: [{ name: 'X' }] })).toContain('pp. 1–10,');
    expect(formatCitation({ ...base, pages: '', authors: [{ name: 'X' }] })).toContain('pp. 1–10,');
  });

  it('keeps a title’s own question mark instead of adding a comma', () => {
    expect(formatCitation({ ...base, title: 'Is it fast?', authors: [{ name: 'X' }] })).toContain(
      '“Is it fast?” Colophon',
    );
  });

  it('marks the parts the page styles: title, journal and link', () => {
    const parts = citationParts({ ...base, authors: [{ name: 'X' }] });
    expect(parts.find((p) => p.kind === 'journal')?.text).toBe(base.journal);
    expect(parts.find((p) => p.kind === 'link')).toEqual({
      kind: 'link',
      text: 'https://doi.org/10.5555/cjei.2025.1.2.003',
      href: 'https://doi.org/10.5555/cjei.2025.1.2.003',
    });
  });
});

describe('bibliographic helpers', () => {
  it('reads page ranges, with the default 1-10', () => {
    expect(pageRange('3-12')).toEqual({ first: 3, last: 12 });
    expect(pageRange('3 – 12')).toEqual({ first: 3, last: 12 });
    expect(pageRange(undefined)).toEqual({ first: 1, last: 10 });
    expect(pageRange('abc')).toEqual({ first: 1, last: 10 });
    expect(formatPages('5-5')).toBe('5');
  });

  it('splits keywords on commas and semicolons', () => {
    expect(keywordList('IoT, LoRa;  anomaly detection ,, ')).toEqual(['IoT', 'LoRa', 'anomaly detection']);
    expect(keywordList('')).toEqual([]);
  });

  it('states one keyword rule, commas, wherever authors and editors are told it', () => {
    // The stored keywords are one text, split by keywordList (search, metadata, exports, citations).
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
    const instructions = read('../content/pages/instructions.md');
    const rule = /\*\*Keywords\*\*:[^\n]*/.exec(instructions)?.[0] ?? '';
    expect(rule).toMatch(/separated by commas/);
    expect(instructions).not.toMatch(/semicolon/i);
    const example = /for example: ([^)]*)\)/.exec(rule)?.[1] ?? '';
    expect(keywordList(example)).toEqual(['edge computing', 'IoT', 'energy efficiency', 'task offloading']);
    for (const form of [
      '../app/components/submission/SubmissionForm.tsx',
      '../app/components/dashboard/ArticleFields.tsx',
      '../server/content/templates.ts',
    ]) {
      expect(read(form), form).not.toMatch(/separated by semicolons|keyword; /i);
    }
    expect(read('../app/components/submission/SubmissionForm.tsx')).toMatch(/separated by commas/);
  });

  it('joins names', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['A'])).toBe('A');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B, and C');
  });

  it('numbers affiliations by first appearance, shared by authors at the same place', () => {
    const { authors, affiliations } = numberAffiliations([
      { name: 'A', affiliation: 'Anna University', superscript: '1' },
      { name: 'B', affiliation: 'TU Delft', superscript: '2' },
      { name: 'C', affiliation: 'Anna University ', superscript: '' },
    ]);
    expect(authors.map((a) => a.mark)).toEqual(['1', '2', '1']);
    expect(affiliations).toEqual([
      { mark: '1', text: 'Anna University' },
      { mark: '2', text: 'TU Delft' },
    ]);
  });
});
