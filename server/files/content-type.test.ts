import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/harness.ts';
import { detectKind, pdfProblem, wordEncrypted } from './content-type.ts';
import { encryptedDoc, encryptedDocx } from './testing.ts';
import { checkUpload } from './uploads.ts';

const manuscriptRule = {
  label: 'The main submission file',
  accept: ['pdf', 'doc', 'docx'] as const,
  maxBytes: 1024 * 1024,
  wrongType: 'Must be Word or PDF.',
};

describe('content detection on real files', () => {
  it.each([
    ['manuscript.pdf', 'pdf'],
    ['twocolumn.pdf', 'pdf'],
    ['scanned.pdf', 'pdf'],
    ['encrypted.pdf', 'pdf'],
    ['truncated.pdf', 'pdf'],
    ['manuscript.docx', 'docx'],
    ['manuscript.doc', 'doc'],
    ['supplementary.zip', 'zip'],
    ['png-named.pdf', 'png'],
    ['not-a-zip.zip', 'unknown'],
    ['empty.pdf', 'empty'],
  ])('%s is %s', (name, kind) => {
    expect(detectKind(fixture(name))).toBe(kind);
  });

  it('finds encrypted and truncated PDFs', () => {
    expect(pdfProblem(fixture('encrypted.pdf'))).toBe('encrypted');
    expect(pdfProblem(fixture('truncated.pdf'))).toBe('truncated');
    expect(pdfProblem(fixture('manuscript.pdf'))).toBeNull();
    expect(pdfProblem(fixture('twocolumn.pdf'))).toBeNull();
    expect(pdfProblem(fixture('scanned.pdf'))).toBeNull();
  });
});

describe('checkUpload', () => {
  const check = (name: string, rule = manuscriptRule, filename = name) =>
    checkUpload({ field: 'submissionFile', filename, data: fixture(name) }, { ...rule, accept: [...rule.accept] });

  it('accepts the real manuscript in every format, and a scanned PDF', () => {
    for (const name of ['manuscript.pdf', 'manuscript.doc', 'manuscript.docx', 'twocolumn.pdf', 'scanned.pdf']) {
      expect(check(name).mediaType).toMatch(/pdf|word|msword/);
    }
  });

  it('refuses disguised, empty, damaged and protected files with clear messages', () => {
    expect(() => check('png-named.pdf')).toThrow(expect.objectContaining({ status: 415, message: 'Must be Word or PDF.' }));
    expect(() => check('empty.pdf')).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/empty/) }));
    expect(() => check('truncated.pdf')).toThrow(expect.objectContaining({ status: 422, message: expect.stringMatching(/damaged/) }));
    expect(() => check('encrypted.pdf')).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/password-protected/) }),
    );
  });

  it('refuses password-protected Word files as protected, even a .docx (an OLE container once encrypted)', () => {
    for (const [data, filename] of [
      [encryptedDocx(), 'paper.docx'],
      [encryptedDoc(), 'paper.doc'],
    ] as const) {
      expect(wordEncrypted(data)).toBe(true);
      expect(() =>
        checkUpload({ field: 'submissionFile', filename, data }, { ...manuscriptRule, accept: [...manuscriptRule.accept] }),
      ).toThrow(expect.objectContaining({ status: 422, message: expect.stringMatching(/password-protected/) }));
    }
    expect(wordEncrypted(fixture('manuscript.doc'))).toBe(false);
    expect(wordEncrypted(fixture('manuscript.docx'))).toBe(false);
  });

  it('refuses content that contradicts the name', () => {
    expect(() => check('manuscript.pdf', manuscriptRule, 'paper.docx')).toThrow(expect.objectContaining({ status: 415 }));
  });

  it('refuses files over the limit with 413', () => {
    expect(() => check('manuscript.pdf', { ...manuscriptRule, maxBytes: 1000 })).toThrow(
      expect.objectContaining({ status: 413, message: expect.stringMatching(/too large/) }),
    );
  });

  it('checks the additional file is a real ZIP', () => {
    const zipRule = { label: 'The additional file', accept: ['zip'] as const, maxBytes: 1 << 20, wrongType: 'Must be .zip.' };
    expect(check('supplementary.zip', zipRule as never).kind).toBe('zip');
    expect(() => check('not-a-zip.zip', zipRule as never)).toThrow(expect.objectContaining({ status: 415 }));
  });
});

