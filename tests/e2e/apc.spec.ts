import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, loginThroughApi, test } from './fixtures.ts';
import { answersFor, bearer, ok, underReview } from './review-helpers.ts';

/**
 * The article processing charge in the browser (decision 0063): the author sees the invoice made on
 * acceptance, downloads its PDF and asks for a waiver; an editor grants part of it on the desk and records the
 * payment; the ledger lists it as paid; /apc states the rule from the journal's settings. The main journal's
 * settings are left as they are (the spec's defaults: 100 USD on or after 1 June 2025, unpaid only warned).
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const manuscript = readFileSync(path.join(HERE, '../fixtures/manuscripts/manuscript.pdf'));
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

test('an invoice from acceptance to payment: author, desk, ledger', async ({
  page,
  browser,
  signIn,
  adminApi,
  request,
  axe,
  screenshots,
  outbox,
}) => {
  test.setTimeout(120_000);
  const author = await signIn('author');
  const title = `Charged paper ${tag()}`;
  const res = await request.post('/api/submission/submit', {
    headers: { authorization: `Bearer ${author.token}` },
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'charges, invoices',
      abstract: 'A paper that is accepted and invoiced.',
      authors: JSON.stringify([
        { name: author.fullName, email: author.email, affiliation: 'Authorton Institute', superscript: '1' },
      ]),
      submissionFile: { name: 'paper.pdf', mimeType: 'application/pdf', buffer: manuscript },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  for (const status of ['under_review', 'accepted']) {
    const moved = await adminApi.post(`/api/editor/submissions/${id}/decision`, {
      data: { status, message: 'Moved on.', confirm: ['accept-without-review'] },
    });
    expect(moved.ok(), await moved.text()).toBe(true);
  }
  const mail = await outbox.waitFor({ to: author.email, subject: /Invoice APC-/ });
  expect(mail.text).toContain('Amount due: 100.00 USD');
  const number = /Invoice (APC-\d{4}-\d{4})/.exec(mail.subject)![1];

  // The author: the invoice on the submission's page, its PDF, a waiver request.
  await page.goto(`/my-submissions/${id}`);
  const invoice = page.getByRole('region', { name: 'Article processing charge' });
  await expect(invoice).toContainText(`Invoice ${number}`);
  await expect(invoice).toContainText('on or after 1 June 2025: 100 USD');
  await expect(invoice).toContainText('How to pay');
  await axe(page);
  await screenshots(page, 'apc-author-invoice');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    invoice.getByRole('link', { name: 'Download the invoice (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

  await invoice
    .getByLabel('Ask for a waiver: why?')
    .fill('Our lab has no funding for publication this year.');
  await invoice.getByRole('button', { name: 'Ask for a waiver' }).click();
  await expect(page.getByText('Your request for a waiver was sent to the editors')).toBeVisible();
  await expect(invoice).toContainText('Waiver requested');

  // An editor: grants 40 USD of it on the desk, then records the rest as paid.
  const editorContext = await browser.newContext();
  const desk = await editorContext.newPage();
  await signIn('editor', 'approved', desk);
  await desk.goto(`/editor-dashboard/submissions/${id}`);
  const panel = desk.getByRole('region', { name: 'Article processing charge' });
  await expect(panel).toContainText('Our lab has no funding');
  await axe(desk);
  await panel.getByLabel('Decision').selectOption('grant');
  await panel.getByLabel('Waive the whole outstanding charge').uncheck();
  await panel.getByLabel('Or the amount waived (USD)').fill('40');
  await panel.getByLabel('Message to the author').fill('We waive 40 USD of the charge.');
  await panel.getByRole('button', { name: 'Send the decision' }).click();
  await expect(desk.getByText('Waiver granted: 40.00 USD waived.')).toBeVisible();
  await outbox.waitFor({ to: author.email, subject: `Waiver granted: invoice ${number}` });

  // Unpaid: the publish page warns (the main journal's setting only warns; blocking is the API tests').
  await desk.goto(`/editor-dashboard/submissions/${id}/publish`);
  await expect(desk.getByRole('note')).toContainText(`invoice ${number} has 60.00 USD outstanding`);
  await axe(desk);
  await desk.goto(`/editor-dashboard/submissions/${id}`);

  const reference = `BANK-${tag()}`;
  await expect(panel.getByLabel('Amount (USD)')).toHaveValue('60.00');
  await panel.getByLabel('Reference').fill(reference);
  await panel.getByRole('button', { name: 'Record the payment' }).click();
  await expect(desk.getByText('Payment recorded. Outstanding: 0.00 USD.')).toBeVisible();
  await expect(panel).toContainText(reference);
  await expect(panel.getByText('Paid', { exact: true }).first()).toBeVisible();
  await screenshots(desk, 'apc-desk-invoice');

  // The ledger: found by its number, paid; the CSV with the same filter.
  await desk.goto(`/editor-dashboard/apc?q=${number}`);
  const table = desk.getByRole('table', { name: /Invoices, newest first/ });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(number);
  await expect(table).toContainText('Paid');
  await expect(desk.getByRole('table', { name: /Totals per month/ })).toBeVisible();
  await axe(desk);
  await screenshots(desk, 'apc-ledger');
  await desk.getByLabel('State').selectOption('due');
  await desk.getByRole('button', { name: 'Filter' }).click();
  await expect(desk).toHaveURL(/state=due/);
  await expect(desk.getByText(/No invoices match|Invoices, newest first/).first()).toBeVisible();
  const csvLink = desk.getByRole('link', { name: 'Download as CSV' });
  expect(await csvLink.getAttribute('href')).toContain('/api/apc/invoices.csv?');
  await desk.goto(`/editor-dashboard/apc?q=${number}`);
  const [csv] = await Promise.all([
    desk.waitForEvent('download'),
    desk.getByRole('link', { name: 'Download as CSV' }).click(),
  ]);
  const text = readFileSync((await csv.path())!, 'utf8');
  expect(text).toContain(number);
  expect(text).toContain(reference);
  await editorContext.close();

  // The author's page shows it paid.
  await page.reload();
  await expect(invoice).toContainText('Outstanding');
  await expect(invoice).toContainText('0.00 USD');
});

test('/apc states the rule from the journal’s settings', async ({ page, axe, screenshots }) => {
  await page.goto('/apc');
  const table = page.getByRole('table');
  await expect(table).toContainText('Before 1 June 2025');
  await expect(table).toContainText('0 USD (free of charge)');
  await expect(table).toContainText('On or after 1 June 2025');
  await expect(table).toContainText('100 USD per accepted article');
  await expect(page.locator('main')).not.toContainText('{{');
  await axe(page);
  await screenshots(page, 'apc-page');
});

test('a reviewer’s voucher: given on the desk for a completed review, entered on a later invoice', async ({
  page,
  browser,
  signIn,
  createAccount,
  adminApi,
  request,
  baseURL,
  axe,
  outbox,
}) => {
  test.setTimeout(120_000);
  // A paper under review, reviewed (through the API) by an author of the journal.
  const owner = await createAccount('author');
  const ownerToken = await loginThroughApi(baseURL!, owner.username, owner.password);
  const reviewedPaper = await underReview(adminApi, ownerToken, { title: `Reviewed for a voucher ${tag()}` });
  const reviewer = await signIn('author');
  const invited = await ok(
    adminApi.post(`/api/editor/submissions/${reviewedPaper.id}/review/invitations`, {
      data: { userId: reviewer.id },
    }),
  );
  const view = await ok(
    request.post(`/api/reviews/${invited.assignmentId}/accept`, { headers: bearer(reviewer.token) }),
  );
  await ok(
    request.post(`/api/reviews/${invited.assignmentId}/submit`, {
      headers: bearer(reviewer.token),
      data: {
        answers: answersFor(view.questions),
        recommendation: 'accept',
        commentsForAuthor: 'Sound work.',
      },
    }),
  );

  // The editor gives the voucher on the desk.
  const editorContext = await browser.newContext();
  const desk = await editorContext.newPage();
  await signIn('editor', 'approved', desk);
  await desk.goto(`/editor-dashboard/submissions/${reviewedPaper.id}`);
  const vouchers = desk.getByRole('region', { name: 'Reviewer vouchers' });
  const form = vouchers.getByRole('form').first();
  await form.getByLabel('Percentage (1 to 100)').fill('50');
  await form.getByLabel('Valid until').fill('2099-12-31');
  await axe(desk);
  await form.getByRole('button', { name: /Give a voucher to/ }).click();
  await expect(
    desk.getByText(/Voucher [A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4} \(50%\) was e-mailed/),
  ).toBeVisible();
  const mail = await outbox.waitFor({ to: reviewer.email, subject: 'A discount voucher' });
  const code = /Code: ([A-Z0-9-]{14})/.exec(mail.text)![1];
  await expect(vouchers).toContainText(`${code}: 50%`);
  await editorContext.close();

  // The reviewer's own later paper, accepted: the voucher on its invoice (an unknown code refused first).
  const res = await request.post('/api/submission/submit', {
    headers: bearer(reviewer.token),
    multipart: {
      title: `The reviewer’s own paper ${tag()}`,
      articleType: 'Research Article',
      keywords: 'vouchers',
      abstract: 'A later paper by the reviewer.',
      authors: JSON.stringify([
        { name: reviewer.fullName, email: reviewer.email, affiliation: 'Reviewville', superscript: '1' },
      ]),
      submissionFile: { name: 'paper.pdf', mimeType: 'application/pdf', buffer: manuscript },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  for (const status of ['under_review', 'accepted'])
    await ok(
      adminApi.post(`/api/editor/submissions/${id}/decision`, {
        data: { status, message: 'Moved on.', confirm: ['accept-without-review'] },
      }),
    );
  await page.goto(`/my-submissions/${id}`);
  const invoice = page.getByRole('region', { name: 'Article processing charge' });
  await invoice.getByLabel('Reviewer’s discount voucher').fill('ZZZZ-ZZZZ-ZZZZ');
  await invoice.getByRole('button', { name: 'Apply the voucher' }).click();
  await expect(invoice.getByText('There is no voucher with this code').first()).toBeVisible();
  await invoice.getByLabel('Reviewer’s discount voucher').fill(code.toLowerCase());
  await invoice.getByRole('button', { name: 'Apply the voucher' }).click();
  await expect(page.getByText('Voucher applied: 50.00 USD off.')).toBeVisible();
  await expect(invoice).toContainText(`Voucher ${code}`);
  await expect(invoice).toContainText('50.00 USD');
  await axe(page);
});
