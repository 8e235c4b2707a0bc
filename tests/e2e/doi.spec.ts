import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request as playwrightRequest } from '@playwright/test';
import { type FakeCrossref, startFakeCrossref } from '../../server/testing/fake-crossref.ts';
import { addSession, expect, loginThroughApi, test } from './fixtures.ts';

/**
 * DOIs that register themselves (decision 0064), as an editor meets them: in a journal of its own (made by the
 * site admin through the API), its admin sets the DOI pattern and a Crossref account pointing at a fake
 * Crossref this spec starts on loopback (the server reaches 127.0.0.1), publishes an article without a DOI,
 * and watches the DOI page: the pattern's DOI, queued, then registered (the server's job queue runs by
 * itself); filters by state; redeposits it by hand.
 */

const USERNAME = 'e2e-depositor';
const PASSWORD = `e2e-secret-${randomBytes(4).toString('hex')}`;
const PDF = readFileSync(path.resolve('tests/fixtures/manuscripts/manuscript.pdf'));

let crossref: FakeCrossref;
test.beforeAll(async () => {
  crossref = await startFakeCrossref({ usr: USERNAME, pwd: PASSWORD });
});
test.afterAll(async () => {
  await crossref?.close();
});

async function ok<T>(
  res: { status(): number; text(): Promise<string> },
  status: number,
  what: string,
): Promise<T> {
  const body = await res.text();
  expect(res.status(), `${what}: ${body}`).toBe(status);
  return JSON.parse(body) as T;
}

test('an editor sets up Crossref, publishes, sees the DOI registered, filters and redeposits', async ({
  page,
  context,
  baseURL,
  adminApi,
  createAccount,
  axe,
  screenshots,
}) => {
  test.setTimeout(120_000);
  // A journal of its own: its settings are changed here (an ISSN), never the main journal's.
  const tag = randomBytes(3).toString('hex');
  const journal = `doi-${tag}`;
  const editor = await createAccount('author');
  await ok(
    await adminApi.post('/api/admin/journals', {
      data: { title: `Letters on Identifiers ${tag}`, path: journal, editor: editor.username },
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
  try {
    const { settings } = await ok<{ settings: Record<string, unknown> }>(
      await api.get(`/${journal}/api/admin/journal-settings`),
      200,
      'read the settings',
    );
    await ok(
      await api.put(`/${journal}/api/admin/journal-settings`, {
        data: { ...settings, issnOnline: '2049-3630' },
      }),
      200,
      'set the ISSN',
    );
    const { volume } = await ok<{ volume: { id: number } }>(
      await api.post(`/${journal}/api/editor/volume`, {
        data: { title: 'Volume 1', volume_number: 1, year: 2026 },
      }),
      201,
      'make a volume',
    );
    const { issue } = await ok<{ issue: { id: number } }>(
      await api.post(`/${journal}/api/editor/issue`, {
        data: { volume_id: volume.id, title: 'Issue 1', description: 'Spring' },
      }),
      201,
      'make an issue',
    );

    // The DOI page, reached from the dashboard's nav: the settings, then saved.
    await page.goto(`/${journal}/editor-dashboard`);
    await page
      .getByRole('navigation', { name: 'Dashboard sections' })
      .getByRole('link', { name: 'DOIs' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('DOIs');
    await expect(page.getByText('No article yet.')).toBeVisible();
    await page.getByLabel('DOI pattern').fill('{prefix}/lid.{year}.{nope}');
    await page.getByRole('button', { name: 'Save the DOI settings' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel('DOI pattern')).toHaveAccessibleDescription(/Unknown placeholder \{nope\}/);
    await axe(page);
    await page.getByLabel('DOI pattern').fill('{prefix}/lid.{year}.{volume}.{issue}.{number}');
    await page.getByLabel('Crossref username').fill(USERNAME);
    await page.getByLabel('Crossref password').fill(PASSWORD);
    await page.getByLabel('Another deposit address').fill(crossref.endpoint);
    await page.getByRole('button', { name: 'Save the DOI settings' }).click();
    await expect(page.getByText('The DOI settings are saved.')).toBeVisible();
    await expect(page.getByLabel('Crossref password')).toHaveValue('');
    await expect(page.getByText('A password is set: leave this empty to keep it.')).toBeVisible();
    expect(await page.content()).not.toContain(PASSWORD);

    // An article published without a DOI: the pattern gives it one, and it is deposited by the queue.
    const submitted = await ok<{ id: number }>(
      await api.post(`/${journal}/api/submission/submit`, {
        multipart: {
          title: `Persistent identifiers in practice ${tag}`,
          articleType: 'Research Article',
          keywords: 'doi, crossref, metadata, identifiers',
          abstract: 'How DOIs are registered.',
          authors: JSON.stringify([
            { name: 'Asha Menon', email: `asha-${tag}@example.org`, affiliation: 'IISc', superscript: '1' },
          ]),
          submissionFile: { name: 'manuscript.pdf', mimeType: 'application/pdf', buffer: PDF },
        },
      }),
      201,
      'submit',
    );
    for (const status of ['under_review', 'accepted'])
      await ok(
        await api.post(`/${journal}/api/editor/submissions/${submitted.id}/decision`, {
          data: {
            status,
            message: `Moved to ${status}.`,
            ...(status === 'accepted' ? { confirm: ['accept-without-review'] } : {}),
          },
        }),
        200,
        status,
      );
    const { articleId } = await ok<{ articleId: number }>(
      await api.post(`/${journal}/api/editor/submissions/${submitted.id}/publish`, {
        multipart: { issue_id: String(issue.id), pages: '1-10' },
      }),
      201,
      'publish',
    );

    const row = page.locator(`tr[data-article="${articleId}"]`);
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText('Registered', { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expect(row).toContainText('10.5555/lid.2026.1.1.1');
    expect(crossref.deposits).toHaveLength(1);
    expect(crossref.deposits[0]).toMatchObject({
      usr: USERNAME,
      operation: 'doMDUpload',
      dois: ['10.5555/lid.2026.1.1.1'],
    });
    await axe(page);
    await screenshots(page, 'doi-page');
    // The submission's desk says it too.
    await page.goto(`/${journal}/editor-dashboard/submissions/${submitted.id}`);
    await expect(page.getByRole('region', { name: 'Published' })).toContainText('Crossref: Registered');
    await page.goto(`/${journal}/editor-dashboard/dois`);

    // Filtered by state.
    await page.getByLabel('State', { exact: true }).selectOption('failed');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page).toHaveURL(/state=failed/);
    await expect(page.getByText('No article is in the state “Failed”.')).toBeVisible();
    await page.getByLabel('State', { exact: true }).selectOption('registered');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page).toHaveURL(/state=registered/);
    await expect(row).toBeVisible();

    // Redeposited by hand: a second batch, registered again.
    await page.getByRole('checkbox', { name: `Choose Persistent identifiers in practice ${tag}` }).check();
    await page.getByRole('button', { name: 'Deposit the chosen DOIs' }).click();
    await expect(page.getByText('1 DOI is queued for deposit.')).toBeVisible();
    await expect.poll(() => crossref.deposits.length, { timeout: 30_000 }).toBe(2);
    expect(crossref.deposits[1].batchId).not.toBe(crossref.deposits[0].batchId);
    expect(BigInt(crossref.deposits[1].timestamp)).toBeGreaterThan(BigInt(crossref.deposits[0].timestamp));
    await expect(async () => {
      await page.goto(`/${journal}/editor-dashboard/dois`);
      await expect(row).toContainText('Registered', { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await screenshots(page, 'doi-page-redeposited');

    // Crossref refuses the next deposit: the page says Crossref's own words; deposited again, it is registered.
    const refusal = 'Record not processed: the title is missing from the submitted metadata';
    crossref.script({ kind: 'failure', msg: refusal });
    const choose = () =>
      page.getByRole('checkbox', { name: `Choose Persistent identifiers in practice ${tag}` }).check();
    await choose();
    await page.getByRole('button', { name: 'Deposit the chosen DOIs' }).click();
    await expect(page.getByText('1 DOI is queued for deposit.')).toBeVisible();
    await expect(async () => {
      await page.goto(`/${journal}/editor-dashboard/dois`);
      await expect(row).toContainText('Failed', { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(row).toContainText(refusal);
    await axe(page);
    await choose();
    await page.getByRole('button', { name: 'Deposit the chosen DOIs' }).click();
    await expect.poll(() => crossref.deposits.length, { timeout: 30_000 }).toBe(4);
    await expect(async () => {
      await page.goto(`/${journal}/editor-dashboard/dois`);
      await expect(row).toContainText('Registered', { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(row).not.toContainText(refusal);
  } finally {
    await api.dispose();
  }
});
