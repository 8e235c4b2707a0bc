/**
 * The journal's language is kept as an ISO 639-1 code ("en"), sometimes with a region ("en-GB"). Crossref
 * takes the two-letter code; DOAJ wants ISO 639-2/B ("eng"). The table covers the languages a journal is
 * likely to publish in; an unknown code leaves DOAJ's optional language fields out rather than guess.
 */

const ISO_639_2B: Record<string, string> = {
  af: 'afr',
  ar: 'ara',
  az: 'aze',
  be: 'bel',
  bg: 'bul',
  bn: 'ben',
  bs: 'bos',
  ca: 'cat',
  cs: 'cze',
  cy: 'wel',
  da: 'dan',
  de: 'ger',
  el: 'gre',
  en: 'eng',
  eo: 'epo',
  es: 'spa',
  et: 'est',
  eu: 'baq',
  fa: 'per',
  fi: 'fin',
  fr: 'fre',
  ga: 'gle',
  gl: 'glg',
  gu: 'guj',
  he: 'heb',
  hi: 'hin',
  hr: 'hrv',
  hu: 'hun',
  hy: 'arm',
  id: 'ind',
  is: 'ice',
  it: 'ita',
  ja: 'jpn',
  ka: 'geo',
  kk: 'kaz',
  km: 'khm',
  kn: 'kan',
  ko: 'kor',
  ku: 'kur',
  la: 'lat',
  lt: 'lit',
  lv: 'lav',
  mk: 'mac',
  ml: 'mal',
  mn: 'mon',
  mr: 'mar',
  ms: 'may',
  mt: 'mlt',
  my: 'bur',
  ne: 'nep',
  nl: 'dut',
  no: 'nor',
  nb: 'nob',
  nn: 'nno',
  or: 'ori',
  pa: 'pan',
  pl: 'pol',
  ps: 'pus',
  pt: 'por',
  ro: 'rum',
  ru: 'rus',
  si: 'sin',
  sk: 'slo',
  sl: 'slv',
  sq: 'alb',
  sr: 'srp',
  sv: 'swe',
  sw: 'swa',
  ta: 'tam',
  te: 'tel',
  th: 'tha',
  tl: 'tgl',
  tr: 'tur',
  uk: 'ukr',
  ur: 'urd',
  uz: 'uzb',
  vi: 'vie',
  zh: 'chi',
};

/** "en" from "en", "en-GB" or "EN_us"; null when it is not a two-letter code. */
export function iso6391(language: string): string | null {
  const primary = language.trim().toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2}$/.test(primary) ? primary : null;
}

/** "eng" from "en" (or from "eng" itself); null when unknown. */
export function iso6392b(language: string): string | null {
  const code = language.trim().toLowerCase();
  if (/^[a-z]{3}$/.test(code) && Object.values(ISO_639_2B).includes(code)) return code;
  const two = iso6391(code);
  return two ? (ISO_639_2B[two] ?? null) : null;
}
