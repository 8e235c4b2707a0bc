import { z } from 'zod';
import { formatDeadline } from './dates.ts';

/**
 * The article processing charge (spec section 9, decision 0063): the journal's rule (amount, currency,
 * cut-off date, payment details), money as integer minor units, the invoice's states, and the inputs of every
 * APC action, shared by the API and the pages.
 */

// ---- Money -------------------------------------------------------------------------------------------

/** The largest sum the journal handles: 1,000,000.00 in any currency (a typo, not a charge, past it). */
export const MAX_MINOR = 100_000_000;

const MONEY = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/;

/**
 * "100", "100.5", "100.50" → 10000, 10050, 10050 (minor units, two decimals for every currency); null for
 * anything else ("1e2", "-5", "100.123", " 1", "1,000", "0x10", "").
 */
export function parseMoney(text: string): number | null {
  const m = MONEY.exec(text);
  if (!m) return null;
  const minor = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return minor <= MAX_MINOR ? minor : null;
}

/** 10050 → "100.50" (never through floating point). */
export function moneyText(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 10000, "USD" → "100 USD"; 10050 → "100.50 USD" (whole amounts without decimals, as the rule is written). */
export function formatMoney(minor: number, currency: string): string {
  const text = minor % 100 === 0 ? String(minor / 100) : moneyText(minor);
  return `${text} ${currency}`;
}

const CURRENCY_NAMES: Record<string, string> = {
  USD: 'US dollars',
  EUR: 'euros',
  GBP: 'pounds sterling',
  INR: 'Indian rupees',
  CHF: 'Swiss francs',
  CAD: 'Canadian dollars',
  AUD: 'Australian dollars',
};

/** "USD" → "US dollars", as a sentence says it (Intl's name for a currency the list does not have). */
export function currencyName(code: string): string {
  if (CURRENCY_NAMES[code]) return CURRENCY_NAMES[code];
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A money field of a form or a JSON body: a decimal string (a number is refused: it may be a float). */
export const moneyField = (label: string, opts: { allowZero?: boolean } = {}) =>
  z
    .string(`${label}: write the amount as a decimal number, such as 100 or 100.50.`)
    .trim()
    .transform((text, ctx) => {
      const minor = parseMoney(text);
      if (minor === null) {
        ctx.addIssue({
          code: 'custom',
          message: text.startsWith('-')
            ? `${label} cannot be negative.`
            : `${label}: write the amount as a decimal number with at most two decimals, such as 100 or 100.50 (at most 1000000).`,
        });
        return z.NEVER;
      }
      if (minor === 0 && !opts.allowZero) {
        ctx.addIssue({ code: 'custom', message: `${label} must be more than 0.` });
        return z.NEVER;
      }
      return minor;
    });

// ---- The journal's rule -------------------------------------------------------------------------------

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isoDay = (message: string) =>
  z
    .string(message)
    .trim()
    .regex(ISO_DAY, message)
    .refine(
      (d) =>
        !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      message,
    );

/** Stored inside the journal settings as `apc` (defaults: the spec's rule). */
export const apcSettingsSchema = z.object({
  /** The charge for a paper first submitted on or after the cut-off day, in minor units. */
  amountMinor: z.number().int().min(0).max(MAX_MINOR),
  /** Papers first submitted before this day (in the journal's time zone) owe `beforeAmountMinor`. */
  beforeAmountMinor: z.number().int().min(0).max(MAX_MINOR),
  currency: z.string().regex(/^[A-Z]{3}$/),
  cutoff: z.string().regex(ISO_DAY),
  /** How to pay: given on every invoice (e-mail, PDF, the author's page). */
  paymentInstructions: z.string().min(1).max(4000),
  /** Publishing an article whose charge is unpaid: refused (`block`) or allowed with a warning (`warn`). */
  unpaid: z.enum(['block', 'warn']),
});
export type ApcSettings = z.infer<typeof apcSettingsSchema>;

export const APC_DEFAULTS: ApcSettings = {
  amountMinor: 10_000,
  beforeAmountMinor: 0,
  currency: 'USD',
  cutoff: '2025-06-01',
  paymentInstructions:
    'Pay by bank transfer to the publisher’s account, quoting the invoice number. The bank details are sent on request by the editorial office; write to the journal’s e-mail address.',
  unpaid: 'warn',
};

/** What the editor edits (Journal settings → APC, and PUT /api/apc/settings). */
export const apcSettingsEditSchema = z.object({
  amount: moneyField('The charge', { allowZero: true }),
  beforeAmount: moneyField('The charge before the cut-off day', { allowZero: true }),
  currency: z
    .string('Give the currency as its three-letter ISO 4217 code, such as USD.')
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'Give the currency as its three-letter ISO 4217 code, such as USD.'),
  cutoff: isoDay('Give the cut-off day as YYYY-MM-DD, such as 2025-06-01.'),
  paymentInstructions: z
    .string('Give the payment details.')
    .trim()
    .min(1, 'Give the payment details.')
    .max(4000, 'The payment details must be at most 4000 characters.'),
  unpaid: z.enum(['block', 'warn'], 'Choose whether an unpaid charge blocks publishing or only warns.'),
});
export type ApcSettingsEdit = z.infer<typeof apcSettingsEditSchema>;

export function apcSettingsForEdit(s: ApcSettings) {
  return {
    amount: moneyText(s.amountMinor),
    beforeAmount: moneyText(s.beforeAmountMinor),
    currency: s.currency,
    cutoff: s.cutoff,
    paymentInstructions: s.paymentInstructions,
    unpaid: s.unpaid,
  };
}

/**
 * The charge for a paper first submitted on `submittedDay` (YYYY-MM-DD in the journal's time zone): "on or
 * after" the cut-off day owes the amount (decision 0063: the spec is silent on the day itself), and why.
 */
export function chargeFor(s: ApcSettings, submittedDay: string): { amountMinor: number; reason: string } {
  const after = submittedDay >= s.cutoff;
  const amountMinor = after ? s.amountMinor : s.beforeAmountMinor;
  const reason = `submitted ${formatDeadline(submittedDay)}, ${after ? 'on or after' : 'before'} ${formatDeadline(s.cutoff)}: ${formatMoney(amountMinor, s.currency)}`;
  return { amountMinor, reason };
}

/** The rule in words, as the /apc page, the invoices and the settings page say it (one source). */
export function ruleLines(s: ApcSettings): { when: string; charge: string }[] {
  const cutoff = formatDeadline(s.cutoff);
  const charge = (minor: number) =>
    minor === 0
      ? `0 ${s.currency} (free of charge)`
      : `${formatMoney(minor, s.currency)} per accepted article`;
  return [
    { when: `Before ${cutoff}`, charge: charge(s.beforeAmountMinor) },
    { when: `On or after ${cutoff}`, charge: charge(s.amountMinor) },
  ];
}

// ---- Invoices ----------------------------------------------------------------------------------------

export const INVOICE_STATES = ['due', 'part-paid', 'paid', 'waived', 'void', 'none'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  due: 'Due',
  'part-paid': 'Part-paid',
  paid: 'Paid',
  waived: 'Waived',
  void: 'Void',
  none: 'Nothing owed',
};

/** What is owed and the state, from the invoice's facts (minor units). */
export function invoiceBalance(i: {
  amountMinor: number;
  waivedMinor: number;
  discountMinor: number;
  paidMinor: number;
  voided: boolean;
}): { dueMinor: number; outstandingMinor: number; state: InvoiceState } {
  const dueMinor = Math.max(0, i.amountMinor - i.waivedMinor - i.discountMinor);
  const outstandingMinor = i.voided ? 0 : Math.max(0, dueMinor - i.paidMinor);
  let state: InvoiceState;
  if (i.voided) state = 'void';
  else if (i.amountMinor === 0) state = 'none';
  else if (i.paidMinor > 0 && outstandingMinor === 0) state = 'paid';
  else if (dueMinor === 0) state = 'waived';
  else if (i.paidMinor > 0) state = 'part-paid';
  else state = 'due';
  return { dueMinor, outstandingMinor, state };
}

export const WAIVER_STATES = ['requested', 'granted', 'declined'] as const;
export type WaiverState = (typeof WAIVER_STATES)[number];

// ---- Inputs ------------------------------------------------------------------------------------------

export const waiverRequestSchema = z.object({
  reason: z
    .string('Say why you ask for a waiver.')
    .trim()
    .min(10, 'Say in a sentence or two why you ask for a waiver (at least 10 characters).')
    .max(4000, 'The reason must be at most 4000 characters.'),
});

export const waiverDecisionSchema = z
  .object({
    decision: z.enum(['grant', 'decline'], 'Choose whether to grant or decline the waiver.'),
    /** Granted: the whole charge unless an amount is given (a partial waiver). */
    whole: z.boolean('Say whether the whole charge is waived (true or false).').optional(),
    amount: moneyField('The amount waived').optional(),
    message: z
      .string('Write a message to the author.')
      .trim()
      .min(1, 'Write a message to the author.')
      .max(4000, 'The message must be at most 4000 characters.'),
  })
  .refine((v) => v.decision !== 'grant' || v.whole === true || v.amount !== undefined, {
    message: 'Waive the whole charge, or give the amount waived.',
    path: ['amount'],
  });
export type WaiverDecision = z.infer<typeof waiverDecisionSchema>;

export const PAYMENT_METHODS = ['bank transfer', 'card', 'cheque', 'cash', 'other'] as const;

export const paymentSchema = z.object({
  paidOn: isoDay('Give the day of the payment as YYYY-MM-DD.'),
  amount: moneyField('The amount paid'),
  method: z.enum(PAYMENT_METHODS, `Choose how it was paid: ${PAYMENT_METHODS.join(', ')}.`),
  reference: z
    .string('Give the payment’s reference (the bank’s or the card processor’s).')
    .trim()
    .min(1, 'Give the payment’s reference (the bank’s or the card processor’s).')
    .max(200, 'The reference must be at most 200 characters.'),
});
export type PaymentInput = z.infer<typeof paymentSchema>;

export const voidSchema = z.object({
  reason: z
    .string('Say why the invoice is void.')
    .trim()
    .min(1, 'Say why the invoice is void.')
    .max(2000, 'The reason must be at most 2000 characters.'),
});

export const VOUCHER_CODE = /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/;

export const voucherGiveSchema = z
  .object({
    kind: z.enum(['percent', 'amount'], 'Choose a percentage or an amount.'),
    percent: z
      .number('The percentage must be a whole number from 1 to 100.')
      .int('The percentage must be a whole number from 1 to 100.')
      .min(1, 'The percentage must be a whole number from 1 to 100.')
      .max(100, 'The percentage must be a whole number from 1 to 100.')
      .optional(),
    amount: moneyField('The discount').optional(),
    expiresOn: isoDay('Give the last day the voucher can be used, as YYYY-MM-DD.'),
    message: z.string().trim().max(2000, 'The message must be at most 2000 characters.').default(''),
  })
  .refine((v) => (v.kind === 'percent' ? v.percent !== undefined : v.amount !== undefined), {
    message: 'Give the percentage or the amount of the discount.',
    path: ['percent'],
  });
export type VoucherGive = z.infer<typeof voucherGiveSchema>;

export const voucherApplySchema = z.object({
  code: z
    .string('Enter the voucher code.')
    .trim()
    .toUpperCase()
    .min(1, 'Enter the voucher code.')
    .max(40, 'A voucher code looks like ABCD-EFGH-JKLM.'),
});

export const ledgerFilterSchema = z.object({
  state: z.enum(INVOICE_STATES, 'Choose a state from the list.').optional(),
  /** The month the invoice was made, YYYY-MM. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Give the month as YYYY-MM.')
    .optional(),
  q: z.string().trim().max(200, 'Search for at most 200 characters.').optional(),
});
export type LedgerFilter = z.infer<typeof ledgerFilterSchema>;

// ---- Answers -----------------------------------------------------------------------------------------

const paymentView = z.object({
  id: z.number(),
  paidOn: z.string(),
  amount: z.string(),
  method: z.string(),
  reference: z.string(),
  recordedBy: z.string(),
});

export const invoiceView = z.object({
  id: z.number(),
  number: z.string(),
  submissionId: z.number(),
  submissionReference: z.string(),
  title: z.string(),
  author: z.object({ name: z.string(), email: z.string() }),
  issuedOn: z.string(),
  submittedOn: z.string(),
  currency: z.string(),
  amount: z.string(),
  reason: z.string(),
  paymentInstructions: z.string(),
  waived: z.string(),
  discount: z.string(),
  voucherCode: z.string().nullable(),
  due: z.string(),
  paid: z.string(),
  outstanding: z.string(),
  state: z.enum(INVOICE_STATES),
  stateLabel: z.string(),
  waiver: z
    .object({
      state: z.enum(WAIVER_STATES),
      reason: z.string(),
      message: z.string(),
    })
    .nullable(),
  voidReason: z.string().nullable(),
  payments: z.array(paymentView),
});
export type InvoiceView = z.infer<typeof invoiceView>;

export const ledgerView = z.object({
  invoices: z.array(invoiceView),
  months: z.array(
    z.object({
      month: z.string(),
      currency: z.string(),
      invoiced: z.string(),
      paid: z.string(),
      outstanding: z.string(),
      count: z.number(),
    }),
  ),
});

export const voucherView = z.object({
  id: z.number(),
  assignmentId: z.number().nullable(),
  code: z.string(),
  kind: z.enum(['percent', 'amount']),
  value: z.string(),
  expiresOn: z.string(),
  reviewer: z.string(),
  usedOn: z.string().nullable(),
});
