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
    checkUpload(
      { field: 'submissionFile', filename, data: fixture(name) },
      { ...rule, accept: [...rule.accept] },
    );

  it('accepts the real manuscript in every format, and a scanned PDF', async () => {
    // owner-locked.pdf is encrypted with an owner password only (printing and changes restricted): it opens
    // for everyone, so it is a readable manuscript.
    for (const name of [
      'manuscript.pdf',
      'manuscript.doc',
      'manuscript.docx',
      'twocolumn.pdf',
      'scanned.pdf',
      'owner-locked.pdf',
    ]) {
      expect((await check(name)).mediaType).toMatch(/pdf|word|msword/);
    }
  });

  it('refuses disguised, empty, damaged and protected files with clear messages', async () => {
    await expect(check('png-named.pdf')).rejects.toEqual(
      expect.objectContaining({ code: 'unsupported_type', message: 'Must be Word or PDF.' }),
    );
    await expect(check('empty.pdf')).rejects.toEqual(
      expect.objectContaining({ code: 'invalid', message: expect.stringMatching(/empty/) }),
    );
    await expect(check('truncated.pdf')).rejects.toEqual(
      expect.objectContaining({ code: 'unprocessable', message: expect.stringMatching(/damaged/) }),
    );
    await expect(check('encrypted.pdf')).rejects.toEqual(
      expect.objectContaining({ code: 'unprocessable', message: expect.stringMatching(/password-protected/) }),
    );
  });

  it('refuses password-protected Word files as protected, even a .docx (an OLE container once encrypted)', async () => {
    for (const [data, filename] of [
      [encryptedDocx(), 'paper.docx'],
      [encryptedDoc(), 'paper.doc'],
    ] as const) {
      expect(wordEncrypted(data)).toBe(true);
      await expect(
        checkUpload(
          { field: 'submissionFile', filename, data },
          { ...manuscriptRule, accept: [...manuscriptRule.accept] },
        ),
      ).rejects.toEqual(
        expect.objectContaining({ code: 'unprocessable', message: expect.stringMatching(/password-protected/) }),
      );
    }
    expect(wordEncrypted(fixture('manuscript.doc'))).toBe(false);
    expect(wordEncrypted(fixture('manuscript.docx'))).toBe(false);
  });

  it('refuses content that contradicts the name', async () => {
    await expect(check('manuscript.pdf', manuscriptRule, 'paper.docx')).rejects.toEqual(
      expect.objectContaining({ code: 'unsupported_type' }),
    );
  });

  it('refuses files over the limit with 413', async () => {
    await expect(check('manuscript.pdf', { ...manuscriptRule, maxBytes: 1000 })).rejects.toEqual(
      expect.objectContaining({ code: 'too_large', message: expect.stringMatching(/too large/) }),
    );
  });

  it('checks the additional file is a real ZIP', async () => {
    const zipRule = {
      label: 'The additional file',
      accept: ['zip'] as const,
      maxBytes: 1 << 20,
      wrongType: 'Must be .zip.',
    };
    expect((await check('supplementary.zip', zipRule as never)).kind).toBe('zip');
    await expect(check('not-a-zip.zip', zipRule as never)).rejects.toEqual(
      expect.objectContaining({ code: 'unsupported_type' }),
    );
  });
});
