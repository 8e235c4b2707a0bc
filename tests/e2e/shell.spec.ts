import type { Page } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { registrationNotice } from '../../server/accounts/notices.ts';
import { SESSION_COOKIE, SHORT_SESSION_TTL_SECONDS, SHORT_TTL_SERVER, expect, test } from './fixtures.ts';

/**
 * The site's shell (spec sections 2, 4 and 8): header, footer, Journal Menu, home page, login, registration,
 * logout, session expiry, the 404 page, keyboard access and the pages without JavaScript.
 */

const SIGNED_OUT_LINKS = [
  ['Home', '/'],
  ['About', '/about'],
  ['Volumes', '/volumes'],
  ['Submit', '/submission'],
  ['Contact', '/contact'],
  ['Login', '/login'],
  ['Register', '/regist'],
];

const JOURNAL_MENU_LINKS = [
  ['Journal Overview', '/overview'],
  ['Indexing & Abstracting', '/indexing'],
  ['Editorial Board', '/editorial-board'],
  ['Instructions for Authors', '/instructions'],
  ['Article Processing Charge', '/apc'],
  ['Publication Ethics', '/ethics'],
  ['Contact', '/contact'],
  ['Special Issues (open)', '/open-special-issues'],
  ['Volumes', '/volumes'],
];

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function linksOf(nav: ReturnType<Page['getByRole']>) {
  const links = nav.getByRole('link');
  const names = await links.allInnerTexts();
  const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
  return names.map((name, i) => [name.trim(), hrefs[i]]);
}

async function expectSignedOutHeader(page: Page) {
  await expect(mainNav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'Register', exact: true })).toBeVisible();
  await expect(page.getByRole('banner')).not.toContainText('Welcome,');
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
}

/** Fills the registration form; `role` is the radio's label. */
async function fillRegistration(
  page: Page,
  values: { username: string; password?: string; email?: string; role?: 'Researcher' | 'Author' },
) {
  await page.getByLabel('Username').fill(values.username);
  await page.getByLabel('Password').fill(values.password ?? 'a-long-password');
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(values.email ?? `${values.username}@example.org`);
  await page.getByLabel('Contact number').fill('+91 44 2345 6789');
  await page.getByLabel('Institution').fill('Analytical Engines Institute');
  // Each option's label is stretched over its whole tile, radio included, so Playwright sees the label
  // "intercept" the click; a click on the radio's spot lands on that label and checks the radio all the same.
  await page.getByRole('radio', { name: values.role ?? 'Researcher' }).check();
}

const freshName = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Lets the form reach the server with what the browser would otherwise refuse (empty required fields, a
 * malformed e-mail): the server's messages are what a browser without constraint validation shows.
 */
async function skipBrowserValidation(page: Page) {
  await page
    .getByRole('button', { name: 'Register', exact: true })
    .evaluate((button) => (button as HTMLButtonElement).form?.setAttribute('novalidate', ''));
}

test.describe('header and footer', () => {
  test('signed out, the header has the spec links in order', async ({ page }) => {
    await page.goto('/');
    expect(await linksOf(mainNav(page))).toEqual(SIGNED_OUT_LINKS);
    await expect(mainNav(page).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  });

  test('signed in, the header welcomes the user and offers Logout', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    await page.goto('/');
    expect(await linksOf(mainNav(page))).toEqual([...SIGNED_OUT_LINKS.slice(0, 5), ['Account', '/account']]);
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await axe(page);
    await screenshots(page, 'home-signed-in');
  });

  test('the footer has the publisher line and the copyright line with this year', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(/Published by \S.+, .*India/);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} `);
    await expect(footer.getByRole('link', { name: 'CC BY 4.0' })).toHaveAttribute('rel', 'license');
  });
});

test.describe('home page', () => {
  test('hero, indexing, Journal Menu and five Latest Articles cards', async ({ page, axe, screenshots }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Journal/);
    await expect(page.getByRole('main')).toContainText('open-access');

    await expect(page.getByRole('region', { name: 'Indexing and Abstracting' })).toContainText(
      'YET TO BE RELEASED',
    );
    expect(await linksOf(page.getByRole('navigation', { name: 'Journal Menu' }))).toEqual(JOURNAL_MENU_LINKS);

    const cards = page.getByRole('region', { name: 'Latest Articles' }).getByRole('listitem');
    await expect(cards).toHaveCount(5);
    for (const card of await cards.all()) {
      // Other tests publish into the shared server, so the five latest are any volume's and issue's.
      await expect(card).toContainText(/Volume \d+, Issue \d+/);
      await expect(card).toContainText('Read More');
      await expect(card.getByRole('link')).toHaveCount(1);
      await expect(card.getByRole('link')).toHaveAttribute('href', /^\/article\/\d+$/);
    }
    await axe(page);
    await screenshots(page, 'home');
  });

  test('clicking anywhere on a card opens its article', async ({ page }) => {
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Latest Articles' }).getByRole('listitem').nth(2);
    const href = await card.getByRole('link').getAttribute('href');
    // Where a reader would click: the authors line, below the title link (the link covers the card).
    await card.scrollIntoViewIfNeeded();
    const box = (await card.getByRole('article').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.7);
    await expect(page).toHaveURL(href!);
  });

  test('/home is the home page too', async ({ page }) => {
    const response = await page.goto('/home');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('region', { name: 'Latest Articles' }).getByRole('listitem')).toHaveCount(5);
    await expect(page.getByRole('navigation', { name: 'Journal Menu' })).toBeVisible();
  });
});

test.describe('login', () => {
  test('a wrong password shows the spec message in an alert', async ({
    page,
    createAccount,
    axe,
    screenshots,
  }) => {
    const account = await createAccount('researcher');
    await page.goto('/login');
    await axe(page);
    await screenshots(page, 'login');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.invalidLogin);
    await expect(page.getByRole('alert')).toBeFocused();
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(page.getByLabel('Username')).toHaveValue(account.username);
    await axe(page);
    await screenshots(page, 'login-error');
  });

  test('an unknown user gets the same message', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Username').fill(freshName('nobody'));
    await page.getByLabel('Password').fill('whatever-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.invalidLogin);
  });

  test('a researcher lands on the home page, signed in', async ({ page, createAccount }) => {
    const account = await createAccount('researcher', 'pending');
    await page.goto('/login');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${account.username}`);
  });

  for (const role of ['editor', 'admin'] as const) {
    test(`an ${role} lands on the editor dashboard`, async ({ page, createAccount }) => {
      const account = await createAccount(role);
      await page.goto('/login');
      await page.getByLabel('Username').fill(account.username);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      // The dashboard is built elsewhere; until then it may be the 404 page: the address is the point.
      // Into the dashboard, which opens at the submissions desk (issue 22).
      await expect(page).toHaveURL('/editor-dashboard/submissions');
    });
  }
});

test.describe('registration', () => {
  test('a complete form registers the account and shows the approval notice', async ({
    page,
    axe,
    screenshots,
  }) => {
    await page.goto('/regist');
    await axe(page);
    await screenshots(page, 'regist');
    await fillRegistration(page, { username: freshName('reg'), role: 'Author' });
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText(MESSAGES.registrationNotice);
    await axe(page);
    await screenshots(page, 'regist-success');
  });

  test('an empty form gets every required-field message, each tied to its field', async ({
    page,
    axe,
    screenshots,
  }) => {
    await page.goto('/regist');
    await skipBrowserValidation(page);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Please correct the 7 fields below:');
    const expected: [string, string][] = [
      ['Username', 'Username is required.'],
      ['Password', 'Password is required.'],
      ['Full name', 'Full name is required.'],
      ['Email', 'Email is required.'],
      ['Contact number', 'Contact number is required.'],
      ['Institution', 'Institution is required.'],
    ];
    for (const [label, message] of expected) {
      await expect(alert.getByRole('link', { name: message })).toBeVisible();
      await expect(page.getByLabel(label)).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
      await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    }
    const roleMessage = 'Role is required: choose researcher or author.';
    await expect(alert.getByRole('link', { name: roleMessage })).toBeVisible();
    // The summary reads in the form's order, so it can be worked through top to bottom.
    await expect(alert.getByRole('link')).toHaveText([
      ...expected.map(([, message]) => message),
      roleMessage,
    ]);
    await expect(page.getByRole('radio', { name: 'Researcher' })).toHaveAccessibleDescription(
      new RegExp(escapeRegExp(roleMessage)),
    );
    await axe(page);
    await screenshots(page, 'regist-errors');
  });

  const invalid: { field: string; label: string; value: string; message: string }[] = [
    { field: 'username', label: 'Username', value: 'ab', message: 'Username must be at least 3 characters.' },
    {
      field: 'username',
      label: 'Username',
      value: 'two words',
      message: 'Username may contain only letters, digits, dots, hyphens and underscores.',
    },
    {
      field: 'password',
      label: 'Password',
      value: 'short',
      message: 'Password must be at least 8 characters.',
    },
    {
      field: 'email',
      label: 'Email',
      value: 'not-an-address',
      message: 'Email must be a valid email address.',
    },
    {
      field: 'contactNumber',
      label: 'Contact number',
      value: 'call me',
      message: 'Contact number must be a phone number.',
    },
  ];
  for (const { field, label, value, message } of invalid) {
    test(`${field} "${value}" is refused: ${message}`, async ({ page }) => {
      await page.goto('/regist');
      await fillRegistration(page, { username: freshName('inv') });
      await page.getByLabel(label).fill(value);
      await skipBrowserValidation(page);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await expect(page.getByRole('alert')).toHaveText(message);
      await expect(page.getByLabel(label)).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
      // What was typed stays, except the password.
      await expect(page.getByLabel('Institution')).toHaveValue('Analytical Engines Institute');
      await expect(page.getByLabel('Password')).toHaveValue('');
    });
  }

  test('a taken username is refused with 409 and the server message', async ({ page, createAccount }) => {
    const existing = await createAccount('author');
    await page.goto('/regist');
    await fillRegistration(page, { username: existing.username, email: `${freshName('other')}@example.org` });
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/regist'),
    );
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    expect((await answered).status()).toBe(409);
    await expect(page.getByRole('alert')).toHaveText('That username is already taken.');
    await expect(page.getByLabel('Username')).toHaveAccessibleDescription(/That username is already taken\./);
  });
});

test.describe('logout', () => {
  test('logging out restores Login/Register and ends the session on the server', async ({
    page,
    signIn,
    request,
    context,
  }) => {
    const me = await signIn('author');
    await page.goto('/regist');
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expectSignedOutHeader(page);
    expect((await context.cookies()).filter((c) => c.name === SESSION_COOKIE && c.value)).toEqual([]);

    const old = await request.get('/api/auth/me', { headers: { cookie: `${SESSION_COOKIE}=${me.token}` } });
    expect(old.status()).toBe(401);
  });
});

test.describe('session expiry', () => {
  test.use({ baseURL: SHORT_TTL_SERVER.url });

  test('when the session expires the page goes to /home, signed out', async ({ page, signIn }) => {
    test.setTimeout((SHORT_SESSION_TTL_SECONDS + 40) * 1000);
    const me = await signIn('researcher');
    await page.goto('/regist');
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);
    // The page leaves on its own timer at the expiry (plus a second's grace); nothing is clicked.
    await expect(page).toHaveURL('/home', { timeout: (SHORT_SESSION_TTL_SECONDS + 10) * 1000 });
    await expectSignedOutHeader(page);
  });
});

test.describe('404 page', () => {
  test('an unknown address answers 404 with the spec text and a way home', async ({
    page,
    axe,
    screenshots,
  }) => {
    const response = await page.goto('/no-such-page/anywhere');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('main')).toContainText(MESSAGES.notFound);
    const home = page.getByRole('main').getByRole('link', { name: 'Go to the home page' });
    await expect(home).toHaveAttribute('href', '/');
    await axe(page);
    await screenshots(page, '404');
    await home.click();
    await expect(page).toHaveURL('/');
  });
});

test.describe('keyboard', () => {
  test('the first Tab stop is the skip link, and it moves focus to the main content', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab continues inside the main content, not back in the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
  });
});

test.describe('without JavaScript', () => {
  test('the home page renders in full', async ({ noJsPage: page, axe }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Latest Articles' }).getByRole('listitem')).toHaveCount(5);
    expect(await linksOf(mainNav(page))).toEqual(SIGNED_OUT_LINKS);
    await axe(page);
  });

  test('the login form signs in, and a wrong password gets the alert', async ({
    noJsPage: page,
    createAccount,
    axe,
  }) => {
    const account = await createAccount('researcher');
    await page.goto('/login');
    await axe(page);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGES.invalidLogin);

    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${account.username}`);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expectSignedOutHeader(page);
  });

  test('the registration form registers, and a taken username is refused', async ({
    noJsPage: page,
    createAccount,
    axe,
  }) => {
    await page.goto('/regist');
    await axe(page);
    await fillRegistration(page, { username: freshName('nojs') });
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    // A researcher's notice: the authors' sentence about uploading is not theirs (issue 22).
    await expect(page.getByRole('status')).toHaveText(registrationNotice('researcher'));

    const existing = await createAccount('researcher');
    await page.goto('/regist');
    await fillRegistration(page, { username: existing.username, email: `${freshName('x')}@example.org` });
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('That username is already taken.');
    await axe(page);
  });
});

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
