import { Cite, type CslData, plugins } from '@citation-js/core';
import { fullTitle } from '../../common/metadata.ts';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-csl';
import '@citation-js/plugin-ris';
import sanitizeHtml from 'sanitize-html';
import {
  CITATION_FILES,
  CITATION_STYLES,
  type CitationFileFormat,
  type CitationStyleId,
  type FormattedCitation,
  keywordList,
  pageRange,
} from '../../common/citation.ts';
import type { JournalSettings } from '../../common/journal.ts';
import { splitName } from '../discovery/names.ts';
import { APA, CHICAGO, IEEE, MLA } from './citation-styles.ts';
import type { PublicArticle } from './present.ts';

/**
 * An article's citation in the reference styles (APA, MLA, Chicago, Harvard, IEEE, Vancouver) and as the
 * files reference managers import (BibTeX, RIS), made with Citation.js from one CSL-JSON record. Server
 * only: the article page gets the rendered text, never the library (decision 0011).
 */

const csl = plugins.config.get('@csl');
const templates = csl.styles;
for (const [name, xml] of [
  ['colophon-apa', APA],
  ['colophon-mla', MLA],
  ['colophon-chicago', CHICAGO],
  ['colophon-ieee', IEEE],
] as const) {
  if (!templates.has(name)) templates.add(name, xml);
}

// Cite Them Right is British: single quotes, punctuation outside them. plugin-csl bundles en-US only
// among the English locales; en-GB differs from it in exactly these style options and terms.
if (!csl.locales.has('en-GB')) {
  const enUs = csl.locales.get('en-US');
  csl.locales.add(
    'en-GB',
    enUs
      .replace('xml:lang="en-US"', 'xml:lang="en-GB"')
      .replace('punctuation-in-quote="true"', 'punctuation-in-quote="false"')
      .replace(/(<term name="open-quote">)[^<]*/, '$1‘')
      .replace(/(<term name="close-quote">)[^<]*/, '$1’')
      .replace(/(<term name="open-inner-quote">)[^<]*/, '$1“')
      .replace(/(<term name="close-inner-quote">)[^<]*/, '$1”'),
  );
}

/** Our style ids → Citation.js template names (Harvard and Vancouver are bundled with plugin-csl). */
const TEMPLATE: Record<CitationStyleId, string> = {
  apa: 'colophon-apa',
  mla: 'colophon-mla',
  chicago: 'colophon-chicago',
  harvard: 'harvard1',
  ieee: 'colophon-ieee',
  vancouver: 'vancouver',
};

type CitedArticle = Pick<
  PublicArticle,
  | 'id'
  | 'title'
  | 'abstract'
  | 'keywords'
  | 'pages'
  | 'doi'
  | 'publication_date'
  | 'volume_number'
  | 'issue_number'
  | 'url'
> &
  Partial<Pick<PublicArticle, 'issue_month' | 'issue_year' | 'subtitle'>> & {
    authors: readonly { name: string }[];
  };
type CitingJournal = Pick<JournalSettings, 'name' | 'abbreviation' | 'issnOnline' | 'publisher' | 'language'>;

/** The article as CSL-JSON: the one record every format is made from. */
export function articleCsl(article: CitedArticle, journal: CitingJournal): CslData {
  const { first, last } = pageRange(article.pages);
  // Cited by its issue (decision 0039): the volume's year and the issue's month when it has one.
  const [year, month, day] = article.issue_year
    ? [article.issue_year, article.issue_month ?? 0]
    : article.publication_date.split('-').map(Number);
  const authors = article.authors.map(({ name }) => {
    const { given, surname, suffix } = splitName(name);
    if (!given) return { literal: surname };
    return { given, family: surname, ...(suffix ? { suffix } : {}) };
  });
  const keywords = keywordList(article.keywords);
  return {
    id: `article-${article.id}`,
    type: 'article-journal',
    // "Title: Subtitle" (issue 26).
    title: fullTitle(article.title, article.subtitle).trim(),
    author: authors,
    'container-title': journal.name,
    ...(journal.abbreviation ? { 'container-title-short': journal.abbreviation } : {}),
    ...(journal.issnOnline ? { ISSN: journal.issnOnline } : {}),
    ...(journal.publisher ? { publisher: journal.publisher } : {}),
    ...(journal.language ? { language: journal.language } : {}),
    volume: String(article.volume_number),
    issue: String(article.issue_number),
    page: first === last ? String(first) : `${first}-${last}`,
    issued: { 'date-parts': [[year, month, day].filter((n) => Number.isInteger(n) && n > 0)] },
    ...(article.doi ? { DOI: article.doi } : {}),
    URL: article.url,
    ...(article.abstract.trim() ? { abstract: article.abstract.trim() } : {}),
    // A comma without a space: RIS writes one KW line per keyword, split on it.
    ...(keywords.length ? { keyword: keywords.join(',') } : {}),
  };
}

const CITATION_HTML: sanitizeHtml.IOptions = {
  // Italics and links only: citeproc also reads <b>, <sup>… typed into a title or a name as formatting.
  allowedTags: ['i', 'span', 'a'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['https', 'http'],
  disallowedTagsMode: 'discard',
};

/** One bibliography entry, without the processor's wrapping and without a list number ("1.", "[1]"). */
function entryOf(html: string): string {
  return html
    .replace(/<div class="csl-left-margin">[\s\S]*?<\/div>/g, '')
    .replace(/<\/?div[^>]*>/g, '')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The entry's plain text: its HTML without tags, entities decoded (half the work of a second rendering). */
function textOf(entry: string): string {
  return entry
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The article in every reference style, in the order the page shows them. */
export function formatCitations(article: CitedArticle, journal: CitingJournal): FormattedCitation[] {
  const cite = new Cite([articleCsl(article, journal)]);
  return CITATION_STYLES.map((style) => {
    const lang = style.id === 'harvard' ? 'en-GB' : 'en-US';
    const entry = entryOf(
      cite.format('bibliography', { template: TEMPLATE[style.id], lang, format: 'html', hyperlinks: true }),
    );
    return {
      id: style.id,
      label: style.label,
      edition: style.edition,
      html: sanitizeHtml(entry, CITATION_HTML),
      text: textOf(entry),
    };
  });
}

/** `cjei-v1i2-3.bib`: journal, volume, issue and article id. */
export function citationFilename(
  abbreviation: string,
  article: Pick<CitedArticle, 'id' | 'volume_number' | 'issue_number'>,
  format: CitationFileFormat,
): string {
  const journal =
    abbreviation
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'article';
  return `${journal}-v${article.volume_number}i${article.issue_number}-${article.id}.${CITATION_FILES[format].extension}`;
}

const BIBTEX_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The month as BibTeX's own macro, `month = mar`: what BibTeX styles and reference managers read. Citation.js
 * writes `{mar 1}` for a full date (a day inside the month, which BibTeX prints as it is) and `{3}` for a month.
 */
function bibtexMonth(body: string, record: CslData): string {
  const month = (record.issued as { 'date-parts': number[][] } | undefined)?.['date-parts']?.[0]?.[1];
  const name = month ? BIBTEX_MONTHS[month - 1] : undefined;
  if (!name) return body;
  return body.replace(/^(\s*month = )\{[^}\n]*\}(,?)$/m, `$1${name}$2`);
}

/** The BibTeX or RIS file of an article. */
export function citationFile(
  article: CitedArticle,
  journal: CitingJournal,
  format: CitationFileFormat,
): { body: string; contentType: string; filename: string } {
  const record = articleCsl(article, journal);
  let body: string;
  if (format === 'bibtex') {
    body = bibtexMonth(new Cite([record]).format('bibtex', { format: 'text' }), record);
  } else {
    // plugin-ris breaks values every 70 characters, and readers join the pieces with a space (a long
    // title comes back with a space inside a word). Values here have no line breaks, so every line that
    // does not start with a tag is such a piece: join them back.
    if (typeof record.abstract === 'string') record.abstract = record.abstract.replace(/\s+/g, ' ');
    const wrapped = new Cite([record]).format('ris', { format: 'text' });
    const lines: string[] = [];
    for (const line of wrapped.split('\n')) {
      if (lines.length && !/^[A-Z][A-Z0-9] {2}-( |$)/.test(line)) lines[lines.length - 1] += line;
      else lines.push(line);
    }
    body = lines.join('\n');
  }
  return {
    body: `${body.trim()}\n`,
    contentType: CITATION_FILES[format].contentType,
    filename: citationFilename(journal.abbreviation, article, format),
  };
}

/**
 * The citations of the articles being read, remembered by their record: rendering the six styles takes
 * the CSL processor some tens of milliseconds, and an article page is read far more often than edited.
 */
export class CitationService {
  private readonly cache = new Map<string, FormattedCitation[]>();

  constructor(private readonly maxEntries = 500) {}

  formats(article: CitedArticle, journal: CitingJournal): FormattedCitation[] {
    const key = JSON.stringify(articleCsl(article, journal));
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: the oldest goes first when the cache is full.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const formatted = formatCitations(article, journal);
    this.cache.set(key, formatted);
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    return formatted;
  }

  /**
   * Loads the CSL processor and compiles every style once: the first rendering should not be a reader's.
   * Called at start-up, once the server listens.
   */
  warmUp(): void {
    formatCitations(
      {
        id: 0,
        title: 'Warm-up',
        abstract: '',
        keywords: '',
        pages: '1-2',
        doi: '10.5555/warm-up',
        publication_date: '2025-01-01',
        volume_number: 1,
        issue_number: 1,
        url: 'http://localhost/article/0',
        authors: [{ name: 'Given Family' }],
      },
      { name: 'Journal', abbreviation: 'J', issnOnline: '', publisher: '', language: 'en' },
    );
  }

  format(article: CitedArticle, journal: CitingJournal, style: CitationStyleId): FormattedCitation {
    return this.formats(article, journal).find((c) => c.id === style)!;
  }

  file(article: CitedArticle, journal: CitingJournal, format: CitationFileFormat) {
    return citationFile(article, journal, format);
  }
}
