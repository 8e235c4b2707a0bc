import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleAuthors } from '../../server/catalog/tables.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { submissionAuthors, submissions } from '../../server/submissions/tables.ts';
import { moveSubmission, postManuscript } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, multipart } from '../../server/testing/harness.ts';
import {
  SCHEMA_TIMEOUT,
  SETUP_TIMEOUT,
  createVolume,
  parseXml,
  validateWithSchema,
} from './discovery-helpers.ts';

/**
 * Authors' ORCID iDs (decision 0029): typed on the submission (bare or as an address), kept bare, refused on
 * their own field when wrong, copied to the article on publishing, edited by the editors, and carried by
 * every export in the form each schema wants (checked with the official schemas, offline).
 */

let t: TestContext;
let author: Record<string, string>;
let editor: Record<string, string>;
let issueId: number;
let submissionId: number;
let articleId: number;

// ORCID's own documented examples: one ends in X (typed here in lower case, as people do).
const PRIYA = '0000-0002-1694-233X';
const DANIEL = '0000-0001-5109-3700';

const AUTHORS = [
  {
    name: 'Priya Raman',
    email: 'priya@example.org',
    affiliation: 'IIT Madras',
    superscript: '1',
    orcid: `https://orcid.org/${PRIYA.toLowerCase()}`,
  },
  // No iD: the key may be missing altogether (clients written before it existed).
  { name: 'Jon Olsen', email: 'jon@example.org', affiliation: 'NTNU', superscript: '2' },
  {
    name: 'Daniel Okafor',
    email: 'daniel@example.org',
    affiliation: 'University of Lagos',
    superscript: '3',
    orcid: `orcid.org/${DANIEL}`,
  },
];

const submit = (authors: unknown[]) =>
  postManuscript(t, author, {
    title: 'Energy-aware task offloading for battery-powered IoT gateways',
    keywords: 'IoT, edge computing, offloading',
    abstract: 'We schedule offloading to save energy on gateways.',
    authors: JSON.stringify(authors),
  });

async function counts() {
  return {
    submissions: (await t.services.db.select().from(submissions)).length,
    authors: (await t.services.db.select().from(submissionAuthors)).length,
    files: (await t.services.db.select().from(storedFiles)).length,
    blobs: (await t.blobFiles()).length,
  };
}

const articleOrcids = async (id: number) =>
  (
    await t.services.db
      .select({ orcid: articleAuthors.orcid })
      .from(articleAuthors)
      .where(eq(articleAuthors.articleId, id))
      .orderBy(asc(articleAuthors.position))
  ).map((r) => r.orcid);

beforeAll(async () => {
  t = await createTestContext();
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  const editorToken = await t.login(e.username, e.password);
  editor = { authorization: `Bearer ${editorToken}` };
  [issueId] = await createVolume(t, editorToken, { number: 3, year: 2026, issues: 1 });
}, SETUP_TIMEOUT);
afterAll(() => t?.close());

describe("authors' ORCID iDs", () => {
  it('keeps each author’s iD from the submission, bare, and answers it with the submission', async () => {
    const res = await submit(AUTHORS);
    expect(res.statusCode, res.body).toBe(201);
    submissionId = res.json().id;
    const rows = await t.services.db
      .select({ orcid: submissionAuthors.orcid })
      .from(submissionAuthors)
      .where(eq(submissionAuthors.submissionId, submissionId))
      .orderBy(asc(submissionAuthors.position));
    expect(rows.map((r) => r.orcid)).toEqual([PRIYA, null, DANIEL]);

    for (const headers of [author, editor]) {
      const detail = await t.app.inject({ method: 'GET', url: `/api/submissions/${submissionId}`, headers });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().authors.map((x: { orcid: string | null }) => x.orcid)).toEqual([
        PRIYA,
        null,
        DANIEL,
      ]);
    }
  });

  it('refuses a wrong iD with 400 and the message on that author’s field, storing nothing', async () => {
    const before = await counts();
    const digit = await submit([AUTHORS[0], { ...AUTHORS[1], orcid: '0000-0002-1825-0098' }]);
    expect(digit.statusCode).toBe(400);
    expect(digit.json().errors).toEqual({
      'authors.1.orcid': "This ORCID iD has a wrong check digit: copy it from the author's ORCID record.",
    });
    expect(digit.json().message).toBeTruthy();

    const shape = await submit([{ ...AUTHORS[0], orcid: 'https://orcid.org/0000-0002-1825' }]);
    expect(shape.statusCode).toBe(400);
    expect(shape.json().errors).toEqual({
      'authors.0.orcid': 'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).',
    });
    expect(await counts()).toEqual(before);
  });

  it('copies the iDs to the article when the submission is published', async () => {
    await moveSubmission(t, editor, submissionId, 'under_review', 'accepted');
    const pub = await multipart({ issue_id: String(issueId), pages: '1-9', doi: '10.5555/orcid.2026.1' });
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${submissionId}/publish`,
      headers: { ...editor, ...pub.headers },
      payload: pub.payload,
    });
    expect(published.statusCode, published.body).toBe(201);
    articleId = published.json().articleId;
    expect(await articleOrcids(articleId)).toEqual([PRIYA, null, DANIEL]);
    const article = await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${articleId}` });
    expect(article.json().authors).toEqual([
      expect.objectContaining({ name: 'Priya Raman', orcid: PRIYA }),
      expect.objectContaining({ name: 'Jon Olsen', orcid: null }),
      expect.objectContaining({ name: 'Daniel Okafor', orcid: DANIEL }),
    ]);
  });

  it('lets the editors give, change and remove an article author’s iD, and refuses a wrong one on its field', async () => {
    const fields = (authors: unknown[]) => ({
      title: 'Energy-aware task offloading for battery-powered IoT gateways',
      abstract: 'We schedule offloading to save energy on gateways.',
      keywords: 'IoT, edge computing, offloading',
      pages: '1-9',
      doi: '10.5555/orcid.2026.1',
      issue_id: issueId,
      authors: JSON.stringify(authors),
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/editor/articles/${articleId}`,
      headers: editor,
      payload: fields([AUTHORS[0], { ...AUTHORS[1], orcid: '1234' }, AUTHORS[2]]),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      'authors.1.orcid': 'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).',
    });
    expect(await articleOrcids(articleId)).toEqual([PRIYA, null, DANIEL]);

    // Jon gets one (bare), Daniel's is removed (empty), Priya's stays.
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `/api/editor/articles/${articleId}`,
      headers: editor,
      payload: fields([
        { ...AUTHORS[0], orcid: PRIYA },
        { ...AUTHORS[1], orcid: '0000-0002-1825-0097' },
        { ...AUTHORS[2], orcid: '' },
      ]),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await articleOrcids(articleId)).toEqual([PRIYA, '0000-0002-1825-0097', null]);
    expect(ok.json().article.authors.map((x: { orcid: string | null }) => x.orcid)).toEqual([
      PRIYA,
      '0000-0002-1825-0097',
      null,
    ]);
  });

  it('carries the iDs into the Crossref deposit, valid against schema 5.3.1', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/editor/export/crossref/article/${articleId}`,
      headers: editor,
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = validateWithSchema('crossref', res.body);
    expect(result.ok, result.output).toBe(true);
    const people = parseXml(res.body).doi_batch.body.journal.journal_article[0].contributors.person_name;
    expect(people.map((p: any) => p.ORCID?.['#text'] ?? p.ORCID ?? null)).toEqual([
      `https://orcid.org/${PRIYA}`,
      'https://orcid.org/0000-0002-1825-0097',
      null,
    ]);
    expect(people[0].ORCID['@_authenticated']).toBe('false');
  });

  it('carries the iDs into the DOAJ export, valid against its schema', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/editor/export/doaj/issue/${issueId}`,
      headers: editor,
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = validateWithSchema('doaj', res.body);
    expect(result.ok, result.output).toBe(true);
    const records = parseXml(res.body).records.record;
    const authors = (Array.isArray(records) ? records[0] : records).authors.author;
    expect(authors.map((a: any) => a.orcid_id ?? null)).toEqual([
      `https://orcid.org/${PRIYA}`,
      'https://orcid.org/0000-0002-1825-0097',
      null,
    ]);
  });

  it('carries the iDs into the article’s JATS front matter, valid against the DTD', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const res = await t.app.inject({ method: 'GET', url: `/article/${articleId}/jats.xml` });
    expect(res.statusCode, res.body).toBe(200);
    const result = validateWithSchema('jats', res.body);
    expect(result.ok, result.output).toBe(true);
    expect(res.body).toContain(
      `<contrib-id contrib-id-type="orcid" authenticated="false">https://orcid.org/${PRIYA}</contrib-id>`,
    );
    const contribs = [...res.body.matchAll(/<contrib contrib-type="author">([\s\S]*?)<\/contrib>/g)].map(
      (m) => m[1],
    );
    expect(contribs).toHaveLength(3);
    expect(contribs.map((c) => /<contrib-id[^>]*>([^<]*)</.exec(c)?.[1] ?? null)).toEqual([
      `https://orcid.org/${PRIYA}`,
      'https://orcid.org/0000-0002-1825-0097',
      null,
    ]);
    // The iD comes first in <contrib>, as the DTD wants it.
    expect(contribs[0].trimStart().startsWith('<contrib-id')).toBe(true);
  });
});
