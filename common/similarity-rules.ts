import { type FileRule, MANUSCRIPT_RULE } from './upload-rules.ts';

/** The checker's rules that pages need too, without zod (common/similarity.ts holds the API schemas). */

/** Filters of a check: the smallest passage counted, in matched words. */
export const MIN_MATCH_WORDS = { min: 3, max: 200, default: 8 } as const;

/** What a check counts unless told otherwise (the arrival check of every manuscript uses these). */
export const OPTION_DEFAULTS = { excludeQuotes: false, excludeBibliography: true, minMatchWords: MIN_MATCH_WORDS.default } as const;

/**
 * The file of a plagiarism check (/plagiarism, POST /api/plagiarism): what a manuscript may be, up to
 * MAX_MANUSCRIPT_SIZE, in the checker's words. The page checks a chosen file with it (fileProblem), the
 * server with checkUpload.
 */
export const PLAGIARISM_RULE: FileRule<'file'> = {
  ...MANUSCRIPT_RULE,
  field: 'file',
  label: 'The file',
  wrongType: 'The file must be a Word document (.doc, .docx) or a PDF (.pdf).',
};
