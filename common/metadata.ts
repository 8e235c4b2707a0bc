import { doiUrl, keywordList, orcidUrl, pageRange } from './citation.ts';
import type { JournalSettings } from './journal.ts';
import { articleLicence } from './licences.ts';

/**
 * What an article page tells machines, in the server's HTML: Highwire Press `citation_*` tags (Google
 * Scholar), Dublin Core, Open Graph, and schema.org JSON-LD. Pure: the article, the journal's settings and
 * the site's base URL in; tags out. Shared, so the article page builds them from the one article object of
 * its route data (on the server and again when it hydrates) instead of carrying them (and the abstract
 * they repeat) in the data. Nothing here knows about React.
 */

export type MetaTag = { name: string; content: string } | { property: string; content: string };

export interface ArticleMetadata {
  /** The article's title, for <title>. */
  title: string;
  /** A short description (the abstract, cut at a word). */
  description: string;
  canonicalUrl: string;
  /** Highwire, then Dublin Core, then Open Graph tags, in the order they go into the page. */
  tags: MetaTag[];
  /** <link> elements: the canonical address and the Dublin Core schema. */
  links: { rel: string; href: string }[];
  /** A schema.org ScholarlyArticle; serialise it with `serializeJsonLd`. */
  jsonLd: Record<string, unknown>;
}

export type MetadataJournal = Pick<
  JournalSettings,
  'name' | 'abbreviation' | 'issnOnline' | 'publisher' | 'publisherAddress' | 'language' | 'license'
>;

/** The fields of a published article (the API's `PublicArticle`) the metadata is made from. */
export interface MetadataArticle {
  id: number;
  title: string;
  abstract: string;
  keywords: string | null;
  pages: string;
  doi: string | null;
  authors: readonly {
    name: string;
    affiliation?: string | null;
    email?: string | null;
    orcid?: string | null;
  }[];
  public_pdf_url: string | null;
  /** YYYY-MM-DD */
  publication_date: string;
  volume_number: number;
  issue_number: number;
  /** The page carries the article's full text (issue 16): Scholar and schema.org are told, with its JATS. */
  full_text?: boolean;
  /** An imported article's facts (issue 26): '' or absent for none (the journal's language and licence). */
  subtitle?: string;
  language?: string;
  license_url?: string;
  /** Its reference list as plain citations (Scholar's citation_reference). */
  references?: readonly string[];
}

/** The title as cited: "Title: Subtitle" (no colon added after a title ending in punctuation). */
export function fullTitle(title: string, subtitle?: string | null): string {
  const sub = subtitle?.trim();
  if (!sub) return title;
  return /[:?!.]$/.test(title.trim()) ? `${title.trim()} ${sub}` : `${title.trim()}: ${sub}`;
}

const DESCRIPTION_LENGTH = 300;

/** The text cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function truncate(text: string, max = DESCRIPTION_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** "2025/03/01" from "2025-03-01": the date format Google Scholar asks for. */
export const highwireDate = (isoDate: string) => isoDate.slice(0, 10).replaceAll('-', '/');

/**
 * An address at the journal's: a root-relative path goes under `baseUrl` whole, its path included (a journal
 * served by path, `https://example.org/beta`: decision 0057); an absolute URL stays as it is.
 */
function absolute(baseUrl: string, pathOrUrl: string): string {
  const base = `${baseUrl.replace(/\/+$/, '')}/`;
  return new URL(pathOrUrl.startsWith('/') ? pathOrUrl.slice(1) : pathOrUrl, base).toString();
}

export function articleMetadata(
  article: MetadataArticle,
  journal: MetadataJournal,
  baseUrl: string,
): ArticleMetadata {
  const url = absolute(baseUrl, `/article/${article.id}`);
  const pdfUrl = article.public_pdf_url ? absolute(baseUrl, article.public_pdf_url) : null;
  const keywords = keywordList(article.keywords);
  const { first, last } = pageRange(article.pages);
  const date = article.publication_date.slice(0, 10);
  const description = truncate(article.abstract);
  const doiLink = article.doi ? doiUrl(article.doi) : null;
  const volume = String(article.volume_number);
  const issue = String(article.issue_number);
  const title = fullTitle(article.title, article.subtitle);
  const language = article.language || journal.language;
  const licence = articleLicence(article.license_url ?? '', journal.license);

  const name = (n: string, content: string | number): MetaTag => ({ name: n, content: String(content) });
  const property = (p: string, content: string): MetaTag => ({ property: p, content });

  const highwire: MetaTag[] = [
    name('citation_journal_title', journal.name),
    name('citation_journal_abbrev', journal.abbreviation),
    ...(journal.issnOnline ? [name('citation_issn', journal.issnOnline)] : []),
    name('citation_publisher', journal.publisher),
    // Each author is followed by their own institution, e-mail and ORCID iD: Scholar pairs them by position.
    ...article.authors.flatMap((a) => [
      name('citation_author', a.name),
      ...(a.affiliation ? [name('citation_author_institution', a.affiliation)] : []),
      ...(a.email ? [name('citation_author_email', a.email)] : []),
      ...(a.orcid ? [name('citation_author_orcid', orcidUrl(a.orcid))] : []),
    ]),
    name('citation_title', title),
    name('citation_language', language),
    name('citation_publication_date', highwireDate(date)),
    name('citation_volume', volume),
    name('citation_issue', issue),
    name('citation_firstpage', first),
    name('citation_lastpage', last),
    ...(article.doi ? [name('citation_doi', article.doi)] : []),
    name('citation_abstract_html_url', url),
    name('citation_abstract', article.abstract),
    ...keywords.map((k) => name('citation_keywords', k)),
    ...(pdfUrl ? [name('citation_pdf_url', pdfUrl)] : []),
    ...(article.full_text ? [name('citation_fulltext_html_url', `${url}#full-text`)] : []),
    ...(article.references ?? []).map((r) => name('citation_reference', r)),
  ];

  const dublinCore: MetaTag[] = [
    name('DC.title', title),
    ...article.authors.map((a) => name('DC.creator', a.name)),
    name('DC.date', date),
    name('DC.type', 'Text'),
    name('DC.format', 'text/html'),
    name('DC.language', language),
    name('DC.identifier', doiLink ?? url),
    ...(article.doi ? [name('DC.identifier.doi', article.doi)] : []),
    name('DC.rights', licence.url),
    name('DC.publisher', journal.publisher),
    name('DC.source', journal.name),
    ...(journal.issnOnline ? [name('DC.source.issn', journal.issnOnline)] : []),
    name('DC.source.volume', volume),
    name('DC.source.issue', issue),
    name('DC.citation.spage', first),
    name('DC.citation.epage', last),
    ...keywords.map((k) => name('DC.subject', k)),
    name('DC.description', article.abstract),
  ];

  const openGraph: MetaTag[] = [
    property('og:title', title),
    property('og:type', 'article'),
    property('og:url', url),
    property('og:description', description),
    property('og:site_name', journal.name),
    property('article:published_time', date),
    ...keywords.map((k) => property('article:tag', k)),
  ];

  const periodical = {
    '@type': 'Periodical',
    name: journal.name,
    alternateName: journal.abbreviation,
    ...(journal.issnOnline ? { issn: journal.issnOnline } : {}),
    publisher: { '@type': 'Organization', name: journal.publisher },
  };

  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'ScholarlyArticle',
    '@id': url,
    url,
    mainEntityOfPage: url,
    headline: title,
    name: title,
    author: article.authors.map((a) => ({
      '@type': 'Person',
      name: a.name,
      ...(a.affiliation ? { affiliation: { '@type': 'Organization', name: a.affiliation } } : {}),
      ...(a.orcid
        ? {
            identifier: {
              '@type': 'PropertyValue',
              propertyID: 'ORCID',
              value: a.orcid,
              url: orcidUrl(a.orcid),
            },
            sameAs: orcidUrl(a.orcid),
          }
        : {}),
    })),
    datePublished: date,
    inLanguage: language,
    isPartOf: {
      '@type': 'PublicationIssue',
      issueNumber: issue,
      datePublished: date,
      isPartOf: { '@type': 'PublicationVolume', volumeNumber: volume, isPartOf: periodical },
    },
    publisher: { '@type': 'Organization', name: journal.publisher, address: journal.publisherAddress },
    license: licence.url,
    isAccessibleForFree: true,
    ...(article.doi
      ? {
          identifier: { '@type': 'PropertyValue', propertyID: 'DOI', value: article.doi, url: doiLink },
          sameAs: doiLink,
        }
      : {}),
    keywords,
    abstract: article.abstract,
    description,
    pageStart: String(first),
    pageEnd: String(last),
    pagination: `${first}-${last}`,
    ...(article.full_text
      ? {
          encoding: [
            ...(pdfUrl
              ? [{ '@type': 'MediaObject', encodingFormat: 'application/pdf', contentUrl: pdfUrl }]
              : []),
            { '@type': 'MediaObject', encodingFormat: 'text/html', contentUrl: `${url}#full-text` },
            { '@type': 'MediaObject', encodingFormat: 'application/jats+xml', contentUrl: `${url}/jats.xml` },
          ],
        }
      : pdfUrl
        ? { encoding: { '@type': 'MediaObject', encodingFormat: 'application/pdf', contentUrl: pdfUrl } }
        : {}),
  };

  return {
    title: article.title,
    description,
    canonicalUrl: url,
    tags: [...highwire, ...dublinCore, ...openGraph],
    links: [
      { rel: 'canonical', href: url },
      { rel: 'schema.DC', href: 'http://purl.org/dc/elements/1.1/' },
    ],
    jsonLd,
  };
}

/**
 * JSON for a <script type="application/ld+json"> element. `<`, `>` and `&` become \u escapes (still the
 * same JSON), so text such as "</script>" in an abstract cannot end the element; U+2028/2029 likewise.
 */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
