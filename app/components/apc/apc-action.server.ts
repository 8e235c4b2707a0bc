import type { ZodType } from 'zod';
import {
  apcSettingsEditSchema,
  paymentSchema,
  voidSchema,
  voucherApplySchema,
  voucherGiveSchema,
  waiverDecisionSchema,
  waiverRequestSchema,
} from '../../../common/apc.ts';
import { can } from '../../../common/roles.ts';
import type { SessionUser } from '../../../server/accounts/service.ts';
import type { Services } from '../../../server/services.ts';
import { asClientError, type PostedForm, validateForm } from '../../lib/forms.server.ts';
import { clientError, replyDone, replyRefused } from '../../lib/reply.server.ts';

/** The article processing charge's intents: the author's (on their submission page) and the editors'. */
export const isApcIntent = (intent: string) => intent.startsWith('apc-');

const FIELDS: Record<string, string[]> = {
  'apc-waiver-request': ['reason'],
  'apc-voucher-apply': ['code'],
  'apc-waiver-decide': ['invoiceId', 'decision', 'whole', 'amount', 'message'],
  'apc-payment': ['invoiceId', 'paidOn', 'amount', 'method', 'reference'],
  'apc-void': ['invoiceId', 'reason'],
  'apc-voucher-give': ['assignmentId', 'kind', 'percent', 'amount', 'expiresOn', 'message'],
  'apc-settings': ['amount', 'beforeAmount', 'currency', 'cutoff', 'paymentInstructions', 'unpaid'],
};

/**
 * One APC form posted from a page (decision 0063): checked by the API's own schema, done by the service, and
 * answered in the one result shape. `submissionId` is the page's submission (the author's and the desk's).
 */
export async function apcAction(
  services: Services,
  user: SessionUser,
  intent: string,
  form: PostedForm,
  submissionId?: number,
) {
  const values: Record<string, string> = {};
  for (const name of FIELDS[intent] ?? []) values[name] = form.text(name);
  const refuse = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);
  if (!FIELDS[intent]) return refuse(400, 'Unknown action.');
  const editorial = intent !== 'apc-waiver-request' && intent !== 'apc-voucher-apply';
  if (editorial && !can('apcEditor', user)) return refuse(403, 'Only the journal’s editors can do this.');
  const check = <S extends ZodType>(schema: S, input: unknown) => validateForm(schema, input);
  const optional = (v: string) => (v.trim() === '' ? undefined : v);
  const id = (v: string) => (/^\d{1,9}$/.test(v) ? Number(v) : 0);
  const { apc } = services;
  try {
    switch (intent) {
      case 'apc-waiver-request': {
        const p = check(waiverRequestSchema, { reason: values.reason });
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        await apc.requestWaiver(user, submissionId!, p.data.reason);
        return replyDone(
          intent,
          'Your request for a waiver was sent to the editors; you will hear from them by e-mail.',
        );
      }
      case 'apc-voucher-apply': {
        const p = check(voucherApplySchema, { code: values.code });
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        const invoice = await apc.applyVoucher(user, submissionId!, p.data.code);
        return replyDone(intent, `Voucher applied: ${invoice.discount} ${invoice.currency} off.`);
      }
      case 'apc-waiver-decide': {
        const p = check(waiverDecisionSchema, {
          decision: values.decision,
          whole: values.whole === 'on' ? true : undefined,
          amount: values.whole === 'on' ? undefined : optional(values.amount),
          message: values.message,
        });
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        const invoice = await apc.decideWaiver(user, id(values.invoiceId), p.data);
        return replyDone(
          intent,
          p.data.decision === 'grant'
            ? `Waiver granted: ${invoice.waived} ${invoice.currency} waived. The author was told by e-mail.`
            : 'Waiver declined. The author was told by e-mail.',
        );
      }
      case 'apc-payment': {
        const p = check(paymentSchema, values);
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        const invoice = await apc.recordPayment(user, id(values.invoiceId), p.data);
        return replyDone(
          intent,
          `Payment recorded. Outstanding: ${invoice.outstanding} ${invoice.currency}.`,
        );
      }
      case 'apc-void': {
        const p = check(voidSchema, { reason: values.reason });
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        const invoice = await apc.voidInvoice(user, id(values.invoiceId), p.data.reason);
        return replyDone(intent, `Invoice ${invoice.number} is void. The author was told by e-mail.`);
      }
      case 'apc-voucher-give': {
        const p = check(voucherGiveSchema, {
          kind: values.kind,
          percent: optional(values.percent) === undefined ? undefined : Number(values.percent),
          amount: optional(values.amount),
          expiresOn: values.expiresOn,
          message: values.message,
        });
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        const voucher = await apc.giveVoucher(user, id(values.assignmentId), p.data);
        return replyDone(
          intent,
          `Voucher ${voucher.code} (${voucher.value}) was e-mailed to ${voucher.reviewer}.`,
        );
      }
      default: {
        const p = check(apcSettingsEditSchema, values);
        if (!p.ok) return replyRefused(intent, p.refusal, values);
        await apc.saveSettings(user, p.data);
        return replyDone(intent, 'The APC settings are saved: new invoices and the APC page follow them.');
      }
    }
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return refuse(refused.status, refused.message, refused.errors);
  }
}
