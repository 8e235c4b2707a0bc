import { z } from 'zod';
import {
  apcSettingsEditSchema,
  invoiceView,
  ledgerFilterSchema,
  ledgerView,
  paymentSchema,
  voidSchema,
  voucherApplySchema,
  voucherGiveSchema,
  voucherView,
  waiverDecisionSchema,
  waiverRequestSchema,
} from '../../../common/apc.ts';
import { messageResponse } from '../../../common/api.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import { notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const refusals = {
  400: { description: 'Invalid input', schema: messageResponse },
  401: { description: 'Not signed in', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'No such submission or invoice (or not yours)', schema: messageResponse },
};
const refused = {
  ...refusals,
  409: { description: 'Not possible in the invoice’s state', schema: messageResponse },
  422: { description: 'Refused, with its reason', schema: messageResponse },
};
const settingsView = z.object({
  amount: z.string(),
  beforeAmount: z.string(),
  currency: z.string(),
  cutoff: z.string(),
  paymentInstructions: z.string(),
  unpaid: z.enum(['block', 'warn']),
});

/** The article processing charge's API (decision 0063): the author's invoice and the editors' ledger. */
export function apcRoutes(api: Api, services: Services) {
  const { apc } = services;

  // ---- The author (or an editor) -------------------------------------------------------------------

  api.route({
    method: 'GET',
    path: '/api/submissions/:id/invoice',
    tag: 'APC',
    summary: "A submission's APC invoice (its author, or editors): 404 when none was made (not accepted)",
    auth: 'apcAuthor',
    params: idParamSchema,
    responses: { 200: { description: 'The invoice', schema: invoiceView }, ...refusals },
    handler: async ({ auth, params }) => {
      const invoice = await apc.forSubmission(auth!.user, params.id);
      if (!invoice) throw notFound('No invoice for this submission: one is made when it is accepted.');
      return invoice;
    },
  });

  api.route({
    method: 'GET',
    path: '/api/submissions/:id/invoice.pdf',
    tag: 'APC',
    summary: "A submission's APC invoice as a PDF (its author, or editors)",
    auth: 'apcAuthor',
    params: idParamSchema,
    responses: { 200: { description: 'The PDF', binary: 'application/pdf' }, ...refusals },
    handler: async ({ auth, params, reply }) => {
      const { number, bytes } = await apc.pdf(auth!.user, params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${number}.pdf"`)
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(bytes));
    },
  });

  api.route({
    method: 'POST',
    path: '/api/submissions/:id/invoice/waiver',
    tag: 'APC',
    summary: 'The author asks for a waiver of the charge, with a reason',
    auth: 'apcAuthor',
    params: idParamSchema,
    body: waiverRequestSchema,
    responses: { 200: { description: 'The invoice', schema: invoiceView }, ...refused },
    handler: ({ auth, params, body }) => apc.requestWaiver(auth!.user, params.id, body.reason),
  });

  api.route({
    method: 'POST',
    path: '/api/submissions/:id/invoice/voucher',
    tag: 'APC',
    summary: "The author enters a reviewer's discount voucher on the invoice",
    description:
      'Refused with 422 and the reason when the code is unknown, used, expired or another journal’s.',
    auth: 'apcAuthor',
    params: idParamSchema,
    body: voucherApplySchema,
    responses: { 200: { description: 'The invoice', schema: invoiceView }, ...refused },
    handler: ({ auth, params, body }) => apc.applyVoucher(auth!.user, params.id, body.code),
  });

  // ---- The editors ----------------------------------------------------------------------------------

  api.route({
    method: 'GET',
    path: '/api/apc/invoices',
    tag: 'APC',
    summary: 'The APC ledger: every invoice with its state, filtered, and totals per month',
    auth: 'apcEditor',
    query: ledgerFilterSchema,
    responses: { 200: { description: 'The ledger', schema: ledgerView }, ...refusals },
    handler: ({ query }) => apc.ledger(query),
  });

  api.route({
    method: 'GET',
    path: '/api/apc/invoices.csv',
    tag: 'APC',
    summary: 'The APC ledger as CSV, with the same filters',
    auth: 'apcEditor',
    query: ledgerFilterSchema,
    responses: { 200: { description: 'CSV', binary: 'text/csv' }, ...refusals },
    handler: async ({ query, reply }) => {
      const csv = await apc.csv(query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="apc-ledger.csv"')
        .send(csv);
    },
  });

  api.route({
    method: 'POST',
    path: '/api/apc/invoices/:id/waiver',
    tag: 'APC',
    summary: 'Grant (whole or part) or decline the waiver an author asked for, with a message',
    auth: 'apcEditor',
    params: idParamSchema,
    body: waiverDecisionSchema,
    responses: { 200: { description: 'The invoice', schema: invoiceView }, ...refused },
    handler: ({ auth, params, body }) => apc.decideWaiver(auth!.user, params.id, body),
  });

  api.route({
    method: 'POST',
    path: '/api/apc/invoices/:id/payments',
    tag: 'APC',
    summary: 'Record a payment (day, amount, method, reference): once per reference, never over what is due',
    auth: 'apcEditor',
    params: idParamSchema,
    body: paymentSchema,
    responses: { 201: { description: 'The invoice', schema: invoiceView }, ...refused },
    handler: async ({ auth, params, body, reply }) => {
      const invoice = await apc.recordPayment(auth!.user, params.id, body);
      reply.code(201);
      return invoice;
    },
  });

  api.route({
    method: 'POST',
    path: '/api/apc/invoices/:id/void',
    tag: 'APC',
    summary: 'Mark an invoice void, with the reason (not one with payments recorded)',
    auth: 'apcEditor',
    params: idParamSchema,
    body: voidSchema,
    responses: { 200: { description: 'The invoice', schema: invoiceView }, ...refused },
    handler: ({ auth, params, body }) => apc.voidInvoice(auth!.user, params.id, body.reason),
  });

  api.route({
    method: 'POST',
    path: '/api/apc/reviews/:id/vouchers',
    tag: 'APC',
    summary: 'Give the reviewer of a completed review a one-use discount voucher (e-mailed to them)',
    auth: 'apcEditor',
    params: idParamSchema,
    body: voucherGiveSchema,
    responses: { 201: { description: 'The voucher', schema: voucherView }, ...refused },
    handler: async ({ auth, params, body, reply }) => {
      const voucher = await apc.giveVoucher(auth!.user, params.id, body);
      reply.code(201);
      return voucher;
    },
  });

  api.route({
    method: 'GET',
    path: '/api/apc/settings',
    tag: 'APC',
    summary: "The journal's APC rule and payment details",
    auth: 'apcEditor',
    responses: { 200: { description: 'The settings', schema: settingsView }, ...refusals },
    handler: () => apc.settingsForEdit(),
  });

  api.route({
    method: 'PUT',
    path: '/api/apc/settings',
    tag: 'APC',
    summary: "Change the journal's APC rule and payment details (new invoices and the /apc page follow)",
    auth: 'apcEditor',
    body: apcSettingsEditSchema,
    responses: { 200: { description: 'The settings', schema: settingsView }, ...refusals },
    handler: async ({ auth, body }) => {
      await apc.saveSettings(auth!.user, body);
      return apc.settingsForEdit();
    },
  });
}
