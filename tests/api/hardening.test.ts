import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT } from '../../common/validate.ts';
import { createIssueInNewVolume } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, postMultipart } from '../../server/testing/harness.ts';

/**
 * The defects the outside review of issue 12 reproduced, each as it was sent: text PostgreSQL cannot store,
 * bodies that are not what a route takes, ids that JavaScript's Number() would have read as 1.
 */
let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login('admin', 'admin-pass-123');
});
afterAll(() => t?.close());

const json = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: string, token?: string) =>
  t.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });

describe('text that cannot be stored', () => {
  it.each([
    ['POST', '/contact', '{"name":"a\\u0000b","email":"a@example.org","message":"Hello"}', 'name'],
    ['POST', '/contact', '{"name":"Ada","email":"a@example.org","message":"x\\ud800y"}', 'message'],
    ['POST', '/api/auth/login', '{"username":"adm\\u0000in","password":"x"}', 'username'],
    [
      'POST',
      '/api/auth/register',
      '{"username":"ada_l","password":"password-123","email":"ada@example.org","fullName":"Ada\\u0000","contactNumber":"+44 20 7946 0000","institution":"Analytical","role":"author"}',
      'fullName',
    ],
  ] as const)('%s %s with a NUL or a lone surrogate: 400 beside the field', async (method, url, body, field) => {
    const res = await json(method, url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[field]).toBe(UNSTORABLE_TEXT);
  });

  it('in the query of search and the editorial lists: 400, never 500', async () => {
    for (const url of [
      '/api/search?q=x&type=%00',
      '/api/editor/submissions?q=%00',
      '/api/admin/users?q=a%00b',
      '/api/editor/messages?handled=%00',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toBeTruthy();
    }
  });

  it('in an editor text field: 400 beside the field', async () => {
    const res = await json('POST', '/api/editor/volume', '{"title":"Vol\\u0000","volume_number":7,"year":2026}', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.title).toBe(UNSTORABLE_TEXT);
  });
});

describe('text that cannot be stored, inside a field that carries JSON', () => {
  // The escape is in the JSON text: the NUL or the lone surrogate exists only once the field is decoded.
  const authors = (esc: string) =>
    `[{"name":"A${esc}B","email":"a@example.org","affiliation":"U${esc}"}]`;

  it.each(['\\u0000', '\\ud800'])('POST /api/submission/submit with %s in authors: 400 beside the field', async (esc) => {
    const author = await t.createUser({ role: 'author', status: 'approved' });
    const token = await t.login(author.username, author.password);
    const res = await postMultipart(
      t.app,
      '/api/submission/submit',
      { authorization: `Bearer ${token}` },
      {
        title: 'A title',
        articleType: 'Research Article',
        keywords: 'a, b',
        abstract: 'An abstract.',
        authors: authors(esc),
      },
      { submissionFile: { name: 'manuscript.pdf', data: fixture('manuscript.pdf') } },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(UNSTORABLE_TEXT);
    expect(res.json().errors['authors.0.name']).toBe(UNSTORABLE_TEXT);
    expect(res.json().errors['authors.0.affiliation']).toBe(UNSTORABLE_TEXT);
  });

  it.each(['\\u0000', '\\ud800'])('POST /api/articles/admin/upload with %s in authors: 400 beside the field', async (esc) => {
    const number = esc === '\\u0000' ? 31 : 32;
    const issueId = await createIssueInNewVolume(t, admin, { number, year: 2026, description: 'The first.' });
    const res = await postMultipart(
      t.app,
      '/api/articles/admin/upload',
      { authorization: `Bearer ${admin}` },
      {
        title: 'A title',
        abstract: 'An abstract.',
        keywords: 'a, b',
        pages: '1-10',
        doi: '10.5555/nul.001',
        issue_id: String(issueId),
        authors: authors(esc),
      },
      { pdf: { name: 'manuscript.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' } },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors['authors.0.name'], res.body).toBe(UNSTORABLE_TEXT);
  });
});

describe('ids and numbers', () => {
  it.each([['true'], ['[7]'], ['"1e1"'], ['"0x7"'], ['7.5'], ['null']])('refuses volume_number %s', async (value) => {
    const res = await json('POST', '/api/editor/volume', `{"title":"Volume","volume_number":${value},"year":2026}`, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.volume_number).toMatch(/Volume number/);
  });

  it('takes digits, as a number or a text', async () => {
    const a = await json('POST', '/api/editor/volume', '{"title":"Volume 7","volume_number":7,"year":2026}', admin);
    const b = await json('POST', '/api/editor/volume', '{"title":"Volume 8","volume_number":"8","year":"2026"}', admin);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
  });

  it.each(['[1]', 'true', '1e0', '0x1', '%00', '01.0'])('refuses the path id %s with 400', async (id) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${id}` });
    expect(res.statusCode).toBe(400);
  });

  it.each(['true', '[1]', '1e1', '-1'])('refuses limit=%s', async (limit) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/editor/articles?limit=${encodeURIComponent(limit)}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.limit).toBeTruthy();
  });
});

describe('a database that cannot take more', () => {
  it('answers 503 with Retry-After, not a bare 500, when PostgreSQL reports it is out of space', async () => {
    const send = t.services.contact.send.bind(t.services.contact);
    t.services.contact.send = async () => {
      throw Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
    };
    try {
      const res = await json('POST', '/contact', '{"name":"Ada","email":"ada@example.org","message":"Hello"}');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json().message).toMatch(/try again/);
    } finally {
      t.services.contact.send = send;
    }
  });
});

describe('bodies that are not what the route takes', () => {
  it.each([
    ['text/plain', 'x'],
    ['application/xml', '<a/>'],
    ['application/x-www-form-urlencoded', 'username=admin&password=x'],
  ])('POST /api/auth/login as %s: 415 with a message', async (type, body) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': type }, payload: body });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/JSON/);
  });

  it('an unknown API path is 404 whatever the body', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/json']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/nothing/here', headers: { 'content-type': type }, payload: 'a=1' });
      expect(res.statusCode, type).toBe(404);
      expect(res.json().message).toBe('No API route POST /api/nothing/here.');
    }
  });

  it('a multipart type without a boundary: 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/articles/admin/upload',
      headers: { 'content-type': 'multipart/form-data', authorization: `Bearer ${admin}` },
      payload: 'x',
    });
    expect(res.statusCode).toBe(400);
  });
});
