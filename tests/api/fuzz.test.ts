import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitManuscript } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { fuzzRequests, operations } from '../fuzz/openapi.ts';
import { FuzzLog } from '../fuzz/values.ts';

/**
 * Every route of the OpenAPI document, tried with odd inputs (tests/fuzz): as an admin, who passes every
 * permission check and so reaches every handler, and signed out. Nothing may answer 5xx. The answers are
 * also held to their declared statuses and schemas (the harness checks responses), so an undeclared
 * refusal fails here too.
 */
let t: TestContext;
const log = new FuzzLog();

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  // A submission, so that submission ids and file ids lead somewhere.
  const author = await t.createUser({ role: 'author', status: 'approved' });
  const token = await t.login(author.username, author.password);
  await submitManuscript(t, token, {
    title: 'Fuzzing a journal',
    keywords: 'fuzzing, robustness',
    abstract: 'We send odd inputs.',
    authors: JSON.stringify([{ name: 'Ada Fuzz', email: 'ada@example.org', affiliation: 'Fuzz U' }]),
  });
}, 60_000);
afterAll(() => t?.close());

async function adminToken() {
  return t.login('admin', 'admin-pass-123');
}

describe('fuzzing every API route', () => {
  it('never answers 5xx, signed in as admin or signed out', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(40);
    for (const op of ops) {
      // A fresh session per route: a route may end the session it is called with (logout).
      const token = await adminToken();
      for (const request of await fuzzRequests(op)) {
        for (const who of ['admin', 'anonymous'] as const) {
          const res = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: { ...request.headers, ...(who === 'admin' ? { authorization: `Bearer ${token}` } : {}) },
            ...(request.body !== undefined ? { payload: request.body } : {}),
          });
          log.record(`${who} ${request.what} [${request.url.slice(0, 120)}]`, res.statusCode, res.body);
        }
      }
    }
    console.log(`API fuzz: ${log.summary()}`);
    expect(log.failures, log.summary()).toEqual([]);
  }, 600_000);
});
