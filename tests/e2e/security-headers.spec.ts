import { createHash } from 'node:crypto';
import type { Page, Response } from '@playwright/test';
import { type Role, expect, test } from './fixtures.ts';

// Every page type carries its security headers, its scripts run by the response's nonce, and it hydrates under
// the policy (a client-side navigation works). The automatic `cspGuard` fixture fails any of these (and every
// other spec) on a CSP violation. Decision 0015.

const PRIVATE = 'private, no-store';

/** Headers every page carries, and the page policy: this response's nonce, or a kept page's script hashes. */
function checkPageHeaders(
  response: Response,
  cacheControl: string | undefined,
  kept: boolean,
): { nonce?: string; hashes?: string[] } {
  const h = response.headers();
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(h['x-frame-options']).toBe('DENY');
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'interest-cohort']) {
    expect(h['permissions-policy']).toContain(`${feature}=()`);
  }
  // The e2e servers are plain http: no HSTS.
  expect(h['strict-transport-security']).toBeUndefined();
  expect(h['cache-control'], `cache-control of ${response.url()}`).toBe(cacheControl);

  const policy = h['content-security-policy'] ?? '';
  const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'(;|$)/.exec(policy)?.[1];
  // A kept page (decision 0018) is shared: its inline scripts are allowed by hash, not by a nonce.
  const hashes = /script-src 'self'((?: 'sha256-[A-Za-z0-9+/=]+')+)(;|$)/.exec(policy)?.[1].trim().split(' ');
  if (kept) expect(hashes, `script hashes in "${policy}"`).toBeTruthy();
  else expect(nonce, `a script nonce in "${policy}"`).toBeTruthy();
  for (const directive of [
    "default-src 'self'",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]) {
    expect(policy).toContain(directive);
  }
  expect(policy).not.toContain('unsafe');
  return kept ? { hashes: hashes! } : { nonce: nonce! };
}

/**
 * Every script and module preload in the HTML carries the nonce, or (a kept page) every inline script is
 * allowed by its hash and every script file is the site's own; no inline handlers or style attributes.
 */
async function checkMarkup(response: Response, allowed: { nonce?: string; hashes?: string[] }) {
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({
    attrs: m[1],
    body: m[2],
  }));
  const executable = scripts.filter(({ attrs }) => !/type="application\/ld\+json"/.test(attrs));
  expect(executable.length).toBeGreaterThan(0);
  const preloads = [...html.matchAll(/<link\b([^>]*rel="modulepreload"[^>]*)>/g)].map((m) => m[1]);
  if (allowed.nonce) {
    for (const { attrs } of executable) expect(attrs).toContain(`nonce="${allowed.nonce}"`);
    for (const attrs of preloads) expect(attrs).toContain(`nonce="${allowed.nonce}"`);
  } else {
    for (const { attrs, body } of executable) {
      const src = /\ssrc="([^"]*)"/.exec(attrs)?.[1];
      if (src) expect(src.startsWith('/'), src).toBe(true);
      else expect(allowed.hashes).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
    for (const attrs of preloads) expect(/href="\//.test(attrs), attrs).toBe(true);
  }
  // Tags only: text is escaped, so every `<` in the document starts a tag.
  expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/<[a-z][^>]*\sstyle\s*=/i);
}

/** The page is hydrated: React has claimed the header's links. */
async function hydrated(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const link = document.querySelector('header a[href="/about"]');
        return Boolean(link && Object.keys(link).some((key) => key.startsWith('__reactProps$')));
      }),
    )
    .toBe(true);
}

/** A client-side navigation: the same document (a marker set on window survives), the next page shown. */
async function navigatesInPage(page: Page) {
  await hydrated(page);
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
}

/** Reader pages the server keeps (decision 0018): for everyone signed out, per session when signed in. */
const KEPT = new Set(['/', `/article/1`, '/volumes', '/search?q=LoRaWAN']);
const PUBLIC = 'public, max-age=60, stale-while-revalidate=600';

async function visit(page: Page, path: string, cacheControl: string | undefined, status = 200) {
  const response = await page.goto(path);
  expect(response, path).not.toBeNull();
  expect(response!.status(), path).toBe(status);
  const kept = KEPT.has(path);
  const allowed = checkPageHeaders(
    response!,
    kept && cacheControl === undefined ? PUBLIC : cacheControl,
    kept,
  );
  await checkMarkup(response!, allowed);
  await navigatesInPage(page);
}

/** The first demo article (seeded; specs never change the demo articles). */
const DEMO_ARTICLE = 1;

test.describe('security headers on every page type', () => {
  test('public pages, signed out: the page policy; reader pages kept and public, others left alone', async ({
    page,
  }) => {
    for (const path of ['/', `/article/${DEMO_ARTICLE}`, '/volumes', '/search?q=LoRaWAN', '/contact']) {
      await visit(page, path, undefined);
    }
    await visit(page, '/no-such-page', undefined, 404);
  });

  test('account pages are private even signed out: login, regist', async ({ page }) => {
    await visit(page, '/login', PRIVATE);
    await visit(page, '/regist', PRIVATE);
  });

  test('a signed-in reader: every page is private', async ({ page, signIn }) => {
    await signIn('researcher');
    for (const path of ['/', `/article/${DEMO_ARTICLE}`, '/volumes', '/contact', '/plagiarism']) {
      await visit(page, path, PRIVATE);
    }
  });

  test("an author's pages: submission, my submissions, plagiarism", async ({ page, signIn }) => {
    await signIn('author');
    for (const path of ['/submission', '/my-submissions', '/plagiarism']) await visit(page, path, PRIVATE);
  });

  for (const [role, sections] of [
    [
      'editor',
      ['', '/submissions', '/volumes', '/articles', '/messages', '/content', '/content/about', '/audit'],
    ],
    ['admin', ['/users', '/settings', '/content/editorial-board', '/content/special-issues']],
  ] as [Role, string[]][]) {
    test(`the dashboard's sections for an ${role}`, async ({ page, signIn }) => {
      await signIn(role);
      for (const section of sections) await visit(page, `/editor-dashboard${section}`, PRIVATE);
    });
  }

  test('static assets: nosniff, the minimal policy, their long caching kept for a signed-in reader', async ({
    page,
    signIn,
  }) => {
    await signIn('researcher');
    const response = await page.goto('/');
    const html = await response!.text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1];
    const res = await page.request.get(asset);
    expect(res.status()).toBe(200);
    const h = res.headers();
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(h['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('/api/docs renders under its own policy, styled, with nothing refused', async ({ page }) => {
    const response = await page.goto('/api/docs');
    expect(response!.status()).toBe(200);
    const h = response!.headers();
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('API reference');
    // Its inline stylesheet applied: the method badges are coloured.
    const badge = page.getByText('GET', { exact: true }).first();
    await expect(badge).toHaveCSS('color', 'rgb(255, 255, 255)');
  });
});
