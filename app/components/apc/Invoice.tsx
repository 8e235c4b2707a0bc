import { Form, Link } from 'react-router';
import { type InvoiceView, PAYMENT_METHODS } from '../../../common/apc.ts';
import { formatDay } from '../../../common/dates.ts';
import type { FormResult, FormValues } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { SelectField, TextAreaField, TextField } from '../FormField.tsx';

type Result = FormResult<FormValues, object> | undefined;

/** An invoice's facts as its author and the editors see them (decision 0063). */
export function InvoiceFacts({ invoice: i }: { invoice: InvoiceView }) {
  const money = (v: string) => `${v} ${i.currency}`;
  return (
    <>
      <p>
        <strong>Invoice {i.number}</strong>, issued {formatDay(i.issuedOn)}.{' '}
        <span className={`apc-state apc-state--${i.state}`}>{i.stateLabel}</span>
      </p>
      <dl className="apc-facts">
        <dt>Charge</dt>
        <dd>
          {money(i.amount)} <span className="apc-why">({i.reason})</span>
        </dd>
        {i.waived !== '0.00' ? (
          <>
            <dt>Waived</dt>
            <dd>{money(i.waived)}</dd>
          </>
        ) : null}
        {i.discount !== '0.00' ? (
          <>
            <dt>Voucher {i.voucherCode}</dt>
            <dd>{money(i.discount)}</dd>
          </>
        ) : null}
        <dt>Paid</dt>
        <dd>{money(i.paid)}</dd>
        <dt>Outstanding</dt>
        <dd>
          <strong>{money(i.outstanding)}</strong>
        </dd>
      </dl>
      {i.state === 'none' ? <p>Nothing is owed for this article: no payment is needed.</p> : null}
      {i.state === 'void' ? <p>This invoice is void: {i.voidReason}</p> : null}
      {i.state === 'due' || i.state === 'part-paid' ? (
        <>
          <h3>How to pay</h3>
          <p className="apc-instructions">{i.paymentInstructions}</p>
          <p>Please quote {i.number} with your payment.</p>
        </>
      ) : null}
      {i.waiver ? (
        <p>
          Waiver {i.waiver.state === 'requested' ? 'requested' : i.waiver.state}: “{i.waiver.reason}”
          {i.waiver.message ? (
            <>
              <br />
              The editors: “{i.waiver.message}”
            </>
          ) : null}
        </p>
      ) : null}
      {i.payments.length ? (
        <table className="dash-table">
          <caption>Payments</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Amount</th>
              <th scope="col">Method</th>
              <th scope="col">Reference</th>
            </tr>
          </thead>
          <tbody>
            {i.payments.map((p) => (
              <tr key={p.id}>
                <td>{formatDay(p.paidOn)}</td>
                <td>{money(p.amount)}</td>
                <td>{p.method}</td>
                <td>{p.reference}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

const open = (i: InvoiceView) => i.state === 'due' || i.state === 'part-paid';

/** The author's invoice on their submission page: the PDF, a waiver request, a voucher. */
export function AuthorInvoice({ invoice: i, result }: { invoice: InvoiceView; result: Result }) {
  const waiver = refusalFor(result, 'apc-waiver-request');
  const voucher = refusalFor(result, 'apc-voucher-apply');
  return (
    <section className="panel apc-invoice" aria-labelledby="apc-title">
      <h2 id="apc-title">Article processing charge</h2>
      <InvoiceFacts invoice={i} />
      <p>
        <Link
          reloadDocument
          to={`/api/submissions/${i.submissionId}/invoice.pdf`}
          download={`${i.number}.pdf`}
        >
          Download the invoice (PDF)
        </Link>
      </p>
      {open(i) && i.waiver?.state !== 'requested' && i.waiver?.state !== 'granted' ? (
        <Form method="post" className="apc-form">
          <TextAreaField
            name="reason"
            id="apc-waiver-reason"
            label="Ask for a waiver: why?"
            hint="Waivers are granted at the publisher’s discretion, in whole or in part."
            required
            rows={3}
            defaultValue={waiver.values.reason}
            error={waiver.errors.reason}
          />
          <button type="submit" name="intent" value="apc-waiver-request" className="button">
            Ask for a waiver
          </button>
        </Form>
      ) : null}
      {open(i) && !i.voucherCode ? (
        <Form method="post" className="apc-form">
          <TextField
            name="code"
            id="apc-voucher-code"
            label="Reviewer’s discount voucher"
            hint="A code such as ABCD-EFGH-JKLM, from the e-mail it came in."
            required
            defaultValue={voucher.values.code}
            error={voucher.errors.code}
          />
          <button type="submit" name="intent" value="apc-voucher-apply" className="button">
            Apply the voucher
          </button>
        </Form>
      ) : null}
    </section>
  );
}

/** The desk's invoice panel: the waiver's answer, a payment, void. */
export function DeskInvoice({
  invoice: i,
  result,
  today,
}: {
  invoice: InvoiceView;
  result: Result;
  today: string;
}) {
  const waiver = refusalFor(result, 'apc-waiver-decide');
  const payment = refusalFor(result, 'apc-payment');
  const voided = refusalFor(result, 'apc-void');
  return (
    <section className="panel apc-invoice" aria-labelledby="apc-title">
      <h2 id="apc-title">Article processing charge</h2>
      <InvoiceFacts invoice={i} />
      <p>
        <Link
          reloadDocument
          to={`/api/submissions/${i.submissionId}/invoice.pdf`}
          download={`${i.number}.pdf`}
        >
          The invoice (PDF)
        </Link>{' '}
        · <Link to="/editor-dashboard/apc">The APC ledger</Link>
      </p>
      {i.waiver?.state === 'requested' && open(i) ? (
        <Form method="post" className="apc-form">
          <h3>Answer the waiver request</h3>
          <input type="hidden" name="invoiceId" value={i.id} />
          <SelectField
            name="decision"
            id="apc-waiver-decision"
            label="Decision"
            options={[
              { value: 'grant', label: 'Grant' },
              { value: 'decline', label: 'Decline' },
            ]}
            defaultValue={waiver.values.decision || 'grant'}
            error={waiver.errors.decision}
          />
          <p className="field">
            <label>
              <input type="checkbox" name="whole" defaultChecked={waiver.values.whole !== ''} /> Waive the
              whole outstanding charge
            </label>
          </p>
          <TextField
            name="amount"
            id="apc-waiver-amount"
            label={`Or the amount waived (${i.currency})`}
            hint="For a partial waiver: untick the box above. Such as 40 or 40.50."
            inputMode="decimal"
            defaultValue={waiver.values.amount}
            error={waiver.errors.amount}
          />
          <TextAreaField
            name="message"
            id="apc-waiver-message"
            label="Message to the author"
            required
            rows={3}
            defaultValue={waiver.values.message}
            error={waiver.errors.message}
          />
          <button type="submit" name="intent" value="apc-waiver-decide" className="button button--primary">
            Send the decision
          </button>
        </Form>
      ) : null}
      {open(i) ? (
        <Form method="post" className="apc-form">
          <h3>Record a payment</h3>
          <input type="hidden" name="invoiceId" value={i.id} />
          <TextField
            name="paidOn"
            id="apc-paid-on"
            type="date"
            label="Day paid"
            required
            defaultValue={payment.values.paidOn || today}
            error={payment.errors.paidOn}
          />
          <TextField
            name="amount"
            id="apc-paid-amount"
            label={`Amount (${i.currency})`}
            hint={`At most ${i.outstanding}.`}
            inputMode="decimal"
            required
            defaultValue={payment.values.amount || i.outstanding}
            error={payment.errors.amount}
          />
          <SelectField
            name="method"
            id="apc-paid-method"
            label="Method"
            options={PAYMENT_METHODS}
            defaultValue={payment.values.method || 'bank transfer'}
            error={payment.errors.method}
          />
          <TextField
            name="reference"
            id="apc-paid-reference"
            label="Reference"
            hint="The bank’s or the card processor’s: the same reference is recorded once."
            required
            defaultValue={payment.values.reference}
            error={payment.errors.reference}
          />
          <button type="submit" name="intent" value="apc-payment" className="button button--primary">
            Record the payment
          </button>
        </Form>
      ) : null}
      {open(i) && !i.payments.length ? (
        <Form method="post" className="apc-form">
          <h3>Mark the invoice void</h3>
          <input type="hidden" name="invoiceId" value={i.id} />
          <TextField
            name="reason"
            id="apc-void-reason"
            label="Why is it void?"
            required
            defaultValue={voided.values.reason}
            error={voided.errors.reason}
          />
          <button type="submit" name="intent" value="apc-void" className="button">
            Mark void
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export interface CompletedReview {
  assignmentId: number;
  reviewer: string;
  vouchers: { id: number; code: string; value: string; expiresOn: string; usedOn: string | null }[];
}

/** Discount vouchers for the reviewers who completed a review of this submission. */
export function ReviewerVouchers({ reviews, result }: { reviews: CompletedReview[]; result: Result }) {
  if (!reviews.length) return null;
  const answer = refusalFor(result, 'apc-voucher-give');
  // A refused form is drawn again for its own reviewer only.
  const none = { errors: {} as Record<string, string>, values: {} as Record<string, string> };
  const forReview = (id: number) => (answer.values.assignmentId === String(id) ? answer : none);
  return (
    <section className="panel" aria-labelledby="apc-vouchers-title">
      <h2 id="apc-vouchers-title">Reviewer vouchers</h2>
      <p>A one-use discount on the article processing charge of a later article, e-mailed to the reviewer.</p>
      {reviews.map((r) => {
        const given = forReview(r.assignmentId);
        return (
          <Form
            method="post"
            className="apc-form"
            key={r.assignmentId}
            aria-label={`Voucher for ${r.reviewer}`}
          >
            <h3>{r.reviewer}</h3>
            {r.vouchers.length ? (
              <ul>
                {r.vouchers.map((v) => (
                  <li key={v.id}>
                    {v.code}: {v.value}, until {formatDay(v.expiresOn)}
                    {v.usedOn ? `, used ${formatDay(v.usedOn)}` : ', not used yet'}
                  </li>
                ))}
              </ul>
            ) : null}
            <input type="hidden" name="assignmentId" value={r.assignmentId} />
            <SelectField
              name="kind"
              id={`apc-voucher-kind-${r.assignmentId}`}
              label="Discount"
              options={[
                { value: 'percent', label: 'A percentage' },
                { value: 'amount', label: 'An amount' },
              ]}
              defaultValue={given.values.kind || 'percent'}
            />
            <TextField
              name="percent"
              id={`apc-voucher-percent-${r.assignmentId}`}
              label="Percentage (1 to 100)"
              inputMode="numeric"
              defaultValue={given.values.percent ?? '25'}
              error={given.errors.percent}
            />
            <TextField
              name="amount"
              id={`apc-voucher-amount-${r.assignmentId}`}
              label="Or the amount"
              inputMode="decimal"
              defaultValue={given.values.amount}
              error={given.errors.amount}
            />
            <TextField
              name="expiresOn"
              id={`apc-voucher-expires-${r.assignmentId}`}
              type="date"
              label="Valid until"
              required
              defaultValue={given.values.expiresOn}
              error={given.errors.expiresOn}
            />
            <TextField
              name="message"
              id={`apc-voucher-message-${r.assignmentId}`}
              label="Message to the reviewer"
              defaultValue={given.values.message}
            />
            <button type="submit" name="intent" value="apc-voucher-give" className="button">
              Give a voucher to {r.reviewer}
            </button>
          </Form>
        );
      })}
    </section>
  );
}
