import { numberAffiliations, orcidUrl } from '../../common/citation.ts';
import type { JournalSettings } from '../../common/journal.ts';
import { articleLicence } from '../../common/licences.ts';
import { iso6391 } from './languages.ts';
import { splitName } from './names.ts';
import type { Work, WorkIssue, WorkVolume } from './works.ts';
import { el, renderXml, textEl, type XmlElement } from './xml.ts';

/**
 * Crossref deposit XML, schema 5.3.1 (https://www.crossref.org/schemas/crossref5.3.1.xsd): one
 * `doi_batch` with one `journal` holding one issue and its articles. Checked offline in the tests with
 * `../shared/schemas/validate crossref FILE`.
 */

const CROSSREF = 'http://www.crossref.org/schema/5.3.1';
const JATS = 'http://www.ncbi.nlm.nih.gov/JATS1';
const AI = 'http://www.crossref.org/AccessIndicators.xsd';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

type JournalFacts = Pick<
  JournalSettings,
  | 'name'
  | 'abbreviation'
  | 'issnOnline'
  | 'publisher'
  | 'language'
  | 'license'
  | 'depositorName'
  | 'depositorEmail'
>;

/** Crossref caps names at 60 characters and forbids digits in them; other schema limits likewise. */
function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max).trim();
}
const personPart = (text: string | null) => {
  const cleaned = text ? clip(text.replace(/[\d?]/g, ''), 60) : '';
  return cleaned || null;
};

function date(isoDate: string, mediaType: 'online' | 'print' = 'online') {
  const [year, month, day] = isoDate.slice(0, 10).split('-');
  return el(
    'publication_date',
    { media_type: mediaType },
    el('month', null, month),
    el('day', null, day),
    el('year', null, year),
  );
}

/** A batch timestamp: yyyyMMddHHmmssSSS of now, an integer that grows with every deposit. */
export function crossrefTimestamp(now: Date): string {
  return now.toISOString().replace(/\D/g, '').slice(0, 17);
}

function contributors(work: Work): XmlElement | null {
  const { authors } = numberAffiliations(work.authors);
  const people = authors
    .map((a) => ({ a, n: splitName(a.name) }))
    .filter(({ n }) => personPart(n.surname) !== null);
  if (!people.length) return null;
  return el(
    'contributors',
    null,
    people.map(({ a, n }, i) =>
      el(
        'person_name',
        { sequence: i === 0 ? 'first' : 'additional', contributor_role: 'author' },
        textEl('given_name', personPart(n.given)),
        el('surname', null, personPart(n.surname)!),
        textEl('suffix', n.suffix ? clip(n.suffix, 10) : null),
        a.affiliation.trim()
          ? el(
              'affiliations',
              null,
              el(
                'institution',
                null,
                el('institution_name', null, clip(a.affiliation, 1024)),
                // Its ROR id where the article has one (an OJS 3.5 import's), as the URI Crossref asks for.
                a.ror ? el('institution_id', { type: 'ror' }, a.ror) : null,
              ),
            )
          : null,
        // Typed by the authors or editors, not signed in at ORCID: not authenticated (the schema's default).
        a.orcid ? el('ORCID', { authenticated: 'false' }, orcidUrl(a.orcid)) : null,
      ),
    ),
  );
}

function journalArticle(work: Work, journal: JournalFacts): XmlElement {
  const language = iso6391(work.language || journal.language);
  const licence = articleLicence(work.licenseUrl, journal.license);
  return el(
    'journal_article',
    { publication_type: 'full_text', language },
    el('titles', null, el('title', null, work.title), textEl('subtitle', work.subtitle)),
    contributors(work),
    work.abstract ? el('jats:abstract', null, el('jats:p', null, work.abstract)) : null,
    date(work.publicationDate),
    work.firstPage !== null
      ? el(
          'pages',
          null,
          el('first_page', null, String(work.firstPage)),
          work.lastPage !== null ? el('last_page', null, String(work.lastPage)) : null,
        )
      : null,
    el(
      'ai:program',
      { name: 'AccessIndicators' },
      el('ai:free_to_read'),
      el('ai:license_ref', { applies_to: 'vor', start_date: work.publicationDate }, licence.url),
    ),
    el('doi_data', null, el('doi', null, work.doi!), el('resource', null, work.url)),
    // The reference list as unstructured citations (issue 26): Crossref matches them itself.
    work.references.length
      ? el(
          'citation_list',
          null,
          work.references.map((r, i) =>
            el('citation', { key: `ref${i + 1}` }, el('unstructured_citation', null, clip(r, 3900))),
          ),
        )
      : null,
  );
}

/**
 * The deposit for one issue's articles (all of them, or the one asked for). Articles without a DOI cannot
 * be deposited: the caller leaves them out.
 */
export function crossrefDeposit(
  journal: JournalFacts,
  place: { volume: WorkVolume; issue: WorkIssue },
  works: Work[],
  opts: {
    batchId: string;
    now: Date;
    /** The batch's timestamp when the caller keeps one per DOI (it must grow with each redeposit). */
    timestamp?: string;
  },
): string {
  const issueDate =
    place.issue.publicationDate ??
    works.map((w) => w.publicationDate).sort()[0] ??
    `${place.volume.year}-01-01`;
  const doc = el(
    'doi_batch',
    {
      xmlns: CROSSREF,
      'xmlns:xsi': XSI,
      'xmlns:jats': JATS,
      'xmlns:ai': AI,
      version: '5.3.1',
      'xsi:schemaLocation': `${CROSSREF} https://www.crossref.org/schemas/crossref5.3.1.xsd`,
    },
    el(
      'head',
      null,
      el('doi_batch_id', null, clip(opts.batchId, 100)),
      el('timestamp', null, opts.timestamp ?? crossrefTimestamp(opts.now)),
      el(
        'depositor',
        null,
        el('depositor_name', null, clip(journal.depositorName || journal.publisher, 130)),
        el('email_address', null, journal.depositorEmail),
      ),
      el('registrant', null, clip(journal.publisher, 255)),
    ),
    el(
      'body',
      null,
      el(
        'journal',
        null,
        el(
          'journal_metadata',
          { language: iso6391(journal.language) },
          el('full_title', null, clip(journal.name, 255)),
          el('abbrev_title', null, clip(journal.abbreviation, 150)),
          textEl('issn', journal.issnOnline, { media_type: 'electronic' }),
        ),
        el(
          'journal_issue',
          null,
          date(issueDate),
          el('journal_volume', null, el('volume', null, String(place.volume.number))),
          el('issue', null, String(place.issue.number)),
        ),
        works.map((w) => journalArticle(w, journal)),
      ),
    ),
  );
  return renderXml(doc);
}
