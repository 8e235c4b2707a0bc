import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/harness.ts';
import { ExtractionError, extractText } from './extract.ts';
import { encryptedDoc, encryptedDocx } from '../files/testing.ts';
import { tokenize, wordsOf } from './text.ts';

/** The words of the paper as written (manuscript.html, without its <head>). */
const reference = wordsOf(
  fixture('manuscript.html')
    .toString('utf8')
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<(h\d|p)>/g, '\n')
    .replace(/<[^>]+>/g, ''),
);

function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

const jaccard = (a: string[], b: string[]) => {
  const A = new Set(a);
  const B = new Set(b);
  return [...A].filter((w) => B.has(w)).length / new Set([...A, ...B]).size;
};

describe('the same paper as .doc, .docx, .pdf and two-column PDF', () => {
  it.each([
    ['manuscript.docx', 'docx', 0.99],
    ['manuscript.doc', 'doc', 0.99],
    ['manuscript.pdf', 'pdf', 0.99],
    // pdfLaTeX cut one overlong affiliation line at the page edge: three words are not in the file.
    ['twocolumn.pdf', 'pdf', 0.98],
  ])('%s gives the words of manuscript.html, in order', async (name, kind, min) => {
    const extracted = await extractText(fixture(name));
    expect(extracted.kind).toBe(kind);
    const words = tokenize(extracted.text).words;
    // Word order (reading order of columns included): longest common subsequence ratio.
    const lcsRatio = (2 * lcsLength(reference, words)) / (reference.length + words.length);
    expect(lcsRatio).toBeGreaterThanOrEqual(min);
    expect(jaccard(reference, words)).toBeGreaterThanOrEqual(0.97);
    for (const w of ['offloading', 'efficiency', "gateway's", 'evaluates', 'offline', 'fits', 'captures', 'sensors']) {
      expect(words, w).toContain(w);
    }
    // No broken halves of hyphenated or ligatured words.
    for (const w of ['eval', 'uates', 'gate', 'cap', 'tures', 'sen', 'sors', 'o', 'e']) expect(words, w).not.toContain(w);
  });

  it('keeps the two columns of twocolumn.pdf in reading order', async () => {
    const { text } = await extractText(fixture('twocolumn.pdf'));
    const order = ['Abstract', '1. Introduction', '2. System model', '3. Learning the decision table', '4. Evaluation', '5. Conclusion', 'References'];
    const at = order.map((h) => text.indexOf(h));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // A sentence that crosses a line end keeps its words in order.
    expect(text).toContain('so the gateway evaluates it in microseconds');
    // A real compound keeps its hyphen.
    expect(text).toContain('water-treatment');
  });
});

describe('files whose text cannot be read', () => {
  it.each([
    ['scanned.pdf', 'no_text', /No text could be read from this file: it seems to be a scanned image/],
    ['encrypted.pdf', 'encrypted', /password-protected/],
    ['truncated.pdf', 'corrupt', /damaged or incomplete/],
    ['png-named.pdf', 'unsupported', /Only Word \(\.doc, \.docx\) and PDF files/],
    ['empty.pdf', 'empty', /empty/],
    ['not-a-zip.zip', 'unsupported', /Only Word/],
    ['supplementary.zip', 'unsupported', /Only Word/],
  ])('%s: %s', async (name, code, message) => {
    const err = await extractText(fixture(name)).catch((e) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ reason: code, errors: { file: err.message } });
    expect(err.message).toMatch(message);
    expect(err.code).toBe(code === 'unsupported' ? 'unsupported_type' : code === 'empty' ? 'invalid' : 'unprocessable');
  });

  it('reads a PDF that has only an owner password (it opens without one) like the plain PDF', async () => {
    const locked = await extractText(fixture('owner-locked.pdf'));
    const plain = await extractText(fixture('manuscript.pdf'));
    expect(locked.text).toBe(plain.text);
  });

  it('says a password-protected Word file is protected (.docx and .doc)', async () => {
    for (const data of [encryptedDocx(), encryptedDoc()]) {
      const err = await extractText(data).catch((e) => e);
      expect(err).toMatchObject({ reason: 'encrypted' });
      expect(err.message).toMatch(/password-protected/);
    }
  });

  it('reads the format from the bytes: a Word file is read whatever it is called', async () => {
    // extractText takes no name at all; a truncated .docx is corrupt, not "unsupported".
    const docx = fixture('manuscript.docx');
    const err = await extractText(docx.subarray(0, 3000)).catch((e) => e);
    expect(err).toMatchObject({ reason: 'corrupt' });
    const doc = fixture('manuscript.doc');
    expect((await extractText(doc)).kind).toBe('doc');
  });
});
