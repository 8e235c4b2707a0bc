import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { SHORT_SESSION_TTL_SECONDS, SHORT_TTL_SERVER, expect, test } from './fixtures.ts';

/**
 * One form kit and one form style (issue 12): the same fonts in every form, the styled file field on every
 * file picker, the rough edges a newcomer hit (the checker page's height, the articles table's width, tables
 * that scroll sideways), and a form's text kept when the session ends.
 */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const fixture = (name: string) => path.join(FIXTURES, name);

/** The computed font family of an element. */
const fontOf = (locator: Locator) => locator.first().evaluate((el) => getComputedStyle(el).fontFamily);

/** How far the document reaches below the footer's bottom edge (0 when the page ends with its footer). */
const overhang = (page: Page) =>
  page.evaluate(() => {
    const footer = document.querySelector('body > footer, footer.site-footer') as HTMLElement;
    const bottom = footer.getBoundingClientRect().bottom + window.scrollY;
    return Math.round(document.documentElement.scrollHeight - bottom);
  });

/** A published demo article's PDF (checking it marks passages all through its text). */
async function demoPdf(adminApi: APIRequestContext) {
  const list = (await (await adminApi.get('/api/papers')).json()) as { id: number }[];
  const pdf = await adminApi.get(`/api/articles/${list.at(-1)!.id}/download`);
  expect(pdf.ok()).toBe(true);
  return { name: 'demo-article.pdf', mimeType: 'application/pdf', buffer: await pdf.body() };
}

test.describe('one form style', () => {
  for (const width of [1280, 390]) {
    test(`labels, inputs, selects, date fields, hints and buttons share the public forms' font at ${width} px`, async ({
      page,
      signIn,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await signIn('admin');
      await page.goto('/contact');
      const form = page.getByRole('region', { name: 'Send a message' });
      const sans = await fontOf(form.getByText('Name', { exact: true }));
      expect(sans).toMatch(/sans/i);
      expect(await fontOf(form.getByRole('textbox', { name: 'Name' }))).toBe(sans);

      // The desk's filters: a search box, selects and date fields.
      await page.goto('/editor-dashboard/submissions');
      const filters = page.getByRole('search', { name: 'Filter and search' });
      for (const control of [
        filters.getByText('Status', { exact: true }),
        filters.getByRole('combobox', { name: 'Status' }),
        filters.getByText('Submitted from', { exact: true }),
        filters.getByLabel('Submitted from'),
        filters.getByRole('button', { name: 'Apply filters' }),
      ]) {
        expect(await fontOf(control)).toBe(sans);
      }

      // An editing form: labels, hints, legends, a select.
      await page.goto('/editor-dashboard/articles');
      const upload = page.getByRole('form', { name: 'Upload an article' });
      for (const control of [
        upload.getByText(/^Keywords/),
        upload.getByText('Separated by commas.'),
        upload.getByRole('textbox', { name: 'Keywords' }),
        upload.getByRole('combobox', { name: 'Issue' }),
        upload.getByRole('group', { name: 'Authors' }).locator('legend'),
      ]) {
        expect(await fontOf(control)).toBe(sans);
      }

      // The checker's options.
      await page.goto('/plagiarism');
      for (const control of [
        page.getByText('Smallest match, in words', { exact: true }),
        page.getByRole('spinbutton', { name: 'Smallest match, in words' }),
        page.getByRole('group', { name: 'Options' }).locator('legend'),
        page.getByText('Leave out text in quotation marks'),
      ]) {
        expect(await fontOf(control)).toBe(sans);
      }
    });
  }
});

test.describe('file fields', () => {
  test('the article upload and "Replace the PDF" use the styled drop zone, which checks the file at once', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/articles?edit=1');
    const replace = page.getByRole('form', { name: 'Replace the PDF' });
    const upload = page.getByRole('form', { name: 'Upload an article' });
    // The upload has two: the PDF and the final Word file (the full text, issue 16).
    for (const [form, zones] of [
      [replace, 1],
      [upload, 2],
    ] as const) {
      const prompts = form.getByText('Drag and drop the file here, or choose it:');
      await expect(prompts).toHaveCount(zones);
      for (const prompt of await prompts.all()) await expect(prompt).toBeVisible();
    }
    const pdf = upload.getByLabel('Article PDF');
    await expect(pdf).toHaveAttribute('required', '');
    await expect(pdf).toHaveAccessibleDescription(/A PDF, up to 30 MB\./);
    await pdf.setInputFiles(fixture('png-named.pdf'));
    await expect(pdf).toHaveAccessibleDescription(/The article file must be a PDF \(\.pdf\)\./);
    await expect(pdf).toHaveAttribute('aria-invalid', 'true');
    await pdf.setInputFiles(fixture('manuscript.pdf'));
    await expect(upload.getByText('Chosen: manuscript.pdf')).toBeVisible();
    await expect(pdf).not.toHaveAttribute('aria-invalid', 'true');
    // The replace form's own field is not the upload's (two "pdf" fields on one page, two ids).
    await expect(replace.getByLabel('New PDF')).toHaveValue('');
    await axe(page);
    await screenshots(page, 'dashboard-articles-edit');
  });

  test('without JavaScript the picker sits in the same frame and the upload posts', async ({
    noJsPage: page,
    signIn,
    axe,
  }) => {
    await signIn('editor', 'approved', page);
    await page.goto('/editor-dashboard/articles');
    const upload = page.getByRole('form', { name: 'Upload an article' });
    const pdf = upload.getByLabel('Article PDF');
    const frame = await pdf.evaluate((input) => getComputedStyle(input.parentElement!).borderStyle);
    expect(frame).toBe('dashed');
    await axe(page);
    // Everything else left empty: refused with the messages beside the fields, the file asked for again.
    await pdf.setInputFiles(fixture('manuscript.pdf'));
    await upload.getByRole('button', { name: 'Upload and publish' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    const again = page.getByRole('form', { name: 'Upload an article' });
    await expect(again.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
    await expect(again.getByLabel('Article PDF')).toHaveAccessibleDescription(/please choose it again/);
  });
});

test.describe('rough edges', () => {
  test('/plagiarism with a result ends with its content (hidden labels stay in the text box)', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    const pdf = await demoPdf(adminApi);
    await signIn('researcher');
    await page.goto('/plagiarism');
    await expect(page.getByText('Drag and drop the file here')).toBeVisible();
    await page.getByLabel(/^Manuscript/).setInputFiles(pdf);
    await page.getByRole('button', { name: 'Check the file' }).click();
    const result = page.getByRole('region', { name: `Result for ${pdf.name}` });
    await expect(result).toBeVisible({ timeout: 60_000 });
    // The marked text runs far below the visible part of its box (it scrolls inside it).
    const text = result.locator('.sim-text');
    expect(await text.evaluate((box) => box.scrollHeight > 2 * box.clientHeight)).toBe(true);
    expect(await overhang(page)).toBeLessThanOrEqual(2);
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await overhang(page)).toBeLessThanOrEqual(2);
    await axe(page);
    await screenshots(page, 'plagiarism-result-height');
  });

  test('the Articles table fits its box at 1280 px', async ({ page, signIn, axe, screenshots }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn('editor');
    await page.goto('/editor-dashboard/articles');
    const region = page.getByRole('region', { name: /Articles, newest first/ });
    const fit = await region.evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    // Every column in view, titles on a few lines.
    for (const name of ['Views', 'Downloads', 'Actions']) {
      await expect(region.getByRole('columnheader', { name })).toBeInViewport();
    }
    const title = region.getByRole('rowheader').first();
    const lines = await title.evaluate((th) => {
      const link = th.querySelector('a') ?? th;
      return Math.round(
        link.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(link).lineHeight),
      );
    });
    expect(lines).toBeLessThanOrEqual(5);
    // Nothing to scroll, so nothing says so.
    await expect(page.getByText('Scroll the table sideways')).toBeHidden();
    await expect(region).not.toHaveAttribute('aria-describedby');
    await axe(page);
    await screenshots(page, 'dashboard-articles');
  });

  test('on a phone a table that scrolls sideways says so, and is described by it', async ({
    page,
    signIn,
    axe,
  }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    await signIn('editor');
    await page.goto('/editor-dashboard/articles');
    const region = page.getByRole('region', { name: /Articles, newest first/ });
    const fit = await region.evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));
    expect(fit.scroll).toBeGreaterThan(fit.client);
    await expect(page.getByText('Scroll the table sideways to see all its columns.')).toBeVisible();
    await expect(region).toHaveAccessibleDescription('Scroll the table sideways to see all its columns.');
    await axe(page);
  });

  test('the keyword rule is the same on /instructions and on the submission form', async ({
    page,
    signIn,
  }) => {
    await page.goto('/instructions');
    await expect(page.getByRole('main')).toContainText('4 to 5 keywords, separated by commas');
    await expect(page.getByRole('main')).not.toContainText('semicolon');
    await signIn('author');
    await page.goto('/submission');
    await expect(page.getByLabel('Keywords')).toHaveAccessibleDescription(/separated by commas/);
    await page.getByLabel('Keywords').fill('edge computing, IoT, energy efficiency, task offloading');
    await expect(page.getByLabel('Keywords')).toHaveAccessibleDescription(/You have 4\./);
  });
});

test.describe('form text kept across session expiry', () => {
  test.use({ baseURL: SHORT_TTL_SERVER.url });
  const wait = (SHORT_SESSION_TTL_SECONDS + 15) * 1000;

  /** Waits out the session (the page leaves for /home on its own), then signs in again through the form. */
  async function expireAndSignInAgain(page: Page, username: string, password: string) {
    await expect(page).toHaveURL('/home', { timeout: wait });
    await page.goto('/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${username}`);
  }

  const draftKeys = (page: Page) =>
    page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('colophon:draft:')));

  test('the submission form offers back what was typed, and forgets it once sent', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    test.setTimeout(3 * wait + 60_000);
    const me = await signIn('author');
    await page.goto('/submission');
    await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();
    await page.getByLabel('Title').fill('Kept across an expired session');
    await page.getByLabel('Article type').selectOption('Research Article');
    await page.getByLabel('Keywords').fill('sessions, drafts, forms, storage');
    await page.getByLabel('Abstract').fill('What was typed is offered back after signing in again.');
    await page
      .getByRole('group', { name: /Author 1/ })
      .getByLabel('Full name')
      .fill('Asha Menon');
    await page.getByLabel('Main manuscript file').setInputFiles(fixture('manuscript.docx'));

    await expireAndSignInAgain(page, me.username, me.password);
    const kept = JSON.stringify(await page.evaluate(() => ({ ...sessionStorage })));
    expect(kept).toContain('Kept across an expired session');
    expect(kept).not.toContain('manuscript.docx');
    expect(kept).not.toContain(me.password);

    await page.goto('/submission');
    const offer = page.getByRole('region', { name: 'Restore what you typed?' });
    await expect(offer).toBeVisible();
    await expect(offer).toBeFocused();
    await expect(offer).toContainText('files are not kept');
    await axe(page);
    await screenshots(page, 'submission-restore-offer');
    await offer.getByRole('button', { name: 'Restore' }).click();
    await expect(offer).toHaveCount(0);
    await expect(page.getByLabel('Title')).toHaveValue('Kept across an expired session');
    await expect(page.getByLabel('Article type')).toHaveValue('Research Article');
    await expect(page.getByLabel('Keywords')).toHaveValue('sessions, drafts, forms, storage');
    await expect(page.getByRole('group', { name: /Author 1/ }).getByLabel('Full name')).toHaveValue(
      'Asha Menon',
    );
    expect(await draftKeys(page)).toEqual([]);

    // Sent: nothing is kept, and nothing is offered on the next visit.
    const author = page.getByRole('group', { name: /Author 1/ });
    await author.getByLabel('Email').fill('asha@example.org');
    await author.getByLabel('Affiliation').fill('Anna University');
    await page.getByLabel('Main manuscript file').setInputFiles(fixture('manuscript.docx'));
    await page.getByRole('button', { name: 'Submit manuscript' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'reference number' })).toBeVisible({
      timeout: 30_000,
    });
    expect(await draftKeys(page)).toEqual([]);
    await page.reload();
    await expect(page.getByLabel('Title')).toHaveValue('');
    await expect(page.getByRole('region', { name: 'Restore what you typed?' })).toHaveCount(0);
  });

  test('the contact form: discarded on request, and never offered to another account', async ({
    page,
    signIn,
    createAccount,
  }) => {
    test.setTimeout(2 * wait + 60_000);
    // Made first: the admin's own sign-in (which makes accounts) lasts as short as everyone's here.
    const other = await createAccount('researcher');
    const me = await signIn('researcher');
    await page.goto('/contact');
    await page.getByLabel('Message', { exact: true }).fill('A question typed just before the session ended.');
    await expireAndSignInAgain(page, me.username, me.password);

    await page.goto('/contact');
    const offer = page.getByRole('region', { name: 'Restore what you typed?' });
    await expect(offer).toContainText('the contact form');
    await expect(offer).not.toContainText('files');
    await offer.getByRole('button', { name: 'Discard' }).click();
    await expect(offer).toHaveCount(0);
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
    await page.reload();
    await expect(page.getByRole('region', { name: 'Restore what you typed?' })).toHaveCount(0);

    // Kept again, then someone else signs in in the same tab: not offered to them, and removed.
    await page.getByLabel('Message', { exact: true }).fill('Not for anyone else.');
    await expect(page).toHaveURL('/home', { timeout: wait });
    expect(JSON.stringify(await page.evaluate(() => ({ ...sessionStorage })))).toContain(
      'Not for anyone else.',
    );
    await page.goto('/login');
    await page.getByLabel('Username').fill(other.username);
    await page.getByLabel('Password').fill(other.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${other.username}`);
    await page.goto('/contact');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Restore what you typed?' })).toHaveCount(0);
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
    await expect.poll(() => draftKeys(page)).toEqual([]);
  });
});
