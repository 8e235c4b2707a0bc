const COUNTRIES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's English name from its ISO 3166-1 alpha-2 code ('DE' → 'Germany'); the code itself when unknown. */
export function countryName(code: string): string {
  try {
    return COUNTRIES.of(code.trim().toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
