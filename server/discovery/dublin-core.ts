import { doiUrl } from '../../common/citation.ts';
import type { JournalSettings } from '../../common/journal.ts';
import { articleLicence } from '../../common/licences.ts';
import { fullTitle } from '../../common/metadata.ts';
import { invertedName } from './names.ts';
import type { Work } from './works.ts';
import { el, textEl, type XmlElement } from './xml.ts';

/** Unqualified Dublin Core as OAI-PMH requires it (`oai_dc`), filled the way OJS fills it. */

export const OAI_DC_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
export const OAI_DC_SCHEMA = 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd';
export const DC_NAMESPACE = 'http://purl.org/dc/elements/1.1/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

type JournalFacts = Pick<JournalSettings, 'name' | 'issnOnline' | 'publisher' | 'language' | 'license'>;

/** "Journal; Vol. 1 No. 2 (2025); 11-20": where the article appeared, in one line. */
export function sourceLine(work: Work, journalName: string): string {
  const pages =
    work.firstPage !== null ? `; ${work.firstPage}${work.lastPage !== null ? `-${work.lastPage}` : ''}` : '';
  return `${journalName}; Vol. ${work.volume.number} No. ${work.issue.number} (${work.publicationDate.slice(0, 4)})${pages}`;
}

export function oaiDc(work: Work, journal: JournalFacts): XmlElement {
  const language = work.language || journal.language;
  const lang = { 'xml:lang': language };
  const licence = articleLicence(work.licenseUrl, journal.license);
  const holder = work.copyrightHolder || 'The Author(s)';
  const year = work.copyrightYear ?? work.publicationDate.slice(0, 4);
  return el(
    'oai_dc:dc',
    {
      'xmlns:oai_dc': OAI_DC_NAMESPACE,
      'xmlns:dc': DC_NAMESPACE,
      'xmlns:xsi': XSI,
      'xsi:schemaLocation': `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA}`,
    },
    el('dc:title', lang, fullTitle(work.title, work.subtitle)),
    work.authors.map((a) => el('dc:creator', null, invertedName(a.name))),
    work.keywords.map((k) => el('dc:subject', lang, k)),
    textEl('dc:description', work.abstract, lang),
    el('dc:publisher', lang, journal.publisher),
    el('dc:date', null, work.publicationDate),
    el('dc:type', null, 'info:eu-repo/semantics/article'),
    el('dc:type', null, 'info:eu-repo/semantics/publishedVersion'),
    el('dc:type', lang, work.articleType),
    work.pdfUrl ? el('dc:format', null, 'application/pdf') : null,
    el('dc:identifier', null, work.url),
    work.doi ? el('dc:identifier', null, doiUrl(work.doi)) : null,
    el('dc:source', lang, sourceLine(work, journal.name)),
    textEl('dc:source', journal.issnOnline),
    el('dc:language', null, language),
    work.pdfUrl ? el('dc:relation', null, work.pdfUrl) : null,
    el('dc:rights', null, licence.url),
    el('dc:rights', lang, `Copyright (c) ${year} ${holder}; ${licence.name}`),
  );
}
