import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { createIssueInNewVolume, postDecision, submitManuscript } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, multipart } from '../../server/testing/harness.ts';

let t: TestContext;
let author: { h: Record<string, string>; email: string };
let other: Record<string, string>;
let editor: Record<string, string>;
let issueId: number;

beforeAll(async () => {
  t = await createTestContext();
  const a = await t.createUser({ role: 'author', status: 'pending' });
  author = { h: { authorization: `Bearer ${await t.login(a.username, a.password)}` }, email: a.email };
  const o = await t.createUser({ role: 'author', status: 'approved' });
  other = { authorization: `Bearer ${await t.login(o.username, o.password)}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
  issueId = await createIssueInNewVolume(t, editor, { number: 2, year: 2026 });
});
afterAll(() => t?.close());

const submit = (title: string, file = 'manuscript.pdf', type = 'Research Article') =>
  submitManuscript(
    t,
    author.h,
    {
      title,
      articleType: type,
      keywords: 'edge, energy, IoT, scheduling',
      abstract: 'An abstract of the work.',
      authors: [
        { name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras', superscript: '1' },
        { name: 'Daniel Okafor', email: 'daniel@example.org', affiliation: 'University of Lagos', superscript: '2' },
      ],
    },
    { submissionFile: { name: file, data: fixture(file) } },
  );

/** A move on the desk; revisions are requested as major ones (the kind is required: decision 0023). */
const decide = (id: number, status: string, message: string, headers = editor) =>
  postDecision(t, headers, id, status, { message, revisions: 'major' });

describe('the submissions desk', () => {
  it('takes a manuscript from arrival to publication', async () => {
    const { id, reference } = await submit('Energy-aware task offloading for battery-powered IoT gateways');

    const desk = await t.app.inject({ method: 'GET', url: '/api/editor/submissions?status=submitted', headers: editor });
    expect(desk.json().submissions).toContainEqual(
      expect.objectContaining({ id, reference, status: 'submitted', authors: ['Priya Raman', 'Daniel Okafor'] }),
    );

    expect((await decide(id, 'under_review', 'Sent to two reviewers.')).statusCode).toBe(200);
    const mailsBefore = t.mail.length;
    const revisions = await decide(id, 'revisions_requested', 'Please add an energy breakdown per task.');
    expect(revisions.statusCode).toBe(200);
    expect(revisions.json().nextStatuses).toEqual(['rejected']);
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({ to: author.email, subject: expect.stringContaining(reference) }),
    ]);
    expect(t.mail.at(-1)!.text).toContain('Please add an energy breakdown per task.');
    // One link to My submissions, not the upload line followed by a "follow your submissions" line.
    expect(t.mail.at(-1)!.text.match(/\/my-submissions/g)).toHaveLength(1);
    expect(t.mail.at(-1)!.text).toContain('Please upload your revised manuscript from My submissions:');
    // Every e-mail about it is in its communication log, newest first, with what became of it.
    const log = await t.services.mail.log(id);
    expect(log.map((m) => [m.recipients, m.subject, m.status])).toEqual([
      [author.email, expect.stringMatching(/Revisions requested/i), 'sent'],
      [author.email, expect.stringMatching(/Under review/i), 'sent'],
      ['editorial@colophon-journal.org', `[${reference}] New submission: Energy-aware task offloading for battery-powered IoT gateways`, 'sent'],
      [author.email, expect.stringContaining('has been received'), 'sent'],
    ]);
    expect(log[0].body).toContain('Please add an energy breakdown per task.');

    const mine = await t.app.inject({ method: 'GET', url: '/api/submissions/mine', headers: author.h });
    expect(mine.json()).toContainEqual(
      expect.objectContaining({
        id,
        status: 'revisions_requested',
        lastMessage: expect.objectContaining({ message: 'Please add an energy breakdown per task.' }),
      }),
    );

    const rev = await multipart(
      { message: 'Added Table 3 with the breakdown.' },
      {
        submissionFile: { name: 'manuscript-v2.docx', data: fixture('manuscript.docx') },
        additionalZip: { name: 'data.zip', data: fixture('supplementary.zip') },
      },
    );
    const revised = await t.app.inject({
      method: 'POST',
      url: `/api/submissions/${id}/revision`,
      headers: { ...author.h, ...rev.headers },
      payload: rev.payload,
    });
    expect(revised.statusCode, revised.body).toBe(200);
    const detail = revised.json();
    expect(detail.status).toBe('revised');
    expect(detail.files.map((f: { version: number; kind: string; name: string }) => [f.version, f.kind, f.name])).toEqual([
      [2, 'additional', 'data.zip'],
      [2, 'manuscript', 'manuscript-v2.docx'],
      [1, 'manuscript', 'manuscript.pdf'],
    ]);
    expect(detail.history.map((h: { to: string }) => h.to)).toEqual([
      'submitted',
      'under_review',
      'revisions_requested',
      'revised',
    ]);

    // Earlier versions stay downloadable, byte for byte.
    const v1 = detail.files.find((f: { version: number }) => f.version === 1);
    const file = await t.app.inject({ method: 'GET', url: `/api/submissions/${id}/files/${v1.id}`, headers: editor });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(fixture('manuscript.pdf'))).toBe(true);
    expect(file.headers['content-disposition']).toContain(reference);

    expect((await decide(id, 'accepted', 'Accepted: congratulations.')).statusCode).toBe(200);

    // The latest manuscript is a .docx, so publishing needs the final PDF.
    const noPdf = await multipart({ issue_id: String(issueId), pages: '1-9', doi: '10.5555/cjei.2026.2.1.001' });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/publish`,
      headers: { ...editor, ...noPdf.headers },
      payload: noPdf.payload,
    });
    expect(refused.statusCode).toBe(400);

    const pub = await multipart(
      { issue_id: String(issueId), pages: '1-9', doi: '10.5555/cjei.2026.2.1.001' },
      { pdf: { name: 'final.pdf', data: fixture('manuscript.pdf') } },
    );
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/publish`,
      headers: { ...editor, ...pub.headers },
      payload: pub.payload,
    });
    expect(published.statusCode, published.body).toBe(201);
    const articleId = published.json().articleId;
    const article = (await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${articleId}` })).json();
    expect(article).toMatchObject({
      title: 'Energy-aware task offloading for battery-powered IoT gateways',
      pages: '1-9',
      doi: '10.5555/cjei.2026.2.1.001',
      issue_id: issueId,
      article_type: 'Research Article',
      authors: [
        expect.objectContaining({ name: 'Priya Raman', superscript: '1' }),
        expect.objectContaining({ name: 'Daniel Okafor', superscript: '2' }),
      ],
    });

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/publish`,
      headers: { ...editor, ...pub.headers },
      payload: pub.payload,
    });
    expect(again.statusCode).toBe(409);
    const final = (await t.app.inject({ method: 'GET', url: `/api/submissions/${id}`, headers: author.h })).json();
    expect(final.articleId).toBe(articleId);
    // The lists know it is published too (they read "Published", as the detail pages do).
    const mineNow = (await t.app.inject({ method: 'GET', url: '/api/submissions/mine', headers: author.h })).json();
    expect(mineNow).toContainEqual(expect.objectContaining({ id, status: 'accepted', articleId }));
    const deskNow = await t.app.inject({ method: 'GET', url: `/api/editor/submissions?q=${reference}`, headers: editor });
    expect(deskNow.json().submissions).toEqual([expect.objectContaining({ id, status: 'accepted', articleId })]);
  });

  it('publishes a submission once, even when two editors publish it at the same moment, and tells the author', async () => {
    const { id, reference } = await submit('Published twice at once?');
    await decide(id, 'under_review', 'Reviewing.');
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/publish`,
      ...(await (async () => {
        const b = await multipart({ issue_id: String(issueId), pages: '1-2', doi: '10.5555/cjei.race.0' });
        return { headers: { ...editor, ...b.headers }, payload: b.payload };
      })()),
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Only an accepted submission can be published.');

    await decide(id, 'accepted', 'Accepted.');
    const mails = t.mail.length;
    const attempt = async (doi: string) => {
      const b = await multipart({ issue_id: String(issueId), pages: '30-40', doi });
      return t.app.inject({
        method: 'POST',
        url: `/api/editor/submissions/${id}/publish`,
        headers: { ...editor, ...b.headers },
        payload: b.payload,
      });
    };
    const results = await Promise.all([attempt('10.5555/cjei.race.1'), attempt('10.5555/cjei.race.2')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const refused = results.find((r) => r.statusCode === 409)!;
    expect(refused.json().message).toMatch(/already published/);
    const rows = (await t.app.inject({ method: 'GET', url: '/api/editor/articles', headers: editor })).json();
    const list = Array.isArray(rows) ? rows : rows.articles;
    expect(list.filter((a: { title: string }) => a.title === 'Published twice at once?')).toHaveLength(1);

    const articleId = results.find((r) => r.statusCode === 201)!.json().articleId;
    const told = t.mail.slice(mails).filter((m) => m.to === author.email);
    expect(told).toHaveLength(1);
    expect(told[0].subject).toBe(`[${reference}] Your article is published: Published twice at once?`);
    expect(told[0].text).toContain(`/article/${articleId}`);
  });

  it('publishes with the manuscript itself when it is a PDF', async () => {
    const { id } = await submit('A PDF manuscript');
    await decide(id, 'under_review', 'Reviewing.');
    await decide(id, 'accepted', 'Accepted.');
    const pub = await multipart({ issue_id: String(issueId), pages: '10-20', doi: '10.5555/cjei.2026.2.1.002' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/submissions/${id}/publish`,
      headers: { ...editor, ...pub.headers },
      payload: pub.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses moves the workflow does not allow, and decisions without a message', async () => {
    const { id } = await submit('Out of order');
    const res = await decide(id, 'accepted', 'Straight to accepted?');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A submission that is submitted cannot be moved to accepted.');
    expect((await decide(id, 'revised', 'Only authors revise.')).statusCode).toBe(409);
    const noMessage = await decide(id, 'under_review', '  ');
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json().errors.message).toBe('A message to the author is required.');
    expect((await decide(id, 'published', 'x')).statusCode).toBe(400);
    expect((await decide(999999, 'under_review', 'x')).statusCode).toBe(404);
    await decide(id, 'rejected', 'Out of scope.');
    expect((await decide(id, 'under_review', 'Reconsider')).statusCode).toBe(409);
    const late = await decide(id, 'accepted', 'Accept after all?');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('A submission that is rejected cannot be moved to accepted.');
  });

  it('keeps submissions private to their author and the editors', async () => {
    const { id } = await submit('Private work');
    expect((await t.app.inject({ method: 'GET', url: `/api/submissions/${id}`, headers: other })).statusCode).toBe(404);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/submissions/${id}`, headers: author.h })).json();
    expect(detail.nextStatuses).toEqual([]);
    const fileId = detail.files[0].id;
    expect((await t.app.inject({ method: 'GET', url: `/api/submissions/${id}/files/${fileId}`, headers: other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/submissions/${id}/files/${fileId}`, headers: author.h })).statusCode).toBe(200);
    // Another author cannot revise it either, and nobody revises unless revisions were requested.
    const rev = await multipart({}, { submissionFile: { name: 'm.pdf', data: fixture('manuscript.pdf') } });
    const byOther = await t.app.inject({ method: 'POST', url: `/api/submissions/${id}/revision`, headers: { ...other, ...rev.headers }, payload: rev.payload });
    expect(byOther.statusCode).toBe(404);
    const early = await t.app.inject({ method: 'POST', url: `/api/submissions/${id}/revision`, headers: { ...author.h, ...rev.headers }, payload: rev.payload });
    expect(early.statusCode).toBe(409);
  });

  it('checks revised files like new ones', async () => {
    const { id } = await submit('Needs work');
    await decide(id, 'under_review', 'Reviewing.');
    await decide(id, 'revisions_requested', 'Fix it.');
    const bad = await multipart({}, { submissionFile: { name: 'm.pdf', data: fixture('png-named.pdf') } });
    const res = await t.app.inject({ method: 'POST', url: `/api/submissions/${id}/revision`, headers: { ...author.h, ...bad.headers }, payload: bad.payload });
    expect(res.statusCode).toBe(415);
    const none = await multipart({ message: 'forgot the file' });
    const missing = await t.app.inject({ method: 'POST', url: `/api/submissions/${id}/revision`, headers: { ...author.h, ...none.headers }, payload: none.payload });
    expect(missing.json().message).toBe(MESSAGES.mainFileMissing);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/submissions/${id}`, headers: author.h })).json();
    expect(detail.status).toBe('revisions_requested');
  });

  it('filters and searches the desk, and pages it', async () => {
    await submit('Graph neural networks for power grid fault localisation', 'manuscript.docx', 'Review Article');
    const byType = (await t.app.inject({ method: 'GET', url: '/api/editor/submissions?type=Review%20Article', headers: editor })).json();
    expect(byType.submissions.every((s: { articleType: string }) => s.articleType === 'Review Article')).toBe(true);
    expect(byType.total).toBeGreaterThanOrEqual(1);
    const byTitle = (await t.app.inject({ method: 'GET', url: '/api/editor/submissions?q=power%20grid', headers: editor })).json();
    expect(byTitle.submissions.map((s: { title: string }) => s.title)).toEqual(['Graph neural networks for power grid fault localisation']);
    const byAuthor = (await t.app.inject({ method: 'GET', url: '/api/editor/submissions?q=okafor', headers: editor })).json();
    expect(byAuthor.total).toBeGreaterThanOrEqual(5);
    const today = new Date().toISOString().slice(0, 10);
    const byDate = (await t.app.inject({ method: 'GET', url: `/api/editor/submissions?from=${today}&to=${today}`, headers: editor })).json();
    expect(byDate.total).toBe(byAuthor.total);
    const past = (await t.app.inject({ method: 'GET', url: '/api/editor/submissions?to=2020-01-01', headers: editor })).json();
    expect(past.total).toBe(0);
    const paged = (await t.app.inject({ method: 'GET', url: '/api/editor/submissions?limit=2&offset=1', headers: editor })).json();
    expect(paged.submissions).toHaveLength(2);
    const odd = await t.app.inject({ method: 'GET', url: '/api/editor/submissions?q=%25_%5C%27%22', headers: editor });
    expect(odd.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/editor/submissions?from=yesterday', headers: editor })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/editor/submissions?status=lost', headers: editor })).statusCode).toBe(400);
  });
});

describe('the office inbox and the audit log', () => {
  it('lists contact messages newest first and marks them handled', async () => {
    for (const name of ['First', 'Second']) {
      await t.app.inject({ method: 'POST', url: '/contact', payload: { name, email: 'r@example.org', message: `${name} message` } });
    }
    const inbox = (await t.app.inject({ method: 'GET', url: '/api/editor/messages?handled=false', headers: editor })).json();
    expect(inbox.messages.map((m: { name: string }) => m.name).slice(0, 2)).toEqual(['Second', 'First']);
    const id = inbox.messages[0].id;
    const done = await t.app.inject({ method: 'POST', url: `/api/editor/messages/${id}/handled`, headers: editor });
    expect(done.json().handledAt).toEqual(expect.any(String));
    const open = (await t.app.inject({ method: 'GET', url: '/api/editor/messages?handled=false', headers: editor })).json();
    expect(open.messages.map((m: { id: number }) => m.id)).not.toContain(id);
    const reopened = await t.app.inject({ method: 'POST', url: `/api/editor/messages/${id}/handled`, headers: editor, payload: { handled: false } });
    expect(reopened.json().handledAt).toBeNull();
    expect((await t.app.inject({ method: 'POST', url: '/api/editor/messages/999999/handled', headers: editor })).statusCode).toBe(404);
  });

  it('records who did what, newest first', async () => {
    const log = (await t.app.inject({ method: 'GET', url: '/api/editor/audit?limit=200', headers: editor })).json();
    const actions = log.entries.map((e: { action: string }) => e.action);
    for (const action of ['volume.create', 'issue.create', 'submission.create', 'submission.decide', 'submission.revise', 'article.publish', 'message.handled']) {
      expect(actions).toContain(action);
    }
    expect(log.entries[0].id).toBeGreaterThan(log.entries.at(-1).id);
  });
});
