import { z } from 'zod';
import type { FileRule } from './upload-rules.ts';
import { blankless, journalPathSchema, journalTitle } from './journals.ts';

/**
 * The site admin's OJS import (issue 26, decision 0069): the upload form's fields (the page and
 * `POST /api/admin/imports` alike) and the answers that show a run's progress and its report.
 */

export const IMPORT_FILE_FIELD = 'file';
/** Exports in one upload: a Native XML of issues and a Users XML, or several of each. */
export const IMPORT_MAX_FILES = 10;
export const IMPORT_FILE_HINT = 'OJS Native XML (issues) and Users XML exports, from OJS 3.3–3.5';
export const NOT_XML = 'is not an XML file: choose an OJS export (Native XML or Users XML, .xml).';
export const CHOOSE_A_FILE = 'Choose an OJS export: a Native XML or Users XML file.';

/** A checkbox: ticked is "on" (a form), true or "true" (the API); absent is false. */
const checkbox = z
  .union(
    [z.boolean(), z.enum(['true', 'false', 'on', 'off', 'yes', 'no', '1', '0'])],
    'Tick the box or leave it.',
  )
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === 'yes' || v === '1');

/** The journal's path on the OJS site: `jeii` in https://old.example.org/index.php/jeii/. */
export const ojsPathField = blankless(
  z
    .string()
    .trim()
    .max(64, 'The old path is at most 64 characters.')
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
      'The old path is the part after /index.php/ on the OJS site: letters, digits, dots, hyphens, underscores.',
    )
    .transform((v) => v.toLowerCase()),
);

export const JOURNAL_CHOICE = 'Choose the journal to import into, or name a new one.';

export const importFieldsSchema = z
  .object({
    journal: blankless(z.string().trim().toLowerCase().max(200)),
    newPath: blankless(journalPathSchema),
    newTitle: blankless(journalTitle),
    oldPath: ojsPathField,
    dryRun: checkbox,
    sendPasswordLinks: checkbox,
  })
  .superRefine((v, ctx) => {
    if (v.journal !== undefined) {
      if (v.newPath !== undefined || v.newTitle !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['journal'],
          message: 'Choose an existing journal or name a new one, not both.',
        });
      return;
    }
    if (v.newPath === undefined && v.newTitle === undefined) {
      ctx.addIssue({ code: 'custom', path: ['journal'], message: JOURNAL_CHOICE });
      return;
    }
    if (v.newPath === undefined)
      ctx.addIssue({ code: 'custom', path: ['newPath'], message: 'Give the new journal a path.' });
    if (v.newTitle === undefined)
      ctx.addIssue({ code: 'custom', path: ['newTitle'], message: 'The journal title is required.' });
  });
export type ImportFields = z.output<typeof importFieldsSchema>;

/** An upload's name says XML (the importer reads what is inside; a ZIP or a PDF is refused at once). */
export function looksLikeXml(filename: string, head: Buffer | string): boolean {
  const text = (typeof head === 'string' ? head : head.subarray(0, 512).toString('utf8'))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /\.xml$/i.test(filename) && text.startsWith('<');
}

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;

const counts = z.object({
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  refused: z.number(),
});

export const importReportResponse = z.object({
  issues: counts,
  articles: counts,
  users: counts,
  notices: z.array(
    z.object({
      file: z.string(),
      path: z.string().describe('The element, e.g. issues/issue[2]/articles/article[1]'),
      line: z.number(),
      message: z.string(),
      level: z.enum(['refused', 'warning']),
    }),
  ),
  unmappedGroups: z
    .record(z.string(), z.number())
    .describe('OJS groups that mean nothing here, with how many accounts'),
});
export type ImportReportView = z.infer<typeof importReportResponse>;

export const importRunResponse = z.object({
  id: z.number(),
  journal: z.object({ id: z.number(), title: z.string(), url: z.string() }),
  status: z.enum(IMPORT_STATES),
  dryRun: z.boolean(),
  oldPath: z.string().nullable(),
  files: z.array(z.string()).describe('The exports’ names, as uploaded'),
  total: z.number().describe('Items to import (issues, articles, users)'),
  done: z.number(),
  current: z.string().describe('The item being imported now'),
  report: importReportResponse.nullable(),
  error: z.string().nullable(),
  filesKept: z
    .boolean()
    .describe(
      'A finished dry run whose upload is still kept: it can be run for real without uploading again',
    ),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportRunView = z.infer<typeof importRunResponse>;

/** The form's two file fields (both posted as `file`): checked as chosen, before any upload. */
export const OJS_EXPORT_RULE: FileRule<'file'> = {
  field: IMPORT_FILE_FIELD,
  label: 'The export',
  accept: [],
  extensions: ['.xml'],
  acceptAttr: '.xml,text/xml,application/xml',
  wrongType: 'An OJS export is an XML file (.xml): Native XML or Users XML.',
};
