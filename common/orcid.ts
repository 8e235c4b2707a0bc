import { z } from 'zod';

/**
 * ORCID iDs, wherever a person has one: an account or reviewer profile (the person's own), and each author
 * of a submission or article (typed by whoever submits or edits it). One checker and one way to store them:
 * bare, as 0000-0002-1825-0097; shown and exported as the https://orcid.org/ address.
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

/** The iD's address, the form ORCID asks sites to show and link (and Crossref, DOAJ and JATS take). */
export const orcidUrl = (id: string) => `https://orcid.org/${id}`;

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
