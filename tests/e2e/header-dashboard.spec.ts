import { randomBytes } from 'node:crypto';
import { MONTHS } from '../../common/dates.ts';
import { expect, loginThroughApi, test } from './fixtures.ts';
import { bearer, inviteByApi, ok, underReview, uniqueTag } from './review-helpers.ts';

/**
 * Issue 22, item 9, seen from outside: the header's links for reviewers and its one line for an editor with a
 * long name, the dashboard's front door and its clean addresses, the issue forms' month and their messages,
 * the registration notice for researchers (decision 0039).
 */

const WIDTHS = [1280, 390] as const;

test.describe('the header', () => {
  test('a reviewer with no open review still has a Reviews link', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const author = await createAccount('author');
    const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
    const manuscript = await underReview(adminApi, authorToken, { title: `Reviewer link ${uniqueTag()}` });
    const assignment = await inviteByApi(adminApi, manuscript.id, { userId: me.id });
    // Declined: nothing waits for them now, but they are a reviewer of the journal.
    await ok(
      page.request.post(`/api/reviews/${assignment}/decline`, {
        headers: bearer(me.token),
        data: { reason: 'too-busy' },
      }),
    );
    await page.goto('/');
    const banner = page.getByRole('banner');
    const reviews = banner.getByRole('link', { name: 'Reviews', exact: true });
    await expect(reviews).toBeVisible();
    await reviews.click();
    await expect(page).toHaveURL('/reviews');
    await expect(reviews).toHaveAttribute('aria-current', 'page');
    await screenshots(page, 'header-reviewer');
  });

  test("an editor's header keeps to one line with a long username, the name cut with its whole in a title", async ({
    page,
    adminApi,
    baseURL,
    context,
    screenshots,
  }) => {
    // The longest username there may be (40 characters): registered, then made an approved editor by the admin.
    const username = `ed_${randomBytes(20).toString('hex')}`.slice(0, 40);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await ok(
      page.request.post('/api/auth/register', {
        data: {
          username,
          password,
          email: `${username}@example.org`,
          fullName: 'Long Name Editor',
          contactNumber: '+91 44 1234 5678',
          institution: 'Test Institute of Technology',
          role: 'researcher',
        },
      }),
    );
    const { users } = await ok(adminApi.get('/api/admin/users', { params: { q: username } }));
    const id = (users as { id: number; username: string }[]).find((u) => u.username === username)!.id;
    await ok(adminApi.patch(`/api/admin/users/${id}`, { data: { role: 'editor', status: 'approved' } }));
    const token = await loginThroughApi(baseURL!, username, password);
    await context.addCookies([{ name: 'colophon_session', value: token, url: baseURL! }]);

    const middle = async (l: import('@playwright/test').Locator) => {
      const b = (await l.boundingBox())!;
      return Math.round(b.y + b.height / 2);
    };
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/editor-dashboard/volumes');
      const nav = page.getByRole('navigation', { name: 'Main' });
      const welcome = nav.getByText(/^Welcome, /);
      await expect(welcome).toHaveAttribute('title', username);
      const logout = nav.getByRole('button', { name: 'Logout' });
      // The name is cut to fit, on one line, beside the Logout button.
      const cut = await welcome.evaluate((el) => ({
        cut: el.scrollWidth > el.clientWidth,
        lines: el.getBoundingClientRect().height < 2 * Number.parseFloat(getComputedStyle(el).fontSize) ? 1 : 2,
      }));
      expect(cut, `${width}px`).toEqual({ cut: true, lines: 1 });
      expect(Math.abs((await middle(welcome)) - (await middle(logout))), `${width}px`).toBeLessThanOrEqual(6);
      // Nothing runs past the page's edge.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${width}px`).toBeLessThanOrEqual(0);
      if (width === 1280) {
        // At 1280 px the whole header's navigation is one line: main links, the account's links, name, Logout.
        const line = await middle(nav.getByRole('link', { name: 'Home' }));
        for (const item of [
          nav.getByRole('link', { name: 'Contact' }),
          nav.getByRole('link', { name: 'Dashboard' }),
          nav.getByRole('link', { name: 'My submissions' }),
          nav.getByRole('link', { name: 'Account' }),
          welcome,
          logout,
        ]) {
          expect(Math.abs((await middle(item)) - line), `${await item.textContent()}`).toBeLessThanOrEqual(6);
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshots(page, 'header-long-editor');
  });
});

test.describe('the editorial dashboard', () => {
  test('an editor signing in lands on Submissions, which says how many need attention', async ({
    page,
    createAccount,
    screenshots,
  }) => {
    const account = await createAccount('editor');
    await page.goto('/login');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL('/editor-dashboard/submissions');
    await expect(page.getByRole('heading', { level: 1, name: 'Submissions' })).toBeVisible();
    const sections = page.getByRole('navigation', { name: 'Dashboard sections' });
    // The demo journal and the other tests leave manuscripts waiting: the link counts them.
    await expect(sections.getByRole('link', { name: /^Submissions( \d+ need your attention)?$/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.goto('/editor-dashboard');
    await expect(page).toHaveURL('/editor-dashboard/submissions');
    await screenshots(page, 'dashboard-front-door');
  });

  test('approving a user leaves a clean address', async ({ page, signIn, createAccount }) => {
    const pending = await createAccount('researcher', 'pending');
    await signIn('editor');
    await page.goto('/editor-dashboard');
    await page
      .getByRole('navigation', { name: 'Dashboard sections' })
      .getByRole('link', { name: /^Pending users/ })
      .click();
    const row = page.getByRole('row', { name: new RegExp(pending.username) });
    await row.getByRole('button', { name: `Approve ${pending.username}` }).click();
    await expect(page.getByRole('status')).toContainText(`${pending.username} was approved`);
    await expect(page).toHaveURL('/editor-dashboard/pending-users');
    expect(page.url()).not.toContain('?index');
  });

  test('an issue is made with its month; the message names the volume; readers see the month', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    const number = 20_000 + Math.floor(Math.random() * 1_000_000);
    const volume = await ok(
      adminApi.post('/api/editor/volume', { data: { title: `Month volume ${number}`, volume_number: number, year: 2026 } }),
    );
    await signIn('editor');
    await page.goto('/editor-dashboard/volumes');
    const form = page.getByRole('form', { name: 'Create an issue' });
    await form.getByLabel('Volume').selectOption(String(volume.volume.id));
    await form.getByLabel('Issue title').fill('The March issue');
    await form.getByLabel('Description').fill('Dated by its month.');
    await form.getByLabel('Publication month').selectOption({ label: 'March' });
    await form.getByRole('button', { name: 'Create issue' }).click();
    await expect(page.getByRole('status')).toHaveText(`Issue 1 of Volume ${number} created.`);
    await axe(page);
    await screenshots(page, 'dashboard-issue-month');

    // Changed to April in the edit form, then shown on /volumes.
    const row = page.getByRole('row', { name: /The March issue/ });
    await row.getByText('Edit').click();
    await row.getByLabel('Publication month').selectOption({ label: MONTHS[3] });
    await row.getByRole('button', { name: 'Save issue 1' }).click();
    await expect(page.getByRole('status')).toHaveText('Issue 1 updated.');
    await expect(page.getByRole('row', { name: /The March issue/ })).toContainText('April 2026');

    await page.goto(`/volumes?volume=${number}&issue=1`);
    await expect(page.getByRole('main')).toContainText('April 2026');
    await screenshots(page, 'volumes-issue-month');
  });

  test('the Messages section (screenshots; its empty state is checked in tests/smoke/dashboard-front.test.ts)', async ({ page, signIn, screenshots }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/messages');
    await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
    await screenshots(page, 'dashboard-messages');
  });
});

test.describe('registration', () => {
  test('a researcher is told what a researcher waits for', async ({ page }) => {
    const username = `res_${uniqueTag()}`;
    await page.goto('/regist');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(`pw-${randomBytes(8).toString('hex')}`);
    await page.getByLabel('Full name').fill('Reader Person');
    await page.getByLabel('Email').fill(`${username}@example.org`);
    await page.getByLabel('Contact number').fill('+91 44 1234 5678');
    await page.getByLabel('Institution').fill('Test Institute');
    await page.getByRole('radio', { name: 'Researcher' }).check();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    const status = page.getByRole('status');
    await expect(status).toContainText('Registration successful.');
    await expect(status).not.toContainText('upload manuscripts');
  });
});
