import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citationFile } from '../../server/catalog/citation.ts';
import { createVolume } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { SETUP_TIMEOUT, publishArticle } from './discovery-helpers.ts';

/**
 * Issue 22, item 9: an issue's month of publication (decision 0039). Editors set it when they make or edit
 * an issue; readers see it where the issue is named, and citations cite the article by it. BibTeX names the
 * month by its macro (`month = mar`), which reference managers read, never `{mar 1}`.
 */

let t: TestContext;
let auth: Record<string, string>;
let volumeId: number;

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestContext();
  auth = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  volumeId = (await createVolume(t, auth, { number: 3, year: 2026 })).id;
}, SETUP_TIMEOUT);
afterAll(() => t?.close());

describe('an issue of a volume', () => {
  it('is created with its month, and the message names its volume', async () => {
    const res = await inject('POST', '/api/editor/issue', {
      title: 'Spring',
      description: 'The spring issue.',
      volume_id: volumeId,
      publication_month: 3,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Issue 1 of Volume 3 created.');
    expect(res.json().issue).toMatchObject({ issue_number: 1, publication_month: 3 });
  });

  it('may have no month, and takes one later, or loses it again', async () => {
    const res = await inject('POST', '/api/editor/issue', {
      title: 'Summer',
      description: 'The summer issue.',
      volume_id: volumeId,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Issue 2 of Volume 3 created.');
    const { id, publication_month } = res.json().issue;
    expect(publication_month).toBeNull();

    const set = await inject('PATCH', `/api/editor/issues/${id}`, {
      title: 'Summer',
      description: 'The summer issue.',
      publication_month: '7',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().issue.publication_month).toBe(7);
    // Left out: unchanged.
    const kept = await inject('PATCH', `/api/editor/issues/${id}`, { title: 'Summer!', description: 'Hot.' });
    expect(kept.json().issue.publication_month).toBe(7);
    const cleared = await inject('PATCH', `/api/editor/issues/${id}`, {
      title: 'Summer',
      description: 'Hot.',
      publication_month: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().issue.publication_month).toBeNull();
  });

  it('refuses a month that is not one, with a message and nothing written', async () => {
    for (const month of [0, 13, 'March', 2.5, true]) {
      const res = await inject('POST', '/api/editor/issue', {
        title: `Bad ${month}`,
        description: 'No.',
        volume_id: volumeId,
        publication_month: month,
      });
      expect(res.statusCode, `${month}: ${res.body}`).toBe(400);
      expect(res.json().errors.publication_month).toMatch(/month from 1 \(January\) to 12/);
    }
    const issues = (await inject('GET', '/api/editor/issues')).json();
    expect(JSON.stringify(issues)).not.toContain('Bad ');
  });
});

describe('an article in an issue with a month', () => {
  let dated = 0;
  let undated = 0;

  beforeAll(async () => {
    const issues = (await inject('GET', '/api/editor/issues')).json() as {
      id: number;
      volume_number: number;
      issue_number: number;
    }[];
    const of = (n: number) => issues.find((i) => i.volume_number === 3 && i.issue_number === n)!.id;
    dated = await publishArticle(t, auth.authorization.slice(7), {
      issueId: of(1),
      title: 'Dated by its issue',
      doi: '10.5555/month.1',
    });
    undated = await publishArticle(t, auth.authorization.slice(7), {
      issueId: of(2),
      title: 'Dated by itself',
      doi: '10.5555/month.2',
    });
  }, SETUP_TIMEOUT);

  it('is dated by its issue: month and year, or the year alone', async () => {
    const a = (await inject('GET', `/api/articles/public/article/${dated}`)).json();
    expect(a).toMatchObject({ issue_month: 3, issue_year: 2026, monyr: 'March 2026', year: 2026 });
    const b = (await inject('GET', `/api/articles/public/article/${undated}`)).json();
    expect(b).toMatchObject({ issue_month: null, issue_year: 2026, monyr: '2026', year: 2026 });
  });

  it('is cited by the issue month: BibTeX writes `month = mar`, and RIS the year and month', async () => {
    const bib = (await inject('GET', `/api/articles/${dated}/citation?format=bibtex`)).body;
    expect(bib).toMatch(/^\s*month = mar,?$/m);
    expect(bib).toMatch(/^\s*year = \{2026\},?$/m);
    const yearMonth = (csl: object) =>
      (csl as { issued: { 'date-parts': number[][] } }).issued['date-parts'][0].slice(0, 2);
    const [fromBib] = new Cite(bib).data;
    expect(yearMonth(fromBib)).toEqual([2026, 3]);

    const ris = (await inject('GET', `/api/articles/${dated}/citation?format=ris`)).body;
    const [fromRis] = new Cite(ris).data;
    expect(yearMonth(fromRis)).toEqual([2026, 3]);

    const mla = (await inject('GET', `/api/articles/${dated}/citation?format=mla`)).body;
    expect(mla).toContain('Mar. 2026');
  });

  it('cites an article of an issue without a month by the year alone: no month in BibTeX', async () => {
    const bib = (await inject('GET', `/api/articles/${undated}/citation?format=bibtex`)).body;
    expect(bib).toMatch(/^\s*year = \{2026\},?$/m);
    expect(bib).not.toMatch(/^\s*month = /m);
  });
});

describe('BibTeX months', () => {
  it("are BibTeX's macros, never Citation.js's `{mar 1}`, whatever date the record has", () => {
    const article = {
      id: 3,
      title: 'Rate limits in practice',
      abstract: 'A.',
      keywords: 'a',
      pages: '3-12',
      doi: '10.5555/abc.1',
      authors: [{ name: 'Meera Iyer' }],
      publication_date: '2025-03-15',
      volume_number: 1,
      issue_number: 2,
      url: 'http://journal.test/article/3',
    };
    const journal = { name: 'J', abbreviation: 'J', issnOnline: '', publisher: '', language: 'en' };
    const byDay = citationFile(article, journal, 'bibtex').body;
    expect(byDay).toMatch(/^\s*month = mar,$/m);
    expect(byDay).not.toMatch(/month = \{/);
    const byMonth = citationFile({ ...article, issue_year: 2025, issue_month: 11 }, journal, 'bibtex').body;
    expect(byMonth).toMatch(/^\s*month = nov,$/m);
    // Read back by a BibTeX reader to the same year and month.
    const [csl] = new Cite(byMonth).data;
    const { issued } = csl as unknown as { issued: { 'date-parts': number[][] } };
    expect(issued['date-parts'][0].slice(0, 2)).toEqual([2025, 11]);
  });
});
