import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MESSAGES } from '../../common/messages.ts';
import { expect, hydrated, test } from './fixtures.ts';

/** Every section of the dashboard, and the pages under them, that only editors and admins may open. */
const DASHBOARD_URLS = [
  '/editor-dashboard',
  '/editor-dashboard/pending-users',
  '/editor-dashboard/volumes',
  '/editor-dashboard/articles',
  '/editor-dashboard/messages',
  '/editor-dashboard/audit',
  '/editor-dashboard/content',
  '/editor-dashboard/content/indexing',
  '/editor-dashboard/content/editorial-board',
  '/editor-dashboard/content/special-issues',
  '/editor-dashboard/users',
  '/editor-dashboard/settings',
];

test.describe('dashboard sections: who may enter', () => {
  for (const [role, status] of [
    ['researcher', 'pending'],
    ['researcher', 'approved'],
    ['author', 'pending'],
    ['author', 'approved'],
    ['editor', 'pending'],
  ] as const) {
    test(`${status === 'approved' ? 'an' : 'a'} ${status} ${role} sees Unauthorized Access on every section`, async ({
      page,
      signIn,
    }) => {
      await signIn(role, status);
      for (const url of DASHBOARD_URLS) {
        const response = await page.goto(url);
        expect(response?.status(), url).toBe(403);
        await expect(page.getByRole('heading', { level: 1 }), url).toHaveText(MESSAGES.unauthorizedAccess);
      }
    });
  }

  test('a signed-out visitor is sent to the login page from every section (the spec’s route guard)', async ({
    page,
  }) => {
    for (const url of DASHBOARD_URLS) {
      await page.goto(url);
      await expect(page, url).toHaveURL(`/login?redirectTo=${encodeURIComponent(url)}`);
    }
  });

  test('an editor who is not an admin is refused Users, and does not see it in the menu', async ({
    page,
    signIn,
  }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/content');
    const nav = page.getByRole('navigation', { name: 'Dashboard sections' });
    await expect(nav.getByRole('link', { name: 'Journal content' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Users', exact: true })).toHaveCount(0);
    const response = await page.goto('/editor-dashboard/users');
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(MESSAGES.unauthorizedAccess);
    // Posting to it is refused too.
    const post = await page.request.post('/editor-dashboard/users', {
      form: { intent: 'update-user', id: '1', role: 'researcher', status: 'suspended' },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(post.status()).toBe(403);
  });
});

test.describe('Journal settings (admin)', () => {
  test('the admin corrects refused settings next to their fields, then saves; an editor may not enter', async ({
    page,
    signIn,
    axe,
    screenshots,
    browser,
    baseURL,
  }) => {
    await signIn('admin');
    await page.goto('/editor-dashboard/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Journal settings');
    await axe(page);
    await screenshots(page, 'dashboard-settings');
    const depositor = page.getByLabel('Depositor name');
    const original = await depositor.inputValue();
    expect(original.length).toBeGreaterThan(0);

    // Refused: each message beside its field, what was typed kept, nothing saved.
    await page.getByLabel('DOI prefix').fill('10.12');
    await page.getByLabel('Online ISSN').fill('2049-3631');
    await depositor.fill('Changed but refused');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await expect(page.getByRole('alert')).toContainText('2 settings need correcting: see below.');
    await expect(
      page.getByText('A DOI prefix is 10. followed by 4 to 9 digits, such as 10.12345.'),
    ).toBeVisible();
    await expect(page.getByLabel('DOI prefix')).toHaveAttribute('aria-invalid', 'true');
    await expect(
      page.getByText('This ISSN has a wrong check digit: check it against the ISSN record.'),
    ).toBeVisible();
    await expect(depositor).toHaveValue('Changed but refused');
    await axe(page);
    await screenshots(page, 'dashboard-settings-refused');

    // Saved (then put back: the e2e servers are shared).
    await page.getByLabel('DOI prefix').fill('10.5555');
    await page.getByLabel('Online ISSN').fill('3049-4176');
    const name = `E2E depositor ${randomBytes(3).toString('hex')}`;
    await depositor.fill(name);
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved: Depositor name.');
    await expect(depositor).toHaveValue(name);
    // The same message twice in a row: wait for each save's answer, not for the text.
    const save = () =>
      Promise.all([
        page.waitForResponse(
          (r) => r.request().method() === 'POST' && r.url().includes('/editor-dashboard/settings'),
        ),
        page.getByRole('button', { name: 'Save the settings' }).click(),
      ]);
    await depositor.fill(original);
    await save();
    await expect(page.getByRole('status')).toHaveText('Saved: Depositor name.');
    await expect(depositor).toHaveValue(original);
    await save();
    await expect(page.getByRole('status')).toHaveText('Nothing changed.');
    await page.goto('/editor-dashboard/audit');
    await expect(page.getByRole('main')).toContainText('settings.journal.update');

    // An editor who is not an admin: not in the menu, 403 on the page.
    const context = await browser.newContext({ baseURL });
    const editorPage = await context.newPage();
    await signIn('editor', 'approved', editorPage);
    await editorPage.goto('/editor-dashboard');
    await expect(
      editorPage
        .getByRole('navigation', { name: 'Dashboard sections' })
        .getByRole('link', { name: 'Journal settings' }),
    ).toHaveCount(0);
    expect((await editorPage.goto('/editor-dashboard/settings'))?.status()).toBe(403);
    await expect(editorPage.getByRole('heading', { level: 1 })).toHaveText(MESSAGES.unauthorizedAccess);
    await context.close();
  });
});

test.describe('Users (admin)', () => {
  test('search, change role and status, with the refusals next to the fields', async ({
    page,
    signIn,
    createAccount,
    axe,
    screenshots,
  }) => {
    const target = await createAccount('researcher', 'pending');
    const me = await signIn('admin');
    await page.goto('/editor-dashboard/users');
    await expect(page).toHaveTitle(/Users/);
    await expect(
      page
        .getByRole('navigation', { name: 'Dashboard sections' })
        .getByRole('link', { name: 'Users', exact: true }),
    ).toHaveAttribute('aria-current', 'page');

    const search = page.getByRole('search', { name: 'Find users' });
    await search.getByLabel('Search').fill(target.email);
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(target.email)}`));
    await expect(page.getByRole('table', { name: /Accounts found \(1\)/ })).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(target.username) });
    await expect(row).toContainText('Researcher');
    await expect(row).toContainText('Pending');
    await axe(page);
    await screenshots(page, 'dashboard-users');

    // Saving without a change is refused, next to the fields, and nothing is lost.
    await row.getByRole('button', { name: `Save ${target.username}` }).click();
    await expect(page.getByRole('alert')).toContainText(
      `Nothing to save: ${target.username} is already a researcher (pending).`,
    );
    await expect(row.getByText('Choose another role or status.')).toBeVisible();
    await expect(row.getByLabel('Role')).toHaveAttribute('aria-invalid', 'true');
    await axe(page);

    // Make them an approved author.
    await row.getByLabel('Role').selectOption('author');
    await row.getByLabel('Status').selectOption('approved');
    await row.getByRole('button', { name: `Save ${target.username}` }).click();
    await expect(page.getByRole('status')).toHaveText(
      `Saved: ${target.username} is now an author (approved). An e-mail tells them so.`,
    );
    await expect(row).toContainText('Author');
    await expect(row).toContainText('Approved');

    // Suspend them: the filter by status then finds them.
    await row.getByLabel('Status').selectOption('suspended');
    await row.getByRole('button', { name: `Save ${target.username}` }).click();
    await expect(page.getByRole('status')).toHaveText(
      `Saved: ${target.username} is now an author (suspended). Their open sessions were ended.`,
    );
    await page.goto(`/editor-dashboard/users?q=${target.username}&role=author&status=suspended`);
    await expect(page.getByRole('row', { name: new RegExp(target.username) })).toContainText('Suspended');
    await page.goto(`/editor-dashboard/users?q=${target.username}&status=approved`);
    await expect(page.getByRole('status')).toHaveText('No account matches this search.');

    // The audit log has both changes.
    await page.goto('/editor-dashboard/audit');
    await expect(page.getByRole('table', { name: /Audit log/ })).toContainText('user.update');

    // An admin cannot change their own account here: the page says so instead of offering the form.
    await page.goto(`/editor-dashboard/users?q=${me.username}`);
    const own = page.getByRole('row', { name: new RegExp(me.username) });
    await expect(own).toContainText('Your account: another admin must change it.');
    await expect(own.getByRole('button')).toHaveCount(0);
    // Forged, the server refuses it.
    const forged = await page.request.post(`/editor-dashboard/users?q=${me.username}`, {
      form: { intent: 'update-user', id: String(me.id), role: 'admin', status: 'suspended' },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(forged.status()).toBe(409);

    // A filter that is not one is said next to its field.
    await page.goto('/editor-dashboard/users?role=king');
    await expect(page.getByRole('search').getByText('Choose a role from the list.')).toBeVisible();
    await screenshots(page, 'dashboard-users-filter-error');
  });
});

test.describe('Journal content', () => {
  test('an editor edits a page with a preview; the reader page shows it at once; then it is restored', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/content');
    await expect(page).toHaveTitle(/Journal content/);
    await axe(page);
    await screenshots(page, 'dashboard-content');
    await page.getByRole('link', { name: 'Edit Indexing & Abstracting' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit: Indexing & Abstracting');
    const text = page.getByLabel('Page text (Markdown)');
    const original = await text.inputValue();
    expect(original).toMatch(/^# /);
    const marker = `Dashboard edit ${randomBytes(4).toString('hex')}`;

    try {
      // Without its heading the page is refused, next to the field, and what was typed stays.
      await text.fill(`${marker} without a heading`);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('alert')).toContainText('The page must start with its heading');
      await expect(page.locator('#page-markdown-error')).toContainText(
        'The page must start with its heading',
      );
      await expect(text).toHaveAttribute('aria-invalid', 'true');
      await expect(text).toHaveValue(`${marker} without a heading`);
      await axe(page);

      // Preview: rendered by the reader page's renderer, not saved.
      await text.fill(`${original}\n\nThe **${marker}** paragraph.\n`);
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByRole('region', { name: 'Preview (not saved)' });
      await expect(preview.locator('strong', { hasText: marker })).toBeVisible();
      await expect(page.getByRole('status')).toContainText('Nothing is saved until you press Save.');
      await expect(text).toHaveValue(`${original}\n\nThe **${marker}** paragraph.\n`);
      expect(await (await page.request.get('/indexing')).text()).not.toContain(marker);
      await axe(page);
      await screenshots(page, 'dashboard-content-preview');

      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status')).toHaveText('Saved. /indexing shows the new text now.');
      await page.goto('/indexing');
      await expect(page.locator('main strong', { hasText: marker })).toBeVisible();
    } finally {
      // Put the page back as it was for every other test on this server.
      await page.goto('/editor-dashboard/content/indexing');
      // Filled once React has the page: a fill while it hydrates (or while the browser puts back what the field
      // held when the page was left) lands beside the text there, not in its place (seen once on CI).
      await hydrated(page);
      const field = page.getByLabel('Page text (Markdown)');
      await field.fill(original);
      await expect(field).toHaveValue(original);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status')).toHaveText('Saved. /indexing shows the new text now.');
    }
    expect(await (await page.request.get('/indexing')).text()).not.toContain(marker);
  });

  test('preview and row editing work without JavaScript', async ({ noJsPage, signIn, axe }) => {
    await signIn('editor', 'approved', noJsPage);
    await noJsPage.goto('/editor-dashboard/content/indexing');
    const text = noJsPage.getByLabel('Page text (Markdown)');
    const marker = `No-JS preview ${randomBytes(4).toString('hex')}`;
    await text.fill(`# Indexing & Abstracting\n\n*${marker}*`);
    await noJsPage.getByRole('button', { name: 'Preview' }).click();
    await expect(noJsPage.getByRole('region', { name: 'Preview (not saved)' }).locator('em')).toHaveText(
      marker,
    );
    await expect(noJsPage.getByLabel('Page text (Markdown)')).toHaveValue(
      `# Indexing & Abstracting\n\n*${marker}*`,
    );
    await axe(noJsPage);

    await noJsPage.goto('/editor-dashboard/content/special-issues');
    await noJsPage.getByRole('button', { name: 'Add a special issue' }).click();
    await expect(noJsPage.getByRole('status')).toContainText('was added at the end, empty. Not saved yet');
    await expect(noJsPage.getByRole('group', { name: /^Special issue \d+$/ })).toHaveCount(1);
  });

  test('the board and special-issue editors add, move and check rows without saving half a list', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/content/editorial-board');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit the editorial board');
    const members = page.getByRole('group', { name: /^Member \d+/ });
    const before = await members.count();
    expect(before).toBeGreaterThan(0);
    await axe(page);

    await page.getByRole('button', { name: 'Add a member' }).click();
    await expect(page.getByRole('status')).toContainText(
      `Member ${before + 1} was added at the end, empty. Not saved yet`,
    );
    await expect(members).toHaveCount(before + 1);
    const added = page.getByRole('group', { name: `Member ${before + 1}` });
    await added.getByLabel('Name').fill('Dr. Playwright Tester');
    await page.getByRole('button', { name: 'Save the editorial board' }).click();
    // Refused: each empty field says so, and the typed name stays.
    await expect(page.getByRole('alert')).toContainText('fields need correcting');
    const refused = page.getByRole('group', { name: `Member ${before + 1}: Dr. Playwright Tester` });
    await expect(refused.getByText('Affiliation is required.')).toBeVisible();
    await expect(refused.getByText('Give at least one research area.')).toBeVisible();
    await expect(refused.getByText('Enter a valid e-mail address.')).toBeVisible();
    await expect(refused.getByLabel('Name')).toHaveValue('Dr. Playwright Tester');
    await axe(page);
    await screenshots(page, 'dashboard-content-board');
    await refused.getByRole('button', { name: 'Remove Dr. Playwright Tester' }).click();
    await expect(page.getByRole('status')).toContainText('Dr. Playwright Tester was removed.');
    await expect(members).toHaveCount(before);
    // Nothing was saved: the reader page never had the name.
    expect(await (await page.request.get('/editorial-board')).text()).not.toContain('Playwright Tester');

    await page.goto('/editor-dashboard/content/special-issues');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit the special issues');
    const first = page.getByRole('group', { name: /^Special issue 1: / });
    const firstTitle = await first.getByLabel('Title').inputValue();
    await first.getByRole('button', { name: /^Move down/ }).click();
    await expect(page.getByRole('status')).toContainText('moved down. Not saved yet');
    await expect(page.getByRole('group', { name: /^Special issue 2: / }).getByLabel('Title')).toHaveValue(
      firstTitle,
    );
    await axe(page);
    await screenshots(page, 'dashboard-content-special-issues');
  });
});

test.describe('new-issue alerts', () => {
  test('an editor sends an issue’s alert once; the page then says how it went', async ({
    page,
    signIn,
    adminApi,
    createAccount,
    axe,
    screenshots,
  }) => {
    const number = 20_000 + Math.floor(Math.random() * 1_000_000);
    const volume = await (
      await adminApi.post('/api/editor/volume', {
        data: { title: `Alert volume ${number}`, volume_number: number, year: 2026 },
      })
    ).json();
    const issue = await (
      await adminApi.post('/api/editor/issue', {
        data: {
          title: `Alert issue ${number}`,
          description: 'For the alert test.',
          volume_id: volume.volume.id,
        },
      })
    ).json();
    const upload = await adminApi.post('/api/articles/admin/upload', {
      multipart: {
        title: `Alerted article ${number}`,
        abstract: 'An article to announce.',
        keywords: 'alerts, e-mail',
        pages: '1-8',
        doi: `10.5555/alert.${number}`,
        issue_id: String(issue.issue.id),
        authors: JSON.stringify([
          { name: 'A. Author', email: 'a@example.org', affiliation: 'Somewhere', superscript: '1' },
        ]),
        pdf: {
          name: 'article.pdf',
          mimeType: 'application/pdf',
          buffer: readFileSync('tests/fixtures/manuscripts/manuscript.pdf'),
        },
      },
    });
    expect(upload.status(), await upload.text()).toBe(201);
    // One subscriber at least.
    const reader = await createAccount('researcher', 'approved');
    const login = await (
      await adminApi.post('/api/auth/login', {
        data: { username: reader.username, password: reader.password },
      })
    ).json();
    const sub = await adminApi.post('/api/user/subscription', {
      headers: { authorization: `Bearer ${login.token}` },
    });
    expect(sub.ok()).toBe(true);

    await signIn('editor');
    await page.goto('/editor-dashboard/volumes');
    const row = page.getByRole('row', { name: new RegExp(`Alert issue ${number}`) });
    await row.getByText('Send alert').click();
    await expect(row).toContainText("An issue's alert goes out only once");
    await axe(page);
    await row.getByRole('button', { name: `Send the new-issue alert for volume ${number}, issue 1` }).click();
    await expect(page.getByRole('status')).toHaveText(
      new RegExp(`^The new-issue alert for Volume ${number}, issue 1 is being sent to \\d+ subscribers?\\.$`),
    );
    await expect(row).toContainText(/Alert sent \d{4}-\d{2}-\d{2} by /);
    await expect(row.getByRole('button', { name: /Send the new-issue alert/ })).toHaveCount(0);
    // Once only, whoever asks.
    const again = await adminApi.post(`/api/editor/issues/${issue.issue.id}/alert`);
    expect(again.status()).toBe(409);
    expect((await again.json()).message).toMatch(/already sent/);
    await screenshots(page, 'dashboard-volumes-alert');
  });

  test('an unsubscribe link that is not valid says so', async ({ page, axe }) => {
    const response = await page.goto('/unsubscribe?token=00000000-0000-4000-8000-000000000000');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unsubscribe from new-issue alerts');
    await expect(page.getByText('This unsubscribe link is not valid any more')).toBeVisible();
    await axe(page);
  });
});
