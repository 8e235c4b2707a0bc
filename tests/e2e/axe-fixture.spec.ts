import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The `axe` fixture itself (fixtures.ts): it puts axe-core into a page once per document and runs `axe.run`,
 * instead of AxeBuilder's default (which sends axe twice and opens a blank page per check). Here it must still
 * fail on what axe finds, on a second check of the same document, with `exclude` and `disableRules` leaving out
 * only what they name, on a page without JavaScript, and on a page with a frame (AxeBuilder's own way then).
 */
const BROKEN = `<!doctype html><html lang="en"><head><title>A page with two faults</title></head>
<body><main><h1>A page with two faults</h1><img src="/favicon.ico" class="no-alt"><a href="/about" class="empty"></a></main></body></html>`;

/** Serves BROKEN at an address of the test's server, so that the page (and a script-free copy) has an origin. */
async function openBroken(page: Page, where: string) {
  await page.route(`**${where}`, (route) =>
    route.fulfill({ body: BROKEN, contentType: 'text/html; charset=utf-8' }),
  );
  await page.goto(where);
}

/** The fixture's failure message (it fails through `expect`), or '' when it passed. */
async function failure(check: Promise<void>): Promise<string> {
  try {
    await check;
    return '';
  } catch (err) {
    return String((err as Error).message);
  }
}

test('the axe fixture fails on each violation, again on the same page, and leaves out only what it is told to', async ({
  page,
  axe,
}) => {
  await openBroken(page, '/axe-check-broken');
  const first = await failure(axe(page));
  expect(first).toContain('image-alt (critical)');
  expect(first).toContain('Images must have alternative text at img');
  expect(first).toContain('link-name (serious)');
  // Checked again on the same document (axe is in the page already): the same findings.
  const second = await failure(axe(page));
  expect(second).toContain('image-alt (critical)');
  expect(second).toContain('link-name (serious)');

  const excluded = await failure(axe(page, { exclude: ['img.no-alt'] }));
  expect(excluded).not.toContain('image-alt');
  expect(excluded).toContain('link-name (serious)');
  const disabled = await failure(axe(page, { disableRules: ['link-name'] }));
  expect(disabled).toContain('image-alt (critical)');
  expect(disabled).not.toContain('link-name');
  await axe(page, { exclude: ['img.no-alt'], disableRules: ['link-name'] });

  // A page that is fine passes.
  await page.goto('/login');
  await axe(page);
});

test('the axe fixture checks a page without JavaScript, and a page with a frame', async ({
  noJsPage,
  page,
  axe,
}) => {
  await openBroken(noJsPage, '/axe-check-no-js');
  const found = await failure(axe(noJsPage));
  expect(found).toContain('image-alt (critical)');
  expect(found).toContain('link-name (serious)');

  // A page with a frame: checked AxeBuilder's own way, with the same findings.
  const framed = BROKEN.replace('<img', '<iframe title="An inner page" srcdoc="<p>Inside</p>"></iframe><img');
  await page.route('**/axe-check-frame', (route) =>
    route.fulfill({ body: framed, contentType: 'text/html; charset=utf-8' }),
  );
  await page.goto('/axe-check-frame');
  expect(page.frames()).toHaveLength(2);
  const withFrame = await failure(axe(page));
  expect(withFrame).toContain('image-alt (critical)');
  expect(withFrame).toContain('link-name (serious)');
});
