import { randomBytes } from 'node:crypto';
import path_ from 'node:path';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { barChartPng } from '../../server/seed/png.ts';
import { addSession, expect, loginThroughApi, test } from './fixtures.ts';
import { FIXTURES } from './review-helpers.ts';

/**
 * A new journal's settings (decision 0062), as its first editor meets them: the journal is made by the site
 * admin (through the API here: the page's own flow is site-admin.spec.ts), its first editor is its admin,
 * its settings start with its own title and no ISSN (never the demo journal's), and the journal's own facts
 * (description, areas, frequency, issues a year, first year, language, licence) are set on the settings page,
 * refused in words beside their fields, and shown on the journal's home.
 */
/**
 * Set-up, not the subject: a journal made by the site admin at a new path, its first editor (its admin) signed
 * in the test's browser (one session for every journal served by path: decision 0054).
 */
async function newJournal(
  {
    adminApi,
    createAccount,
    context,
    baseURL,
  }: {
    adminApi: APIRequestContext;
    createAccount: (role: 'author') => Promise<{ username: string; password: string }>;
    context: BrowserContext;
    baseURL: string | undefined;
  },
  name: string,
  prefix: string,
) {
  const tag = randomBytes(3).toString('hex');
  const title = `${name} ${tag}`;
  const path = `${prefix}-${tag}`;
  const editor = await createAccount('author');
  const made = await adminApi.post('/api/admin/journals', { data: { title, path, editor: editor.username } });
  expect(made.status(), await made.text()).toBe(201);
  await addSession(context, baseURL!, await loginThroughApi(baseURL!, editor.username, editor.password));
  return { tag, title, path };
}

test('a new journal’s first editor sets its facts on the settings page, and its home shows them', async ({
  page,
  context,
  baseURL,
  adminApi,
  createAccount,
  axe,
  screenshots,
}) => {
  const { tag, title, path } = await newJournal(
    { adminApi, createAccount, context, baseURL },
    'Letters in Soft Matter',
    'soft',
  );

  await page.goto(`/${path}/editor-dashboard/settings`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Journal settings');
  await expect(page.getByLabel('Journal title')).toHaveValue(title);
  // No ISSN until one is assigned: the demo journal's is not borrowed.
  await expect(page.getByLabel('Online ISSN')).toHaveValue('');
  await expect(page.getByLabel('Areas')).toHaveValue('');
  await expect(page.getByLabel('First year of publication')).toHaveValue(String(new Date().getUTCFullYear()));
  await axe(page);
  await screenshots(page, 'journal-facts-settings');

  // Refused beside their fields, what was typed kept.
  await page.getByLabel('Description').fill('');
  await page.getByLabel('Issues a year').fill('0');
  await page.getByLabel('Language of the articles').fill('English');
  await page.getByRole('button', { name: 'Save the settings' }).click();
  await expect(page.getByRole('alert')).toContainText('3 settings need correcting: see below.');
  await expect(page.getByText('The description is required.')).toBeVisible();
  await expect(
    page.getByText('Give the number of issues a year as a whole number from 1 to 52, such as 4.'),
  ).toBeVisible();
  await expect(page.getByLabel('Issues a year')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Language of the articles')).toHaveValue('English');
  await axe(page);
  await screenshots(page, 'journal-facts-refused');

  const description = `Short letters on colloids, gels and foams (${tag}).`;
  await page.getByLabel('Description').fill(description);
  await page.getByLabel('Areas').fill('Colloids\nGels\n\nFoams');
  await page.getByLabel('Frequency').fill('Monthly');
  await page.getByLabel('Issues a year').fill('12');
  await page.getByLabel('Language of the articles').fill('en');
  await page.getByLabel('Licence').selectOption({ label: 'CC BY-SA 4.0' });
  await page.getByRole('button', { name: 'Save the settings' }).click();
  await expect(page.getByRole('status')).toContainText('Saved:');
  await expect(page.getByRole('status')).toContainText('Areas');
  await expect(page.getByLabel('Areas')).toHaveValue('Colloids\nGels\nFoams');

  // The journal's home says it; the demo journal at the root keeps its own.
  await page.goto(`/${path}/`);
  await expect(page.getByRole('main')).toContainText(description);
  await expect(page.getByRole('main')).toContainText('Monthly, 12 issues a year');
  await expect(page.getByRole('main')).toContainText('CC BY-SA 4.0');
  await expect(page.getByRole('main')).not.toContainText('ISSN (online)');
  await axe(page);
  await screenshots(page, 'journal-facts-home');
  await page.goto('/');
  await expect(page.getByRole('main')).not.toContainText(description);
  await expect(page.getByRole('main')).toContainText('ISSN (online)');
});

test('a journal’s admin gives it a logo on the settings page: its header shows it; removed, the site’s mark again', async ({
  page,
  context,
  baseURL,
  adminApi,
  createAccount,
  axe,
  screenshots,
}) => {
  const { path } = await newJournal({ adminApi, createAccount, context, baseURL }, 'Logo Letters', 'logo');
  await page.goto(`/${path}/editor-dashboard/settings`);
  const logoForm = page.getByRole('region', { name: 'Logo' });
  await expect(logoForm).toContainText('None yet');

  // Refused before any upload: a PDF is not a logo.
  await logoForm.getByLabel('The logo').setInputFiles(path_.join(FIXTURES, 'manuscript.pdf'));
  await expect(logoForm).toContainText('The logo must be a PNG or JPEG image (.png, .jpg).');
  // Too small: refused by the server, beside the field.
  await logoForm.getByLabel('The logo').setInputFiles({
    name: 'tiny.png',
    mimeType: 'image/png',
    buffer: barChartPng([1], { width: 20, height: 20 }),
  });
  await logoForm.getByRole('button', { name: 'Upload the logo' }).click();
  await expect(page.getByRole('main')).toContainText('The logo is 20 × 20 pixels');

  await logoForm.getByLabel('The logo').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: barChartPng([2, 4, 3], { width: 256, height: 256 }),
  });
  await logoForm.getByRole('button', { name: 'Upload the logo' }).click();
  await expect(page.getByRole('status')).toContainText('The logo is saved');
  await expect(logoForm).toContainText('256 × 256 pixels');
  const header = page.getByRole('banner').locator('img.logo--journal');
  await expect(header).toHaveAttribute('src', new RegExp(`^/${path}/api/journal/logo\\?v=[0-9a-f]{16}$`));
  // Loaded (it may still be arriving when the attribute is there): its own pixels, not a broken image.
  await expect.poll(() => header.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  await axe(page);
  await screenshots(page, 'journal-logo-settings');

  await page.getByRole('button', { name: 'Remove the logo' }).click();
  await expect(page.getByRole('status')).toContainText('The logo is removed');
  await expect(page.getByRole('banner').locator('img.logo--journal')).toHaveCount(0);
  await expect(page.getByRole('banner').locator('svg.logo')).toHaveCount(1);
});
