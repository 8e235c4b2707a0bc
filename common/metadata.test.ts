import { describe, expect, it } from 'vitest';
import { articleMetadata, highwireDate, serializeJsonLd, truncate } from './metadata.ts';

const journal = {
  name: 'Colophon Journal of Engineering and Informatics',
  abbreviation: 'CJEI',
  issnOnline: '3049-4176',
  publisher: 'Tamarind Grove Academic Publishing Pvt. Ltd.',
  publisherAddress: '27 Sathy Road, Coimbatore 641006, Tamil Nadu, India',
  language: 'en',
  license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
};

const BASE = 'https://journal.example';

const article = {
  id: 7,
  title: 'Federated anomaly detection on LoRa sensor networks',
  abstract: 'We study anomaly detection across gateways. </script><script>alert(1)</script> & more.',
  keywords: 'IoT, LoRa, anomaly detection',
  pages: '11-20',
  doi: '10.5555/cjei.2025.1.1.007',
  authors: [
    { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
    {
      name: 'Tom Brandt',
      email: 'tom@example.org',
      affiliation: 'TU Delft',
      superscript: '2',
      orcid: '0000-0002-1694-233X',
    },
    { name: 'Ravi Kumar', email: 'ravi@example.org', affiliation: 'Anna University', superscript: '1' },
  ],
  public_pdf_url: `${BASE}/api/articles/7/download`,
  publication_date: '2025-03-01',
  volume_number: 1,
  issue_number: 2,
};

const HIGHWIRE = [
  'citation_journal_title',
  'citation_journal_abbrev',
  'citation_issn',
  'citation_publisher',
  'citation_author',
  'citation_author_institution',
  'citation_author_email',
  'citation_title',
  'citation_language',
  'citation_publication_date',
  'citation_volume',
  'citation_issue',
  'citation_firstpage',
  'citation_lastpage',
  'citation_doi',
  'citation_abstract_html_url',
  'citation_abstract',
  'citation_keywords',
  'citation_pdf_url',
];

const named = (tags: ReturnType<typeof articleMetadata>['tags'], name: string) =>
  tags.filter((t) => 'name' in t && t.name === name).map((t) => t.content);
const prop = (tags: ReturnType<typeof articleMetadata>['tags'], p: string) =>
  tags.filter((t) => 'property' in t && t.property === p).map((t) => t.content);

describe('articleMetadata', () => {
  const meta = articleMetadata(article, journal, BASE);

  it('has every Highwire tag, with the article’s values', () => {
    for (const tag of HIGHWIRE) expect(named(meta.tags, tag), tag).not.toEqual([]);
    expect(named(meta.tags, 'citation_journal_title')).toEqual([journal.name]);
    expect(named(meta.tags, 'citation_issn')).toEqual(['3049-4176']);
    expect(named(meta.tags, 'citation_language')).toEqual(['en']);
    expect(named(meta.tags, 'citation_volume')).toEqual(['1']);
    expect(named(meta.tags, 'citation_issue')).toEqual(['2']);
    expect(named(meta.tags, 'citation_firstpage')).toEqual(['11']);
    expect(named(meta.tags, 'citation_lastpage')).toEqual(['20']);
    expect(named(meta.tags, 'citation_doi')).toEqual(['10.5555/cjei.2025.1.1.007']);
    expect(named(meta.tags, 'citation_abstract')).toEqual([article.abstract]);
    expect(named(meta.tags, 'citation_keywords')).toEqual(['IoT', 'LoRa', 'anomaly detection']);
    expect(named(meta.tags, 'citation_abstract_html_url')).toEqual([`${BASE}/article/7`]);
  });

  it('follows each author with their institution, e-mail and ORCID iD (when known), in author order', () => {
    const sequence = meta.tags
      .filter((t) => 'name' in t && t.name.startsWith('citation_author'))
      .map((t) => `${(t as { name: string }).name}=${t.content}`);
    expect(sequence).toEqual([
      'citation_author=Meera Iyer',
      'citation_author_institution=Anna University',
      'citation_author_email=meera@example.org',
      'citation_author=Tom Brandt',
      'citation_author_institution=TU Delft',
      'citation_author_email=tom@example.org',
      'citation_author_orcid=https://orcid.org/0000-0002-1694-233X',
      'citation_author=Ravi Kumar',
      'citation_author_institution=Anna University',
      'citation_author_email=ravi@example.org',
    ]);
  });

  it('writes the publication date as YYYY/MM/DD', () => {
    expect(named(meta.tags, 'citation_publication_date')).toEqual(['2025/03/01']);
    expect(highwireDate('2024-12-31')).toBe('2024/12/31');
  });

  it('gives an absolute PDF address on the same host as the article page', () => {
    const [pdf] = named(meta.tags, 'citation_pdf_url');
    const [page] = named(meta.tags, 'citation_abstract_html_url');
    expect(pdf).toBe(`${BASE}/api/articles/7/download`);
    expect(new URL(pdf).host).toBe(new URL(page).host);
    // A relative address is made absolute on the site's base URL.
    const rel = articleMetadata(
      { ...article, public_pdf_url: '/api/articles/7/download' },
      journal,
      `${BASE}/`,
    );
    expect(named(rel.tags, 'citation_pdf_url')).toEqual([`${BASE}/api/articles/7/download`]);
  });

  it('keeps every address under a journal served by path (decision 0057)', () => {
    const at = articleMetadata(
      { ...article, public_pdf_url: '/api/articles/7/download' },
      journal,
      'https://example.org/beta',
    );
    expect(at.canonicalUrl).toBe('https://example.org/beta/article/7');
    expect(named(at.tags, 'citation_abstract_html_url')).toEqual(['https://example.org/beta/article/7']);
    expect(named(at.tags, 'citation_pdf_url')).toEqual(['https://example.org/beta/api/articles/7/download']);
    expect(at.jsonLd.url).toBe('https://example.org/beta/article/7');
  });

  it('leaves out the DOI and PDF tags when there are none, and defaults the pages to 1-10', () => {
    const bare = articleMetadata({ ...article, doi: null, public_pdf_url: null, pages: '' }, journal, BASE);
    expect(named(bare.tags, 'citation_doi')).toEqual([]);
    expect(named(bare.tags, 'citation_pdf_url')).toEqual([]);
    expect(named(bare.tags, 'citation_firstpage')).toEqual(['1']);
    expect(named(bare.tags, 'citation_lastpage')).toEqual(['10']);
    expect(bare.jsonLd.identifier).toBeUndefined();
    expect(named(bare.tags, 'DC.identifier')).toEqual([`${BASE}/article/7`]);
  });

  it('has Dublin Core, Open Graph and the canonical link', () => {
    expect(named(meta.tags, 'DC.title')).toEqual([article.title]);
    expect(named(meta.tags, 'DC.creator')).toEqual(['Meera Iyer', 'Tom Brandt', 'Ravi Kumar']);
    expect(named(meta.tags, 'DC.date')).toEqual(['2025-03-01']);
    expect(named(meta.tags, 'DC.identifier')).toEqual(['https://doi.org/10.5555/cjei.2025.1.1.007']);
    expect(named(meta.tags, 'DC.rights')).toEqual([journal.license.url]);
    expect(prop(meta.tags, 'og:type')).toEqual(['article']);
    expect(prop(meta.tags, 'og:url')).toEqual([`${BASE}/article/7`]);
    expect(prop(meta.tags, 'og:site_name')).toEqual([journal.name]);
    expect(prop(meta.tags, 'og:title')).toEqual([article.title]);
    expect(meta.links).toContainEqual({ rel: 'canonical', href: `${BASE}/article/7` });
  });

  it('describes a ScholarlyArticle in JSON-LD', () => {
    const ld = meta.jsonLd as Record<string, any>;
    expect(ld['@type']).toBe('ScholarlyArticle');
    expect(ld.headline).toBe(article.title);
    expect(ld.author[0]).toEqual({
      '@type': 'Person',
      name: 'Meera Iyer',
      affiliation: { '@type': 'Organization', name: 'Anna University' },
    });
    // An author with an ORCID iD is identified by it, and is the same person as its record.
    expect(ld.author[1]).toEqual({
      '@type': 'Person',
      name: 'Tom Brandt',
      affiliation: { '@type': 'Organization', name: 'TU Delft' },
      identifier: {
        '@type': 'PropertyValue',
        propertyID: 'ORCID',
        value: '0000-0002-1694-233X',
        url: 'https://orcid.org/0000-0002-1694-233X',
      },
      sameAs: 'https://orcid.org/0000-0002-1694-233X',
    });
    expect(ld.datePublished).toBe('2025-03-01');
    expect(ld.isPartOf['@type']).toBe('PublicationIssue');
    expect(ld.isPartOf.issueNumber).toBe('2');
    expect(ld.isPartOf.isPartOf['@type']).toBe('PublicationVolume');
    expect(ld.isPartOf.isPartOf.isPartOf).toMatchObject({ '@type': 'Periodical', issn: '3049-4176' });
    expect(ld.identifier).toMatchObject({ propertyID: 'DOI', value: article.doi });
    expect(ld.license).toBe(journal.license.url);
    expect(ld.keywords).toEqual(['IoT', 'LoRa', 'anomaly detection']);
    expect(ld.pageStart).toBe('11');
    expect(ld.pageEnd).toBe('20');
    expect(ld.encoding).toMatchObject({
      encodingFormat: 'application/pdf',
      contentUrl: `${BASE}/api/articles/7/download`,
    });
  });
});

describe('serializeJsonLd', () => {
  it('cannot be broken out of by "</script>" in the text, and still parses to the same value', () => {
    const value = articleMetadata(article, journal, BASE).jsonLd;
    const text = serializeJsonLd(value);
    expect(text).not.toMatch(/<\/script/i);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
    expect(JSON.parse(serializeJsonLd({ s: 'a\u2028b<!--' }))).toEqual({ s: 'a\u2028b<!--' });
  });
});

describe('truncate', () => {
  it('cuts at a word with an ellipsis, and leaves short text alone', () => {
    expect(truncate('short text')).toBe('short text');
    const long = 'word '.repeat(100);
    const cut = truncate(long, 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut.endsWith('word…')).toBe(true);
  });
});
