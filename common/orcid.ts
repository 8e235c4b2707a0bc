/**
 * ORCID iDs, wherever a person has one: an account or reviewer profile (the person's own), and each author
 * of a submission or article (typed by whoever submits or edits it). One checker and one way to store them:
 * bare, as 0000-0002-1825-0097; shown and exported as the https://orcid.org/ address. No Zod here: the
 * article page's script uses `orcidUrl` (its metadata) and has no room for it; the form fields that check
 * an iD are in schemas.ts (`orcidField`, `authorOrcidField`).
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
