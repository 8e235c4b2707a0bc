/**
 * Text extraction from manuscripts: PDF (unpdf 1.7, i.e. pdf.js), .docx and .doc (word-extractor). The
 * format is read from the bytes (detectKind), never from the name. Failures are ExtractionErrors with a
 * code and a message a person can act on; a PDF without a text layer is an error, never "0 % similar".
 */
import { createRequire } from 'node:module';
import { ZipError, ZipExpandsError, expandsMessage, guardZip } from '../content/zip.ts';
import { DomainError } from '../errors.ts';
import { type DetectedKind, detectKind, wordEncrypted } from '../files/content-type.ts';
import { normalizeText, tokenize } from './text.ts';

export type ExtractionErrorCode = 'empty' | 'unsupported' | 'encrypted' | 'corrupt' | 'no_text';

export const EXTRACTION_MESSAGES: Record<ExtractionErrorCode, string> = {
  empty: 'The file is empty (0 bytes). Please choose the right file.',
  unsupported: 'Only Word (.doc, .docx) and PDF files can be checked. The content of this file is neither.',
  encrypted:
    'This file is password-protected, so its text cannot be read. Please upload a copy without a password or encryption.',
  corrupt: 'This file is damaged or incomplete, so its text cannot be read. Please export it again and upload it.',
  no_text:
    'No text could be read from this file: it seems to be a scanned image. Please upload the PDF exported from your word processor (with a text layer) or the Word file.',
};

/**
 * A file whose text cannot be read: a refusal of the file (decision 0042), its message under the `file` field.
 * `reason` says why (it crosses from the worker by name).
 */
export class ExtractionError extends DomainError {
  override readonly name = 'ExtractionError';
  constructor(
    readonly reason: ExtractionErrorCode,
    message = EXTRACTION_MESSAGES[reason],
  ) {
    super(
      reason === 'unsupported' ? 'unsupported_type' : reason === 'empty' ? 'invalid' : 'unprocessable',
      message,
      { file: message },
    );
  }
}

export interface ExtractedText {
  kind: 'pdf' | 'doc' | 'docx';
  /** The normalised text (see text.ts). */
  text: string;
  pages: number | null;
}

/** Fewer words than this (in all, or per page of a PDF) means there is no usable text layer. */
const MIN_WORDS = 20;
const MIN_WORDS_PER_PAGE = 5;

export async function extractText(data: Buffer | Uint8Array): Promise<ExtractedText> {
  const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const kind: DetectedKind = detectKind(buffer);
  if (kind === 'empty') throw new ExtractionError('empty');
  if (kind === 'pdf') return extractPdf(buffer);
  if (kind === 'doc' || kind === 'docx') return extractWord(buffer, kind);
  throw new ExtractionError('unsupported');
}

async function extractPdf(data: Buffer): Promise<ExtractedText> {
  // An encrypted PDF that opens without a password (owner password only) is read; pdf.js tells the others.
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the array it is given: pass a copy.
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false });
  } catch (err) {
    throw pdfError(err);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text);
      page.cleanup();
    }
    const text = normalizeText(pages.join('\n\n'));
    const words = tokenize(text).words.length;
    if (words < MIN_WORDS || words / pdf.numPages < MIN_WORDS_PER_PAGE) throw new ExtractionError('no_text');
    return { kind: 'pdf', text, pages: pdf.numPages };
  } catch (err) {
    throw err instanceof ExtractionError ? err : pdfError(err);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

function pdfError(err: unknown): ExtractionError {
  const name = (err as { name?: string })?.name;
  if (name === 'PasswordException') return new ExtractionError('encrypted');
  return new ExtractionError('corrupt');
}

type WordDocument = { getBody(): string; getFootnotes(): string; getEndnotes(): string };
type WordExtractorClass = new () => { extract(source: Buffer): Promise<WordDocument> };

async function extractWord(data: Buffer, kind: 'doc' | 'docx'): Promise<ExtractedText> {
  if (wordEncrypted(data)) throw new ExtractionError('encrypted');
  if (kind === 'docx') {
    try {
      await guardZip(data);
    } catch (err) {
      if (err instanceof ZipExpandsError) throw new ExtractionError('corrupt', expandsMessage('This file', err.detail));
      if (err instanceof ZipError) throw new ExtractionError('corrupt');
      throw err;
    }
  }
  const WordExtractor = createRequire(import.meta.url)('word-extractor') as WordExtractorClass;
  let doc: WordDocument;
  try {
    doc = await new WordExtractor().extract(data);
  } catch {
    throw new ExtractionError('corrupt');
  }
  const raw = [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].filter((t) => t.trim()).join('\n\n');
  const text = normalizeText(raw);
  if (tokenize(text).words.length === 0) {
    throw new ExtractionError('no_text', 'This document contains no text to check.');
  }
  return { kind, text, pages: null };
}

