import type { Page } from '@playwright/test';
import { SEARCH_LIMITS, SEARCH_MESSAGES } from '../../common/search.ts';
import { expect, test } from './fixtures.ts';

/**
 * Search (issue 6): the header's box on every page, /search with results, highlights, filters, empty and
 * invalid searches, with and without JavaScript. Reads the demo articles only.
 */

const DEMO_ARTICLE = 1;
const DEMO_TITLE =
  'Energy-Aware Adaptive Duty Cycling for LoRaWAN Soil-Moisture Sensor Networks on Smallholder Farms';
/** In demo article 1's PDF only (its introduction), not in any title, abstract or keyword. */
const BODY_WORD = 'farmhouse';

const headerBox = (page: Page) =>
  page.getByRole('search', { name: 'Articles' }).getByRole('searchbox', { name: 'Search articles' });
const resultsHeading = (page: Page) =>
  page.getByRole('heading', { level: 2, name: /found for|Nothing found/ });
const results = (page: Page) =>
  page
    .getByRole('list')
    .filter({ has: page.locator('article') })
    .getByRole('article');

test('the header box searches from any page; a result leads to its article', async ({
  page,
  axe,
  screenshots,
}) => {
  await page.goto('/volumes');
  await headerBox(page).fill('LoRaWAN duty cycling');
  await headerBox(page).press('Enter');
  await expect(page).toHaveURL(/\/search\?q=LoRaWAN\+duty\+cycling$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await expect(resultsHeading(page)).toHaveText(/^\d+ articles? found for “LoRaWAN duty cycling”$/);
  // The box keeps the words on the results page.
  await expect(headerBox(page)).toHaveValue('LoRaWAN duty cycling');

  const first = results(page).first();
  await expect(first.getByRole('heading', { level: 3 })).toHaveText(DEMO_TITLE);
  await expect(first.locator('h3 mark').first()).toHaveText(/LoRaWAN|Duty|Cycling/i);
  await expect(first).toContainText('Volume 1, Issue 1 · 2025');
  await expect(first).toContainText('Karthikeyan Ramasamy');
  await expect(first.locator('p mark').first()).toBeVisible();
  await axe(page);
  await screenshots(page, 'search-results');

  await first.getByRole('link', { name: DEMO_TITLE }).click();
  await expect(page).toHaveURL(`/article/${DEMO_ARTICLE}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_TITLE);
});

test('finds words that appear only in an article’s PDF, and shows them in a full-text snippet', async ({
  page,
}) => {
  // The demo PDFs are read in the background after start-up: give it a moment on a cold server.
  await expect(async () => {
    await page.goto(`/search?q=${BODY_WORD}`);
    await expect(resultsHeading(page)).toHaveText(/found for/, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const hit = results(page).filter({ hasText: DEMO_TITLE });
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText('Full text:');
  await expect(hit.locator('mark', { hasText: new RegExp(`^${BODY_WORD}$`, 'i') })).toBeVisible();
});

test('filters by volume, year and article type, and says when nothing is left', async ({ page, axe }) => {
  await page.goto('/search?q=data');
  await page.getByLabel('Article type').selectOption('Review Article');
  await page.getByLabel('Volume').selectOption('1');
  await page.getByRole('button', { name: 'Search', exact: true }).last().click();
  await expect(page).toHaveURL(/type=Review\+Article/);
  await expect(resultsHeading(page)).toHaveText(/found for “data”/);
  // Retried until the new results are drawn (a snapshot of the list could catch the previous page's).
  await expect(results(page).first()).toBeVisible();
  await expect(results(page).filter({ hasNotText: /^Review Article · Volume 1, Issue 1/ })).toHaveCount(0);
  await expect(page.getByLabel('Article type')).toHaveValue('Review Article');

  await page.goto('/search?q=data&year=1999');
  await expect(resultsHeading(page)).toHaveText('Nothing found for “data”');
  await expect(page.getByText(SEARCH_MESSAGES.noResultsWithFilters)).toBeVisible();
  // A year no article has still shows as the chosen filter.
  await expect(page.getByLabel('Year')).toHaveValue('1999');
  await page.getByRole('link', { name: 'Search all articles for “data”' }).click();
  await expect(page).toHaveURL(/\/search\?q=data$/);
  await expect(resultsHeading(page)).toHaveText(/found for “data”/);
  await axe(page);
});

test('empty, common-word, unknown and over-long searches answer with a message, never an error page', async ({
  page,
  axe,
  screenshots,
}) => {
  await page.goto('/search');
  await expect(page.getByText('Enter words above')).toBeVisible();
  await axe(page);

  let response = await page.goto('/search?q=');
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText(SEARCH_MESSAGES.emptyQuery);

  await page.goto('/search?q=the+of');
  await expect(page.getByText(SEARCH_MESSAGES.onlyCommonWords)).toBeVisible();

  await page.goto(`/search?q=${encodeURIComponent('"unbalanced (quote -OR & | ! :* \\ 😀 привет')}`);
  await expect(resultsHeading(page)).toBeVisible();

  await page.goto('/search?q=qwxzzyplkm');
  await expect(resultsHeading(page)).toHaveText('Nothing found for “qwxzzyplkm”');
  await expect(page.getByText(SEARCH_MESSAGES.noResults)).toBeVisible();
  await screenshots(page, 'search-empty');

  response = await page.goto(`/search?q=${'a'.repeat(10_000)}`);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText(SEARCH_MESSAGES.queryTooLong);
  await expect(page.getByRole('alert')).toContainText(String(SEARCH_LIMITS.maxQueryLength));
  await expect(page.getByLabel('Words to find')).toHaveAttribute('aria-invalid', 'true');
  await axe(page);
});

test('works without JavaScript: header box, results and filters', async ({ noJsPage, axe }) => {
  await noJsPage.goto('/');
  await headerBox(noJsPage).fill('blockchain');
  await headerBox(noJsPage).press('Enter');
  await expect(noJsPage).toHaveURL(/\/search\?q=blockchain$/);
  await expect(results(noJsPage).first()).toContainText('Blockchain');
  await noJsPage.getByLabel('Year').selectOption('2025');
  await noJsPage.getByRole('button', { name: 'Search', exact: true }).last().click();
  await expect(noJsPage).toHaveURL(/year=2025/);
  await expect(results(noJsPage).first()).toContainText('2025');
  await axe(noJsPage);
});

test('the header keeps its layout at 390 px with the search box', async ({ page, screenshots }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/', '/search?q=soil', '/volumes']) {
    await page.goto(path);
    await expect(headerBox(page)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    const box = await headerBox(page).boundingBox();
    expect(box!.width).toBeGreaterThan(200);
  }
  await page.goto('/');
  await screenshots(page, 'search-header-home');
});

test('signed in, the header still fits at 390 px', async ({ page, signIn, screenshots }) => {
  await signIn('author');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/search?q=sensor');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(headerBox(page)).toHaveValue('sensor');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshots(page, 'search-header-signed-in');
});
