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
