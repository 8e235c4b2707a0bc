import { z } from 'zod';
import { ARTICLE_TYPES, LIMITS } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { REGISTRABLE_ROLES } from './roles.ts';
import { unstorableFields } from './validate.ts';

/** Required text: trimmed, not blank, bounded. The messages name the field as the form labels it. */
export const requiredText = (label: string, max: number) =>
  z
    .string(`${label} is required.`)
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters.`).optional().default('');

export const emailField = (label = 'Email') =>
  z
    .string(`${label} is required.`)
    .trim()
    .min(1, `${label} is required.`)
    .max(LIMITS.email, `${label} must be at most ${LIMITS.email} characters.`)
    .pipe(z.email(`${label} must be a valid email address.`));

/** A password being chosen (registration, a reset, a change): the same rules everywhere. */
export const newPasswordField = (label = 'Password') =>
  z
    .string(`${label} is required.`)
    .min(1, `${label} is required.`)
    .min(LIMITS.password.min, `${label} must be at least ${LIMITS.password.min} characters.`)
    .max(LIMITS.password.max, `${label} must be at most ${LIMITS.password.max} characters.`);

export const registerSchema = z.object({
  username: z
    .string('Username is required.')
    .trim()
    .min(1, 'Username is required.')
    .min(LIMITS.username.min, `Username must be at least ${LIMITS.username.min} characters.`)
    .max(LIMITS.username.max, `Username must be at most ${LIMITS.username.max} characters.`)
    .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, dots, hyphens and underscores.'),
  password: newPasswordField(),
  email: emailField(),
  fullName: requiredText('Full name', LIMITS.name),
  contactNumber: requiredText('Contact number', LIMITS.phone).regex(
    /^[+()\d\s.-]{5,}$/,
    'Contact number must be a phone number.',
  ),
  institution: requiredText('Institution', LIMITS.institution),
  role: z.enum(REGISTRABLE_ROLES, 'Role is required: choose researcher or author.'),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  username: z.string('Username is required.').trim().min(1, 'Username is required.').max(200),
  password: z.string('Password is required.').min(1, 'Password is required.').max(LIMITS.password.max),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const contactSchema = z.object({
  name: requiredText('Name', LIMITS.name),
  email: emailField(),
  message: requiredText('Message', LIMITS.message),
});
export type ContactInput = z.infer<typeof contactSchema>;

/**
 * ORCID iDs, wherever a person has one: an account or reviewer profile (the person's own), and each author
 * of a submission or article (typed by whoever submits or edits it). One checker and one way to store them:
 * bare, as 0000-0002-1825-0097; shown and exported as the https://orcid.org/ address (citation.ts `orcidUrl`).
 */

/** ORCID iD check character (ISO 7064 MOD 11-2 over the first 15 digits; 10 is written X). */
export function orcidCheckOk(id: string): boolean {
  const chars = id.replace(/-/g, '');
  if (!/^\d{15}[\dX]$/.test(chars)) return false;
  let total = 0;
  for (const c of chars.slice(0, 15)) total = (total + Number(c)) * 2;
  const result = (12 - (total % 11)) % 11;
  return chars[15] === (result === 10 ? 'X' : String(result));
}

export const ORCID_PATTERN = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

/**
 * An optional ORCID iD field: empty clears it (null). Typed bare, as the https://orcid.org/ address people
 * copy from their record, or as orcid.org/…; kept bare and upper-case (the X). `whose` names the record a
 * wrong check digit should be copied from again.
 */
function orcidSchema(whose: string) {
  return z
    .string('ORCID iD must be text.')
    .trim()
    .max(60, 'ORCID iD must be at most 60 characters.')
    .transform((v) => v.replace(/^(https?:\/\/)?(www\.)?orcid\.org\//i, '').toUpperCase())
    .pipe(
      z.union([
        z.literal('').transform(() => null),
        z
          .string()
          .regex(ORCID_PATTERN, 'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).')
          // Zod runs this even after the pattern failed: a wrong shape is that message alone.
          .refine(
            (v) => !ORCID_PATTERN.test(v) || orcidCheckOk(v),
            `This ORCID iD has a wrong check digit: copy it from ${whose} ORCID record.`,
          ),
      ]),
    )
    .nullable()
    .optional();
}

/** A person's own ORCID iD (My account, the reviewer profile). */
export const orcidField = orcidSchema('your');

/** An author's ORCID iD on a submission or article: null when not given. */
export const authorOrcidField = orcidSchema("the author's").transform((v) => v ?? null);

export const authorSchema = z.object({
  name: requiredText('Author name', LIMITS.name),
  email: emailField('Author email'),
  affiliation: requiredText('Author affiliation', LIMITS.institution),
  superscript: z
    .string()
    .trim()
    .max(LIMITS.superscript, `Superscript must be at most ${LIMITS.superscript} characters.`)
    .optional()
    .default(''),
  /** Optional: bare, the https://orcid.org/ address or orcid.org/…; kept bare, null when not given. */
  orcid: authorOrcidField,
});
export type AuthorInput = z.infer<typeof authorSchema>;

/**
 * A form field that carries JSON text (multipart forms have no nesting: authors arrive so). Every such field
 * is read through this one helper: the text is decoded, then what it decodes to is held to the text rule
 * every input obeys (`common/validate.ts`) — an escape such as `\u0000` or `\ud800` becomes a NUL or a lone
 * surrogate only here, after the rule has looked at the raw text — and then to `schema`. A refusal is beside
 * the decoded value's own path (`authors.0.name`), as it would be in a JSON body.
 */
export const jsonTextField = <S extends z.ZodType>(
  schema: S,
  messages: { required: string; invalid: string },
) =>
  z
    .string(messages.required)
    .transform((text, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: messages.invalid });
        return z.NEVER;
      }
      const bad = Object.entries(unstorableFields(value));
      for (const [at, message] of bad)
        ctx.addIssue({ code: 'custom', message, path: at === '_' ? [] : at.split('.') });
      return bad.length ? z.NEVER : value;
    })
    .pipe(schema);

/** Authors arrive as a JSON text list in multipart forms; this parses and checks them. */
export const authorsJsonField = jsonTextField(
  z
    .array(authorSchema, 'Authors must be a JSON list of authors.')
    .min(1, 'At least one author is required.')
    .max(LIMITS.authors, `At most ${LIMITS.authors} authors.`),
  { required: 'Authors are required.', invalid: 'Authors must be a JSON list of authors.' },
);

export const submissionFieldsSchema = z.object({
  title: requiredText('Title', LIMITS.title),
  articleType: z.enum(ARTICLE_TYPES, `Article type must be one of: ${ARTICLE_TYPES.join(', ')}.`),
  keywords: requiredText('Keywords', LIMITS.keywords),
  abstract: requiredText('Abstract', LIMITS.abstract),
  conflictOfInterest: optionalText('Conflict of interest', LIMITS.statement),
  fundingStatement: optionalText('Funding statement', LIMITS.statement),
  dataAvailabilityStatement: optionalText('Data availability statement', LIMITS.statement),
  authors: authorsJsonField,
});
export type SubmissionFields = z.infer<typeof submissionFieldsSchema>;

export const PAGES_PATTERN = /^(\d{1,6})\s*[-–]\s*(\d{1,6})$/;
export const DOI_PATTERN = /^10\.\d{4,9}\/\S+$/;

export const pagesField = z
  .string('Pages are required.')
  .trim()
  .min(1, 'Pages are required.')
  .regex(PAGES_PATTERN, 'Pages must be written first-last, e.g. 1-10.')
  .refine((v) => {
    // Zod runs this check even after the pattern failed: a mismatch is the pattern's error, not a crash.
    const m = PAGES_PATTERN.exec(v);
    if (!m) return true;
    return Number(m[1]) >= 1 && Number(m[1]) <= Number(m[2]);
  }, 'The first page must be at least 1 and not after the last page.');

export const doiField = z
  .string('DOI is required.')
  .trim()
  .min(1, 'DOI is required.')
  .max(LIMITS.doi)
  .transform((v) => v.replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:)/i, ''))
  .pipe(z.string().regex(DOI_PATTERN, 'DOI must look like 10.1234/abc.2025.001.'));

/**
 * A DOI the editor may leave empty: the journal's DOI pattern then gives one as the article goes into its
 * issue (decision 0064). Empty is null.
 */
export const optionalDoiField = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
  doiField.nullable(),
);

const DIGITS = /^\s*\d{1,15}\s*$/;

/**
 * A whole number as forms, query strings and JSON send it: a number, or a text of digits. Nothing else is
 * read as one (`true`, `[1]`, `1e3`, `0x10`, ` ` are refused, where JavaScript's Number() would take them).
 */
export const wholeNumber = (messages: { required: string; invalid: string }) => {
  const error = (issue: { input?: unknown }) =>
    issue.input === undefined || (typeof issue.input === 'string' && issue.input.trim() === '')
      ? messages.required
      : messages.invalid;
  return z
    .union([z.number({ error }).int({ error }), z.string({ error }).regex(DIGITS, { error })], { error })
    .transform((v) => Number(v));
};

/** A database id: a whole number from 1 to 2147483647. */
export const idField = (
  label: string,
  messages = { required: `${label} is required.`, invalid: `${label} is not valid.` },
) => wholeNumber(messages).pipe(z.number().min(1, messages.invalid).max(2_147_483_647, messages.invalid));

/** A count or a position in a list (limit, offset, page): a whole number within bounds, else `fallback`. */
export const countField = (label: string, min: number, max: number, fallback: number) =>
  wholeNumber({ required: `${label} is required.`, invalid: `${label} must be a whole number.` })
    .pipe(
      z.number().min(min, `${label} must be at least ${min}.`).max(max, `${label} must be at most ${max}.`),
    )
    .default(fallback);

/** An id from a form field or a URL: the number, or null for anything that is not one. */
export function parseId(value: unknown): number | null {
  const parsed = idField('Id').safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A short optional text of an article's facts: '' clears it; left out, it is kept as stored. */
const articleFactText = (label: string, max: number) =>
  z
    .string(`${label} must be text.`)
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .optional();

const LANGUAGE_INVALID = 'Language must be a language code such as en, fr or pt-BR.';
const LICENCE_URL_INVALID =
  'Licence URL must be a web address starting with https://, such as a Creative Commons licence.';
const COPYRIGHT_YEAR_INVALID = 'Copyright year must be four digits, such as 2024.';

/**
 * The facts an article carries beyond its citation (issue 26; an imported OJS article's, and editable by its
 * editors): subtitle, journal section, language (BCP 47), licence URL ('' for the journal's licence), copyright
 * holder and year. Each is optional: '' (or null for the year) clears it, and an API client that leaves one
 * out keeps it as stored.
 */
export const articleFactsFields = {
  subtitle: articleFactText('Subtitle', LIMITS.title),
  section: articleFactText('Section', LIMITS.name),
  language: articleFactText('Language', 35).refine(
    (v) => !v || /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(v),
    LANGUAGE_INVALID,
  ),
  license_url: articleFactText('Licence URL', 500).refine(
    (v) => !v || (/^https?:\/\/[^\s/]+\.[^\s]*$/i.test(v) && URL.canParse(v)),
    LICENCE_URL_INVALID,
  ),
  copyright_holder: articleFactText('Copyright holder', LIMITS.name),
  copyright_year: z
    .union([z.null(), z.string().trim(), z.number()], { error: COPYRIGHT_YEAR_INVALID })
    .transform((v, ctx) => {
      if (v === null || v === '') return null;
      const s = String(v);
      if (!/^\d{4}$/.test(s)) {
        ctx.addIssue({ code: 'custom', message: COPYRIGHT_YEAR_INVALID });
        return z.NEVER;
      }
      return Number(s);
    })
    .optional(),
};

/** The article facts' form field names, each posted even when empty (an emptied field clears it). */
export const ARTICLE_FACT_FIELDS = Object.keys(articleFactsFields) as (keyof typeof articleFactsFields)[];

export const articleUploadFieldsSchema = z.object({
  title: requiredText('Title', LIMITS.title),
  abstract: requiredText('Abstract', LIMITS.abstract),
  keywords: requiredText('Keywords', LIMITS.keywords),
  pages: pagesField,
  doi: doiField,
  issue_id: idField('Issue'),
  authors: authorsJsonField,
  ...articleFactsFields,
});
export type ArticleUploadFields = z.infer<typeof articleUploadFieldsSchema>;

const currentYear = new Date().getFullYear();
export const volumeSchema = z.object({
  title: requiredText('Title', LIMITS.title),
  volume_number: idField('Volume number'),
  year: wholeNumber({ required: 'Year is required.', invalid: 'Year must be a whole number.' }).pipe(
    z
      .number()
      .min(1900, 'Year must be between 1900 and next year.')
      .max(currentYear + 1, 'Year must be between 1900 and next year.'),
  ),
});
export type VolumeInput = z.infer<typeof volumeSchema>;

const MONTH_INVALID = 'Publication month must be a month from 1 (January) to 12 (December).';

/**
 * An issue's month of publication (1–12, in its volume's year): optional, and cleared by null or an empty
 * field; issues dated by year alone have none.
 */
export const publicationMonthField = z
  .union([z.null(), z.literal(''), wholeNumber({ required: MONTH_INVALID, invalid: MONTH_INVALID })], {
    error: MONTH_INVALID,
  })
  .transform((v) => (v === '' ? null : v))
  .pipe(z.number().min(1, MONTH_INVALID).max(12, MONTH_INVALID).nullable());

export const issueSchema = z.object({
  title: requiredText('Title', LIMITS.title),
  description: requiredText('Description', LIMITS.description),
  volume_id: idField('Volume'),
  publication_month: publicationMonthField.optional(),
});
export type IssueInput = z.infer<typeof issueSchema>;

export const idParamSchema = z.object({ id: idField('Id') });

export { MESSAGES };
