import { Form, Link } from 'react-router';
import { INVOICE_STATE_LABELS, INVOICE_STATES, ledgerFilterSchema, ruleLines } from '../../common/apc.ts';
import { formatDay } from '../../common/dates.ts';
import { apcAction } from '../components/apc/apc-action.server.ts';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import { validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, readIntentForm, replyRefused } from '../lib/reply.server.ts';
import apcCss from '../styles/apc.css?url';
import type { Route } from './+types/editor-dashboard.apc';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: apcCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'APC ledger · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

/** The APC ledger (decision 0063): every invoice with its state, filtered, totals per month, CSV; the settings. */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const url = new URL(request.url);
  const raw = {
    state: url.searchParams.get('state') || undefined,
    month: url.searchParams.get('month') || undefined,
    q: url.searchParams.get('q') || undefined,
  };
  const parsed = validateForm(ledgerFilterSchema, raw);
  const filter = parsed.ok ? parsed.data : {};
  const [ledger, settings, edit] = await Promise.all([
    context.services.apc.ledger(filter),
    context.services.apc.settings(),
    context.services.apc.settingsForEdit(),
  ]);
  return {
    ...ledger,
    filter: { state: raw.state ?? '', month: raw.month ?? '', q: raw.q ?? '' },
    filterError: parsed.ok ? null : parsed.refusal.message,
    query: url.search,
    rule: ruleLines(settings),
    unpaid: settings.unpaid,
    edit,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  if (read.intent !== 'apc-settings') return replyRefused(read.intent, clientError(400, 'Unknown action.'));
  return apcAction(context.services, auth.user, read.intent, read.form);
}

export default function ApcLedger({ loaderData, actionData }: Route.ComponentProps) {
  const { invoices, months, filter, query, rule, edit, unpaid } = loaderData;
  const settings = refusalFor(actionData, 'apc-settings');
  const value = (name: keyof typeof edit) => settings.values[name] ?? edit[name];
  return (
    <section aria-labelledby="apc-ledger-title">
      <h1 id="apc-ledger-title">APC ledger</h1>
      <ActionResult result={actionData} />
      <p>
        The rule, by the day a paper is first submitted:{' '}
        {rule.map((r) => `${r.when.charAt(0).toLowerCase()}${r.when.slice(1)}, ${r.charge}`).join('; ')}.
        Publishing with an unpaid charge is {unpaid === 'block' ? 'refused' : 'allowed with a warning'}.
      </p>

      <Form method="get" className="dash-filters" aria-label="Filter the invoices">
        <SelectField
          name="state"
          id="ledger-state"
          label="State"
          placeholder="Any state"
          options={INVOICE_STATES.map((s) => ({ value: s, label: INVOICE_STATE_LABELS[s] }))}
          defaultValue={filter.state}
        />
        <TextField
          name="month"
          id="ledger-month"
          type="month"
          label="Month issued"
          defaultValue={filter.month}
          error={loaderData.filterError ?? undefined}
        />
        <TextField
          name="q"
          id="ledger-q"
          type="search"
          label="Search"
          hint="An invoice number, manuscript reference, author or payment reference."
          defaultValue={filter.q}
        />
        <button type="submit" className="button">
          Filter
        </button>{' '}
        <Link reloadDocument to={`/api/apc/invoices.csv${query}`} download="apc-ledger.csv">
          Download as CSV
        </Link>
      </Form>

      {months.length ? (
        <TableScroll labelledBy="apc-months-caption">
          <table className="dash-table">
            <caption id="apc-months-caption">Totals per month issued (void invoices count no money)</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Invoices</th>
                <th scope="col">Invoiced</th>
                <th scope="col">Paid</th>
                <th scope="col">Outstanding</th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={`${m.month}-${m.currency}`}>
                  <th scope="row">{m.month}</th>
                  <td>{m.count}</td>
                  <td>
                    {m.invoiced} {m.currency}
                  </td>
                  <td>
                    {m.paid} {m.currency}
                  </td>
                  <td>
                    {m.outstanding} {m.currency}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}

      {invoices.length === 0 ? (
        <div className="dash-empty">
          <h2 className="dash-empty__title">No invoices{query ? ' match' : ' yet'}</h2>
          <p>
            An invoice is made when a submission is accepted, by the rule above; it is listed here with its
            state.
          </p>
        </div>
      ) : (
        <TableScroll labelledBy="apc-invoices-caption">
          <table className="dash-table">
            <caption id="apc-invoices-caption">Invoices, newest first ({invoices.length})</caption>
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col">Issued</th>
                <th scope="col">Manuscript</th>
                <th scope="col">Author</th>
                <th scope="col">Due</th>
                <th scope="col">Paid</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((i) => (
                <tr key={i.id}>
                  <th scope="row">
                    <Link to={`/editor-dashboard/submissions/${i.submissionId}`}>{i.number}</Link>
                  </th>
                  <td>{formatDay(i.issuedOn)}</td>
                  <td>
                    <span title={i.title}>{i.submissionReference}</span>
                  </td>
                  <td>{i.author.name}</td>
                  <td>
                    {i.due} {i.currency}
                  </td>
                  <td>
                    {i.paid} {i.currency}
                  </td>
                  <td>
                    <span className={`apc-state apc-state--${i.state}`}>{i.stateLabel}</span>
                    {i.waiver?.state === 'requested' ? ' (waiver asked)' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <Form method="post" className="panel apc-form" aria-labelledby="apc-settings-title">
        <h2 id="apc-settings-title">APC settings</h2>
        <p>
          The /apc page and every new invoice follow these; invoices already made keep the rule they were made
          with.
        </p>
        <TextField
          name="amount"
          id="apc-amount"
          label="Charge on or after the cut-off day"
          inputMode="decimal"
          required
          defaultValue={value('amount')}
          error={settings.errors.amount}
        />
        <TextField
          name="beforeAmount"
          id="apc-before-amount"
          label="Charge before the cut-off day"
          inputMode="decimal"
          required
          defaultValue={value('beforeAmount')}
          error={settings.errors.beforeAmount}
        />
        <TextField
          name="currency"
          id="apc-currency"
          label="Currency"
          hint="Its ISO 4217 code, such as USD."
          required
          defaultValue={value('currency')}
          error={settings.errors.currency}
        />
        <TextField
          name="cutoff"
          id="apc-cutoff"
          type="date"
          label="Cut-off day"
          hint="The day a paper is first submitted is compared with it, in the journal’s time zone; the day itself is on or after."
          required
          defaultValue={value('cutoff')}
          error={settings.errors.cutoff}
        />
        <TextAreaField
          name="paymentInstructions"
          id="apc-instructions"
          label="Payment details"
          rows={4}
          required
          defaultValue={value('paymentInstructions')}
          error={settings.errors.paymentInstructions}
        />
        <SelectField
          name="unpaid"
          id="apc-unpaid"
          label="Publishing with an unpaid charge"
          options={[
            { value: 'warn', label: 'Allowed, with a warning' },
            { value: 'block', label: 'Refused until paid, waived or void' },
          ]}
          defaultValue={value('unpaid')}
          error={settings.errors.unpaid}
        />
        <button type="submit" name="intent" value="apc-settings" className="button button--primary">
          Save the APC settings
        </button>
      </Form>
    </section>
  );
}
