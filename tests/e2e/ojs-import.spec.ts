import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { barChartPng } from '../../server/seed/png.ts';
import { nativeExport, sampleJournal } from '../fixtures/ojs/make.ts';
import { ADMIN, addSession, expect, hydrated, loginThroughApi, test } from './fixtures.ts';

/**
 * The site admin's OJS import (issue 26, decision 0069), seen from outside: the page reached from the journals
 * page; a generated export uploaded into a new journal as a dry run, its progress and report, then run for real
 * with the same files and its issues on the journal's site; the same file again, all unchanged; a file that is
 * not XML refused as it is chosen, and a broken export's refusal shown in the report, never a 500.
 */

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ojs-e2e-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Native XML export of three issues (two published) written to a temp file. */
function exportFile(name: string, xml?: string): string {
  const file = path.join(dir, name);
  const issues = sampleJournal({ issues: 3, perIssue: 2 });
  // Volume 2's issue has a cover, as OJS issues often do.
  issues[1].cover = { name: 'cover.png', bytes: barChartPng([3, 5, 2, 4], { width: 240, height: 320 }) };
  writeFileSync(file, xml ?? [...nativeExport('3.4', issues)].join(''));
  return file;
}

/** The report's counts row for a kind: created, updated, unchanged, refused. */
async function counts(page: import('@playwright/test').Page, kind: string) {
  const row = page
    .getByRole('table', { name: /imported/ })
    .getByRole('row', { name: new RegExp(`^${kind}`) });
  return (await row.getByRole('cell').allTextContents()).map(Number);
}

test.describe('the site admin’s OJS import', () => {
  test('a dry run, then for real; the issues on the journal’s site; the same file again changes nothing', async ({
    page,
    context,
    baseURL,
    axe,
    screenshots,
  }) => {
    test.setTimeout(120_000);
    await addSession(context, baseURL!, await loginThroughApi(baseURL!, ADMIN.username, ADMIN.password));
    const tag = randomBytes(3).toString('hex');
    const journalPath = `imported-${tag}`;
    const title = `Journal of Imported Issues ${tag}`;
    const file = exportFile(`native-${tag}.xml`);

    await page.goto('/admin/journals');
    await page.getByRole('link', { name: 'Import a journal from OJS' }).click();
    await expect(page).toHaveURL('/admin/imports');
    await expect(page.getByRole('heading', { level: 1, name: 'Import from OJS' })).toBeVisible();
    await hydrated(page);

    // A file that is not XML is refused as it is chosen, with the reason, before any upload.
    const pdf = path.join(dir, 'issues.pdf');
    writeFileSync(pdf, '%PDF-1.7\n');
    await page.getByLabel('Issues: Native XML export').setInputFiles(pdf);
    await expect(page.getByText('An OJS export is an XML file (.xml)').first()).toBeVisible();

    await page.getByLabel('Import into').selectOption('');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Path on this site').fill(journalPath);
    await page.getByLabel('Its path on the OJS site').fill(`old${tag}`);
    await page.getByLabel('Issues: Native XML export').setInputFiles(file);
    await page.getByLabel(/Dry run/).check();
    await axe(page);
    await screenshots(page, 'ojs-import-form');

    await page.getByRole('button', { name: 'Upload and import' }).click();
    await expect(page).toHaveURL(/\/admin\/imports\/\d+$/);
    const bar = page.getByRole('progressbar', { name: 'Items imported' });
    await expect(bar).toBeVisible();
    await screenshots(page, 'ojs-import-running');
    await expect(page.getByRole('status')).toContainText('Dry run done', { timeout: 60_000 });
    await expect(bar).toHaveAttribute('aria-valuetext', /^(\d+) of \1 items/);
    expect((await counts(page, 'Issues'))[0]).toBe(3);
    await axe(page);
    await screenshots(page, 'ojs-import-dry-run');

    // For real, with the same files.
    await page.getByRole('button', { name: 'Run it for real' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Import');
    await expect(page.getByRole('status')).toContainText('Import done', { timeout: 60_000 });
    expect(await counts(page, 'Issues')).toEqual([3, 0, 0, 0]);
    await axe(page);
    await screenshots(page, 'ojs-import-report');

    // The imported issues on the journal's own site.
    await page.getByRole('link', { name: 'Its volumes and issues' }).click();
    await expect(page).toHaveURL(new RegExp(`/${journalPath}/volumes`));
    const volumes = page.getByRole('combobox', { name: 'Volume' });
    for (const v of ['Volume 3 (2021)', 'Volume 2 (2020)', 'Volume 1 (2019)'])
      await expect(volumes.getByRole('option', { name: v })).toBeAttached();
    // The issue's cover, shown with its table of contents (served by GET /api/issues/:id/cover).
    await page.goto(`/${journalPath}/volumes?volume=2&issue=1`);
    const cover = page.getByRole('img', { name: 'Cover of Volume 2, issue 1' });
    await expect(cover).toBeVisible();
    await expect(cover).toHaveAttribute('loading', 'lazy');
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
    await axe(page);
    await screenshots(page, 'issue-cover');
    await page.goto(`/${journalPath}/volumes?volume=1&issue=1`);
    await expect(page.getByRole('heading', { name: /Volume 1, Issue 1/ })).toBeVisible();
    await expect(page.getByRole('img', { name: /^Cover of/ })).toHaveCount(0);

    // An old OJS address of an article (OJS id 101) lands on its new page, which shows what came with it.
    await page.goto(`/index.php/old${tag}/article/view/101`);
    await expect(page).toHaveURL(new RegExp(`/${journalPath}/article/\\d+$`));
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toContainText('Measured results 1.1');
    await expect(heading).toContainText('A second version');
    await expect(page.getByRole('region', { name: 'Authors' })).toContainText('Zoë Ångström');
    await expect(page.getByRole('heading', { name: 'Other files' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Dataset' })).toHaveAttribute(
      'href',
      'https://data.example.org/set/1',
    );
    await expect(page.getByRole('heading', { name: 'References' })).toBeVisible();
    await expect(page.locator('a[rel="license"]').first()).toBeVisible();
    await axe(page);
    await screenshots(page, 'ojs-imported-article');
    // Without index.php too, and an old issue's address.
    await page.goto(`/old${tag}/issue/archive`);
    await expect(page).toHaveURL(new RegExp(`/${journalPath}/volumes`));

    // The same file again, into the journal now there: nothing changes.
    await page.goto('/admin/imports');
    await hydrated(page);
    await page.getByLabel('Import into').selectOption(journalPath);
    await page.getByLabel('Issues: Native XML export').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await expect(page.getByRole('status')).toContainText('Import done', { timeout: 60_000 });
    expect(await counts(page, 'Issues')).toEqual([0, 0, 3, 0]);
  });

  test('a broken export: its refusal in the report, no error page', async ({
    page,
    context,
    baseURL,
    axe,
  }) => {
    test.setTimeout(90_000);
    await addSession(context, baseURL!, await loginThroughApi(baseURL!, ADMIN.username, ADMIN.password));
    const tag = randomBytes(3).toString('hex');
    const whole = [...nativeExport('3.4', sampleJournal({ issues: 1, perIssue: 1 }))].join('');
    const broken = exportFile(`broken-${tag}.xml`, whole.slice(0, Math.floor(whole.length / 2)));
    await page.goto('/admin/imports');
    await hydrated(page);
    await page.getByLabel('Import into').selectOption('');
    await page.getByLabel('Title').fill(`Broken ${tag}`);
    await page.getByLabel('Path on this site').fill(`broken-${tag}`);
    await page.getByLabel('Issues: Native XML export').setInputFiles(broken);
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await expect(page).toHaveURL(/\/admin\/imports\/\d+$/);
    await expect(page.getByRole('status')).toContainText(/(done|failed)/, { timeout: 60_000 });
    await expect(page.getByText(/Refused|failed/).first()).toBeVisible();
    await expect(page.getByText(`broken-${tag}.xml`).first()).toBeVisible();
    await axe(page);
  });

  test('without JavaScript, the form posts and the run’s page follows it', async ({ noJsPage, baseURL }) => {
    test.setTimeout(90_000);
    await addSession(
      noJsPage.context(),
      baseURL!,
      await loginThroughApi(baseURL!, ADMIN.username, ADMIN.password),
    );
    const tag = randomBytes(3).toString('hex');
    await noJsPage.goto('/admin/imports');
    // Nothing chosen: back to the form with the refusal in words.
    await noJsPage.getByRole('button', { name: 'Upload and import' }).click();
    await expect(noJsPage).toHaveURL(/\/admin\/imports\?refused=/);
    await expect(noJsPage.getByRole('alert')).toContainText('Choose an OJS export');
    await noJsPage.getByLabel('Import into').selectOption('');
    await noJsPage.getByLabel('Title').fill(`No script ${tag}`);
    await noJsPage.getByLabel('Path on this site').fill(`noscript-${tag}`);
    await noJsPage.getByLabel('Issues: Native XML export').setInputFiles(exportFile(`nojs-${tag}.xml`));
    await noJsPage.getByLabel(/Dry run/).check();
    await noJsPage.getByRole('button', { name: 'Upload and import' }).click();
    await expect(noJsPage).toHaveURL(/\/admin\/imports\/\d+$/);
    await expect(noJsPage.getByRole('progressbar', { name: 'Items imported' })).toBeVisible();
  });
});
