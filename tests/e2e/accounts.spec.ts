import type { Locator, Page } from '@playwright/test';
import { LINK_PROBLEMS, RESET_DONE_MESSAGE, RESET_REQUESTED_MESSAGE } from '../../common/account.ts';
import { type Outbox, expect, loginThroughApi, test } from './fixtures.ts';

/**
 * The account's life cycle (issue 12): a forgotten password from /login to a new password by e-mail, the
 * account page (details, e-mail address, password, sessions), and the header's Account and Dashboard links.
 */

/** Lets a form reach the server with what the browser would refuse itself: the server's messages show. */
async function skipBrowserValidation(form: Locator) {
  await form.evaluate((el) => el.setAttribute('novalidate', ''));
}

/** The first link of this site in an e-mail (the reset or confirmation link). */
function linkIn(text: string, path: string): string {
  const m = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?token=[\\w-]+`).exec(text);
  if (!m) throw new Error(`no ${path} link in:\n${text}`);
  return m[0];
}

async function resetLink(outbox: Outbox, to: string, seen = 0) {
  await expect
    .poll(
      () => outbox.all().filter((m) => m.to.includes(to) && /Choose a new password/.test(m.subject)).length,
    )
    .toBeGreaterThan(seen);
  const mails = outbox.all().filter((m) => m.to.includes(to) && /Choose a new password/.test(m.subject));
  return linkIn(mails.at(-1)!.text, '/reset-password');
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

test.describe('forgotten password', () => {
  test('from the login page to a new password by e-mail, then the link is spent', async ({
    page,
    createAccount,
    outbox,
    axe,
    screenshots,
  }) => {
    const me = await createAccount('author');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgot your password?');
    await axe(page);
    await screenshots(page, 'accounts-forgot');

    // Nothing typed: the server's message beside the field.
    await skipBrowserValidation(page.locator('form.form'));
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('alert')).toHaveText('Enter your username or email address.');
    await expect(page.getByLabel('Username or email')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Username or email').fill(me.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('status')).toHaveText(RESET_REQUESTED_MESSAGE);
    await axe(page);
    await screenshots(page, 'accounts-forgot-sent');

    const mail = await outbox.waitFor({ to: me.email, subject: 'Choose a new password' });
    expect(mail.text).toContain(`Your username is ${me.username}`);
    expect(mail.text).not.toContain(me.password);
    const link = linkIn(mail.text, '/reset-password');
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
    await expect(page.getByText(`For the account ${me.username}`)).toBeVisible();
    await axe(page);
    await screenshots(page, 'accounts-reset');

    await skipBrowserValidation(page.locator('form.form'));
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('New password must be at least 8 characters.');
    await expect(page.getByLabel('New password')).toHaveValue('');
    await page.getByLabel('New password').fill('');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('New password is required.');
    await axe(page);

    await page.getByLabel('New password').fill('my-new-password-42');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page).toHaveURL('/login?reset=done');
    await expect(page.getByText(RESET_DONE_MESSAGE)).toBeVisible();
    await screenshots(page, 'accounts-login-after-reset');

    // The old password no longer works; the new one does.
    await page.getByLabel('Username').fill(me.username);
    await page.getByLabel('Password').fill(me.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password.');
    await page.getByLabel('Password').fill('my-new-password-42');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);

    // The link worked once.
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link cannot be used');
    await expect(page.getByText(LINK_PROBLEMS.used)).toBeVisible();
    await axe(page);
    await screenshots(page, 'accounts-reset-used');
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await expect(page).toHaveURL('/forgot-password');
  });

  test('an unknown name gets the same answer, and an unknown link a way to ask again', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByLabel('Username or email').fill(`nobody-${Date.now()}@example.org`);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('status')).toHaveText(RESET_REQUESTED_MESSAGE);

    await page.goto('/reset-password?token=not-a-real-link');
    await expect(page.getByText(LINK_PROBLEMS.unknown)).toBeVisible();
    await page.goto('/reset-password');
    await expect(page.getByText(LINK_PROBLEMS.unknown)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  test('works without JavaScript', async ({ noJsPage: page, createAccount, outbox, axe }) => {
    const me = await createAccount('researcher');
    await page.goto('/forgot-password');
    await page.getByLabel('Username or email').fill(me.username);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('status')).toHaveText(RESET_REQUESTED_MESSAGE);
    await page.goto(await resetLink(outbox, me.email));
    await page.getByLabel('New password').fill('no-script-password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page).toHaveURL('/login?reset=done');
    await axe(page);
    await page.getByLabel('Username').fill(me.username);
    await page.getByLabel('Password').fill('no-script-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);
  });
});

test.describe('my account', () => {
  test('is reached from the header and sends a signed-out visitor to log in', async ({ page, signIn }) => {
    const response = await page.goto('/account');
    await expect(page).toHaveURL('/login?redirectTo=%2Faccount');
    expect(response?.status()).toBe(200);
    const me = await signIn('researcher');
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
    await expect(page).toHaveURL('/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
    await expect(page.getByText(`Signed in as ${me.username}`)).toBeVisible();
    // Researchers and authors have no Dashboard link.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  });

  test('details: each refusal beside its field, then saved with an ORCID iD', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('author');
    await page.goto('/account');
    await axe(page);
    await screenshots(page, 'accounts-account');
    const details = section(page, 'Your details');
    await skipBrowserValidation(details.locator('form'));
    await details.getByLabel('Full name').fill('');
    await details.getByLabel('Institution').fill(' ');
    await details.getByLabel('Contact number').fill('call me maybe');
    await details.getByLabel('ORCID iD (optional)').fill('0000-0002-1825');
    await details.getByRole('button', { name: 'Save your details' }).click();
    const alert = details.getByRole('alert');
    await expect(alert).toContainText('Please correct the 4 fields below:');
    for (const message of [
      'Full name is required.',
      'Institution is required.',
      'Contact number must be a phone number.',
      'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).',
    ]) {
      await expect(alert.getByRole('link', { name: message })).toBeVisible();
    }
    await expect(details.getByLabel('Contact number')).toHaveValue('call me maybe');
    await axe(page);
    await screenshots(page, 'accounts-account-details-errors');

    await details.getByLabel('Full name').fill('Grace Hopper');
    await details.getByLabel('Institution').fill('Yale University');
    await details.getByLabel('Contact number').fill('+1 203 432 4771');
    await details.getByLabel('ORCID iD (optional)').fill('0000-0002-1825-0098');
    await details.getByRole('button', { name: 'Save your details' }).click();
    await expect(details.getByRole('alert')).toHaveText(
      'This ORCID iD has a wrong check digit: copy it from your ORCID record.',
    );
    await details.getByLabel('ORCID iD (optional)').fill('https://orcid.org/0000-0002-1825-0097');
    await details.getByRole('button', { name: 'Save your details' }).click();
    await expect(details.getByRole('status')).toHaveText('Your details are saved.');
    await expect(details.getByLabel('ORCID iD (optional)')).toHaveValue('0000-0002-1825-0097');
    await page.reload();
    await expect(section(page, 'Your details').getByLabel('Full name')).toHaveValue('Grace Hopper');
  });

  test('email address: confirmed from the new address, the old one told, each refusal shown', async ({
    page,
    signIn,
    createAccount,
    outbox,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const other = await createAccount('researcher');
    await page.goto('/account');
    const email = section(page, 'Email address');
    await expect(email).toContainText(`The journal writes to ${me.email}.`);
    const ask = async (address: string, password: string) => {
      // Each answer draws the form anew (passwords are never sent back): ask the browser again each time.
      await skipBrowserValidation(email.locator('form'));
      await email.getByLabel('New email').fill(address);
      await email.getByLabel('Your current password').fill(password);
      await email.getByRole('button', { name: 'Send a confirmation link' }).click();
    };
    await ask('not an address', me.password);
    await expect(email.getByRole('alert')).toHaveText('New email must be a valid email address.');
    await ask(`fresh-${me.username}@example.net`, 'not-my-password');
    await expect(email.getByRole('alert')).toHaveText('Your current password is not right.');
    await ask(other.email, me.password);
    await expect(email.getByRole('alert')).toHaveText('An account with that email address already exists.');
    await ask(me.email, me.password);
    await expect(email.getByRole('alert')).toHaveText('That is already your email address.');
    await ask(`fresh-${me.username}@example.net`, '');
    await expect(email.getByRole('alert')).toHaveText('Enter your current password.');
    await axe(page);

    const fresh = `fresh-${me.username}@example.net`;
    await ask(fresh, me.password);
    await expect(email.getByRole('status')).toContainText(`We have sent a link to ${fresh}.`);
    await page.reload();
    await expect(section(page, 'Email address')).toContainText(`Waiting for confirmation: ${fresh}`);
    await expect(section(page, 'Email address')).toContainText(`The journal writes to ${me.email}.`);
    await screenshots(page, 'accounts-account-email-pending');
    const told = await outbox.waitFor({ to: me.email, subject: 'e-mail address was requested' });
    expect(told.text).toContain(fresh);

    const confirm = await outbox.waitFor({ to: fresh, subject: 'Confirm your new e-mail address' });
    await page.goto(linkIn(confirm.text, '/account/email/confirm'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your new email address');
    await axe(page);
    await screenshots(page, 'accounts-email-confirm');
    await page.getByRole('button', { name: 'Confirm this address' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Email address confirmed');
    await expect(page.getByRole('status')).toHaveText(`Your account's email address is now ${fresh}.`);
    await outbox.waitFor({ to: me.email, subject: 'e-mail address was changed' });
    await page.goto('/account');
    await expect(section(page, 'Email address')).toContainText(`The journal writes to ${fresh}.`);

    await page.goto(linkIn(confirm.text, '/account/email/confirm'));
    await expect(page.getByText(LINK_PROBLEMS.used)).toBeVisible();
    await axe(page);
  });

  test('password: the current one required, the other sessions signed out', async ({
    page,
    signIn,
    baseURL,
    request,
    axe,
    screenshots,
  }) => {
    const me = await signIn('author');
    const elsewhere = await loginThroughApi(baseURL!, me.username, me.password);
    await page.goto('/account');
    const password = section(page, 'Password');
    await skipBrowserValidation(password.locator('form'));
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByRole('alert')).toContainText('Please correct the 2 fields below:');
    await expect(password.getByRole('link', { name: 'Enter your current password.' })).toBeVisible();
    await expect(password.getByRole('link', { name: 'New password is required.' })).toBeVisible();
    await skipBrowserValidation(password.locator('form'));
    await password.getByLabel('Current password').fill(me.password);
    await password.getByLabel('New password').fill('short');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByRole('alert')).toHaveText('New password must be at least 8 characters.');
    await expect(password.getByLabel('Current password')).toHaveValue('');
    await password.getByLabel('Current password').fill('not-my-password');
    await password.getByLabel('New password').fill('a-much-better-password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByRole('alert')).toHaveText('Your current password is not right.');
    await axe(page);
    await screenshots(page, 'accounts-account-password-error');

    await password.getByLabel('Current password').fill(me.password);
    await password.getByLabel('New password').fill('a-much-better-password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByRole('status')).toHaveText(
      'Your password has been changed, and your other session has been signed out.',
    );
    const other = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${elsewhere}` } });
    expect(other.status()).toBe(401);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
    await loginThroughApi(baseURL!, me.username, 'a-much-better-password');
  });

  test('sessions: this browser marked, another ended, then everywhere else', async ({
    page,
    signIn,
    baseURL,
    request,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const first = await loginThroughApi(baseURL!, me.username, me.password);
    const second = await loginThroughApi(baseURL!, me.username, me.password);
    await page.goto('/account#sessions');
    const sessions = section(page, 'Where you are signed in');
    const items = sessions.getByRole('listitem');
    await expect(items).toHaveCount(3);
    await expect(sessions.getByText('This browser')).toHaveCount(1);
    await expect(sessions.getByRole('button', { name: 'Log out' })).toHaveCount(1);
    await axe(page);
    await screenshots(page, 'accounts-account-sessions');

    await sessions
      .getByRole('button', { name: /^End this session/ })
      .first()
      .click();
    await expect(sessions.getByRole('status')).toHaveText(
      'The session has ended: that browser is signed out.',
    );
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await sessions.getByRole('button', { name: 'Sign out everywhere else (one other session)' }).click();
    await expect(sessions.getByRole('status')).toHaveText('One other session has ended.');
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByText('You are signed in nowhere else.')).toBeVisible();
    for (const token of [first, second]) {
      const res = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status()).toBe(401);
    }
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);
  });

  test('works without JavaScript', async ({ noJsPage: page, signIn, axe }) => {
    await signIn('researcher', 'approved', page);
    await page.goto('/account');
    const details = section(page, 'Your details');
    await details.getByLabel('Institution').fill('Institute Without Scripts');
    await details.getByRole('button', { name: 'Save your details' }).click();
    await expect(section(page, 'Your details').getByRole('status')).toHaveText('Your details are saved.');
    await expect(section(page, 'Your details').getByLabel('Institution')).toHaveValue(
      'Institute Without Scripts',
    );
    await axe(page);
  });
});

test.describe('editors and admins', () => {
  test('have a Dashboard link, and the pending list link says how many wait', async ({
    page,
    signIn,
    createAccount,
    axe,
    screenshots,
  }) => {
    await createAccount('researcher', 'pending');
    await signIn('editor');
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: 'Account' })).toBeVisible();
    await banner.getByRole('link', { name: 'Dashboard' }).click();
    // The dashboard opens at the submissions desk (issue 22).
    await expect(page).toHaveURL('/editor-dashboard/submissions');
    await expect(banner.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    const pending = page
      .getByRole('navigation', { name: 'Dashboard sections' })
      .getByRole('link', { name: /^Pending users \d+ waiting$/ });
    await expect(pending).toBeVisible();
    const waiting = Number(((await pending.textContent()) ?? '').replace(/\D/g, ''));
    expect(waiting).toBeGreaterThanOrEqual(1);
    await axe(page);
    await screenshots(page, 'accounts-dashboard-count');
  });

  test('the admin finds the daily digest setting, on by default', async ({ page, signIn, screenshots }) => {
    await signIn('admin');
    await page.goto('/editor-dashboard/settings');
    const digest = page.getByRole('checkbox', {
      name: 'E-mail editors a daily digest of accounts waiting for approval',
    });
    await expect(digest).toBeChecked();
    await digest.scrollIntoViewIfNeeded();
    await screenshots(page, 'accounts-settings-digest');
  });
});
