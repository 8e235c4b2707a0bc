import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitManuscript } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, multipart } from '../../server/testing/harness.ts';

/** The desk's filters and the publish form share their schemas with the pages (common/submissions.ts). */

let t: TestContext;
let editor: Record<string, string>;
let author: Record<string, string>;

beforeAll(async () => {
  t = await createTestContext();
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
});
afterAll(() => t?.close());

const desk = (query: string) =>
  t.app.inject({ method: 'GET', url: `/api/editor/submissions?${query}`, headers: editor });

describe('the desk API', () => {
  it('names each wrong filter', async () => {
    const res = await desk('status=published&type=Essay&from=2026-13-01&to=yesterday');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      status: 'Choose a status from the list.',
      type: 'Choose an article type from the list.',
      from: 'Use a date such as 2026-01-31.',
      to: 'Use a date such as 2026-01-31.',
    });
    expect((await desk(`q=${'x'.repeat(201)}`)).json().errors.q).toBe(
      'The search must be at most 200 characters.',
    );
  });

  it('filters by the day of arrival, both days included', async () => {
    await submitManuscript(t, author, {
      title: 'A dated manuscript',
      articleType: 'Review Article',
      authors: [{ name: 'Ana Lima', email: 'ana@example.org', affiliation: 'USP', superscript: '' }],
    });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const same = await desk(`from=${today}&to=${today}&type=Review+Article&q=Ana+Lima`);
    expect(same.json().submissions.map((s: { title: string }) => s.title)).toEqual(['A dated manuscript']);
    expect((await desk(`from=${tomorrow}`)).json().total).toBe(0);
  });

  it('asks for the issue by name when publishing without one', async () => {
    const body = await multipart({ issue_id: 'none', pages: '1-2', doi: '10.5555/x.1' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/editor/submissions/1/publish',
      headers: { ...editor, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ issue_id: 'Choose the issue.' });
  });
});
