import { numberAffiliations, orcidUrl } from '../../common/citation.ts';
import { fullTitle } from '../../common/metadata.ts';
import type { JournalSettings } from '../../common/journal.ts';
import { iso6392b } from './languages.ts';
import type { Work } from './works.ts';
import { el, renderXml, textEl } from './xml.ts';

/**
 * DOAJ article XML (https://doaj.org/static/doaj/doajArticles.xsd): one `record` per article, for the
 * publisher to upload (DOAJ does not harvest). `fullTextUrl` is the PDF itself, as DOAJ requires, never
 * the landing page. Checked offline in the tests with `../shared/schemas/validate doaj FILE`.
 */

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

type JournalFacts = Pick<JournalSettings, 'name' | 'issnOnline' | 'publisher' | 'language'>;

/** DOAJ's free-text document type, from ours. */
function documentType(articleType: string): string {
  const t = articleType.toLowerCase();
  if (t.includes('review')) return 'review';
  if (t.includes('editorial')) return 'editorial';
  if (t.includes('letter')) return 'letter';
  return 'article';
}

/** Works without a PDF cannot be listed (DOAJ needs the full text): the caller leaves them out. */
export function doajRecords(journal: JournalFacts, works: Work[]): string {
  const journalLang = iso6392b(journal.language);
  const records = works.map((w) => {
    const own = w.language ? iso6392b(w.language) : null;
    const lang = own ?? journalLang;
    const langAttr = lang ? { language: lang } : null;
    const { authors, affiliations } = numberAffiliations(w.authors);
    const named = affiliations.filter((a) => a.text);
    return el(
      'record',
      null,
      textEl('language', lang),
      el('publisher', null, journal.publisher),
      el('journalTitle', null, journal.name),
      textEl('eissn', journal.issnOnline),
      el('publicationDate', null, w.publicationDate),
      el('volume', null, String(w.volume.number)),
      el('issue', null, String(w.issue.number)),
      w.firstPage !== null ? el('startPage', null, String(w.firstPage)) : null,
      w.firstPage !== null && w.lastPage !== null ? el('endPage', null, String(w.lastPage)) : null,
      textEl('doi', w.doi),
      el('publisherRecordId', null, String(w.id)),
      el('documentType', null, documentType(w.articleType)),
      el('title', langAttr, fullTitle(w.title, w.subtitle)),
      authors.length
        ? el(
            'authors',
            null,
            authors.map((a) =>
              el(
                'author',
                null,
                el('name', null, a.name),
                textEl('email', a.email),
                a.affiliation.trim() ? el('affiliationId', null, a.mark) : null,
                a.orcid ? el('orcid_id', null, orcidUrl(a.orcid)) : null,
              ),
            ),
          )
        : null,
      named.length
        ? el(
            'affiliationsList',
            null,
            named.map((a) => el('affiliationName', { affiliationId: a.mark }, a.text)),
          )
        : null,
      textEl('abstract', w.abstract, langAttr),
      el('fullTextUrl', { format: 'pdf' }, w.pdfUrl!),
      w.keywords.length
        ? el(
            'keywords',
            langAttr,
            w.keywords.map((k) => el('keyword', null, k)),
          )
        : null,
    );
  });
  return renderXml(
    el(
      'records',
      { 'xmlns:xsi': XSI, 'xsi:noNamespaceSchemaLocation': 'https://doaj.org/static/doaj/doajArticles.xsd' },
      records,
    ),
  );
}

/** DOAJ's article API's document (https://doaj.org/api/docs, `POST /api/articles`): the same facts as a record. */
export interface DoajArticle {
  bibjson: {
    title: string;
    identifier: { type: 'doi' | 'eissn'; id: string }[];
    journal: { volume: string; number: string; start_page?: string; end_page?: string; language?: string[] };
    year: string;
    month: string;
    abstract?: string;
    author: { name: string; affiliation?: string; orcid_id?: string }[];
    keywords?: string[];
    link: { type: 'fulltext'; url: string; content_type: 'PDF' }[];
  };
}

/** One article as DOAJ's article API takes it (a work with a PDF: DOAJ needs the full text). */
export function doajArticle(journal: JournalFacts, w: Work): DoajArticle {
  const { authors } = numberAffiliations(w.authors);
  const lang = (w.language ? iso6392b(w.language) : null) ?? iso6392b(journal.language);
  const [year, month] = w.publicationDate.split('-');
  return {
    bibjson: {
      title: fullTitle(w.title, w.subtitle),
      identifier: [
        ...(w.doi ? [{ type: 'doi' as const, id: w.doi }] : []),
        ...(journal.issnOnline ? [{ type: 'eissn' as const, id: journal.issnOnline }] : []),
      ],
      journal: {
        volume: String(w.volume.number),
        number: String(w.issue.number),
        ...(w.firstPage !== null ? { start_page: String(w.firstPage) } : {}),
        ...(w.firstPage !== null && w.lastPage !== null ? { end_page: String(w.lastPage) } : {}),
        ...(lang ? { language: [lang.toUpperCase()] } : {}),
      },
      year,
      month: String(Number(month)),
      ...(w.abstract ? { abstract: w.abstract } : {}),
      author: authors.map((a) => ({
        name: a.name,
        ...(a.affiliation.trim() ? { affiliation: a.affiliation.trim() } : {}),
        ...(a.orcid ? { orcid_id: orcidUrl(a.orcid) } : {}),
      })),
      ...(w.keywords.length ? { keywords: w.keywords } : {}),
      link: [{ type: 'fulltext', url: w.pdfUrl!, content_type: 'PDF' }],
    },
  };
}
