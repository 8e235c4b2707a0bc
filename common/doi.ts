import { z } from 'zod';
import { DOI_PATTERN } from './schemas.ts';

/**
 * DOI registration (decision 0064): the suffix pattern, the settings editors edit, the states an article's
 * DOI goes through, and the API's shapes. Shared by the DOI page and the API.
 */

export const DOI_STATES = ['not_deposited', 'queued', 'submitted', 'registered', 'failed', 'stale'] as const;
export type DoiStateName = (typeof DOI_STATES)[number];

/** What the page says of each state. */
export const DOI_STATE_LABELS: Record<DoiStateName, string> = {
  not_deposited: 'Not deposited',
  queued: 'Queued',
  submitted: 'Submitted',
  registered: 'Registered',
  failed: 'Failed',
  stale: 'Stale',
};

/** The placeholders a pattern may name: what each stands for. */
export const DOI_PLACEHOLDERS = {
  prefix: "the journal's DOI prefix (10.xxxx)",
  journal: "the journal's abbreviation, in lower case",
  year: "the volume's year",
  volume: 'the volume number',
  issue: 'the issue number',
  number: "the article's number in its issue (1, 2, …)",
  id: "the article's id",
} as const;
export type DoiPlaceholder = keyof typeof DOI_PLACEHOLDERS;

export const DEFAULT_DOI_PATTERN = '{prefix}/{journal}.{year}.{volume}.{issue}.{number}';

/** The values a pattern is filled with. */
export type DoiPatternValues = Record<DoiPlaceholder, string | number>;

/** Fills a pattern (checked by `doiPatternProblem`) with an article's values. */
export function fillDoiPattern(pattern: string, values: DoiPatternValues): string {
  return pattern.replace(/\{(\w+)\}/g, (_, name: DoiPlaceholder) =>
    String(values[name])
      .toLowerCase()
      .replace(/[^a-z0-9._;()/:-]+/g, '-'),
  );
}

/**
 * The DOI a pattern gives, with the part of a value that is empty left out rather than left empty (a journal
 * without an abbreviation yet, decision 0062: `10.5555/.2026…` becomes `10.5555/2026…`); null when what it
 * makes is not a DOI.
 */
export function doiFromPattern(pattern: string, values: DoiPatternValues): string | null {
  const doi = fillDoiPattern(pattern, values)
    .replace(/\/[.-]+/, '/')
    .replace(/\.{2,}/g, '.')
    .replace(/[.-]+$/, '');
  return DOI_PATTERN.test(doi) ? doi : null;
}

const SAMPLE: DoiPatternValues = {
  prefix: '10.12345',
  journal: 'cjei',
  year: 2026,
  volume: 3,
  issue: 2,
  number: 7,
  id: 123,
};

/** Why a pattern cannot make DOIs (the editor's words), or null when it can. */
export function doiPatternProblem(pattern: string): string | null {
  const unknown = [...pattern.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((name) => !(name in DOI_PLACEHOLDERS));
  if (unknown.length)
    return `Unknown placeholder ${unknown.map((n) => `{${n}}`).join(', ')}: use ${Object.keys(
      DOI_PLACEHOLDERS,
    )
      .map((n) => `{${n}}`)
      .join(', ')}.`;
  if (/[{}]/.test(pattern.replace(/\{\w+\}/g, '')))
    return 'A brace is not closed: write placeholders as {name}.';
  if (!pattern.startsWith('{prefix}/'))
    return 'The pattern must start with {prefix}/, such as {prefix}/cjei.{year}.{volume}.{issue}.{number}.';
  if (!/\{(number|id)\}/.test(pattern))
    return 'The pattern must name {number} or {id}, so that each article gets its own DOI.';
  if (/\s/.test(pattern)) return 'A DOI has no spaces: take them out of the pattern.';
  const sample = fillDoiPattern(pattern, SAMPLE);
  if (!DOI_PATTERN.test(sample) || sample.length > 200)
    return `The pattern does not make a valid DOI (it would make ${sample}).`;
  return null;
}

export const doiPatternField = z
  .string('Write the DOI pattern, or leave it empty.')
  .trim()
  .max(200, 'The DOI pattern must be at most 200 characters.')
  .superRefine((v, ctx) => {
    if (v === '') return;
    const problem = doiPatternProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const yesNo = (message: string) =>
  z
    .union([z.boolean(), z.enum(['true', 'false', 'on', 'off'])], message)
    .transform((v) => v === true || v === 'true' || v === 'on');

const endpointUrl = z
  .string()
  .trim()
  .max(500, 'The address must be at most 500 characters.')
  .refine(
    (v) => v === '' || /^https?:\/\/[^\s]+$/.test(v),
    'Write an address starting with https://, or leave it empty.',
  );

/**
 * What an editor saves. The password and DOAJ key are write-only: left out or empty, the stored one stays;
 * `clear_password` / `clear_doaj_key` remove it.
 */
export const doiSettingsInputSchema = z.object({
  pattern: doiPatternField,
  crossref_username: z
    .string('Write the Crossref username.')
    .trim()
    .max(200, 'The username must be at most 200 characters.'),
  crossref_password: z.string().max(200, 'The password must be at most 200 characters.').optional(),
  clear_password: yesNo('Say whether to remove the stored password (true or false).').optional(),
  crossref_mode: z.enum(['test', 'production'], "Choose Crossref's test service or production."),
  crossref_endpoint: endpointUrl.optional(),
  auto_deposit: yesNo('Say whether DOIs are deposited on publication (true or false).'),
  doaj_enabled: yesNo('Say whether articles are sent to DOAJ (true or false).'),
  doaj_api_key: z.string().max(200, 'The DOAJ API key must be at most 200 characters.').optional(),
  clear_doaj_key: yesNo('Say whether to remove the stored DOAJ key (true or false).').optional(),
  doaj_endpoint: endpointUrl.optional(),
});
export type DoiSettingsInput = z.infer<typeof doiSettingsInputSchema>;

export const CROSSREF_ENDPOINTS = {
  test: 'https://test.crossref.org/v2/deposits',
  production: 'https://api.crossref.org/v2/deposits',
} as const;
export const DOAJ_ENDPOINT = 'https://doaj.org/api';

/** The settings as the API and page show them: never the password or the key, only whether one is set. */
export const doiSettingsResponse = z.object({
  prefix: z.string(),
  pattern: z.string(),
  crossrefUsername: z.string(),
  hasPassword: z.boolean(),
  crossrefMode: z.enum(['test', 'production']),
  crossrefEndpoint: z.string(),
  /** Where deposits go now (the explicit address, else the mode's). */
  depositUrl: z.string(),
  autoDeposit: z.boolean(),
  doajEnabled: z.boolean(),
  hasDoajKey: z.boolean(),
  doajEndpoint: z.string(),
  hasIssn: z.boolean(),
});
export type DoiSettingsView = z.infer<typeof doiSettingsResponse>;

export const doiRowResponse = z.object({
  articleId: z.number(),
  title: z.string(),
  doi: z.string().nullable(),
  published: z.boolean(),
  volume: z.number(),
  issue: z.number(),
  state: z.enum(DOI_STATES),
  message: z.string().nullable(),
  batchId: z.string().nullable(),
  registeredAt: z.string().nullable(),
  doajState: z.enum(DOI_STATES),
  doajMessage: z.string().nullable(),
});
export type DoiRow = z.infer<typeof doiRowResponse>;

export const doiListQuery = z.object({
  state: z.enum(DOI_STATES, 'Choose a state from the list.').optional(),
});

export const doiDepositInput = z.object({
  article_ids: z
    .array(
      z.union([z.number().int().min(1), z.string().regex(/^\d{1,10}$/)]),
      'Choose the articles to deposit.',
    )
    .min(1, 'Choose at least one article to deposit.')
    .max(500, 'Deposit at most 500 articles at once.')
    .transform((ids) => [...new Set(ids.map(Number))]),
});
