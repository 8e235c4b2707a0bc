import { z } from 'zod';

/**
 * The similarity checker's answers (POST /api/plagiarism, the editor's report). The schemas document the
 * API; the page components import only the types (`import type`), so zod stays out of their bundles.
 */

const textRange = z.object({
  start: z.number().describe('Character offset in the text where the range starts'),
  end: z.number().describe('Character offset just after the range'),
  text: z.string(),
});

export const reportSourceSchema = z.object({
  ref: z.string().describe('"S1", "S2", … in order of share; passages name their source by it'),
  kind: z.enum(['article', 'submission_version', 'unpublished']),
  documentId: z.number().nullable().describe('Editors only'),
  sourceId: z.number().nullable(),
  articleId: z.number().nullable().describe('For a link to /article/{id} when the source is a published article'),
  journal: z
    .object({ title: z.string(), url: z.string() })
    .nullable()
    .optional()
    .describe('Another journal of the site a published source is in: its article is at {url}/article/{articleId}'),
  title: z.string().nullable(),
  label: z
    .string()
    .describe(
      'The title, or "An unpublished manuscript held by the journal" (to editors, for a source of another journal of the site: "A manuscript submitted to another journal of this site")',
    ),
  published: z.boolean(),
  matchedWords: z.number(),
  sharePercentage: z.number().describe('Two decimals; the shares add up to plagiarismPercentage'),
  passageCount: z.number(),
});

export const reportPassageSchema = z.object({
  source: z.string().describe('The ref of its source'),
  words: z.number(),
  exactWords: z.number(),
  manuscript: textRange,
  sourceText: textRange.nullable().describe('null when the viewer may not see the source (unpublished, for a reader)'),
});

export const grammarIssueSchema = z.object({
  start: z.number(),
  end: z.number(),
  kind: z.string(),
  rule: z.string(),
  message: z.string(),
  text: z.string(),
  suggestions: z.array(z.string()),
});

/**
 * What a check was compared against (issue 22): a check against a corpus still being indexed (after a first
 * start, a reindex, an import or a restore) can miss a copy, and must say so rather than look clean.
 */
export const corpusCoverageSchema = z.object({
  indexed: z.number().describe('Documents in the corpus when the check ran (published articles, manuscript versions)'),
  expected: z.number().describe('Documents that should be in it: every article PDF and manuscript version with readable text'),
  complete: z.boolean().describe('false: indexing was still under way, and a copy of a document not yet indexed is not found'),
  newestIndexedAt: z.string().nullable().describe('When the most recently indexed document was indexed'),
  unreadable: z.number().describe('Files tried and left out: no text the checker can read (a scanned PDF)'),
  message: z.string().nullable().describe('Said plainly when the corpus was incomplete; null when it was complete'),
});

export const similarityReportSchema = z.object({
  plagiarismPercentage: z.number().describe('Matched words / counted words × 100, two decimals'),
  grammarQualityPercentage: z
    .number()
    .nullable()
    .describe('Sentences with no counted grammar issue / sentences × 100, two decimals; null when not measured'),
  viewer: z.enum(['reader', 'editor']),
  settings: z.object({ excludeQuotes: z.boolean(), excludeBibliography: z.boolean(), minMatchWords: z.number() }),
  file: z.object({ kind: z.string(), pages: z.number().nullable() }),
  words: z.object({
    total: z.number(),
    counted: z.number(),
    matched: z.number(),
    quoted: z.number(),
    bibliography: z.number(),
  }),
  text: z.string().describe("The manuscript's text as read; passages and grammar issues point into it"),
  sources: z.array(reportSourceSchema),
  passages: z.array(reportPassageSchema),
  grammar: z.object({
    measure: z.string(),
    available: z.boolean(),
    error: z.string().optional(),
    sentences: z.number(),
    sentencesWithIssues: z.number(),
    issues: z.array(grammarIssueSchema),
  }),
  timings: z.record(z.string(), z.number()),
  corpus: corpusCoverageSchema
    .nullable()
    .describe('What the check was compared against; null for a report stored before this was recorded'),
});

export const submissionReportSchema = z.object({
  submissionId: z.number(),
  submissionFileId: z.number(),
  version: z.number(),
  versions: z.array(z.object({ submissionFileId: z.number(), version: z.number() })),
  stored: z.boolean().describe('The report made on arrival (default filters) rather than one run just now'),
  checkedAt: z.string(),
  report: similarityReportSchema,
});

export type SimilarityReportData = z.infer<typeof similarityReportSchema>;
export type ReportSourceData = z.infer<typeof reportSourceSchema>;
export type ReportPassageData = z.infer<typeof reportPassageSchema>;
export type GrammarIssueData = z.infer<typeof grammarIssueSchema>;
export type SubmissionReportData = z.infer<typeof submissionReportSchema>;
export type CorpusCoverage = z.infer<typeof corpusCoverageSchema>;
