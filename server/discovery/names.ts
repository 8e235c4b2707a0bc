/**
 * Author names are stored as written ("Meera Iyer", "K. Ramasamy", "Ludwig van Beethoven", "Sukarno").
 * Crossref and JATS want a given name and a surname; this splits sensibly without pretending to know every
 * naming tradition: "Surname, Given" is taken at its word, the last word is the surname otherwise, with
 * the lower-case particles before it (van, de, da, …) and a generational suffix after it kept apart, and
 * a single word is a surname alone (Crossref allows a person with no given name).
 */

export interface SplitName {
  given: string | null;
  surname: string;
  suffix: string | null;
}

const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'dos',
  'das',
  'do',
  'du',
  'la',
  'le',
  'ter',
  'ten',
  'bin',
  'binti',
  'ibn',
  'al',
  'el',
  'y',
  'st.',
  'zu',
  'af',
  'av',
]);
const SUFFIXES = new Set(['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv', 'v']);

export function splitName(full: string): SplitName {
  const name = full.replace(/\s+/g, ' ').trim();
  if (name.includes(',')) {
    const [surname, ...rest] = name.split(',').map((p) => p.trim());
    const given = rest.filter(Boolean);
    // "Smith, Jr." is a surname and a suffix, not a given name.
    if (given.length === 1 && SUFFIXES.has(given[0].toLowerCase())) {
      return { given: null, surname, suffix: given[0] };
    }
    if (surname && given.length) {
      const suffix =
        given.length > 1 && SUFFIXES.has(given[given.length - 1].toLowerCase()) ? given.pop()! : null;
      return { given: given.join(' ') || null, surname, suffix };
    }
  }
  const words = name.replace(/,/g, ' ').split(' ').filter(Boolean);
  let suffix: string | null = null;
  if (words.length > 2 && SUFFIXES.has(words[words.length - 1].toLowerCase())) suffix = words.pop()!;
  if (words.length <= 1) return { given: null, surname: words[0] ?? name, suffix };
  let start = words.length - 1;
  while (
    start > 1 &&
    PARTICLES.has(words[start - 1].toLowerCase()) &&
    words[start - 1] === words[start - 1].toLowerCase()
  ) {
    start--;
  }
  return { given: words.slice(0, start).join(' '), surname: words.slice(start).join(' '), suffix };
}

/** "Iyer, Meera": the inverted form Dublin Core creators conventionally take. */
export function invertedName(full: string): string {
  const { given, surname, suffix } = splitName(full);
  return [surname, given, suffix].filter(Boolean).join(', ');
}
