import { ADMIN, expect, test } from './fixtures.ts';
import { JOURNAL_C_HOST, JOURNAL_D_HOST, JOURNALS_SERVER } from './env.ts';

/**
 * Several journals on one server (tests/e2e/journals-setup.ts, decision 0056): the first journal at `/first`
 * (old path `/old-first`), a second at `/second`, a third on its own domain, and the site's home at `/`.
 * Every link, form, redirect and navigation of a journal stays under its address.
 */
const SITE = JOURNALS_SERVER.url;
const DOMAIN = `http://${JOURNAL_C_HOST}:${JOURNALS_SERVER.port}`;

test.use({ baseURL: SITE });

test('the site’s home lists its journals, each at its address', async ({ page, axe, screenshots }) => {
  await page.goto('/');
  const journals = page.getByRole('region', { name: 'Journals' });
  await expect(journals.getByRole('link', { name: 'Second Studies' })).toHaveAttribute(
    'href',
    `${SITE}/second/`,
  );
  await expect(journals.getByRole('link', { name: 'Gamma Review' })).toHaveAttribute('href', `${DOMAIN}/`);
  await expect(journals.getByRole('link', { name: 'Delta Letters' })).toHaveAttribute(
    'href',
    `http://${JOURNAL_D_HOST}:${JOURNALS_SERVER.port}/`,
  );
  // The set-up's four open journals (journals-roles.spec.ts makes more on this server as it runs).
  await expect(
    journals.getByRole('link', { name: /^(Colophon Journal|Second Studies|Gamma Review|Delta Letters)/ }),
  ).toHaveCount(4);
  await expect(journals).toContainText('ISSN 2049-3630 (online)');
  await expect(page.getByText('Old Archive')).toHaveCount(0);
  // No journal's sections on the site's own pages.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Volumes' }),
  ).toHaveCount(0);
  await axe(page);
  await screenshots(page, 'site-home');
  await journals.getByRole('link', { name: 'Second Studies' }).click();
  await expect(page).toHaveURL(`${SITE}/second/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Second Studies' })).toBeVisible();
  // Another page of the site's host is not found.
  const missing = await page.goto('/volumes');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('a journal by path: its pages, links and navigations stay under its path', async ({
  page,
  screenshots,
}) => {
  await page.goto('/first/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Volumes' }).click();
  await expect(page).toHaveURL(`${SITE}/first/volumes`);
  const article = page.locator('.toc-entry__title a').first();
  await expect(article).toHaveAttribute('href', /^\/first\/article\/\d+$/);
  await article.click();
  await expect(page).toHaveURL(/\/first\/article\/\d+$/);
  // Signed out, the download leads back to this page, saying why.
  await expect(page.getByRole('link', { name: /Download PDF/ })).toHaveAttribute(
    'href',
    /^\/first\/article\/\d+\?download=denied#download$/,
  );
  await screenshots(page, 'journal-path-article');
  // The journal's name in the header leads to its home.
  await page.locator('a.brand').click();
  await expect(page).toHaveURL(`${SITE}/first`);
  // Every link of the page is under the journal's path (or another site's).
  const hrefs = await page
    .locator('a[href^="/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs.filter((h) => !/^\/first(\/|$|#)/.test(h ?? '') && h !== '#main-content')).toEqual([]);
});

test('signing in and a form post keep the journal’s path; the API answers under it', async ({
  page,
  request,
}) => {
  await page.goto('/second/submission');
  await expect(page).toHaveURL(/\/second\/login\?redirectTo=%2Fsubmission/);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${SITE}/second/submission`);
  // Logout is a form post whose answer is a redirect to the journal's home.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(`${SITE}/second`);
  await expect(page.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/second/login');

  const list = await request.get('/second/api/articles/public/list');
  expect(list.status()).toBe(200);
  const moved = await request.get('/old-first/volumes?volume=1', { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  expect(moved.headers().location).toBe(`${SITE}/first/volumes?volume=1`);
});

test('a journal on its own domain: at the host’s root, as today', async ({ page, screenshots }) => {
  await page.goto(`${DOMAIN}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Gamma Review' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(`${DOMAIN}/about`);
  await screenshots(page, 'journal-domain-about');
});

test('the site’s search box searches every journal; a result opens at its journal’s address', async ({
  page,
  axe,
  screenshots,
}) => {
  await page.goto('/');
  const box = page.getByRole('search', { name: 'Articles' }).getByRole('searchbox');
  await box.fill('LoRaWAN smallholder');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=LoRaWAN/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search every journal' })).toBeVisible();
  const results = page.getByRole('list').filter({ has: page.getByRole('article') });
  const hit = results.getByRole('article').first();
  await expect(hit.getByRole('link').nth(1)).toHaveAttribute(
    'href',
    new RegExp(`^${SITE}/first/article/\\d+$`),
  );
  await expect(hit.getByRole('link').first()).toHaveAttribute('href', `${SITE}/first/`);
  await axe(page);
  await screenshots(page, 'site-search');

  // Kept to one journal that has no such article: nothing, and a way back to every journal.
  await page.getByLabel('Journal', { exact: true }).selectOption({ label: 'Second Studies' });
  await page
    .getByRole('form', { name: 'Search the journals’ articles' })
    .getByRole('button', { name: 'Search', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: /Nothing found for/ })).toBeVisible();
  await page.getByRole('link', { name: /Search every journal for/ }).click();
  await expect(page.getByRole('heading', { name: /found for “LoRaWAN smallholder”/ })).toBeVisible();

  // The result opens the article at its journal's address.
  await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`^${SITE}/first/article/\\d+$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('LoRaWAN');
});
