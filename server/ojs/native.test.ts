import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  sampleUsers,
  usersExport,
  type GenIssue,
  type OjsVersion,
  generatedPdf,
  nativeExport,
  sampleJournal,
  schemaVersion,
} from '../../tests/fixtures/ojs/make.ts';
import { validateWithSchema } from '../../tests/api/discovery-helpers.ts';
import { type OjsArticle, type OjsIssue, inLocale, isRefused, readIssue } from './native.ts';
import { readRecords } from './xml.ts';

let tmpDir = '';
beforeEach(() => {
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'ojs-native-'));
});
afterEach(() => rmSync(tmpDir, { recursive: true, force: true }));

async function* chunks(parts: Iterable<string>) {
  for (const p of parts) yield Buffer.from(p);
}

async function readExport(parts: Iterable<string>) {
  const out: Array<ReturnType<typeof readIssue>> = [];
  for await (const el of readRecords(chunks(parts), { records: new Set(['issue']), tmpDir })) {
    out.push(readIssue(el));
  }
  return out;
}

const articleOf = (issue: OjsIssue, i: number) => {
  const a = issue.articles[i];
  if (isRefused(a)) throw new Error(a.refused);
  return a as OjsArticle;
};

describe.each(['3.3', '3.4', '3.5', '3.6'] as OjsVersion[])('an OJS %s Native XML export', (version) => {
  it('is what OJS writes: the fixtures validate against that version’s own schemas', () => {
    const xml = [...nativeExport(version, sampleJournal({ issues: 2, perIssue: 3 }))].join('');
    const native = validateWithSchema('ojs', xml, schemaVersion(version));
    expect(native.output).toBe(`valid for OJS ${schemaVersion(version)}\n`);
    const users = validateWithSchema(
      'ojs-users',
      usersExport(version, sampleUsers()),
      schemaVersion(version),
    );
    expect(users.output).toBe(`valid for OJS ${schemaVersion(version)}\n`);
  });

  it('reads issues, sections, articles with their current publication, authors, galleys and files', async () => {
    const read = await readExport(nativeExport(version, sampleJournal({ issues: 2, perIssue: 2 })));
    expect(read.map((r) => r.notices)).toEqual([[], []]);
    const [first, second] = read.map((r) => r.value);
    expect(first).toMatchObject({
      ojsId: 11,
      volume: 1,
      number: '1',
      year: 2019,
      published: true,
      doi: '10.5555/ojs.issue.1',
    });
    expect(inLocale(first.title)).toBe('Inaugural issue');
    expect(first.datePublished).toBe('2019-06-15');
    expect(first.sections.map((s) => [s.ref, inLocale(s.title)])).toEqual([
      ['ART', 'Articles'],
      ['REV', 'Reviews'],
    ]);
    expect(second).toMatchObject({ published: false, datePublished: null, doi: null });

    const a = articleOf(first, 0);
    expect(a).toMatchObject({
      ojsId: 101,
      status: 3,
      dateSubmitted: '2018-11-01',
      doi: '10.5555/ojs.2019.101',
    });
    // Two publications; the second (a correction) is current.
    expect(a.publications.map((p) => p.version)).toEqual([1, 2]);
    expect(inLocale(a.current.title)).toBe('Measured results 1.1: “quotes”, Ωmega & <angles> (corrected)');
    expect(inLocale(a.current.subtitle)).toBe('A second version');
    expect(a.current).toMatchObject({
      pages: '10-19',
      datePublished: '2019-07-01',
      licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
      copyrightYear: 2019,
      citations: ['Okafor C. Earlier work 1. J Test. 2018;1:1-9.', 'Smith J. A book. 2010.'],
      sectionRef: 'ART',
    });
    expect(inLocale(a.current.abstract)).toBe('<p>What we found in issue 1, article 1.</p>');
    expect(Object.values(a.current.keywords)).toEqual([['sensors', 'Zürich']]);
    expect(a.current.authors.map((x) => [inLocale(x.given), inLocale(x.family), x.primaryContact])).toEqual([
      ['Zoë', 'Ångström', true],
      ['Chinua', 'Okafor', false],
    ]);
    expect(a.current.authors[0]).toMatchObject({
      orcid: '0000-0002-1825-0097',
      country: 'CH',
      email: 'author101@example.org',
    });
    expect(a.current.authors[0].affiliations).toEqual([
      {
        name: { [version === '3.3' ? 'en_US' : 'en']: 'Universität Zürich' },
        ror: version >= '3.5' ? 'https://ror.org/02crff812' : null,
      },
    ]);
    // The PDF, an HTML file and a link elsewhere.
    expect(a.current.galleys.map((g) => [g.label, g.fileRef !== null, g.remote])).toEqual([
      ['PDF', true, null],
      ['HTML', true, null],
      ['Dataset', false, 'https://data.example.org/set/1'],
    ]);
    const pdf = a.files.find((f) => f.id === a.current.galleys[0].fileRef)!;
    expect(pdf).toMatchObject({ extension: 'pdf', genre: 'Article Text', mimeType: 'application/pdf' });
    const stored = 'embedded' in pdf.content! ? pdf.content.embedded : null;
    expect(readFileSync(stored!.path).equals(generatedPdf('article-101.pdf', 2_000))).toBe(true);
    // An unpublished issue's article is scheduled, with one publication.
    expect(articleOf(second, 0)).toMatchObject({ status: 5, doi: null });
  });
});

describe('leniency, and what is refused', () => {
  const one = (): GenIssue[] => sampleJournal({ issues: 1, perIssue: 2 });

  it('warns about elements OJS does not export, with where they are, and imports the rest', async () => {
    const xml = [...nativeExport('3.4', one())]
      .join('')
      .replace('<pages>', '<mystery>what</mystery><pages>')
      .replace('<articles>', '<articles><!-- x -->');
    const [{ value, notices }] = await readExport([xml]);
    expect(notices).toEqual([
      {
        path: 'issues/issue/articles/article/publication/mystery',
        line: expect.any(Number),
        message: '<mystery> in <publication> is not something OJS exports: left out.',
      },
    ]);
    expect(value.articles.filter(isRefused)).toEqual([]);
  });

  it('refuses an article whose galley names a missing file, or a file that is not base64, and keeps the others', async () => {
    const issues = one();
    issues[0].articles[0].publications[1].galleys[0].fileId = 999_999;
    const xml = [...nativeExport('3.5', issues)].join('');
    const [{ value }] = await readExport([xml]);
    expect(value.articles[0]).toMatchObject({
      refused: 'The galley “PDF” names the file 999999, which the article does not hold.',
      ojsId: 101,
      path: 'issues/issue/articles/article',
    });
    expect(isRefused(value.articles[1])).toBe(false);

    const broken = [...nativeExport('3.5', one())]
      .join('')
      .replace(/(<embed encoding="base64" mime_type="application\/pdf">)[A-Za-z0-9+/]{8}/, '$1!!not-b64');
    const [{ value: again }] = await readExport([broken]);
    expect(again.articles[0]).toMatchObject({
      refused: 'The file “article-101.pdf” of the galley “PDF” cannot be read: its contents are not base64.',
    });
  });

  it('refuses an article without a title or a publication', async () => {
    const xml = [...nativeExport('3.4', one())]
      .join('')
      .replace(/<title locale="en">Measured results 1\.2[^<]*<\/title>/, '')
      .replace(/<publication [\s\S]*?<\/publication>/, '');
    const [{ value }] = await readExport([xml]);
    // The first article lost its first publication only: the second still stands.
    expect(isRefused(value.articles[0])).toBe(false);
    expect(value.articles[1]).toMatchObject({ refused: 'Its publication has no title.' });
  });
});
