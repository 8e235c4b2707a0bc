import { z } from 'zod';
import { APC_DEFAULTS, apcSettingsSchema } from './apc.ts';
import { REVIEW_SETTINGS_DEFAULTS, reviewSettingsSchema } from './review.ts';

/** The journal's settings: seeded on first run, edited by the office without a deploy. */
export const journalSettingsSchema = z.object({
  name: z.string().min(1),
  abbreviation: z.string().min(1),
  description: z.string().min(1),
  /** Empty until the ISSN centre assigns one (a new journal of the site: decision 0062). */
  issnOnline: z.union([z.literal(''), z.string().regex(/^\d{4}-\d{3}[\dX]$/)]),
  publisher: z.string().min(1),
  publisherAddress: z.string().min(1),
  email: z.email(),
  phone: z.string().min(1),
  startYear: z.number().int(),
  frequency: z.string().min(1),
  issuesPerYear: z.number().int().positive(),
  language: z.string().min(2),
  license: z.object({ name: z.string(), url: z.url() }),
  areas: z.array(z.string()),
  doiPrefix: z.string().regex(/^10\.\d{4,9}$/),
  depositorName: z.string(),
  depositorEmail: z.email(),
  /**
   * `approved-accounts` keeps the spec's rule (sign in, and be approved, to download); `open` lets anyone
   * download published PDFs, which DOAJ requires.
   */
  downloads: z.enum(['approved-accounts', 'open']),
  /** E-mail the editors a daily digest of accounts waiting for approval (on unless the admin turns it off). */
  pendingAccountsDigest: z.boolean().default(true),
  /** Authors must send the signed copyright form (a PDF) with a submission (issue 22; off unless the admin asks). */
  copyrightFormRequired: z.boolean().default(false),
  /** Peer review's defaults: due dates, mode, reminders, time zone (decision 0023). */
  review: reviewSettingsSchema.default(REVIEW_SETTINGS_DEFAULTS),
  /** The article processing charge's rule and payment details (decision 0063): the spec's until edited. */
  apc: apcSettingsSchema.default(APC_DEFAULTS),
  /** The journal's logo (decision 0062): its stored file, set and removed by its admin; none until then. */
  logo: z
    .object({
      fileId: z.number().int(),
      sha256: z.string(),
      mediaType: z.string(),
      width: z.number().int(),
      height: z.number().int(),
    })
    .nullable()
    .optional(),
});
export type JournalSettings = z.infer<typeof journalSettingsSchema>;
export type JournalLogo = NonNullable<JournalSettings['logo']>;

/** A journal's logo's address under its address (`base`): a new logo is a new address, kept for ever. */
export function logoHref(base: string, logo: Pick<JournalLogo, 'sha256'>): string {
  return `${base}/api/journal/logo?v=${logo.sha256.slice(0, 16)}`;
}

/** ISSN check digit (ISO 3297): weights 8..2 over the first seven digits, mod 11, 10 written X. */
export function issnCheckDigitOk(issn: string): boolean {
  const digits = issn.replace('-', '');
  if (!/^\d{7}[\dX]$/.test(digits)) return false;
  const sum = [...digits.slice(0, 7)].reduce((n, d, i) => n + Number(d) * (8 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return digits[7] === (check === 10 ? 'X' : String(check));
}

const required = (label: string, max: number) =>
  z
    .string(`${label} is required.`)
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const DOWNLOAD_POLICIES = ['approved-accounts', 'open'] as const;

/**
 * What the admin edits in the dashboard's Journal settings, as single-line or paragraph fields. Shared by the
 * page's form and the API.
 */
const journalSettingsTextSchema = z.object({
  name: required('The journal title', 200),
  abbreviation: required('The abbreviation', 40),
  // Empty until the ISSN centre assigns one: the pages and exports then name none (decision 0062).
  issnOnline: z
    .string('Write the online ISSN, or leave it empty until one is assigned.')
    .trim()
    .toUpperCase()
    .regex(
      /^(\d{4}-\d{3}[\dX])?$/,
      'Write the ISSN as four digits, a hyphen and four more, such as 2049-3630 (or leave it empty until one is assigned).',
    )
    .refine(
      (v) => v === '' || issnCheckDigitOk(v),
      'This ISSN has a wrong check digit: check it against the ISSN record.',
    ),
  publisher: required('The publisher', 200),
  publisherAddress: required("The publisher's address", 400),
  email: z.email("Enter the journal's e-mail address, such as editorial@example.org."),
  phone: required('The phone number', 40),
  doiPrefix: z
    .string('The DOI prefix is required.')
    .trim()
    .regex(/^10\.\d{4,9}$/, 'A DOI prefix is 10. followed by 4 to 9 digits, such as 10.12345.'),
  depositorName: required("The depositor's name", 200),
  depositorEmail: z.email("Enter the depositor's e-mail address, such as crossref@example.org."),
  downloads: z.enum(DOWNLOAD_POLICIES, 'Choose who may download articles.'),
  /** Left out by an API client that does not know it: the stored choice stays. */
  pendingAccountsDigest: z
    .boolean('Say whether editors get the daily digest of accounts waiting for approval (true or false).')
    .optional(),
  /** Left out by an API client that does not know it: the stored choice stays. */
  copyrightFormRequired: z
    .boolean('Say whether a submission must include the signed copyright form (true or false).')
    .optional(),
});
/** The Creative Commons licences the settings page offers (an API client may give any licence with its address). */
export const LICENCES = [
  { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
  { name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
  { name: 'CC BY-NC 4.0', url: 'https://creativecommons.org/licenses/by-nc/4.0/' },
  { name: 'CC BY-NC-SA 4.0', url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/' },
  { name: 'CC BY-ND 4.0', url: 'https://creativecommons.org/licenses/by-nd/4.0/' },
  { name: 'CC BY-NC-ND 4.0', url: 'https://creativecommons.org/licenses/by-nc-nd/4.0/' },
  { name: 'CC0 1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' },
] as const;

const WHOLE_ISSUES = 'Give the number of issues a year as a whole number from 1 to 52, such as 4.';
const WHOLE_YEAR = 'Give the year of the first issue as four digits, such as 2025.';

/**
 * The journal's own facts (decision 0062): what the home page, the site's list of journals, the reviewers'
 * areas and every export say of it. Each is kept as stored when an API client leaves it out.
 */
const journalFactsSchema = z.object({
  description: required('The description', 2000).optional(),
  areas: z
    .array(required('An area', 80), "List the journal's areas, one per line.")
    .max(30, 'Give at most 30 areas.')
    .refine((a) => new Set(a).size === a.length, 'Name each area once.')
    .optional(),
  frequency: required('The frequency', 40).optional(),
  issuesPerYear: z
    .number(WHOLE_ISSUES)
    .int(WHOLE_ISSUES)
    .min(1, WHOLE_ISSUES)
    .max(52, WHOLE_ISSUES)
    .optional(),
  startYear: z.number(WHOLE_YEAR).int(WHOLE_YEAR).min(1665, WHOLE_YEAR).max(2100, WHOLE_YEAR).optional(),
  language: z
    .string('Give the language of the articles as its ISO 639-1 code, such as en.')
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2,3}$/, 'Give the language of the articles as its ISO 639-1 code, such as en.')
    .optional(),
  license: z
    .object(
      {
        name: required('The licence', 80),
        url: z.url('Give the licence’s address, such as https://creativecommons.org/licenses/by/4.0/.'),
      },
      'Choose the licence articles are published under.',
    )
    .optional(),
});
export const JOURNAL_FACT_FIELDS = Object.keys(journalFactsSchema.shape) as (keyof z.infer<
  typeof journalFactsSchema
>)[];

/** The form's own fields and the journal's facts, plus peer review's defaults (left out by a client that does not know them: kept). */
export const journalSettingsEditSchema = journalSettingsTextSchema.extend({
  ...journalFactsSchema.shape,
  review: reviewSettingsSchema.optional(),
});
export type JournalSettingsEdit = z.infer<typeof journalSettingsEditSchema>;
/** The page form's single-value fields (peer review's defaults are a group of their own). */
export const JOURNAL_SETTINGS_FIELDS = Object.keys(journalSettingsTextSchema.shape) as (keyof z.infer<
  typeof journalSettingsTextSchema
>)[];
