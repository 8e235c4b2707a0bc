import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { journalDefaults } from '../../content/journal.ts';
import { copyrightFormPdf } from './copyright-form.ts';

describe('the copyright form', () => {
  it('writes a one-page copyright transfer form', async () => {
    const journal = journalDefaults({ email: 'office@example.org' });
    const bytes = await copyrightFormPdf(journal);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toContain('Copyright Transfer Form');
  });
});
