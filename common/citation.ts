/**
 * Bibliographic formatting shared by the article page, the listings and the server's metadata: one
 * citation format (spec section 9), one way to read pages, keywords and affiliations.
 */

export const DEFAULT_PAGES = { first: 1, last: 10 } as const;

export interface PageRange {
  first: number;
  last: number;
}

/** "3-12" (or "3–12") as numbers; the spec's default 1-10 when missing or unreadable. */
export function pageRange(pages: string | null | undefined): PageRange {
  const m = /^\s*(\d{1,6})\s*[-–—]\s*(\d{1,6})\s*$/.exec(pages ?? '');
  if (!m) return { ...DEFAULT_PAGES };
  return { first: Number(m[1]), last: Number(m[2]) };
}

/** Pages as printed: "1–10", with an en dash. */
export function formatPages(pages: string | null | undefined): string {
  const { first, last } = pageRange(pages);
  return first === last ? String(first) : `${first}–${last}`;
}

/** The keywords as a list: the articles table keeps them as one comma- (or semicolon-) separated text. */
export function keywordList(keywords: string | null | undefined): string[] {
  return (keywords ?? '')
    .split(/[,;]/)
    .map((k) => k.trim())
    .filter(Boolean);
}

export const doiUrl = (doi: string) => `https://doi.org/${doi}`;

/**
 * An ORCID iD's address, from the bare iD the journal keeps (0000-0002-1825-0097): the form ORCID asks sites
 * to show and link, and the one Crossref, DOAJ and JATS take. Here, beside `doiUrl`, because the article
 * page's script uses it (its metadata) and has no room for a module of its own; the checker is schemas.ts's.
 */
export const orcidUrl = (id: string) => `https://orcid.org/${id}`;

/** "Anna", "Anna and Ben", "Anna, Ben, and Chitra". */
export function joinNames(names: readonly string[]): string {
  const list = names.map((n) => n.trim()).filter(Boolean);
  if (list.length <= 2) return list.join(' and ');
  return `${list.slice(0, -1).join(', ')}, and ${list[list.length - 1]}`;
}

export interface AffiliatedAuthor {
  name: string;
  affiliation: string;
  superscript?: string | null;
}

/**
 * Authors with their affiliation numbers, and the numbered affiliation list. The numbers are given by
 * each distinct affiliation's first appearance, so they always agree with the list, whatever the editor
 * typed into the superscript fields (which, for well-formed data, are the same numbers).
 */
export function numberAffiliations<A extends AffiliatedAuthor>(
  authors: readonly A[],
): { authors: (A & { mark: string })[]; affiliations: { mark: string; text: string }[] } {
  const affiliations: { mark: string; text: string }[] = [];
  const byText = new Map<string, string>();
  const numbered = authors.map((author) => {
    const text = author.affiliation.trim();
    let mark = byText.get(text);
    if (!mark) {
      mark = String(affiliations.length + 1);
      byText.set(text, mark);
      affiliations.push({ mark, text });
    }
    return { ...author, mark };
  });
  return { authors: numbered, affiliations };
}

export interface CitationInput {
  authors: readonly { name: string }[];
  title: string;
  journal: string;
  volume: number | string;
  issue: number | string;
  /** Month and year, e.g. "March 2025". */
  monthYear: string;
  /** "first-last"; 1–10 when missing. */
  pages?: string | null;
  doi?: string | null;
  /** Used in place of the DOI link when the article has no DOI. */
  url?: string | null;
}

/** One piece of a citation: plain text, the title, the journal's name (italic) or a link. */
export type CitationPart =
  | { kind: 'text'; text: string }
  | { kind: 'title'; text: string }
  | { kind: 'journal'; text: string }
  | { kind: 'link'; text: string; href: string };

/**
 * The citation in the spec's order (authors, title, journal, volume, issue, month and year, pages, DOI
 * link), in the IEEE manner, e.g.
 * `Anna Rao and Ben Ng, "A Title," Journal Name, vol. 1, no. 2, March 2025, pp. 1–10, https://doi.org/10.5555/x.`
 * Names are kept as written: abbreviating given names goes wrong for many naming traditions.
 */
export function citationParts(c: CitationInput): CitationPart[] {
  const parts: CitationPart[] = [];
  const names = joinNames(c.authors.map((a) => a.name));
  if (names) parts.push({ kind: 'text', text: `${names}, ` });
  const title = c.title.trim();
  // The comma goes inside the quotes, unless the title ends with its own punctuation.
  const titleText = /[?!.]$/.test(title) ? title : `${title},`;
  parts.push({ kind: 'text', text: '“' }, { kind: 'title', text: titleText }, { kind: 'text', text: '” ' });
  parts.push({ kind: 'journal', text: c.journal.trim() });
  const pages = formatPages(c.pages);
  const pagesLabel = pages.includes('–') ? 'pp.' : 'p.';
  parts.push({
    kind: 'text',
    text: `, vol. ${c.volume}, no. ${c.issue}, ${c.monthYear.trim()}, ${pagesLabel} ${pages}`,
  });
  const link = c.doi ? doiUrl(c.doi) : c.url || null;
  if (link) parts.push({ kind: 'text', text: ', ' }, { kind: 'link', text: link, href: link });
  parts.push({ kind: 'text', text: '.' });
  return parts;
}

/** The citation as plain text, for the clipboard. */
export function formatCitation(c: CitationInput): string {
  return citationParts(c)
    .map((p) => p.text)
    .join('');
}

/** The reference styles shown beside the journal's own format, in the order the article page lists them. */
export const CITATION_STYLES = [
  { id: 'apa', label: 'APA', edition: 'APA Style, 7th edition' },
  { id: 'mla', label: 'MLA', edition: 'MLA Handbook, 9th edition' },
  { id: 'chicago', label: 'Chicago', edition: 'Chicago Manual of Style, 17th edition, author-date' },
  { id: 'harvard', label: 'Harvard', edition: 'Cite Them Right, 12th edition' },
  { id: 'ieee', label: 'IEEE', edition: 'IEEE Reference Guide' },
  { id: 'vancouver', label: 'Vancouver', edition: 'Citing Medicine, 2nd edition' },
] as const;
export type CitationStyleId = (typeof CITATION_STYLES)[number]['id'];

/** A citation rendered on the server: HTML (italics; escaped by the CSL processor) and plain text. */
export interface FormattedCitation {
  id: CitationStyleId;
  label: string;
  edition: string;
  html: string;
  text: string;
}

/** The files a reference manager imports: extension and media type. */
export const CITATION_FILES = {
  bibtex: { label: 'BibTeX', extension: 'bib', contentType: 'application/x-bibtex; charset=utf-8' },
  ris: { label: 'RIS', extension: 'ris', contentType: 'application/x-research-info-systems; charset=utf-8' },
} as const;
export type CitationFileFormat = keyof typeof CITATION_FILES;

/** Where an article's citation is served, in any format (`/api/articles/{id}/citation?format=…`). */
export const citationPath = (articleId: number, format: CitationFileFormat | CitationStyleId) =>
  `/api/articles/${articleId}/citation?format=${format}`;
