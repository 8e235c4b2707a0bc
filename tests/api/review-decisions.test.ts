import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMATION_NEEDED } from '../../common/review.ts';
import { readZipDirectory, readZipEntry, replaceZipEntries } from '../../server/content/zip.ts';
import { withoutPersonalProperties } from '../../server/files/document-properties.ts';
import { type TestContext, createTestContext, fixture, postMultipart } from '../../server/testing/harness.ts';
import {
  type Person,
  bearer,
  caller,
  decide,
  linkToken,
  pdf,
  person,
  submitManuscript,
} from './review-helpers.ts';

/**
 * Issue 22, found from outside: reviews withheld by an easy-to-miss box, reviewer files under each other's
 * names, "Accepted" with no review at all, and e-mails that say what they do not do.
 */

let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let author: Person;
let rex: Person;
let ria: Person;

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  rex = await person(t, 'researcher', 'Rex Reviewer', 'Reviewville University');
  ria = await person(t, 'researcher', 'Ria Referee', 'Refereeton College');
});
afterAll(() => t?.close());

const mine = (title: string) =>
  submitManuscript(
    t,
    author,
    [{ name: 'Ada Authorname', email: author.email, affiliation: 'Authorton Institute' }],
    title,
  );

/** Invites, accepts and submits a review by `who` in the open round; returns the assignment's id. */
async function reviewBy(id: number, who: Person, comments: string): Promise<number> {
  const inv = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
    token: editor.token,
    payload: { userId: who.id },
  });
  expect(inv.status, inv.body).toBe(201);
  const a = inv.json.assignmentId as number;
  expect((await api('POST', `/api/reviews/${a}/accept`, { token: who.token })).status).toBe(200);
  const done = await api('POST', `/api/reviews/${a}/submit`, {
    token: who.token,
    payload: { recommendation: 'major-revisions', commentsForAuthor: comments },
  });
  expect(done.status, done.body).toBe(200);
  return a;
}

const decision = (id: number, payload: Record<string, unknown>) =>
  api('POST', `/api/editor/submissions/${id}/decision`, {
    token: editor.token,
    payload: { message: 'From the editors.', ...payload },
  });

const lastMailTo = (to: string) => t.mail.filter((m) => m.to === to).at(-1)!;

describe('reviews go to the author with a revision decision by default (issue 22, item 1)', () => {
  it('shares every submitted review when the decision does not say, and the e-mail and page agree', async () => {
    const id = await mine('Shared by default');
    await decide(t, editor.token, id, { status: 'under_review' });
    await reviewBy(id, rex, 'Method unclear in section 2.');
    await reviewBy(id, ria, 'Data set too small.');
    await decide(t, editor.token, id, { status: 'revisions_requested', revisions: 'major' });
    const mail = lastMailTo(author.email);
    expect(mail.subject).toMatch(/Major revisions requested/);
    expect(mail.text).toContain(
      'Reviewer 1 — recommendation: Major revisions\n\nMethod unclear in section 2.',
    );
    expect(mail.text).toContain('Reviewer 2 — recommendation: Major revisions\n\nData set too small.');
    expect(mail.text).toContain('with a response to the reviewers');
    const seen = await api('GET', `/api/submissions/${id}/reviews`, { token: author.token });
    expect(seen.json.rounds[0].reviews.map((r: { comments: string }) => r.comments)).toEqual([
      'Method unclear in section 2.',
      'Data set too small.',
    ]);
  });

  it('withholds the reviews left out, notes it in the history, and asks to confirm withholding them all', async () => {
    const id = await mine('Withheld on purpose');
    await decide(t, editor.token, id, { status: 'under_review' });
    const a1 = await reviewBy(id, rex, 'Keep this one.');
    const a2 = await reviewBy(id, ria, 'Rude remarks the editor withholds.');

    // Withholding every review needs the editor's confirmation: 409 with the sentence, nothing written.
    const unconfirmed = await decision(id, {
      status: 'revisions_requested',
      revisions: 'major',
      shareReviews: [],
    });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.json.message).toBe(CONFIRMATION_NEEDED['withhold-reviews']);
    expect(unconfirmed.json.errors).toEqual({ confirm: CONFIRMATION_NEEDED['withhold-reviews'] });
    const still = await api('GET', `/api/submissions/${id}`, { token: editor.token });
    expect(still.json.status).toBe('under_review');
    const view = await api('GET', `/api/editor/submissions/${id}/review`, { token: editor.token });
    expect(view.json.rounds[0].decidedAt).toBeNull();

    // Withholding one needs no confirmation; the history (editors only) says so.
    await decide(t, editor.token, id, {
      status: 'revisions_requested',
      revisions: 'major',
      shareReviews: [a1],
    });
    const mail = lastMailTo(author.email);
    expect(mail.text).toContain('Keep this one.');
    expect(mail.text).not.toContain('Rude remarks');
    const desk = await api('GET', `/api/submissions/${id}`, { token: editor.token });
    expect(desk.json.history.at(-1).note).toBe('1 of 2 submitted reviews withheld from the author.');
    const own = await api('GET', `/api/submissions/${id}`, { token: author.token });
    expect(own.json.history.at(-1).note).toBeUndefined();
    expect(own.body).not.toContain('withheld');

    // The withheld review can be shared afterwards: the author is mailed it as "Reviewer 2".
    t.clock.advance(60_000);
    const early = await api('POST', `/api/editor/submissions/${id}/review/share`, {
      token: editor.token,
      payload: { reviews: [a1] },
    });
    expect(early.status).toBe(409);
    expect(early.json.message).toBe('This review has already been shared with the author.');
    const later = await api('POST', `/api/editor/submissions/${id}/review/share`, {
      token: editor.token,
      payload: { reviews: [a2] },
    });
    expect(later.status, later.body).toBe(200);
    expect(later.json.rounds[0].assignments.every((a: { sharedAt: string | null }) => a.sharedAt)).toBe(true);
    const shared = lastMailTo(author.email);
    expect(shared.subject).toBe(`[${desk.json.reference}] Reviews shared with you: Withheld on purpose`);
    expect(shared.text).toContain(
      'Reviewer 2 — recommendation: Major revisions\n\nRude remarks the editor withholds.',
    );
    expect(shared.text).toContain('Please answer the reviewers in your response to them');
    expect(shared.text).not.toContain('Ria');
    const seen = await api('GET', `/api/submissions/${id}/reviews`, { token: author.token });
    expect(
      seen.json.rounds[0].reviews.map((r: { label: string; comments: string }) => [r.label, r.comments]),
    ).toEqual([
      ['Reviewer 1', 'Keep this one.'],
      ['Reviewer 2', 'Rude remarks the editor withholds.'],
    ]);
  });

  it('withholds them all once confirmed, asks for no response to unseen reviews, and refuses odd shares', async () => {
    const id = await mine('All withheld');
    await decide(t, editor.token, id, { status: 'under_review' });
    const a1 = await reviewBy(id, rex, 'Not for the author yet.');
    // Sharing before the decision: the round is open, its reviews go with the decision.
    const open = await api('POST', `/api/editor/submissions/${id}/review/share`, {
      token: editor.token,
      payload: { reviews: [a1] },
    });
    expect(open.status).toBe(409);
    await decide(t, editor.token, id, {
      status: 'revisions_requested',
      revisions: 'minor',
      shareReviews: [],
      confirm: ['withhold-reviews'],
    });
    const mail = lastMailTo(author.email);
    expect(mail.text).not.toContain('Not for the author yet.');
    expect(mail.text).toMatch(
      /Please upload your revised manuscript by [^\n]*\(end of the day, UTC time\)\./,
    );
    expect(mail.text).not.toContain('response to the reviewers');
    const desk = await api('GET', `/api/submissions/${id}`, { token: editor.token });
    expect(desk.json.history.at(-1).note).toBe(
      'The submitted review was withheld from the author (confirmed).',
    );
    // The revision reminder asks for no response to reviewers the author never saw.
    const round = (await api('GET', `/api/editor/submissions/${id}/review`, { token: editor.token })).json
      .rounds[0];
    await t.services.review.reminderPass(
      new Date(Date.parse(`${round.revisionDue}T00:00:00Z`) + 2 * 86_400_000),
    );
    await t.runJobs();
    const reminder = t.mail.filter(
      (m) => m.to === author.email && /Reminder: revised manuscript/.test(m.subject),
    );
    expect(reminder.at(-1)!.text).toContain('You can upload it from My submissions');

    // Unknown or unsubmitted reviews, or another submission's, are refused beside the field.
    for (const reviews of [[999_999], [a1, 999_999]]) {
      const odd = await api('POST', `/api/editor/submissions/${id}/review/share`, {
        token: editor.token,
        payload: { reviews },
      });
      expect(odd.status).toBe(400);
      expect(odd.json.errors.reviews).toBe('Choose submitted reviews of this submission.');
    }
    const empty = await api('POST', `/api/editor/submissions/${id}/review/share`, {
      token: editor.token,
      payload: { reviews: [] },
    });
    expect(empty.status).toBe(400);
    const asAuthor = await api('POST', `/api/editor/submissions/${id}/review/share`, {
      token: author.token,
      payload: { reviews: [a1] },
    });
    expect(asAuthor.status).toBe(403);
    const bad = await decision(id, { status: 'rejected', confirm: ['maybe'] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors['confirm.0'] ?? bad.json.errors.confirm).toMatch(/accept-without-review/);
  });
});

describe('accepting with no review at all (issue 22, item 4)', () => {
  it('asks the editor to confirm, then says so in the history; a reviewed manuscript needs no confirmation', async () => {
    const id = await mine('Accepted unreviewed');
    await decide(t, editor.token, id, { status: 'under_review' });
    const refused = await decision(id, { status: 'accepted' });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(CONFIRMATION_NEEDED['accept-without-review']);
    expect((await api('GET', `/api/submissions/${id}`, { token: editor.token })).json.status).toBe(
      'under_review',
    );
    const before = t.mail.length;
    await decide(t, editor.token, id, { status: 'accepted', confirm: ['accept-without-review'] });
    // The decision, and the article processing charge's invoice (decision 0063).
    expect(t.mail.slice(before).map((m) => m.to)).toEqual([author.email, author.email]);
    expect(t.mail.slice(before).some((m) => /Invoice APC-\d{4}-\d{4}/.test(m.subject))).toBe(true);
    const desk = await api('GET', `/api/submissions/${id}`, { token: editor.token });
    expect(desk.json.status).toBe('accepted');
    expect(desk.json.history.at(-1).note).toMatch(
      /^Accepted without peer review: no reviewer submitted a review in any round \(confirmed\)\. Invoice APC-\d{4}-\d{4}: /,
    );

    // Reviewed in an earlier round: the acceptance of the revision needs nothing more.
    const reviewed = await mine('Accepted after review');
    await decide(t, editor.token, reviewed, { status: 'under_review' });
    await reviewBy(reviewed, rex, 'Fine after small changes.');
    await decide(t, editor.token, reviewed, { status: 'revisions_requested', revisions: 'minor' });
    const revision = await postMultipart(
      t.app,
      `/api/submissions/${reviewed}/revision`,
      bearer(author.token),
      { message: 'Revised.', responseToReviewers: 'Done.' },
      { submissionFile: { name: 'v2.pdf', data: pdf, type: 'application/pdf' } },
    );
    expect(revision.statusCode, revision.body).toBe(200);
    const accepted = await decision(reviewed, { status: 'accepted' });
    expect(accepted.status, accepted.body).toBe(200);
    // Nothing of peer review's to note; only the invoice (decision 0063).
    expect(accepted.json.history.at(-1).note).toMatch(/^Invoice APC-\d{4}-\d{4}: 100 USD \(submitted /);
  });
});

describe('reviewer files under their own names (issue 22, item 2)', () => {
  it('offers the Word manuscript and the ZIP by role and type, each with the bytes the author sent', async () => {
    // A Word manuscript whose properties name the author, and a supplementary ZIP, as in the report.
    const source = fixture('manuscript.docx');
    const directory = readZipDirectory(source);
    const coreEntry = directory.entries.find((e) => e.name === 'docProps/core.xml')!;
    const core = readZipEntry(source, coreEntry, 1 << 20)
      .toString('utf8')
      .replace('<dc:creator></dc:creator>', '<dc:creator>Ada Authorname</dc:creator>');
    const docx = replaceZipEntries(source, directory, new Map([['docProps/core.xml', Buffer.from(core)]]));
    const zip = fixture('supplementary.zip');
    const res = await postMultipart(
      t.app,
      '/api/submission/submit',
      bearer(author.token),
      {
        title: 'Word and ZIP',
        articleType: 'Research Article',
        keywords: 'sensors',
        abstract: 'We study adaptive sampling.',
        authors: JSON.stringify([
          {
            name: 'Ada Authorname',
            email: author.email,
            affiliation: 'Authorton Institute',
            superscript: '1',
          },
        ]),
      },
      {
        submissionFile: {
          name: 'Authorname-draft.docx',
          data: docx,
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        },
        additionalZip: { name: 'Authorname-data.zip', data: zip, type: 'application/zip' },
      },
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    await decide(t, editor.token, id, { status: 'under_review' });
    // Double-anonymous (the journal's default): the editor sends reviewers a copy without the author's name.
    const cleaned = await api('POST', `/api/editor/submissions/${id}/review/files/without-properties`, {
      token: editor.token,
    });
    expect(cleaned.status, cleaned.body).toBe(200);
    const inv = await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    const link = linkToken(t, rex.email, inv.json.assignmentId);
    const accepted = await api('POST', `/api/reviews/${link.id}/accept?token=${link.token}`);
    expect(accepted.status).toBe(200);
    const offered = accepted.json.files as { id: number; name: string; size: number }[];
    expect(offered.map((f) => f.name)).toEqual(['manuscript-round-1.docx', 'supplementary-round-1.zip']);

    const cleanedDocx = await withoutPersonalProperties(docx, 'docx');
    if (!cleanedDocx.ok) throw new Error('the fixture could not be cleaned');
    const expected: Record<string, Buffer> = {
      'manuscript-round-1.docx': Buffer.from(cleanedDocx.bytes),
      'supplementary-round-1.zip': zip,
    };
    for (const f of offered) {
      const got = await t.app.inject({
        method: 'GET',
        url: `/api/reviews/${link.id}/files/${f.id}?token=${link.token}`,
      });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-disposition']).toContain(f.name);
      expect(got.rawPayload.equals(expected[f.name]), f.name).toBe(true);
      expect(f.size).toBe(expected[f.name].length);
    }
    expect(expected['manuscript-round-1.docx'].includes(Buffer.from('Ada Authorname'))).toBe(false);
  });
});

describe('e-mails that say what they do (issue 22, item 7)', () => {
  it('sends the reviewer the abstract the form promises, never the authors outside open review', async () => {
    const id = await mine('Abstract in the invitation');
    await decide(t, editor.token, id, { status: 'under_review' });
    await api('POST', `/api/editor/submissions/${id}/review/invitations`, {
      token: editor.token,
      payload: { userId: rex.id },
    });
    const anonymous = lastMailTo(rex.email);
    expect(anonymous.text).toContain('Abstract:\n\nWe study adaptive sampling.');
    expect(anonymous.text).toContain('Article type: Research Article');
    expect(anonymous.text).not.toContain('Ada Authorname');
    expect(anonymous.text).not.toContain('Authorton');

    const open = await mine('Open invitation');
    await decide(t, editor.token, open, { status: 'under_review' });
    await api('PUT', `/api/editor/submissions/${open}/review/mode`, {
      token: editor.token,
      payload: { mode: 'open' },
    });
    await api('POST', `/api/editor/submissions/${open}/review/invitations`, {
      token: editor.token,
      payload: { userId: ria.id },
    });
    const mail = lastMailTo(ria.email);
    expect(mail.text).toContain('Abstract:\n\nWe study adaptive sampling.');
    expect(mail.text).toContain('Authors: Ada Authorname (Authorton Institute)');
  });

  it('links the editorial office to the new submission on the desk', async () => {
    const office = t.services.config.EDITORIAL_EMAIL;
    const id = await mine('Linked to the desk');
    const notice = t.mail.filter((m) => m.to === office && /New submission/.test(m.subject)).at(-1)!;
    expect(notice.text).toContain(`http://journal.test/editor-dashboard/submissions/${id}`);
  });

  it('tells an account made an editor what it can do and where, not only that it may download', async () => {
    const admin = await t.login('admin', 'admin-pass-123');
    const pending = await t.createUser({ role: 'researcher', status: 'pending' });
    const made = await api('PATCH', `/api/admin/users/${pending.id}`, {
      token: admin,
      payload: { role: 'editor', status: 'approved' },
    });
    expect(made.status, made.body).toBe(200);
    const approved = lastMailTo(pending.email);
    expect(approved.subject).toMatch(/account is approved/);
    expect(approved.text).toContain("Your account is an editor's account.");
    expect(approved.text).toContain('http://journal.test/editor-dashboard/submissions');
    expect(approved.text).toMatch(/invite reviewers/);

    // An approved researcher given the editor's role later is told too.
    const researcher = await t.createUser({ role: 'researcher', status: 'approved' });
    const before = t.mail.length;
    expect(
      (await api('PATCH', `/api/admin/users/${researcher.id}`, { token: admin, payload: { role: 'editor' } }))
        .status,
    ).toBe(200);
    const changed = t.mail.slice(before).filter((m) => m.to === researcher.email);
    expect(changed).toHaveLength(1);
    expect(changed[0].subject).toMatch(/is now an editor's account/);
    expect(changed[0].text).toContain('http://journal.test/editor-dashboard');
  });
});
