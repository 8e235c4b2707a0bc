import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path_ from 'node:path';
import { PERMISSION_STATEMENTS } from '../../common/preservation.ts';
import { unzipBag } from '../../server/preservation/bagit.ts';
import { checkBag } from '../../server/preservation/check.ts';
import { addSession, expect, loginThroughApi, test } from './fixtures.ts';

/**
 * Preservation (decision 0065), in a journal of the test's own (made through the site admin's API, so the
 * shared journal's settings stay as they are): its first editor (its admin) switches LOCKSS on, opens the
 * manifest page, has an issue's archive package made and downloads it, and the bag checks.
 */
test('an editor switches LOCKSS on, reads the manifest and downloads an issue’s bag', async ({
  page,
  context,
  baseURL,
  adminApi,
  createAccount,
  playwright,
  axe,
  screenshots,
}) => {
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString('hex');
  const title = `Archive Letters ${tag}`;
  const path = `keep-${tag}`;
  const editor = await createAccount('author');
  const made = await adminApi.post('/api/admin/journals', { data: { title, path, editor: editor.username } });
  expect(made.status(), await made.text()).toBe(201);
  const token = await loginThroughApi(baseURL!, editor.username, editor.password);
  await addSession(context, baseURL!, token);

  // Set-up through the journal's API: a volume of this year, an issue, one published article.
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const year = new Date().getUTCFullYear();
  const volume = await api.post(`/${path}/api/editor/volume`, {
    data: { title: 'Volume 1', volume_number: 1, year },
  });
  expect(volume.status(), await volume.text()).toBe(201);
  const issue = await api.post(`/${path}/api/editor/issue`, {
    data: { volume_id: (await volume.json()).volume.id, title: 'Kept issue', description: 'Spring' },
  });
  expect(issue.status(), await issue.text()).toBe(201);
  const article = await api.post(`/${path}/api/articles/admin/upload`, {
    multipart: {
      title: `Preserved findings ${tag}`,
      abstract: 'An abstract.',
      keywords: 'archives, bags',
      pages: '1-9',
      doi: `10.5555/keep.${tag}`,
      issue_id: String((await issue.json()).issue.id),
      authors: JSON.stringify([
        { name: 'Ada Keeper', email: 'ada@example.org', affiliation: 'Archive U', superscript: '1' },
      ]),
      pdf: {
        name: 'article.pdf',
        mimeType: 'application/pdf',
        buffer: readFileSync(path_.resolve('tests/fixtures/manuscripts/manuscript.pdf')),
      },
    },
  });
  expect(article.status(), await article.text()).toBe(201);
  const articleId = (await article.json()).article.id;
  await api.dispose();

  // Off until switched on: the manifest page is not there.
  expect((await page.request.get(`/${path}/gateway/lockss`)).status()).toBe(404);

  await page.goto(`/${path}/editor-dashboard/archive`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Preservation');
  await expect(page.getByText('LOCKSS: off (its manifest page answers 404)', { exact: true })).toBeVisible();
  await page.getByLabel(/^LOCKSS: the page says/).check();
  await page.getByLabel('Preservation crawlers’ addresses').fill('192.0.2.0/33');
  await page.getByRole('button', { name: 'Save preservation settings' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(
    page.getByText('"192.0.2.0/33": a range\'s prefix length is a number from 0 to 32.').first(),
  ).toBeVisible();
  await page.getByLabel('Preservation crawlers’ addresses').fill('192.0.2.0/24');
  await page.getByRole('button', { name: 'Save preservation settings' }).click();
  await expect(page.getByRole('status')).toContainText('The preservation settings are saved.');
  await expect(page.getByLabel(/^LOCKSS: the page says/)).toBeChecked();
  await axe(page);
  await screenshots(page, 'preservation-dashboard');

  // The manifest: the statement, the journal's title, its year, then the year's issue and article.
  await page.getByRole('link', { name: new RegExp(`/${path}/gateway/lockss$`) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByText(PERMISSION_STATEMENTS.lockss)).toBeVisible();
  await axe(page);
  await page.getByRole('link', { name: String(year), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${path}/gateway/lockss\\?year=${year}$`));
  await expect(page.getByRole('link', { name: `Volume 1, issue 1 (${year}): Kept issue` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Preserved findings ${tag}` })).toHaveAttribute(
    'href',
    new RegExp(`/${path}/article/${articleId}$`),
  );
  await expect(page.getByRole('link', { name: 'PDF' })).toHaveAttribute(
    'href',
    new RegExp(`/${path}/api/articles/${articleId}/download$`),
  );
  await expect(page.getByText(PERMISSION_STATEMENTS.lockss)).toBeVisible();
  await axe(page);
  await screenshots(page, 'preservation-manifest');
  // CLOCKSS stays off.
  expect((await page.request.get(`/${path}/gateway/clockss`)).status()).toBe(404);

  // The bag: made a minute after the publication, or at once by "Make again".
  await page.goto(`/${path}/editor-dashboard/archive`);
  const name = `Volume 1, issue 1 (${year})`;
  await page.getByRole('button', { name: `Make the archive package of ${name} again` }).click();
  await expect(page.getByRole('status')).toContainText('The archive package is being made again');
  const link = page.getByRole('link', { name: `Download the archive package of ${name}` });
  await expect(async () => {
    await page.reload();
    await expect(link).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await axe(page);
  await screenshots(page, 'preservation-bag-made');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/-v1-i1\.zip$/);
  const zipPath = await download.path();
  const { bag } = unzipBag(readFileSync(zipPath!));
  expect(checkBag(bag)).toEqual([]);
  expect([...bag.keys()]).toContain(`data/articles/01-article-${articleId}/article.pdf`);
  expect(JSON.parse(bag.get('data/issue.json')!.toString()).journal.title).toBe(title);

  // Moving out (decision 0068): the journal as OJS imports it, from the same page.
  await expect(page.getByRole('heading', { name: 'Export the journal' })).toBeVisible();
  const [exported] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Issues and articles (OJS 3.4 Native XML, files embedded)' }).click(),
  ]);
  expect(exported.suggestedFilename()).toBe('issues.xml');
  const exportedPath = (await exported.path())!;
  expect(readFileSync(exportedPath, 'utf8')).toContain(`Preserved findings ${tag}`);
  // OJS 3.4's own schema (../shared/schemas), as OJS checks an import.
  const valid = spawnSync(path_.resolve('..', 'shared/schemas/validate'), ['ojs', exportedPath, '3.4'], {
    encoding: 'utf8',
  });
  expect(valid.status, `${valid.stdout}${valid.stderr}`).toBe(0);
});
