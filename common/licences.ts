import { LICENCES } from './journal.ts';

/**
 * A licence's name from its address (issue 26): Creative Commons' own addresses in any of their forms
 * (http or https, with or without `www.`, a trailing `legalcode` or language, any version) name their licence
 * ("CC BY 4.0", "CC0 1.0"); any other address has no name we know (null), and is shown as the address itself.
 */
export function licenceName(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  const host = u.hostname.replace(/^www\./, '');
  if (host !== 'creativecommons.org') return null;
  const licence = /^\/licenses\/(by(?:-nc)?(?:-sa|-nd)?)\/(\d+\.\d+)(?:\/|$)/.exec(u.pathname);
  if (licence) return `CC ${licence[1].toUpperCase()} ${licence[2]}`;
  const zero = /^\/publicdomain\/zero\/(\d+\.\d+)(?:\/|$)/.exec(u.pathname);
  if (zero) return `CC0 ${zero[1]}`;
  return null;
}

/** The licence an article is published under: its own when it has one, else the journal's. */
export function articleLicence(
  licenseUrl: string,
  journal: { name: string; url: string },
): { name: string; url: string } {
  if (!licenseUrl.trim()) return journal;
  const url = licenseUrl.trim();
  const known = LICENCES.find((l) => l.url === url);
  return { name: known?.name ?? licenceName(url) ?? url, url };
}

/** Creative Commons' licence elements: the words of the licence's title, and what readers may do. */
const CC_TERMS: Record<string, { title: string; terms: string }> = {
  BY: {
    title: 'Attribution',
    terms: 'You may share and adapt it for any purpose, including commercially',
  },
  'BY-SA': {
    title: 'Attribution-ShareAlike',
    terms:
      'You may share and adapt it for any purpose, including commercially, sharing what you make from it under the same licence',
  },
  'BY-NC': {
    title: 'Attribution-NonCommercial',
    terms: 'You may share and adapt it for non-commercial purposes',
  },
  'BY-NC-SA': {
    title: 'Attribution-NonCommercial-ShareAlike',
    terms:
      'You may share and adapt it for non-commercial purposes, sharing what you make from it under the same licence',
  },
  'BY-ND': {
    title: 'Attribution-NoDerivatives',
    terms: 'You may share it unchanged for any purpose, including commercially',
  },
  'BY-NC-ND': {
    title: 'Attribution-NonCommercial-NoDerivatives',
    terms: 'You may share it unchanged for non-commercial purposes',
  },
};

/**
 * What a licence lets readers do, in words, for Creative Commons' licences (any version): its full title
 * ("Creative Commons Attribution-NonCommercial 4.0 International licence") and a sentence on what readers may
 * do with the article, ending with the credit every CC BY licence asks for (the authors and the journal). Null
 * for any other address, which the page shows by its name only.
 */
export function licenceTerms(
  url: string,
  /** Where the article was first published, for the credit asked. */
  journalName: string,
): { title: string; terms: string } | null {
  const name = licenceName(url);
  if (!name) return null;
  const zero = /^CC0 (\d+\.\d+)$/.exec(name);
  if (zero)
    return {
      title: `Creative Commons CC0 ${zero[1]} Universal public domain dedication`,
      terms: 'You may copy, adapt and use it for any purpose, without asking.',
    };
  const m = /^CC ([A-Z-]+) (\d+\.\d+)$/.exec(name);
  const cc = m ? CC_TERMS[m[1]] : undefined;
  if (!m || !cc) return null;
  const version = m[2] === '4.0' ? '4.0 International' : m[2];
  return {
    title: `Creative Commons ${cc.title} ${version} licence`,
    terms: `${cc.terms}, provided you credit the authors and the original publication in ${journalName}.`,
  };
}
