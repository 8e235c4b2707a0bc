import { randomBytes } from 'node:crypto';
import { addSession, expect, loginThroughApi, test } from './fixtures.ts';

/**
 * A new journal's settings (decision 0062), as its first editor meets them: the journal is made by the site
 * admin (through the API here: the page's own flow is site-admin.spec.ts), its first editor is its admin,
 * its settings start with its own title and no ISSN (never the demo journal's), and the journal's own facts
 * (description, areas, frequency, issues a year, first year, language, licence) are set on the settings page,
 * refused in words beside their fields, and shown on the journal's home.
 */
test('a new journal’s first editor sets its facts on the settings page, and its home shows them', async ({
  page,
  context,
  baseURL,
  adminApi,
  createAccount,
  axe,
  screenshots,
}) => {
  const tag = randomBytes(3).toString('hex');
  const title = `Letters in Soft Matter ${tag}`;
  const path = `soft-${tag}`;
  const editor = await createAccount('author');
  const made = await adminApi.post('/api/admin/journals', { data: { title, path, editor: editor.username } });
  expect(made.status(), await made.text()).toBe(201);

  // One session for every journal served by path (decision 0054).
  const token = await loginThroughApi(baseURL!, editor.username, editor.password);
  await addSession(context, baseURL!, token);

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
