import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type BrowserContext, request as playwrightRequest } from '@playwright/test';
import { addSession, expect, loginThroughApi, test } from './fixtures.ts';

/**
 * The article processing charge's other cases in the browser (decision 0063), in a journal of its own (its
 * APC settings are changed here, never the main journal's): a paper first submitted before the cut-off owes
 * nothing and its author is told so; a rejected paper has no invoice; the same payment recorded by two editors
 * at once is recorded once, the second told why.
 */

const PDF = readFileSync(path.resolve('tests/fixtures/manuscripts/manuscript.pdf'));

async function ok<T>(res: { status(): number; text(): Promise<string> }, status: number, what: string) {
  const body = await res.text();
  expect(res.status(), `${what}: ${body}`).toBe(status);
  return JSON.parse(body) as T;
}

/** A journal of its own whose first editor (its admin) is signed in in `context`; its API as them. */
type Needs = {
  adminApi: APIRequestContext;
  createAccount: (role: 'author') => Promise<{ username: string; password: string }>;
  baseURL: string | undefined;
  context: BrowserContext;
};

async function ownJournal({ adminApi, createAccount, baseURL, context }: Needs, name: string) {
  const tag = randomBytes(3).toString('hex');
  const journal = `${name}-${tag}`;
  const editor = await createAccount('author');
  await ok(
    await adminApi.post('/api/admin/journals', {
      data: { title: `Charges ${tag}`, path: journal, editor: editor.username },
    }),
    201,
    'make the journal',
  );
  const token = await loginThroughApi(baseURL!, editor.username, editor.password);
  await addSession(context, baseURL!, token);
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  return { journal, tag, editor, token, api };
}

async function acceptedOrRejected(api: APIRequestContext, journal: string, title: string, last: string) {
  const { id } = await ok<{ id: number }>(
    await api.post(`/${journal}/api/submission/submit`, {
      multipart: {
        title,
        articleType: 'Research Article',
        keywords: 'charges, cut-off, waivers, ledgers',
        abstract: 'A paper and its charge.',
        authors: JSON.stringify([
          { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'IIT Madras', superscript: '1' },
        ]),
        submissionFile: { name: 'manuscript.pdf', mimeType: 'application/pdf', buffer: PDF },
      },
    }),
    201,
    'submit',
  );
  for (const status of ['under_review', last])
    await ok(
      await api.post(`/${journal}/api/editor/submissions/${id}/decision`, {
        data: {
          status,
          message: `Moved to ${status}.`,
          ...(status === 'accepted' ? { confirm: ['accept-without-review'] } : {}),
        },
      }),
      200,
      status,
    );
  return id;
}

test('a paper first submitted before the cut-off owes nothing, and a rejected paper has no invoice', async ({
  page,
  context,
  adminApi,
  createAccount,
  baseURL,
  axe,
  screenshots,
}) => {
  test.setTimeout(90_000);
  const own = await ownJournal({ context, adminApi, createAccount, baseURL }, 'apc-before');
  try {
    // The cut-off moved past today: a paper sent now is "before" it, and owes the charge before (0).
    const view = await ok<Record<string, unknown>>(
      await own.api.get(`/${own.journal}/api/apc/settings`),
      200,
      'read the APC settings',
    );
    await ok(
      await own.api.put(`/${own.journal}/api/apc/settings`, {
        data: {
          amount: '100.00',
          beforeAmount: '0',
          currency: 'USD',
          cutoff: '2099-01-01',
          paymentInstructions: String(view.paymentInstructions),
          unpaid: 'warn',
        },
      }),
      200,
      'move the cut-off',
    );
    const free = await acceptedOrRejected(
      own.api,
      own.journal,
      `Sent before the cut-off ${own.tag}`,
      'accepted',
    );
    const rejected = await acceptedOrRejected(own.api, own.journal, `Not accepted ${own.tag}`, 'rejected');

    await page.goto(`/${own.journal}/my-submissions/${free}`);
    const invoice = page.getByRole('region', { name: 'Article processing charge' });
    await expect(invoice).toContainText('Nothing is owed for this article: no payment is needed.');
    await expect(invoice).toContainText('before 1 January 2099');
    await expect(invoice.getByRole('button', { name: 'Ask for a waiver' })).toHaveCount(0);
    // The journal's first editor decided their own paper: the history says they moved it, not that they
    // uploaded a revision.
    await expect(page.getByText('You moved it from under review to accepted.')).toBeVisible();
    await expect(page.getByText(/You uploaded a revised manuscript/)).toHaveCount(0);
    await axe(page);
    await screenshots(page, 'apc-nothing-owed');

    await page.goto(`/${own.journal}/my-submissions/${rejected}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Not accepted ${own.tag}`);
    await expect(page.getByRole('region', { name: 'Article processing charge' })).toHaveCount(0);
    await ok(await own.api.get(`/${own.journal}/api/submissions/${rejected}/invoice`), 404, 'no invoice');

    // The /apc page of that journal states its own rule.
    await page.goto(`/${own.journal}/apc`);
    await expect(page.locator('main')).toContainText('1 January 2099');
  } finally {
    await own.api.dispose();
  }
});

test('the same payment recorded by two editors at once is recorded once; the second is told why', async ({
  page,
  context,
  browser,
  adminApi,
  createAccount,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const own = await ownJournal({ context, adminApi, createAccount, baseURL }, 'apc-twice');
  try {
    const id = await acceptedOrRejected(own.api, own.journal, `Paid twice? ${own.tag}`, 'accepted');
    // A second desk: the same editor in another browser.
    const other = await browser.newContext();
    await addSession(other, baseURL!, own.token);
    const desks = [page, await other.newPage()];
    const reference = `BANK-${own.tag}`;
    for (const desk of desks) {
      await desk.goto(`/${own.journal}/editor-dashboard/submissions/${id}`);
      const panel = desk.getByRole('region', { name: 'Article processing charge' });
      await expect(panel.getByLabel('Amount (USD)')).toHaveValue('100.00');
      await panel.getByLabel('Reference').fill(reference);
    }
    await Promise.all(
      desks.map((desk) =>
        desk
          .getByRole('region', { name: 'Article processing charge' })
          .getByRole('button', { name: 'Record the payment' })
          .click(),
      ),
    );
    const said = await Promise.all(
      desks.map(async (desk) => {
        const done = desk.getByText('Payment recorded. Outstanding: 0.00 USD.');
        const refused = desk.getByRole('alert');
        await expect(done.or(refused).first()).toBeVisible();
        return (await done.count()) > 0 ? 'recorded' : ((await refused.first().textContent()) ?? '');
      }),
    );
    expect(said.filter((s) => s === 'recorded')).toHaveLength(1);
    expect(said.find((s) => s !== 'recorded')).toMatch(
      new RegExp(`reference ${reference} is already recorded|Nothing is outstanding`),
    );

    const invoice = await ok<{ payments: unknown[]; state: string }>(
      await own.api.get(`/${own.journal}/api/submissions/${id}/invoice`),
      200,
      'the invoice',
    );
    expect(invoice.payments).toHaveLength(1);
    expect(invoice.state).toBe('paid');
    await other.close();
  } finally {
    await own.api.dispose();
  }
});
