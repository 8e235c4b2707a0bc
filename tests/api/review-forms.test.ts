import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../server/testing/harness.ts';
import { caller, decide, type Person, person, submitManuscript } from './review-helpers.ts';

/**
 * Peer review through the API, the journal's set-up (forms.ts, the settings' review defaults): review forms
 * and their versions, and the defaults new rounds and invitations take. The flow itself is review.test.ts.
 */

let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let author: Person;
let rex: Person;
const AUTHORS = [
  { name: 'Ada Authorname', email: 'ada@authorton.example', affiliation: 'Authorton Institute' },
];

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  rex = await person(t, 'researcher', 'Rex Reviewer', 'Reviewville University');
});
afterAll(() => t?.close());

describe('review forms', () => {
  it('versions a form a round has used; the round keeps its questions; answers are checked', async () => {
    const q = [
      { id: 'novel', type: 'yes-no', label: 'Is the work novel?', required: true },
      { id: 'quality', type: 'scale', label: 'Quality of writing', required: false },
    ];
    const bad = await api('POST', '/api/editor/review-forms', {
      token: editor.token,
      payload: { name: 'F', questions: [{ id: 'x', type: 'choice', label: 'Pick', options: ['one'] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('A question with a list of choices needs at least two options.');
    const created = await api('POST', '/api/editor/review-forms', {
      token: editor.token,
      payload: { name: 'Standard', questions: q },
    });
    expect(created.status).toBe(201);
    // Unused: edited in place.
    const edited = await api('PUT', `/api/editor/review-forms/${created.json.id}`, {
      token: editor.token,
      payload: { name: 'Standard form', questions: q },
    });
    expect(edited.json.id).toBe(created.json.id);

    const sub = await submitManuscript(
      t,
      author,
      [{ ...AUTHORS[0], email: author.email }],
      'Second manuscript',
    );
    await decide(t, editor.token, sub, { status: 'under_review' });
    const inv = await api('POST', `/api/editor/submissions/${sub}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    await api('POST', `/api/reviews/${inv.json.assignmentId}/accept`, { token: rex.token });
    const used = await api('PUT', `/api/editor/review-forms/${created.json.id}`, {
      token: editor.token,
      payload: { name: 'Standard form', questions: [q[1]] },
    });
    expect(used.json).toMatchObject({ previousId: created.json.id });
    expect(used.json.id).not.toBe(created.json.id);
    const forms = await api('GET', '/api/editor/review-forms', { token: editor.token });
    expect(forms.json.map((f: { id: number }) => f.id)).toEqual([used.json.id]);
    const stale = await api('PUT', `/api/editor/review-forms/${created.json.id}`, {
      token: editor.token,
      payload: { name: 'x', questions: q },
    });
    expect(stale.status).toBe(409);

    const view = await api('GET', `/api/reviews/${inv.json.assignmentId}`, { token: rex.token });
    expect(view.json.questions.map((x: { id: string }) => x.id)).toEqual(['novel', 'quality']);
    const wrong = await api('PUT', `/api/reviews/${inv.json.assignmentId}/draft`, {
      token: rex.token,
      payload: { answers: { quality: 9 } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors['answers.quality']).toBe('Answer "Quality of writing" from 1 to 5.');
    const missing = await api('POST', `/api/reviews/${inv.json.assignmentId}/submit`, {
      token: rex.token,
      payload: { recommendation: 'accept', commentsForAuthor: 'Fine.', answers: { quality: 4 } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual({ 'answers.novel': 'Answer "Is the work novel?".' });
    const done = await api('POST', `/api/reviews/${inv.json.assignmentId}/submit`, {
      token: rex.token,
      payload: { answers: { novel: true, quality: 4 } },
    });
    expect(done.status).toBe(200);
    const editorView = await api('GET', `/api/editor/submissions/${sub}/review`, { token: editor.token });
    expect(editorView.json.rounds[0].assignments[0].answers).toEqual({ novel: true, quality: 4 });
  });
});

describe('journal settings: review defaults', () => {
  it('validates and keeps the review defaults through the admin API', async () => {
    const admin = await t.login('admin', 'admin-pass-123');
    const current = await api('GET', '/api/admin/journal-settings', { token: admin });
    expect(current.json.settings.review).toMatchObject({
      respondDays: 7,
      reviewDays: 28,
      defaultMode: 'double-anonymous',
      timeZone: 'UTC',
    });
    const bad = await api('PUT', '/api/admin/journal-settings', {
      token: admin,
      payload: {
        ...current.json.settings,
        review: { ...current.json.settings.review, timeZone: 'Moon/Base' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('Use a time zone name such as UTC, Europe/Berlin or Asia/Kolkata.');
    const { review: _omitted, ...withoutReview } = current.json.settings;
    const kept = await api('PUT', '/api/admin/journal-settings', { token: admin, payload: withoutReview });
    expect(kept.json.settings.review.timeZone).toBe('UTC');
    const changed = await api('PUT', '/api/admin/journal-settings', {
      token: admin,
      payload: {
        ...current.json.settings,
        review: { ...current.json.settings.review, timeZone: 'Asia/Kolkata', defaultMode: 'open' },
      },
    });
    expect(changed.json.changed).toEqual(['review']);
    expect((await t.services.settings.journal()).review.timeZone).toBe('Asia/Kolkata');
  });
});
