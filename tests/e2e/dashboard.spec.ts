import { MESSAGES } from '../../common/messages.ts';
import { expect, test } from './fixtures.ts';

/** A volume number no other test (or run on this server) uses. */
const freshVolumeNumber = () => 10_000 + Math.floor(Math.random() * 1_000_000);

test.describe('editorial dashboard: who may enter', () => {
  for (const [role, status] of [
    ['researcher', 'approved'],
    ['author', 'approved'],
    ['editor', 'pending'],
  ] as const) {
    test(`a ${status} ${role} sees Unauthorized Access`, async ({ page, signIn }) => {
      await signIn(role, status);
      const response = await page.goto('/editor-dashboard');
      expect(response?.status()).toBe(403);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(MESSAGES.unauthorizedAccess);
      await expect(page).toHaveTitle(new RegExp(MESSAGES.unauthorizedAccess));
      const volumes = await page.goto('/editor-dashboard/volumes');
      expect(volumes?.status()).toBe(403);
    });
  }

  test('a signed-out visitor is sent to the login page and back', async ({ page }) => {
    await page.goto('/editor-dashboard/volumes');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Feditor-dashboard%2Fvolumes/);
  });
});

test.describe('editorial dashboard', () => {
  test('an editor approves a pending user', async ({ page, signIn, createAccount, axe, screenshots }) => {
    const pending = await createAccount('researcher', 'pending');
    await signIn('editor');
    await page.goto('/editor-dashboard/pending-users');
    await expect(page).toHaveTitle(/Pending users/);
    const row = page.getByRole('row', { name: new RegExp(pending.username) });
    await expect(row).toContainText(pending.email);
    await axe(page);
    await screenshots(page, 'dashboard-pending');
    await row.getByRole('button', { name: `Approve ${pending.username}` }).click();
    await expect(page.getByRole('status')).toContainText(`${pending.username} was approved`);
    await expect(page.getByRole('row', { name: new RegExp(pending.username) })).toHaveCount(0);
  });

  test('an editor rejects a pending user, who is told by e-mail; a second decision is refused', async ({
    page,
    signIn,
    createAccount,
    outbox,
  }) => {
    const pending = await createAccount('author', 'pending');
    await signIn('editor');
    await page.goto('/editor-dashboard/pending-users');
    const row = page.getByRole('row', { name: new RegExp(pending.username) });
    await row.getByRole('button', { name: `Reject ${pending.username}` }).click();
    await expect(page.getByRole('status')).toContainText(`${pending.username} was rejected`);
    await expect(page.getByRole('row', { name: new RegExp(pending.username) })).toHaveCount(0);
    const mail = await outbox.waitFor({ to: pending.email, subject: 'registration' });
    expect(mail.from).toMatch(/editorial@/);
    // The same decision posted again (a second tab, a replay): the account is no longer waiting.
    const again = await page.request.post('/editor-dashboard/pending-users', {
      form: { intent: 'reject', id: String(pending.id) },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(again.status()).toBe(409);
  });

  test('an editor creates a volume and an issue, with validation messages', async ({
    page,
    signIn,
    axe,
    screenshots,
  }) => {
    await signIn('editor');
    await page.goto('/editor-dashboard/volumes');
    await expect(page).toHaveTitle(/Volumes & issues/);

    const volumeForm = page.getByRole('form', { name: 'Create a volume' });
    await volumeForm.getByRole('button', { name: 'Create volume' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(volumeForm.getByText('Title is required.')).toBeVisible();
    await expect(volumeForm.getByLabel('Volume title')).toHaveAttribute('aria-invalid', 'true');
    await axe(page);

    const number = freshVolumeNumber();
    const title = `Dashboard volume ${number}`;
    await volumeForm.getByLabel('Volume title').fill(title);
    await volumeForm.getByLabel('Volume number').fill(String(number));
    await volumeForm.getByLabel('Year').fill('1800');
    await volumeForm.getByRole('button', { name: 'Create volume' }).click();
    await expect(volumeForm.getByText('Year must be between 1900 and next year.')).toBeVisible();
    // What was typed is kept.
    await expect(volumeForm.getByLabel('Volume title')).toHaveValue(title);
    await volumeForm.getByLabel('Year').fill('2026');
    await volumeForm.getByRole('button', { name: 'Create volume' }).click();
    await expect(page.getByRole('status')).toHaveText(`Volume ${number} created.`);
    await expect(page.getByRole('table', { name: /Volumes/ })).toContainText(title);

    // The same number again is refused next to the field.
    await volumeForm.getByLabel('Volume title').fill('Duplicate');
    await volumeForm.getByLabel('Volume number').fill(String(number));
    await volumeForm.getByLabel('Year').fill('2026');
    await volumeForm.getByRole('button', { name: 'Create volume' }).click();
    await expect(volumeForm.getByText(`Volume ${number} already exists.`)).toBeVisible();

    const issueForm = page.getByRole('form', { name: 'Create an issue' });
    await issueForm.getByRole('button', { name: 'Create issue' }).click();
    await expect(issueForm.getByText('Title is required.')).toBeVisible();
    await expect(issueForm.getByText('Description is required.')).toBeVisible();
    await issueForm.getByLabel('Volume').selectOption({ label: `Volume ${number} (2026): ${title}` });
    await issueForm.getByLabel('Issue title').fill(`Issue of ${number}`);
    await issueForm.getByLabel('Description').fill('A dashboard-made issue.');
    await issueForm.getByRole('button', { name: 'Create issue' }).click();
    await expect(page.getByRole('status')).toHaveText(`Issue 1 of Volume ${number} created.`);
    await expect(page.getByRole('table', { name: /Issues/ })).toContainText(`Issue of ${number}`);

    // Edit the volume's title.
    const volumeRow = page.getByRole('row', { name: new RegExp(title) });
    await volumeRow.getByText('Edit').click();
    await volumeRow.getByLabel('Title').fill(`${title} (edited)`);
    await volumeRow.getByRole('button', { name: `Save volume ${number}` }).click();
    await expect(page.getByRole('status')).toHaveText(`Volume ${number} updated.`);
    await expect(page.getByRole('table', { name: /Volumes/ })).toContainText(`${title} (edited)`);
    await axe(page);
    await screenshots(page, 'dashboard-volumes');
  });

  test('works without JavaScript', async ({ noJsPage, signIn }) => {
    await signIn('editor', 'approved', noJsPage);
    await noJsPage.goto('/editor-dashboard/volumes');
    const volumeForm = noJsPage.getByRole('form', { name: 'Create a volume' });
    const number = freshVolumeNumber();
    await volumeForm.getByLabel('Volume title').fill(`No-JS volume ${number}`);
    await volumeForm.getByLabel('Volume number').fill(String(number));
    await volumeForm.getByRole('button', { name: 'Create volume' }).click();
    await expect(volumeForm.getByText('Year is required.')).toBeVisible();
    await expect(volumeForm.getByLabel('Volume title')).toHaveValue(`No-JS volume ${number}`);
    await volumeForm.getByLabel('Year').fill('2025');
    await volumeForm.getByRole('button', { name: 'Create volume' }).click();
    await expect(noJsPage.getByRole('status')).toHaveText(`Volume ${number} created.`);
  });
});

test.describe('editorial dashboard: articles', () => {
  test('an editor uploads an article with two authors; it appears on /volumes and can be unpublished', async ({
    page,
    signIn,
    adminApi,
    axe,
    screenshots,
  }) => {
    const number = freshVolumeNumber();
    const volume = await (
      await adminApi.post('/api/editor/volume', {
        data: { title: `Upload volume ${number}`, volume_number: number, year: 2026 },
      })
    ).json();
    await adminApi.post('/api/editor/issue', {
      data: {
        title: `Upload issue ${number}`,
        description: 'For the upload test.',
        volume_id: volume.volume.id,
      },
    });
    await signIn('editor');
    await page.goto('/editor-dashboard/articles');
    await expect(page).toHaveTitle(/Articles/);
    const form = page.getByRole('form', { name: 'Upload an article' });

    // Everything missing: each field says so.
    await form.getByRole('button', { name: 'Upload and publish' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(form.getByText('Title is required.')).toBeVisible();
    await expect(form.getByText('Please choose the article PDF.')).toBeVisible();
    await expect(form.getByText('DOI is required.')).toBeVisible();

    const title = `Dashboard upload ${number}`;
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Abstract').fill('An abstract written in the dashboard.');
    await form.getByLabel('Keywords').fill('dashboard, upload');
    await form.getByLabel('Pages').fill('1-12');
    await form.getByLabel('DOI').fill(`10.5555/dash.${number}`);
    await form
      .getByLabel('Issue')
      .selectOption({ label: `Volume ${number}, Issue 1: Upload issue ${number}` });
    await form.getByLabel('Author 1 name').fill('Meera Iyer');
    await form.getByLabel('Author 1 email').fill('meera@example.org');
    await form.getByLabel('Author 1 affiliation').fill('Anna University');
    await form.getByLabel('Author 1 superscript').fill('1');
    await form.getByRole('button', { name: 'Add an author' }).click();
    await expect(form.getByLabel('Author 2 name')).toBeVisible();
    await expect(form.getByLabel('Author 1 name')).toHaveValue('Meera Iyer');
    await form.getByLabel('Author 2 name').fill('Tom Brandt');
    await form.getByLabel('Author 2 email').fill('tom@example.org');
    await form.getByLabel('Author 2 affiliation').fill('TU Delft');
    await form.getByLabel('Author 2 superscript').fill('2');
    await form.getByLabel('Article PDF').setInputFiles('tests/fixtures/manuscripts/manuscript.pdf');
    await form.getByRole('button', { name: 'Upload and publish' }).click();
    await expect(page.getByRole('status')).toContainText(
      `“${title}” published in volume ${number}, issue 1.`,
    );
    const row = page.getByRole('row', { name: new RegExp(title) });
    await expect(row).toContainText('Published');
    await axe(page);
    await screenshots(page, 'dashboard-articles');

    await page.goto(`/volumes?volume=${number}&issue=1`);
    await expect(page.getByRole('main')).toContainText(title);

    await page.goto('/editor-dashboard/articles');
    await page
      .getByRole('row', { name: new RegExp(title) })
      .getByRole('button', { name: `Unpublish “${title}”` })
      .click();
    await expect(page.getByRole('status')).toContainText(`“${title}” unpublished.`);
    await page.goto(`/volumes?volume=${number}&issue=1`);
    await expect(page.getByRole('main')).not.toContainText(title);
  });
});

test('an editor marks a contact message as handled and reopens it', async ({
  page,
  signIn,
  request,
  axe,
}) => {
  const name = `Reader ${Date.now()}`;
  const sent = await request.post('/contact', {
    data: { name, email: 'reader@example.org', message: 'Is the journal indexed in DOAJ?' },
  });
  expect(sent.ok()).toBe(true);
  await signIn('editor');
  await page.goto('/editor-dashboard/messages');
  await expect(page).toHaveTitle(/Messages/);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Open');
  await axe(page);
  await row.getByRole('button', { name: /Mark as handled/ }).click();
  await expect(page.getByRole('status')).toContainText('marked as handled');
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Handled');
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: /Reopen/ })
    .click();
  await expect(page.getByRole('status')).toContainText('reopened');
});

test('the audit log lists privileged actions, newest first', async ({
  page,
  signIn,
  adminApi,
  axe,
  screenshots,
}) => {
  const number = freshVolumeNumber();
  await adminApi.post('/api/editor/volume', {
    data: { title: `Audited ${number}`, volume_number: number, year: 2026 },
  });
  await signIn('editor');
  await page.goto('/editor-dashboard/audit');
  await expect(page).toHaveTitle(/Audit log/);
  await expect(page.getByRole('table', { name: /Audit log/ })).toContainText(`Audited ${number}`);
  await axe(page);
  await screenshots(page, 'dashboard-audit');
});
