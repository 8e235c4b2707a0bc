import { describe, expect, it } from 'vitest';
import {
  bibliographyStart,
  dehyphenate,
  exclusionMask,
  normalizeText,
  quotedRanges,
  sentenceRanges,
  tokenize,
  wordsOf,
} from './text.ts';

describe('normalizeText', () => {
  it('expands Unicode ligatures (NFKC) and TeX control-code ligatures beside letters', () => {
    expect(normalizeText('o\ufb04oading e\ufb03ciency \ufb01ts \ufb00 \ufb02ow')).toBe('offloading efficiency fits ff flow');
    // T1 (Cork) codes as pdf.js returns them for pdfLaTeX fonts without a ToUnicode map.
    expect(normalizeText('o\u001foading e\u001eciency \u001cts o\u001fine')).toBe('offloading efficiency fits offline');
    // Not beside a letter: a control character, dropped.
    expect(normalizeText('a \u001f b')).toBe('a b');
  });

  it('undoes line-end hyphenation but keeps real compounds', () => {
    expect(normalizeText("the gate-\nway's charge")).toBe("the gateway's charge");
    expect(normalizeText('so the gateway eval-\nuates it')).toBe('so the gateway evaluates it');
    // A page break with a bare page number between the halves.
    expect(normalizeText('and it cap-\n1\n\ntures most')).toBe('and it captures most');
    // The compound is written with its hyphen elsewhere: the hyphen stays.
    expect(normalizeText('a water-\ntreatment plant; water-treatment works')).toBe(
      'a water-treatment plant; water-treatment works',
    );
    // Both halves are words of the text and the joined form is not: a compound.
    expect(normalizeText('signal strength and a fixed signal-\nstrength threshold')).toBe(
      'signal strength and a fixed signal-strength threshold',
    );
    // A hyphen not at a line end is never touched; nor is a break before a capital.
    expect(dehyphenate('battery-powered gateways')).toBe('battery-powered gateways');
    expect(dehyphenate('Franco-\nPrussian war')).toBe('Franco-\nPrussian war');
  });

  it('unifies spaces and line ends, and removes soft hyphens', () => {
    expect(normalizeText('a\r\nb  \t c\u00adde\n\n\n\nf')).toBe('a\nb cde\n\nf');
    expect(normalizeText('hyphen\u00ad\nation')).toBe('hyphenation');
  });
});

describe('tokenize', () => {
  it('lower-cases words, keeps inner apostrophes, splits at hyphens, and keeps offsets', () => {
    const text = "The Gateway’s battery-powered node, 41 percent.";
    const t = tokenize(text);
    expect(t.words).toEqual(['the', "gateway's", 'battery', 'powered', 'node', '41', 'percent']);
    for (let i = 0; i < t.words.length; i++) {
      expect(text.slice(t.starts[i], t.ends[i]).toLowerCase().replace('’', "'")).toBe(t.words[i]);
    }
  });

  it('reads accented and non-Latin letters as words', () => {
    expect(wordsOf('Café naïve Łódź Ελληνικά')).toEqual(['café', 'naïve', 'łódź', 'ελληνικά']);
  });
});

describe('bibliography and quotes', () => {
  const body = 'Intro text. '.repeat(40);
  it('finds the last references heading, numbered or not', () => {
    const text = `${body}\nReferences\n[1] A. Author, A title, 2020.`;
    expect(bibliographyStart(text)).toBe(text.indexOf('References'));
    for (const h of ['6. References', 'BIBLIOGRAPHY', 'Works Cited', 'References:', 'VII. REFERENCES']) {
      const t = `${body}\n${h}\nA. Author.`;
      expect(bibliographyStart(t), h).toBe(t.indexOf(h));
    }
    // A mention inside a sentence is not a heading; a heading in the first third is not trusted.
    expect(bibliographyStart(`${body} see the references below.`)).toBeNull();
    expect(bibliographyStart(`References\n${body}`)).toBeNull();
  });

  it('finds quoted passages, curly and straight, and ignores an unbalanced quote', () => {
    const text = 'He wrote “to be or not to be” and "all the world" then an odd “ mark.';
    const ranges = quotedRanges(text);
    expect(ranges.map(([a, b]) => text.slice(a, b))).toEqual(['“to be or not to be”', '"all the world"']);
  });

  it('masks quoted words (1) and the bibliography (2)', () => {
    const text = `${body}He said “copied words here” today.\nReferences\n[1] Someone.`;
    const t = tokenize(text);
    const mask = exclusionMask(text, t, { quotes: true, bibliography: true });
    const quoted = t.words.filter((_, i) => mask[i] === 1);
    const bib = t.words.filter((_, i) => mask[i] === 2);
    expect(quoted).toEqual(['copied', 'words', 'here']);
    expect(bib).toEqual(['references', '1', 'someone']);
    const none = exclusionMask(text, t, { quotes: false, bibliography: false });
    expect(none.every((m) => m === 0)).toBe(true);
  });
});

describe('sentenceRanges', () => {
  it('splits at sentence ends but not after abbreviations or before lower case', () => {
    const text = 'First one. Second, e.g. this one, see Fig. 3 here! Third? Yes.\n\nHeading\n\nLast';
    const s = sentenceRanges(text).map(([a, b]) => text.slice(a, b).trim());
    expect(s).toEqual(['First one.', 'Second, e.g. this one, see Fig. 3 here!', 'Third?', 'Yes.', 'Heading', 'Last']);
  });
});
