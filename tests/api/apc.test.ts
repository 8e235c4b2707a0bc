import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalSettingsSchema } from '../../common/journal.ts';
import { apcVouchers } from '../../server/apc/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { mailLog } from '../../server/mail/tables.ts';
import { reviewAssignments } from '../../server/review/tables.ts';
import { JOURNAL_KEY } from '../../server/settings/service.ts';
import { settings as settingsTable } from '../../server/settings/tables.ts';
import { submissions } from '../../server/submissions/tables.ts';
import {
  createIssueInNewVolume,
  inviteReviewer,
  makeJournal,
  moveSubmission,
  submitManuscript,
} from '../../server/testing/factories.ts';
import { createTestContext, multipart, type TestContext } from '../../server/testing/harness.ts';
import { caller, type Person, person } from './review-helpers.ts';

/**
 * The article processing charge (spec section 9, decision 0063), through the API: the invoice made on
 * acceptance by the journal's rule, waivers, reviewers' vouchers, payments (once, even at once), void, what
 * publishing an unpaid article meets, and the ledger with its totals and CSV.
 */

let t: TestContext;
let api: ReturnType<typeof caller>;
let editor: Person;
let author: Person;
let other: Person;

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(Date.parse('2026-03-05T10:00:00Z'));
  api = caller(t);
  editor = await person(t, 'editor', 'Eve Editor', 'Editorial Office');
  author = await person(t, 'author', 'Ada Authorname', 'Authorton Institute');
  other = await person(t, 'author', 'Otto Other', 'Elsewhere');
});
afterAll(() => t?.close());

/** A submission by `who`, first submitted at `at`, accepted now: its id. */
async function accepted(at: string, who: Person = author): Promise<number> {
  const { id } = await submitManuscript(t, who.token, { title: `Paper of ${at}` });
  await t.services.db
    .update(submissions)
    .set({ createdAt: new Date(at) })
    .where(eq(submissions.id, id));
  await moveSubmission(t, editor.token, id, 'under_review', 'accepted');
  return id;
}

const invoiceOf = async (id: number, token = author.token) =>
  api('GET', `/api/submissions/${id}/invoice`, { token });

async function changeJournal(change: (j: ReturnType<typeof journalSettingsSchema.parse>) => void) {
  await t.services.db.transaction(async (tx) => {
    const [row] = await tx.select().from(settingsTable).where(eq(settingsTable.key, JOURNAL_KEY));
    const journal = journalSettingsSchema.parse(row.value);
    change(journal);
    await t.services.settings.set(tx, JOURNAL_KEY, journal);
  });
}

const mailsAbout = async (submissionId: number) =>
  t.services.db.select().from(mailLog).where(eq(mailLog.submissionId, submissionId));

describe('the invoice on acceptance', () => {
  it('charges nothing for a paper first submitted before the cut-off, and says so', async () => {
    const id = await accepted('2025-05-31T12:00:00Z');
    const { status, json } = await invoiceOf(id);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      amount: '0.00',
      state: 'none',
      stateLabel: 'Nothing owed',
      outstanding: '0.00',
    });
    expect(json.reason).toBe('submitted 31 May 2025, before 1 June 2025: 0 USD');
    const mail = t.mail.find((m) => m.subject.includes(json.number));
    expect(mail?.text).toContain('Nothing is owed');
    // Nothing to waive or pay.
    const waiver = await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: author.token,
      payload: { reason: 'I would like a waiver please.' },
    });
    expect(waiver.status).toBe(409);
  });

  it('charges 100 USD after the cut-off: number, reason, payment details, e-mail, a real PDF', async () => {
    const id = await accepted('2026-03-03T08:00:00Z');
    const { json } = await invoiceOf(id);
    expect(json).toMatchObject({ amount: '100.00', due: '100.00', state: 'due', currency: 'USD' });
    expect(json.number).toMatch(/^APC-2026-\d{4}$/);
    expect(json.reason).toBe('submitted 3 March 2026, on or after 1 June 2025: 100 USD');
    expect(json.paymentInstructions).toContain('bank transfer');
    const mail = t.mail.find((m) => m.subject.includes(`Invoice ${json.number}`));
    expect(mail?.to).toBe(author.email);
    expect(mail?.text).toContain('Amount due: 100.00 USD');
    expect(mail?.text).toContain(json.reason);
    expect(mail?.text).toContain('How to pay');
    // In the submission's communication log, and its history notes it.
    expect((await mailsAbout(id)).some((m) => m.subject.includes(json.number))).toBe(true);
    const detail = await api('GET', `/api/submissions/${id}`, { token: editor.token });
    expect(JSON.stringify(detail.json.history)).toContain(json.number);

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/submissions/${id}/invoice.pdf`,
      headers: { authorization: `Bearer ${author.token}` },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toContain(json.number);
    // Not another author's; an editor's, yes.
    expect((await invoiceOf(id, other.token)).status).toBe(404);
    expect((await invoiceOf(id, editor.token)).status).toBe(200);
  });

  it('numbers invoices one after another in the journal', async () => {
    const a = (await invoiceOf(await accepted('2026-01-10T08:00:00Z'))).json.number;
    const b = (await invoiceOf(await accepted('2026-01-11T08:00:00Z'))).json.number;
    expect(Number(b.slice(-4))).toBe(Number(a.slice(-4)) + 1);
  });

  it('compares the first arrival, in the journal’s time zone: the cut-off day itself is charged', async () => {
    await changeJournal((j) => {
      j.review.timeZone = 'Asia/Tokyo';
    });
    try {
      // 23:30 on 31 May in Tokyo: before.
      const before = await invoiceOf(await accepted('2025-05-31T14:30:00Z'));
      expect(before.json).toMatchObject({ amount: '0.00', submittedOn: '2025-05-31', state: 'none' });
      // 00:30 on 1 June in Tokyo (still 31 May in UTC): the day itself, charged.
      const onTheDay = await invoiceOf(await accepted('2025-05-31T15:30:00Z'));
      expect(onTheDay.json).toMatchObject({ amount: '100.00', submittedOn: '2025-06-01', state: 'due' });
      expect(onTheDay.json.reason).toBe('submitted 1 June 2025, on or after 1 June 2025: 100 USD');
    } finally {
      await changeJournal((j) => {
        j.review.timeZone = 'UTC';
      });
    }
  });

  it('makes no invoice for a rejected paper', async () => {
    const { id } = await submitManuscript(t, author.token, { title: 'Rejected paper' });
    await moveSubmission(t, editor.token, id, 'rejected');
    const res = await invoiceOf(id);
    expect(res.status).toBe(404);
    expect(res.json.message).toContain('when it is accepted');
    const ledger = await api('GET', '/api/apc/invoices', { token: editor.token });
    expect(ledger.json.invoices.some((i: { submissionId: number }) => i.submissionId === id)).toBe(false);
  });
});

describe('waivers', () => {
  it('granted whole: nothing outstanding, the author told, all in the log', async () => {
    const id = await accepted('2026-02-01T08:00:00Z');
    const inv = (await invoiceOf(id)).json;
    const notMine = await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: other.token,
      payload: { reason: 'Not my paper but I ask.' },
    });
    expect(notMine.status).toBe(404);
    const tooShort = await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: author.token,
      payload: { reason: 'x' },
    });
    expect(tooShort.status).toBe(400);
    const asked = await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: author.token,
      payload: { reason: 'No research funding this year.' },
    });
    expect(asked.status).toBe(200);
    expect(asked.json.waiver).toMatchObject({ state: 'requested', reason: 'No research funding this year.' });
    const again = await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: author.token,
      payload: { reason: 'No research funding this year.' },
    });
    expect(again.status).toBe(409);
    const byAuthor = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: author.token,
      payload: { decision: 'grant', whole: true, message: 'Granted.' },
    });
    expect(byAuthor.status).toBe(403);
    const granted = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: editor.token,
      payload: { decision: 'grant', whole: true, message: 'Granted in full.' },
    });
    expect(granted.status).toBe(200);
    expect(granted.json).toMatchObject({
      waived: '100.00',
      due: '0.00',
      outstanding: '0.00',
      state: 'waived',
    });
    const subjects = (await mailsAbout(id)).map((m) => m.subject);
    expect(subjects.some((s) => s.includes('Waiver requested'))).toBe(true);
    expect(subjects.some((s) => s.includes('Waiver granted'))).toBe(true);
    const told = t.mail.find((m) => m.to === author.email && m.subject.includes('Waiver granted'));
    expect(told?.text).toContain('Granted in full.');
  });

  it('granted in part, and never more than is outstanding', async () => {
    const id = await accepted('2026-02-02T08:00:00Z');
    const inv = (await invoiceOf(id)).json;
    await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: author.token,
      payload: { reason: 'Part of it, please.' },
    });
    const over = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: editor.token,
      payload: { decision: 'grant', amount: '100.01', message: 'Too much.' },
    });
    expect(over.status).toBe(422);
    const noAmount = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: editor.token,
      payload: { decision: 'grant', message: 'How much?' },
    });
    expect(noAmount.status).toBe(400);
    const part = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: editor.token,
      payload: { decision: 'grant', amount: '40', message: 'We waive 40 USD.' },
    });
    expect(part.json).toMatchObject({ waived: '40.00', due: '60.00', outstanding: '60.00', state: 'due' });
  });

  it('declined, with a message', async () => {
    const id = await accepted('2026-02-03T08:00:00Z');
    const inv = (await invoiceOf(id)).json;
    const early = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: editor.token,
      payload: { decision: 'decline', message: 'Nobody asked.' },
    });
    expect(early.status).toBe(409);
    await api('POST', `/api/submissions/${id}/invoice/waiver`, {
      token: author.token,
      payload: { reason: 'Please waive it.' },
    });
    const declined = await api('POST', `/api/apc/invoices/${inv.id}/waiver`, {
      token: editor.token,
      payload: { decision: 'decline', message: 'Your institution has a fund for this.' },
    });
    expect(declined.json).toMatchObject({
      state: 'due',
      outstanding: '100.00',
      waiver: { state: 'declined' },
    });
    expect(t.mail.find((m) => m.subject.includes('Waiver declined'))?.text).toContain(
      'Your institution has a fund',
    );
  });
});

describe('reviewers’ vouchers', () => {
  let reviewer: Person;
  let assignmentId: number;
  const give = (payload: Record<string, unknown>, id = assignmentId) =>
    api('POST', `/api/apc/reviews/${id}/vouchers`, { token: editor.token, payload });

  beforeAll(async () => {
    reviewer = await person(t, 'researcher', 'Rex Reviewer', 'Reviewville');
    const { id } = await submitManuscript(t, other.token, { title: 'Reviewed paper' });
    await moveSubmission(t, editor.token, id, 'under_review');
    assignmentId = (
      await inviteReviewer(t, editor.token, id, { name: 'Rex Reviewer', email: reviewer.email })
    ).assignmentId;
  });

  it('goes only to a completed review', async () => {
    expect((await give({ kind: 'percent', percent: 50, expiresOn: '2026-12-31' })).status).toBe(409);
    await t.services.db
      .update(reviewAssignments)
      .set({ state: 'submitted', submittedAt: new Date(t.clock.now()) })
      .where(eq(reviewAssignments.id, assignmentId));
    expect((await give({ kind: 'percent', percent: 0, expiresOn: '2026-12-31' })).status).toBe(400);
    expect((await give({ kind: 'amount', amount: '-5', expiresOn: '2026-12-31' })).status).toBe(400);
    expect((await give({ kind: 'percent', percent: 50, expiresOn: '2026-03-01' })).status).toBe(422);
  });

  it('is given, e-mailed, applied once, then refused as used', async () => {
    const given = await give({
      kind: 'percent',
      percent: 50,
      expiresOn: '2026-12-31',
      message: 'Thank you!',
    });
    expect(given.status).toBe(201);
    const code = given.json.code as string;
    const mail = t.mail.find((m) => m.to === reviewer.email && m.text.includes(code));
    expect(mail?.text).toContain('50% off');
    const id = await accepted('2026-02-10T08:00:00Z');
    const applied = await api('POST', `/api/submissions/${id}/invoice/voucher`, {
      token: author.token,
      payload: { code: code.toLowerCase() },
    });
    expect(applied.status).toBe(200);
    expect(applied.json).toMatchObject({
      discount: '50.00',
      due: '50.00',
      outstanding: '50.00',
      voucherCode: code,
    });
    const second = await accepted('2026-02-11T08:00:00Z');
    const used = await api('POST', `/api/submissions/${second}/invoice/voucher`, {
      token: author.token,
      payload: { code },
    });
    expect(used.status).toBe(422);
    expect(used.json.message).toBe('This voucher has already been used.');
  });

  it('refuses an unknown code, an expired one, and another journal’s', async () => {
    const id = await accepted('2026-02-12T08:00:00Z');
    const unknown = await api('POST', `/api/submissions/${id}/invoice/voucher`, {
      token: author.token,
      payload: { code: 'ZZZZ-ZZZZ-ZZZZ' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toContain('There is no voucher with this code');

    const soon = await give({ kind: 'amount', amount: '20', expiresOn: '2026-03-06' });
    expect(soon.status).toBe(201);
    // Three days on (signed in again: the session would have ended), and back.
    const now = t.clock.now();
    t.clock.advance(3 * 86_400_000);
    const later = await person(t, 'author', 'Ada Later', 'Authorton Institute');
    await t.services.db.update(submissions).set({ userId: later.id }).where(eq(submissions.id, id));
    const expired = await api('POST', `/api/submissions/${id}/invoice/voucher`, {
      token: later.token,
      payload: { code: soon.json.code },
    });
    t.clock.set(now);
    await t.services.db.update(submissions).set({ userId: author.id }).where(eq(submissions.id, id));
    expect(expired.status).toBe(422);
    expect(expired.json.message).toBe('This voucher expired on 6 March 2026.');

    const b = await makeJournal(t, { title: 'Journal B', path: 'jb' });
    await withJournal(b, () =>
      t.services.db.insert(apcVouchers).values({
        code: 'BBBB-BBBB-BBBB',
        reviewerName: 'Someone',
        reviewerEmail: 'someone@example.org',
        kind: 'percent',
        value: 100,
        currency: 'USD',
        expiresOn: '2030-01-01',
      }),
    );
    const elsewhere = await api('POST', `/api/submissions/${id}/invoice/voucher`, {
      token: author.token,
      payload: { code: 'BBBB-BBBB-BBBB' },
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.message).toContain('another journal');
    // Still nothing taken off.
    expect((await invoiceOf(id)).json.discount).toBe('0.00');
  });
});

describe('payments and void', () => {
  const pay = (invoiceId: number, payload: Record<string, unknown>) =>
    api('POST', `/api/apc/invoices/${invoiceId}/payments`, { token: editor.token, payload });
  const good = { paidOn: '2026-03-04', amount: '100', method: 'bank transfer', reference: 'BANK-1' };

  it('refuses float-like, negative, over-the-due and numeric amounts', async () => {
    const inv = (await invoiceOf(await accepted('2026-02-20T08:00:00Z'))).json;
    for (const amount of ['1e2', '-5', '100.123', '0x10', '1,000', '', ' ']) {
      const res = await pay(inv.id, { ...good, amount });
      expect(res.status, amount).toBe(400);
      expect(res.json.errors?.amount, amount).toBeTruthy();
    }
    expect((await pay(inv.id, { ...good, amount: 100 })).status).toBe(400);
    expect((await pay(inv.id, { ...good, amount: '0' })).status).toBe(400);
    const over = await pay(inv.id, { ...good, amount: '100.01' });
    expect(over.status).toBe(422);
    expect(over.json.message).toContain('more than what is outstanding');
    expect((await pay(inv.id, { ...good, paidOn: '2026-02-30' })).status).toBe(400);
    expect((await pay(999_999, good)).status).toBe(404);
    const part = await pay(inv.id, { ...good, amount: '40.5' });
    expect(part.status).toBe(201);
    expect(part.json).toMatchObject({ paid: '40.50', outstanding: '59.50', state: 'part-paid' });
    const rest = await pay(inv.id, { ...good, amount: '59.50', reference: 'BANK-2' });
    expect(rest.json).toMatchObject({ paid: '100.00', outstanding: '0.00', state: 'paid' });
    expect(t.mail.some((m) => m.subject.includes(`Payment received: invoice ${inv.number}`))).toBe(true);
  });

  it('records the same payment sent by two editors at once only once', async () => {
    const inv = (await invoiceOf(await accepted('2026-02-21T08:00:00Z'))).json;
    const second = await person(t, 'editor', 'Ed Second', 'Office');
    const send = (token: string) =>
      t.injectOnly({
        method: 'POST',
        url: `/api/apc/invoices/${inv.id}/payments`,
        headers: { authorization: `Bearer ${token}` },
        payload: { ...good, reference: 'SAME-REF' },
      });
    const answers = await Promise.all([send(editor.token), send(second.token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const after = (await invoiceOf(inv.submissionId)).json;
    expect(after.payments).toHaveLength(1);
    expect(after.state).toBe('paid');
    // Half each, at once, different references: both fit, a third would not.
    const inv2 = (await invoiceOf(await accepted('2026-02-22T08:00:00Z'))).json;
    const halves = await Promise.all(
      ['A', 'B', 'C'].map((r) =>
        t.injectOnly({
          method: 'POST',
          url: `/api/apc/invoices/${inv2.id}/payments`,
          headers: { authorization: `Bearer ${editor.token}` },
          payload: { ...good, amount: '50', reference: r },
        }),
      ),
    );
    expect(halves.map((a) => a.statusCode).sort()).toEqual([201, 201, 409]);
    expect((await invoiceOf(inv2.submissionId)).json.paid).toBe('100.00');
  });

  it('marks an invoice void, once, and not one with payments', async () => {
    const inv = (await invoiceOf(await accepted('2026-02-23T08:00:00Z'))).json;
    const done = await api('POST', `/api/apc/invoices/${inv.id}/void`, {
      token: editor.token,
      payload: { reason: 'Withdrawn by the author before publication.' },
    });
    expect(done.json).toMatchObject({ state: 'void', outstanding: '0.00' });
    const again = await api('POST', `/api/apc/invoices/${inv.id}/void`, {
      token: editor.token,
      payload: { reason: 'Again.' },
    });
    expect(again.status).toBe(409);
    expect((await pay(inv.id, good)).status).toBe(409);
    const paid = (await invoiceOf(await accepted('2026-02-24T08:00:00Z'))).json;
    await pay(paid.id, { ...good, amount: '10' });
    const refused = await api('POST', `/api/apc/invoices/${paid.id}/void`, {
      token: editor.token,
      payload: { reason: 'No.' },
    });
    expect(refused.status).toBe(409);
  });
});

describe('publishing an unpaid article', () => {
  it('is warned about by default, refused when the journal blocks it, allowed once paid', async () => {
    const id = await accepted('2026-02-25T08:00:00Z');
    const inv = (await invoiceOf(id)).json;
    const preview = await api('GET', `/api/editor/submissions/${id}/publication`, { token: editor.token });
    expect(preview.json.warnings.join(' ')).toContain(`invoice ${inv.number} has 100.00 USD outstanding`);

    const current = (await api('GET', '/api/apc/settings', { token: editor.token })).json;
    expect(current).toMatchObject({
      amount: '100.00',
      beforeAmount: '0.00',
      currency: 'USD',
      cutoff: '2025-06-01',
      unpaid: 'warn',
    });
    const bad = await api('PUT', '/api/apc/settings', {
      token: editor.token,
      payload: { ...current, amount: '1e2' },
    });
    expect(bad.status).toBe(400);
    const badDay = await api('PUT', '/api/apc/settings', {
      token: editor.token,
      payload: { ...current, cutoff: '2025-13-01' },
    });
    expect(badDay.status).toBe(400);
    const block = await api('PUT', '/api/apc/settings', {
      token: editor.token,
      payload: { ...current, unpaid: 'block' },
    });
    expect(block.status).toBe(200);

    const issueId = await createIssueInNewVolume(t, editor.token, { number: 7, year: 2026 });
    const publish = async () => {
      const body = await multipart(
        { issue_id: String(issueId), pages: '1-10', doi: `10.5555/apc.${id}` },
        {},
      );
      return t.app.inject({
        method: 'POST',
        url: `/api/editor/submissions/${id}/publish`,
        headers: { authorization: `Bearer ${editor.token}`, ...body.headers },
        payload: body.payload,
      });
    };
    const refused = await publish();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toContain('publishes an article only once its charge is paid');
    await api('POST', `/api/apc/invoices/${inv.id}/payments`, {
      token: editor.token,
      payload: { paidOn: '2026-03-05', amount: '100.00', method: 'card', reference: 'CARD-77' },
    });
    expect((await publish()).statusCode).toBe(201);
    await api('PUT', '/api/apc/settings', { token: editor.token, payload: current });
  });
});

describe('the ledger', () => {
  it('filters by state, month and search, totals per month, and exports CSV', async () => {
    const all = (await api('GET', '/api/apc/invoices', { token: editor.token })).json;
    expect(all.invoices.length).toBeGreaterThan(10);
    for (const state of ['due', 'paid', 'waived', 'void', 'none', 'part-paid']) {
      const some = (await api('GET', `/api/apc/invoices?state=${state}`, { token: editor.token })).json;
      expect(some.invoices.length, state).toBeGreaterThan(0);
      expect(some.invoices.every((i: { state: string }) => i.state === state)).toBe(true);
    }
    const month = all.invoices[0].issuedOn.slice(0, 7);
    const inMonth = (await api('GET', `/api/apc/invoices?month=${month}`, { token: editor.token })).json;
    expect(inMonth.invoices.length).toBe(
      all.invoices.filter((i: { issuedOn: string }) => i.issuedOn.startsWith(month)).length,
    );
    const row = inMonth.months.find((m: { month: string }) => m.month === month);
    const sum = (field: 'due' | 'paid' | 'outstanding') =>
      inMonth.invoices
        .filter((i: { state: string }) => i.state !== 'void')
        .reduce((n: number, i: Record<string, string>) => n + Number(i[field].replace('.', '')), 0);
    expect(row.invoiced.replace('.', '')).toBe(String(sum('due')).padStart(3, '0'));
    expect(Number(row.paid.replace('.', ''))).toBe(sum('paid'));
    expect(Number(row.outstanding.replace('.', ''))).toBe(sum('outstanding'));

    const one = all.invoices.find((i: { state: string }) => i.state === 'paid');
    const byNumber = (await api('GET', `/api/apc/invoices?q=${one.number}`, { token: editor.token })).json;
    expect(byNumber.invoices.map((i: { id: number }) => i.id)).toEqual([one.id]);
    const byPayment = (await api('GET', '/api/apc/invoices?q=card-77', { token: editor.token })).json;
    expect(byPayment.invoices).toHaveLength(1);
    const byAuthor = (await api('GET', '/api/apc/invoices?q=authorname', { token: editor.token })).json;
    expect(byAuthor.invoices.length).toBeGreaterThan(0);
    expect((await api('GET', '/api/apc/invoices?state=owed', { token: editor.token })).status).toBe(400);
    expect((await api('GET', '/api/apc/invoices?month=2026-13', { token: editor.token })).status).toBe(400);
    expect((await api('GET', '/api/apc/invoices', { token: author.token })).status).toBe(403);

    const csv = await api('GET', '/api/apc/invoices.csv?state=paid', { token: editor.token });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('number,issued,submission');
    expect(lines.length - 1).toBe(
      (await api('GET', '/api/apc/invoices?state=paid', { token: editor.token })).json.invoices.length,
    );
    expect(csv.body).toContain('CARD-77');
  });

  it('the /apc page states the rule from the settings, as the invoices do', async () => {
    const page = await t.services.content.page('apc');
    expect(page!.html).toContain('On or after 1 June 2025');
    expect(page!.html).toContain('100 USD per accepted article');
    expect(page!.html).toContain('All charges are in US dollars (USD).');
    expect(page!.html).not.toContain('{{');
    const current = (await api('GET', '/api/apc/settings', { token: editor.token })).json;
    await api('PUT', '/api/apc/settings', {
      token: editor.token,
      payload: { ...current, amount: '150', cutoff: '2026-01-01', currency: 'eur' },
    });
    const changed = await t.services.content.page('apc');
    expect(changed!.html).toContain('On or after 1 January 2026');
    expect(changed!.html).toContain('150 EUR per accepted article');
    expect(changed!.html).toContain('All charges are in euros (EUR).');
    const id = await accepted('2026-02-26T08:00:00Z');
    expect((await invoiceOf(id)).json.reason).toBe(
      'submitted 26 February 2026, on or after 1 January 2026: 150 EUR',
    );
    await api('PUT', '/api/apc/settings', { token: editor.token, payload: current });
  });
});
