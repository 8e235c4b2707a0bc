import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  type ApcSettings,
  type ApcSettingsEdit,
  apcSettingsForEdit,
  chargeFor,
  INVOICE_STATE_LABELS,
  type InvoiceView,
  invoiceBalance,
  type LedgerFilter,
  moneyText,
  type PaymentInput,
  type VoucherGive,
  type WaiverDecision,
  formatMoney,
} from '../../common/apc.ts';
import { formatDeadline } from '../../common/dates.ts';
import { type JournalSettings, journalSettingsSchema } from '../../common/journal.ts';
import { can } from '../../common/roles.ts';
import type { SessionUser } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import type { AuditService } from '../audit/service.ts';
import { SITE } from '../cache/dependencies.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { asSite } from '../db/scope.ts';
import { conflict, notFound, unprocessable } from '../errors.ts';
import type { OfficeAddress } from '../mail/office.ts';
import type { MailService } from '../mail/service.ts';
import { reviewAssignments, reviewerProfiles } from '../review/tables.ts';
import { dayIn } from '../review/rules.ts';
import type { SettingsService } from '../settings/service.ts';
import { JOURNAL_KEY } from '../settings/service.ts';
import { settings as settingsTable } from '../settings/tables.ts';
import { submissions } from '../submissions/tables.ts';
import { apcInvoices, apcPayments, apcVouchers } from './tables.ts';

type InvoiceRow = typeof apcInvoices.$inferSelect;

export interface ApcDeps {
  clock: Clock;
  settings: SettingsService;
  mail: MailService;
  audit: AuditService;
  officeEmail: OfficeAddress;
  publicUrl: () => string;
  changes?: Pick<ChangeFeed, 'publish'>;
}

const INVOICE_NOT_FOUND = 'No invoice for this submission.';

/**
 * The article processing charge (spec section 9, decision 0063): the invoice made on acceptance (in the
 * decision's transaction, by `onAccepted`), waivers, reviewers' vouchers, payments, void, the ledger and its
 * CSV, the journal's APC settings, and what publishing an unpaid article meets.
 */
export class ApcService {
  constructor(
    private readonly db: Db,
    private readonly deps: ApcDeps,
  ) {}

  // ---- Settings ---------------------------------------------------------------------------------------

  async settings(): Promise<ApcSettings> {
    return (await this.deps.settings.journal()).apc;
  }

  async settingsForEdit() {
    return apcSettingsForEdit(await this.settings());
  }

  /** The editor's change of the rule: kept in the journal settings; /apc and new invoices follow it at once. */
  async saveSettings(actor: SessionUser, edit: ApcSettingsEdit): Promise<ApcSettings> {
    const next: ApcSettings = {
      amountMinor: edit.amount,
      beforeAmountMinor: edit.beforeAmount,
      currency: edit.currency,
      cutoff: edit.cutoff,
      paymentInstructions: edit.paymentInstructions,
      unpaid: edit.unpaid,
    };
    await this.db.transaction(async (tx) => {
      const journal = await journalIn(tx, true);
      await this.deps.settings.set(tx, JOURNAL_KEY, { ...journal, apc: next });
      await this.deps.audit.record(
        tx,
        actor,
        'apc.settings',
        { type: 'settings', id: 'apc' },
        {
          amount: moneyText(next.amountMinor),
          beforeAmount: moneyText(next.beforeAmountMinor),
          currency: next.currency,
          cutoff: next.cutoff,
          unpaid: next.unpaid,
        },
      );
      // Every page shows the journal's settings (the /apc page states the rule from these).
      await this.deps.changes?.publish(tx, [SITE]);
    });
    return next;
  }

  // ---- The invoice, made on acceptance ------------------------------------------------------------------

  /**
   * Called by submissions/decide.ts in the transaction that accepts a submission: the invoice (a 0 charge
   * too: the author is told nothing is owed), e-mailed to the author. Reads only through `tx`.
   */
  async onAccepted(tx: Tx, actor: SessionUser, submissionId: number): Promise<{ note: string }> {
    const [existing] = await tx.select().from(apcInvoices).where(eq(apcInvoices.submissionId, submissionId));
    if (existing) return { note: '' };
    const journal = await journalIn(tx);
    const zone = journal.review.timeZone;
    const [s] = await tx
      .select({
        createdAt: submissions.createdAt,
        reference: submissions.reference,
        title: submissions.title,
      })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    const now = this.deps.clock.now();
    const submittedOn = dayIn(s.createdAt.getTime(), zone);
    const issuedOn = dayIn(now, zone);
    const year = Number(issuedOn.slice(0, 4));
    const { amountMinor, reason } = chargeFor(journal.apc, submittedOn);
    // One number after another per journal and year, whoever accepts at the same time.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('apc-invoice-number'), current_setting('colophon.journal')::int)`,
    );
    const [{ last }] = await tx
      .select({ last: sql<number>`coalesce(max(${apcInvoices.seq}), 0)::int` })
      .from(apcInvoices)
      .where(eq(apcInvoices.year, year));
    const seq = Number(last) + 1;
    const [row] = await tx
      .insert(apcInvoices)
      .values({
        submissionId,
        number: `APC-${year}-${String(seq).padStart(4, '0')}`,
        year,
        seq,
        submittedOn,
        issuedOn,
        currency: journal.apc.currency,
        amountMinor,
        reason,
        paymentInstructions: journal.apc.paymentInstructions,
      })
      .returning();
    await this.deps.audit.record(
      tx,
      actor,
      'apc.invoice',
      { type: 'submission', id: submissionId },
      {
        number: row.number,
        amount: moneyText(amountMinor),
        currency: row.currency,
      },
    );
    const view = await this.present(tx, row);
    await this.mailAuthor(
      tx,
      view,
      `Invoice ${view.number}: article processing charge`,
      invoiceText(view, this.link(view)),
    );
    return {
      note:
        amountMinor === 0
          ? `Invoice ${row.number}: nothing owed (${reason}).`
          : `Invoice ${row.number}: ${formatMoney(amountMinor, row.currency)} (${reason}).`,
    };
  }

  private link(view: InvoiceView) {
    return `${this.deps.publicUrl()}/my-submissions/${view.submissionId}`;
  }

  // ---- Reading ------------------------------------------------------------------------------------------

  /** A submission's invoice for its author or an editor; null when there is none (not accepted, or rejected). */
  async forSubmission(viewer: SessionUser, submissionId: number): Promise<InvoiceView | null> {
    await this.ownerOrEditor(viewer, submissionId);
    const [row] = await this.db.select().from(apcInvoices).where(eq(apcInvoices.submissionId, submissionId));
    return row ? this.present(this.db, row) : null;
  }

  /** The invoice as a PDF (author or editor). */
  async pdf(viewer: SessionUser, submissionId: number): Promise<{ number: string; bytes: Uint8Array }> {
    const view = await this.forSubmission(viewer, submissionId);
    if (!view) throw notFound(INVOICE_NOT_FOUND);
    const journal = await this.deps.settings.journal();
    const { invoicePdf } = await import('./invoice-pdf-layout.ts');
    return { number: view.number, bytes: await invoicePdf(journal, view) };
  }

  private async ownerOrEditor(viewer: SessionUser, submissionId: number) {
    const [s] = await this.db
      .select({ userId: submissions.userId })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (!s || (s.userId !== viewer.id && !can('editorial', viewer))) throw notFound('Submission not found.');
  }

  /** Only the submission's own author asks for a waiver or enters a voucher. */
  private async ownInvoice(tx: Tx, viewer: SessionUser, submissionId: number): Promise<InvoiceRow> {
    const [s] = await tx
      .select({ userId: submissions.userId })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (!s || s.userId !== viewer.id) throw notFound('Submission not found.');
    const [row] = await tx
      .select()
      .from(apcInvoices)
      .where(eq(apcInvoices.submissionId, submissionId))
      .for('update');
    if (!row) throw notFound(INVOICE_NOT_FOUND);
    return row;
  }

  private async lockedInvoice(tx: Tx, invoiceId: number): Promise<InvoiceRow> {
    const [row] = await tx.select().from(apcInvoices).where(eq(apcInvoices.id, invoiceId)).for('update');
    if (!row) throw notFound('No such invoice.');
    return row;
  }

  private async paidOf(db: Db | Tx, invoiceIds: number[]): Promise<Map<number, number>> {
    if (!invoiceIds.length) return new Map();
    const rows = await db
      .select({ id: apcPayments.invoiceId, paid: sql<number>`sum(${apcPayments.amountMinor})::int` })
      .from(apcPayments)
      .where(inArray(apcPayments.invoiceId, invoiceIds))
      .groupBy(apcPayments.invoiceId);
    return new Map(rows.map((r) => [r.id, Number(r.paid)]));
  }

  private async present(db: Db | Tx, row: InvoiceRow): Promise<InvoiceView> {
    return (await this.presentAll(db, [row]))[0];
  }

  private async presentAll(db: Db | Tx, rows: InvoiceRow[]): Promise<InvoiceView[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const subs = await db
      .select({
        id: submissions.id,
        reference: submissions.reference,
        title: submissions.title,
        name: users.fullName,
        email: users.email,
      })
      .from(submissions)
      .innerJoin(users, eq(users.id, submissions.userId))
      .where(
        inArray(
          submissions.id,
          rows.map((r) => r.submissionId),
        ),
      );
    const bySub = new Map(subs.map((s) => [s.id, s]));
    const payments = await db
      .select()
      .from(apcPayments)
      .where(inArray(apcPayments.invoiceId, ids))
      .orderBy(asc(apcPayments.paidOn), asc(apcPayments.id));
    const voucherIds = rows.flatMap((r) => (r.voucherId ? [r.voucherId] : []));
    const vouchers = voucherIds.length
      ? await db
          .select({ id: apcVouchers.id, code: apcVouchers.code })
          .from(apcVouchers)
          .where(inArray(apcVouchers.id, voucherIds))
      : [];
    const codes = new Map(vouchers.map((v) => [v.id, v.code]));
    return rows.map((r) => {
      const own = payments.filter((p) => p.invoiceId === r.id);
      const paidMinor = own.reduce((n, p) => n + p.amountMinor, 0);
      const b = invoiceBalance({
        amountMinor: r.amountMinor,
        waivedMinor: r.waivedMinor,
        discountMinor: r.discountMinor,
        paidMinor,
        voided: r.voidedAt !== null,
      });
      const s = bySub.get(r.submissionId);
      return {
        id: r.id,
        number: r.number,
        submissionId: r.submissionId,
        submissionReference: s?.reference ?? '',
        title: s?.title ?? '',
        author: { name: s?.name ?? '', email: s?.email ?? '' },
        issuedOn: r.issuedOn,
        submittedOn: r.submittedOn,
        currency: r.currency,
        amount: moneyText(r.amountMinor),
        reason: r.reason,
        paymentInstructions: r.paymentInstructions,
        waived: moneyText(r.waivedMinor),
        discount: moneyText(r.discountMinor),
        voucherCode: r.voucherId ? (codes.get(r.voucherId) ?? null) : null,
        due: moneyText(b.dueMinor),
        paid: moneyText(paidMinor),
        outstanding: moneyText(b.outstandingMinor),
        state: b.state,
        stateLabel: INVOICE_STATE_LABELS[b.state],
        waiver: r.waiverState
          ? { state: r.waiverState, reason: r.waiverReason, message: r.waiverMessage }
          : null,
        voidReason: r.voidReason,
        payments: own.map((p) => ({
          id: p.id,
          paidOn: p.paidOn,
          amount: moneyText(p.amountMinor),
          method: p.method,
          reference: p.reference,
          recordedBy: p.recordedBy,
        })),
      };
    });
  }

  // ---- Waivers --------------------------------------------------------------------------------------------

  /** The author asks for a waiver, with a reason: the office is told, in the submission's log. */
  async requestWaiver(viewer: SessionUser, submissionId: number, reason: string): Promise<InvoiceView> {
    return this.db.transaction(async (tx) => {
      const row = await this.ownInvoice(tx, viewer, submissionId);
      const view = await this.present(tx, row);
      assertOpen(view);
      if (view.outstanding === '0.00')
        throw conflict('Nothing is outstanding on this invoice: there is nothing to waive.');
      if (row.waiverState === 'requested')
        throw conflict('You have already asked for a waiver: the editors will answer.');
      if (row.waiverState === 'granted') throw conflict('A waiver has already been granted on this invoice.');
      const [updated] = await tx
        .update(apcInvoices)
        .set({ waiverState: 'requested', waiverReason: reason, waiverMessage: '' })
        .where(eq(apcInvoices.id, row.id))
        .returning();
      await this.deps.audit.record(
        tx,
        viewer,
        'apc.waiver.request',
        { type: 'submission', id: submissionId },
        { number: row.number },
      );
      const to = await this.deps.officeEmail(tx);
      if (to)
        await this.deps.mail.queue(
          tx,
          {
            to,
            subject: `[${view.submissionReference}] Waiver requested on invoice ${view.number}`,
            text: `${view.author.name} asks for a waiver of the article processing charge on invoice ${view.number} (${view.outstanding} ${view.currency} outstanding) for "${view.title}".\n\nTheir reason:\n\n${reason}\n\nGrant or decline it on the desk: ${this.deps.publicUrl()}/editor-dashboard/submissions/${submissionId}\n`,
          },
          { submissionId, office: true },
        );
      return this.present(tx, updated);
    });
  }

  /** An editor grants a waiver (the whole charge or a part of it) or declines it, with a message to the author. */
  async decideWaiver(actor: SessionUser, invoiceId: number, input: WaiverDecision): Promise<InvoiceView> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockedInvoice(tx, invoiceId);
      const before = await this.present(tx, row);
      assertOpen(before);
      if (row.waiverState !== 'requested')
        throw conflict('The author has not asked for a waiver on this invoice (or it was answered).');
      let waivedMinor = 0;
      if (input.decision === 'grant') {
        // What can still be waived: the charge less a voucher's discount and what was paid already.
        const paid = (await this.paidOf(tx, [row.id])).get(row.id) ?? 0;
        const open = Math.max(0, row.amountMinor - row.discountMinor - paid);
        if (open === 0) throw conflict('Nothing is outstanding on this invoice: there is nothing to waive.');
        waivedMinor = input.whole ? open : (input.amount ?? 0);
        if (waivedMinor > open)
          throw unprocessable(
            `The waiver cannot be more than what is outstanding (${moneyText(open)} ${row.currency}).`,
            { amount: `At most ${moneyText(open)}.` },
          );
      }
      const [updated] = await tx
        .update(apcInvoices)
        .set({
          waiverState: input.decision === 'grant' ? 'granted' : 'declined',
          waiverMessage: input.message,
          waivedMinor,
        })
        .where(eq(apcInvoices.id, row.id))
        .returning();
      const view = await this.present(tx, updated);
      await this.deps.audit.record(
        tx,
        actor,
        `apc.waiver.${input.decision}`,
        { type: 'submission', id: row.submissionId },
        {
          number: row.number,
          ...(input.decision === 'grant' ? { waived: moneyText(waivedMinor) } : {}),
        },
      );
      const what =
        input.decision === 'grant'
          ? `Your request for a waiver of the article processing charge on invoice ${view.number} is granted: ${view.waived} ${view.currency} ${view.due === '0.00' ? '(the whole charge) ' : ''}is waived. ${view.outstanding === '0.00' ? 'Nothing more is owed.' : `The amount outstanding is now ${view.outstanding} ${view.currency}.`}`
          : `Your request for a waiver of the article processing charge on invoice ${view.number} is declined. The amount outstanding remains ${view.outstanding} ${view.currency}.`;
      await this.mailAuthor(
        tx,
        view,
        `Waiver ${input.decision === 'grant' ? 'granted' : 'declined'}: invoice ${view.number}`,
        `${what}\n\nMessage from the editorial office:\n\n${input.message}\n\nYour invoice: ${this.link(view)}\n`,
      );
      return view;
    });
  }

  // ---- Vouchers -------------------------------------------------------------------------------------------

  /** An editor gives the reviewer of a completed review a one-use voucher, e-mailed to them. */
  async giveVoucher(actor: SessionUser, assignmentId: number, input: VoucherGive) {
    const apc = await this.settings();
    const journal = await this.deps.settings.journal();
    const today = dayIn(this.deps.clock.now(), journal.review.timeZone);
    return this.db.transaction(async (tx) => {
      const [a] = await tx
        .select({
          id: reviewAssignments.id,
          state: reviewAssignments.state,
          submissionId: reviewAssignments.submissionId,
          userId: reviewerProfiles.userId,
          name: reviewerProfiles.name,
          email: reviewerProfiles.email,
        })
        .from(reviewAssignments)
        .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
        .where(eq(reviewAssignments.id, assignmentId));
      if (!a) throw notFound('No such review.');
      if (a.state !== 'submitted')
        throw conflict('A voucher goes to a reviewer who has completed the review.');
      if (input.expiresOn < today)
        throw unprocessable('The expiry day is in the past.', { expiresOn: 'Choose today or a later day.' });
      const code = voucherCode();
      const value = input.kind === 'percent' ? input.percent! : input.amount!;
      const [v] = await tx
        .insert(apcVouchers)
        .values({
          code,
          reviewerId: a.userId,
          reviewerName: a.name,
          reviewerEmail: a.email,
          assignmentId,
          kind: input.kind,
          value,
          currency: apc.currency,
          expiresOn: input.expiresOn,
          createdById: actor.id,
        })
        .returning();
      await this.deps.audit.record(
        tx,
        actor,
        'apc.voucher.give',
        { type: 'review_assignment', id: assignmentId },
        {
          voucher: v.id,
          kind: v.kind,
          value: v.kind === 'percent' ? `${value}%` : moneyText(value),
        },
      );
      const discount = v.kind === 'percent' ? `${value}% off` : `${formatMoney(value, v.currency)} off`;
      await this.deps.mail.queue(
        tx,
        {
          to: a.email,
          subject: `A discount voucher for your next article with ${journal.name}`,
          text: `Dear ${a.name},\n\nThank you for your review. As a thank-you, ${journal.name} gives you a discount voucher on the article processing charge of a later article of which you are an author:\n\nCode: ${code}\nDiscount: ${discount}\nValid until: ${formatDeadline(v.expiresOn)} (one use)\n\nEnter the code on the invoice, from your submission's page, once the article is accepted.\n${input.message ? `\nMessage from the editorial office:\n\n${input.message}\n` : ''}\nWith best regards,\nThe editorial office\n${this.deps.publicUrl()}\n`,
        },
        { submissionId: a.submissionId },
      );
      return presentVoucher(v);
    });
  }

  /** The completed reviews of a submission, with the vouchers given for each (the desk's voucher panel). */
  async completedReviews(submissionId: number) {
    const rows = await this.db
      .select({ assignmentId: reviewAssignments.id, reviewer: reviewerProfiles.name })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .where(and(eq(reviewAssignments.submissionId, submissionId), eq(reviewAssignments.state, 'submitted')))
      .orderBy(asc(reviewAssignments.id));
    const vouchers = await this.vouchersFor(rows.map((r) => r.assignmentId));
    return rows.map((r) => ({ ...r, vouchers: vouchers.filter((v) => v.assignmentId === r.assignmentId) }));
  }

  /** Today in the journal's time zone (the forms' default day). */
  async today(): Promise<string> {
    return dayIn(this.deps.clock.now(), (await this.deps.settings.journal()).review.timeZone);
  }

  /** The vouchers given for a review (the desk's review panel). */
  async vouchersFor(assignmentIds: number[]) {
    if (!assignmentIds.length) return [];
    const rows = await this.db
      .select()
      .from(apcVouchers)
      .where(inArray(apcVouchers.assignmentId, assignmentIds))
      .orderBy(asc(apcVouchers.id));
    return rows.map(presentVoucher);
  }

  /** The author enters a voucher on their invoice: refused, with its reason, when it cannot be used. */
  async applyVoucher(viewer: SessionUser, submissionId: number, code: string): Promise<InvoiceView> {
    const journal = await this.deps.settings.journal();
    const today = dayIn(this.deps.clock.now(), journal.review.timeZone);
    // Someone else's submission is not found, whatever the code.
    const [s] = await this.db
      .select({ userId: submissions.userId })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (!s || s.userId !== viewer.id) throw notFound('Submission not found.');
    const [known] = await this.db.select().from(apcVouchers).where(eq(apcVouchers.code, code));
    if (!known) {
      // Row-level security hides another journal's vouchers: the site's scope tells one from an unknown code.
      const [elsewhere] = await asSite(() =>
        this.db.select({ id: apcVouchers.id }).from(apcVouchers).where(eq(apcVouchers.code, code)),
      );
      const message = elsewhere
        ? 'This voucher belongs to another journal: it can only be used there.'
        : 'There is no voucher with this code. Check it against the e-mail it came in.';
      throw unprocessable(message, { code: message });
    }
    return this.db.transaction(async (tx) => {
      const row = await this.ownInvoice(tx, viewer, submissionId);
      const before = await this.present(tx, row);
      assertOpen(before);
      if (row.voucherId) throw conflict('A voucher has already been used on this invoice.');
      if (before.outstanding === '0.00') throw conflict('Nothing is outstanding on this invoice.');
      const [v] = await tx.select().from(apcVouchers).where(eq(apcVouchers.id, known.id)).for('update');
      const refuse = (message: string) => unprocessable(message, { code: message });
      if (v.usedAt) throw refuse('This voucher has already been used.');
      if (v.expiresOn < today) throw refuse(`This voucher expired on ${formatDeadline(v.expiresOn)}.`);
      if (v.kind === 'amount' && v.currency !== row.currency)
        throw refuse(`This voucher is in ${v.currency}; the invoice is in ${row.currency}.`);
      const paid = (await this.paidOf(tx, [row.id])).get(row.id) ?? 0;
      const open = Math.max(0, row.amountMinor - row.waivedMinor - paid);
      const base = row.amountMinor - row.waivedMinor;
      const discountMinor = Math.min(
        open,
        v.kind === 'percent' ? Math.floor((base * v.value) / 100) : v.value,
      );
      const used = await tx
        .update(apcVouchers)
        .set({ usedAt: new Date(this.deps.clock.now()), usedInvoiceId: row.id })
        .where(and(eq(apcVouchers.id, v.id), isNull(apcVouchers.usedAt)))
        .returning({ id: apcVouchers.id });
      if (!used.length) throw refuse('This voucher has already been used.');
      const [updated] = await tx
        .update(apcInvoices)
        .set({ voucherId: v.id, discountMinor })
        .where(eq(apcInvoices.id, row.id))
        .returning();
      const view = await this.present(tx, updated);
      await this.deps.audit.record(
        tx,
        viewer,
        'apc.voucher.apply',
        { type: 'submission', id: submissionId },
        {
          number: row.number,
          voucher: v.id,
          discount: moneyText(discountMinor),
        },
      );
      await this.mailAuthor(
        tx,
        view,
        `Voucher applied: invoice ${view.number}`,
        `The voucher ${v.code} is applied to invoice ${view.number}: ${view.discount} ${view.currency} off. ${view.outstanding === '0.00' ? 'Nothing more is owed.' : `The amount outstanding is now ${view.outstanding} ${view.currency}.`}\n\nYour invoice: ${this.link(view)}\n`,
      );
      return view;
    });
  }

  // ---- Payments and void ----------------------------------------------------------------------------------

  /**
   * An editor records a payment. The invoice's row is locked, so two editors recording at once are taken one
   * after the other: the second sees the first's payment (the same reference is refused, an amount over
   * what is outstanding too); the unique reference per invoice holds even without the lock.
   */
  async recordPayment(actor: SessionUser, invoiceId: number, input: PaymentInput): Promise<InvoiceView> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockedInvoice(tx, invoiceId);
      const before = await this.present(tx, row);
      assertOpen(before);
      if (before.payments.some((p) => p.reference.toLowerCase() === input.reference.toLowerCase()))
        throw conflict(
          `A payment with the reference ${input.reference} is already recorded on this invoice.`,
          {
            reference: 'Already recorded.',
          },
        );
      const outstanding = minor(before.outstanding);
      if (outstanding === 0) throw conflict('Nothing is outstanding on this invoice.');
      if (input.amount > outstanding)
        throw unprocessable(
          `The amount is more than what is outstanding (${before.outstanding} ${row.currency}).`,
          { amount: `At most ${before.outstanding}.` },
        );
      const inserted = await tx
        .insert(apcPayments)
        .values({
          invoiceId: row.id,
          paidOn: input.paidOn,
          amountMinor: input.amount,
          method: input.method,
          reference: input.reference,
          recordedById: actor.id,
          recordedBy: actor.fullName || actor.username,
        })
        .onConflictDoNothing()
        .returning({ id: apcPayments.id });
      if (!inserted.length)
        throw conflict(
          `A payment with the reference ${input.reference} is already recorded on this invoice.`,
        );
      const view = await this.present(tx, row);
      await this.deps.audit.record(
        tx,
        actor,
        'apc.payment',
        { type: 'submission', id: row.submissionId },
        {
          number: row.number,
          amount: moneyText(input.amount),
          method: input.method,
          reference: input.reference,
        },
      );
      await this.mailAuthor(
        tx,
        view,
        `Payment received: invoice ${view.number}`,
        `We have received your payment of ${moneyText(input.amount)} ${view.currency} (${input.method}, reference ${input.reference}, ${formatDeadline(input.paidOn)}) for invoice ${view.number}. ${view.outstanding === '0.00' ? 'The charge is paid in full: thank you.' : `The amount outstanding is now ${view.outstanding} ${view.currency}.`}\n\nYour invoice: ${this.link(view)}\n`,
      );
      return view;
    });
  }

  /** An editor marks an invoice void (nothing is owed on it any more), with the reason; not one with payments. */
  async voidInvoice(actor: SessionUser, invoiceId: number, reason: string): Promise<InvoiceView> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockedInvoice(tx, invoiceId);
      if (row.voidedAt) throw conflict('This invoice is already void.');
      const before = await this.present(tx, row);
      if (before.payments.length)
        throw conflict(
          'Payments are recorded on this invoice: it cannot be made void (refund them first, outside Colophon, and keep the record).',
        );
      const [updated] = await tx
        .update(apcInvoices)
        .set({ voidedAt: new Date(this.deps.clock.now()), voidReason: reason })
        .where(eq(apcInvoices.id, row.id))
        .returning();
      const view = await this.present(tx, updated);
      await this.deps.audit.record(
        tx,
        actor,
        'apc.void',
        { type: 'submission', id: row.submissionId },
        { number: row.number, reason },
      );
      await this.mailAuthor(
        tx,
        view,
        `Invoice ${view.number} is void`,
        `Invoice ${view.number} for the article processing charge is void: nothing is owed on it.\n\nReason: ${reason}\n`,
      );
      return view;
    });
  }

  // ---- Publishing ---------------------------------------------------------------------------------------

  /**
   * What publishing an article whose charge is unpaid meets: with the journal's `unpaid: block`, a refusal;
   * with `warn`, the warning the publish page shows. Nothing for a paid, waived, void or 0 invoice.
   */
  async publishCheck(submissionId: number, opts: { enforce: boolean }): Promise<string[]> {
    const [row] = await this.db.select().from(apcInvoices).where(eq(apcInvoices.submissionId, submissionId));
    if (!row) return [];
    const view = await this.present(this.db, row);
    if (view.state !== 'due' && view.state !== 'part-paid') return [];
    const apc = await this.settings();
    const what = `The article processing charge is unpaid: invoice ${view.number} has ${view.outstanding} ${view.currency} outstanding.`;
    if (apc.unpaid === 'block') {
      if (opts.enforce)
        throw conflict(
          `${what} This journal publishes an article only once its charge is paid, waived or void: record the payment on the desk first.`,
        );
      return [`${what} Publishing is refused until it is paid, waived or void.`];
    }
    return [`${what} You can still publish; the journal's settings only warn about it.`];
  }

  // ---- The ledger -----------------------------------------------------------------------------------------

  async ledger(filter: LedgerFilter) {
    const rows = await this.db
      .select()
      .from(apcInvoices)
      .orderBy(desc(apcInvoices.issuedOn), desc(apcInvoices.id));
    const all = await this.presentAll(this.db, rows);
    const q = filter.q?.toLowerCase();
    const invoices = all.filter(
      (i) =>
        (!filter.state || i.state === filter.state) &&
        (!filter.month || i.issuedOn.startsWith(filter.month)) &&
        (!q ||
          i.number.toLowerCase().includes(q) ||
          i.submissionReference.toLowerCase().includes(q) ||
          i.author.name.toLowerCase().includes(q) ||
          i.author.email.toLowerCase().includes(q) ||
          i.payments.some((p) => p.reference.toLowerCase().includes(q))),
    );
    // Totals per month (of issue) and currency, over the filtered invoices: invoiced (due), paid, outstanding.
    const totals = new Map<
      string,
      { month: string; currency: string; invoiced: number; paid: number; outstanding: number; count: number }
    >();
    for (const i of invoices) {
      const month = i.issuedOn.slice(0, 7);
      const key = `${month} ${i.currency}`;
      const t = totals.get(key) ?? {
        month,
        currency: i.currency,
        invoiced: 0,
        paid: 0,
        outstanding: 0,
        count: 0,
      };
      t.count++;
      if (i.state !== 'void') {
        t.invoiced += minor(i.due);
        t.paid += minor(i.paid);
        t.outstanding += minor(i.outstanding);
      }
      totals.set(key, t);
    }
    return {
      invoices,
      months: [...totals.values()]
        .sort((a, b) =>
          a.month === b.month ? a.currency.localeCompare(b.currency) : b.month.localeCompare(a.month),
        )
        .map((t) => ({
          month: t.month,
          currency: t.currency,
          invoiced: moneyText(t.invoiced),
          paid: moneyText(t.paid),
          outstanding: moneyText(t.outstanding),
          count: t.count,
        })),
    };
  }

  /** The ledger as CSV (RFC 4180), the filter applied; cells a spreadsheet would run as a formula are quoted safe. */
  async csv(filter: LedgerFilter): Promise<string> {
    const { invoices } = await this.ledger(filter);
    const header = [
      'number',
      'issued',
      'submission',
      'title',
      'author',
      'email',
      'submitted',
      'currency',
      'charge',
      'waived',
      'discount',
      'due',
      'paid',
      'outstanding',
      'state',
      'payment references',
    ];
    const lines = [header.map(csvCell).join(',')];
    for (const i of invoices)
      lines.push(
        [
          i.number,
          i.issuedOn,
          i.submissionReference,
          i.title,
          i.author.name,
          i.author.email,
          i.submittedOn,
          i.currency,
          i.amount,
          i.waived,
          i.discount,
          i.due,
          i.paid,
          i.outstanding,
          i.stateLabel,
          i.payments.map((p) => p.reference).join('; '),
        ]
          .map(csvCell)
          .join(','),
      );
    return `${lines.join('\r\n')}\r\n`;
  }

  private async mailAuthor(tx: Tx, view: InvoiceView, subject: string, text: string) {
    await this.deps.mail.queue(
      tx,
      {
        to: view.author.email,
        subject: `[${view.submissionReference}] ${subject}`,
        text: `Dear ${view.author.name},\n\n${text}\nWith best regards,\nThe editorial office\n`,
      },
      { submissionId: view.submissionId },
    );
  }
}

/** The journal settings read through the transaction at hand (never the cache inside one: one connection). */
async function journalIn(tx: Tx, forUpdate = false): Promise<JournalSettings> {
  const q = tx.select().from(settingsTable).where(eq(settingsTable.key, JOURNAL_KEY));
  const [row] = forUpdate ? await q.for('update') : await q;
  return journalSettingsSchema.parse(row.value);
}

function assertOpen(view: InvoiceView) {
  if (view.state === 'void') throw conflict('This invoice is void.');
  if (view.state === 'none') throw conflict('Nothing is owed for this article.');
}

const minor = (text: string) => {
  const [whole, cents] = text.split('.');
  return Number(whole) * 100 + Number(cents);
};

function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function voucherCode(): string {
  const part = () => Array.from({ length: 4 }, () => CODE_LETTERS[randomInt(CODE_LETTERS.length)]).join('');
  return `${part()}-${part()}-${part()}`;
}

function presentVoucher(v: typeof apcVouchers.$inferSelect) {
  return {
    id: v.id,
    assignmentId: v.assignmentId,
    code: v.code,
    kind: v.kind,
    value: v.kind === 'percent' ? `${v.value}%` : formatMoney(v.value, v.currency),
    expiresOn: v.expiresOn,
    reviewer: v.reviewerName,
    usedOn: v.usedAt ? v.usedAt.toISOString().slice(0, 10) : null,
  };
}

/** The invoice e-mail: the number, the amount and why, the payment details (or that nothing is owed). */
function invoiceText(view: InvoiceView, link: string): string {
  if (view.state === 'none')
    return `Your manuscript "${view.title}" (${view.submissionReference}) is accepted. Nothing is owed for it: no article processing charge applies (${view.reason}).\n\nThe record is invoice ${view.number}, on your submission's page: ${link}\n`;
  return `Your manuscript "${view.title}" (${view.submissionReference}) is accepted. Here is the invoice for the article processing charge.\n\nInvoice: ${view.number}\nIssued: ${formatDeadline(view.issuedOn)}\nAmount due: ${view.due} ${view.currency}\nWhy: ${view.reason}\n(No surcharge for length, figures or supplementary data.)\n\nHow to pay:\n${view.paymentInstructions}\nPlease quote ${view.number} with your payment.\n\nThe invoice (and its PDF) is on your submission's page, where you can also ask for a waiver or enter a reviewer's discount voucher: ${link}\n`;
}
