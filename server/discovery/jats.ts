import { numberAffiliations, orcidUrl } from '../../common/citation.ts';
import { countryName } from '../../common/countries.ts';
import type { JournalSettings } from '../../common/journal.ts';
import { articleLicence } from '../../common/licences.ts';
import { splitName } from './names.ts';
import type { Work } from './works.ts';
import { el, textEl, type XmlElement } from './xml.ts';

/**
 * JATS (Journal Article Tag Suite) generated from our metadata: `<article>` with `<front>` (journal-meta and
 * article-meta), and, when the article has a full text (server/fulltext, issue 16), its `<body>` and `<back>`.
 * Front matter is always the catalogue's, never the Word file's. Elements follow the order the JATS content
 * models require; the result is valid against JATS 1.3 (OAI-PMH's format) and, given `dtdVersion: '1.1'`,
 * against the Journal Publishing 1.1 DTD with MathML 3 (the standalone /article/{id}/jats.xml).
 */

export const JATS_SCHEMA = 'https://jats.nlm.nih.gov/publishing/1.3/xsd/JATS-journalpublishing1-3.xsd';
/** JATS elements have no namespace; OAI-PMH names one for the format all the same (as OJS does). */
export const JATS_NAMESPACE = 'http://jats.nlm.nih.gov';
const XLINK = 'http://www.w3.org/1999/xlink';
const ALI = 'http://www.niso.org/schemas/ali/1.0/';
const MML = 'http://www.w3.org/1998/Math/MathML';

/** The document type of a standalone article: Journal Publishing 1.1 with MathML 3 (what PMC takes). */
export const JATS_DOCTYPE =
  '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD with MathML3 v1.1 20151215//EN" "https://jats.nlm.nih.gov/publishing/1.1/JATS-journalpublishing1-mathml3.dtd">';

type JournalFacts = Pick<
  JournalSettings,
  'name' | 'abbreviation' | 'issnOnline' | 'publisher' | 'publisherAddress' | 'language' | 'license'
>;

/** "research-article" from "Research Article": JATS's article-type values are lower-case and hyphenated. */
export function jatsArticleType(type: string): string {
  const t = type.trim().toLowerCase();
  if (t.includes('review')) return 'review-article';
  if (t.includes('case')) return 'case-report';
  if (t.includes('editorial')) return 'editorial';
  if (t.includes('letter')) return 'letter';
  if (t.includes('short') || t.includes('brief')) return 'brief-report';
  if (t.includes('data')) return 'data-paper';
  if (t.includes('research') || t.includes('original')) return 'research-article';
  return 'other';
}

function dateParts(isoDate: string) {
  const [year, month, day] = isoDate.slice(0, 10).split('-');
  return [textEl('day', day), textEl('month', month), textEl('year', year)];
}

/**
 * The article as JATS. `namespace` is the default namespace declared on `<article>`: `''` (the default)
 * undeclares an enclosing one, as inside an OAI-PMH response, where JATS's unqualified elements would
 * otherwise fall into the OAI namespace; `null` declares none (a standalone file, as the DTD wants it).
 * `fullText` is the `<body>` and `<back>` made from the article's Word file (server/fulltext/jats.ts).
 */
export function jatsArticle(
  work: Work,
  journal: JournalFacts,
  opts: { namespace?: string | null; dtdVersion?: '1.1' | '1.3'; fullText?: XmlElement[] } = {},
): XmlElement {
  const { authors, affiliations } = numberAffiliations(
    work.authors.map((a) => ({ ...a, affiliation: a.affiliation.trim() })),
  );
  const hasAff = (mark: string) => affiliations.some((a) => a.mark === mark && a.text);
  const year = work.publicationDate.slice(0, 4);

  const contribs = authors.map((a) => {
    const n = splitName(a.name);
    return el(
      'contrib',
      { 'contrib-type': 'author', corresp: a.primaryContact ? 'yes' : null },
      // Given by the authors or editors, not signed in at ORCID: not authenticated.
      a.orcid
        ? el('contrib-id', { 'contrib-id-type': 'orcid', authenticated: 'false' }, orcidUrl(a.orcid))
        : null,
      el(
        'name',
        { 'name-style': n.given ? 'western' : 'given-only' },
        // JATS's <name> needs a surname unless it is given-only.
        n.given
          ? [el('surname', null, n.surname), el('given-names', null, n.given)]
          : el('given-names', null, n.surname),
        textEl('suffix', n.suffix),
      ),
      textEl('email', a.email),
      hasAff(a.mark) ? el('xref', { 'ref-type': 'aff', rid: `aff${work.id}-${a.mark}` }, a.mark) : null,
    );
  });
  const affs = affiliations
    .filter((a) => a.text)
    .map((a) => {
      // The affiliation's ROR id and country: the first author's under it that gives them (issue 26).
      const ror = work.authors.find((w) => w.affiliation.trim() === a.text && w.ror)?.ror;
      const country = work.authors.find((w) => w.affiliation.trim() === a.text && w.country)?.country;
      return el(
        'aff',
        { id: `aff${work.id}-${a.mark}` },
        el('label', null, a.mark),
        ror
          ? el(
              'institution-wrap',
              null,
              el('institution-id', { 'institution-id-type': 'ror' }, ror),
              el('institution', null, a.text),
            )
          : el('institution', null, a.text),
        country ? el('country', { country: country.toUpperCase() }, countryName(country)) : null,
      );
    });
  const licence = articleLicence(work.licenseUrl, journal.license);
  const copyrightYear = String(work.copyrightYear ?? year);
  const copyrightHolder = work.copyrightHolder || 'The Author(s)';

  const articleMeta = el(
    'article-meta',
    null,
    el('article-id', { 'pub-id-type': 'publisher-id' }, String(work.id)),
    work.doi ? el('article-id', { 'pub-id-type': 'doi' }, work.doi) : null,
    el(
      'article-categories',
      null,
      el('subj-group', { 'subj-group-type': 'heading' }, el('subject', null, work.articleType)),
    ),
    el('title-group', null, el('article-title', null, work.title), textEl('subtitle', work.subtitle)),
    authors.length ? el('contrib-group', null, contribs, affs) : null,
    el(
      'pub-date',
      { 'publication-format': 'electronic', 'date-type': 'pub' },
      dateParts(work.publicationDate),
    ),
    el('volume', null, String(work.volume.number)),
    el('issue', null, String(work.issue.number)),
    textEl('issue-title', work.issue.title),
    work.firstPage !== null ? el('fpage', null, String(work.firstPage)) : null,
    work.firstPage !== null && work.lastPage !== null ? el('lpage', null, String(work.lastPage)) : null,
    el(
      'permissions',
      null,
      el('copyright-statement', null, `© ${copyrightYear} ${copyrightHolder}.`),
      el('copyright-year', null, copyrightYear),
      el('copyright-holder', null, copyrightHolder),
      el(
        'license',
        { 'license-type': 'open-access', 'xlink:href': licence.url },
        el('ali:license_ref', null, licence.url),
        el(
          'license-p',
          null,
          `This article is published under the ${licence.name} licence (${licence.url}).`,
        ),
      ),
    ),
    el('self-uri', { 'xlink:href': work.url, 'content-type': 'text/html' }),
    work.pdfUrl ? el('self-uri', { 'xlink:href': work.pdfUrl, 'content-type': 'application/pdf' }) : null,
    work.abstract ? el('abstract', null, el('p', null, work.abstract)) : null,
    work.keywords.length
      ? el(
          'kwd-group',
          { 'kwd-group-type': 'author' },
          work.keywords.map((k) => el('kwd', null, k)),
        )
      : null,
  );

  const journalMeta = el(
    'journal-meta',
    null,
    el('journal-id', { 'journal-id-type': 'publisher-id' }, journal.abbreviation),
    el(
      'journal-title-group',
      null,
      el('journal-title', null, journal.name),
      el('abbrev-journal-title', { 'abbrev-type': 'publisher' }, journal.abbreviation),
    ),
    textEl('issn', journal.issnOnline, { 'publication-format': 'electronic', 'pub-type': 'epub' }),
    el(
      'publisher',
      null,
      el('publisher-name', null, journal.publisher),
      textEl('publisher-loc', journal.publisherAddress),
    ),
  );

  return el(
    'article',
    {
      xmlns: opts.namespace === null ? null : (opts.namespace ?? ''),
      'xmlns:xlink': XLINK,
      'xmlns:ali': ALI,
      'xmlns:mml': opts.fullText?.length ? MML : null,
      'article-type': jatsArticleType(work.articleType),
      'dtd-version': opts.dtdVersion ?? '1.3',
      'xml:lang': work.language || journal.language,
    },
    el('front', null, journalMeta, articleMeta),
    opts.fullText ?? null,
  );
}
