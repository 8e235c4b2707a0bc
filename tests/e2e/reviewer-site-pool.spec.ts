import { randomBytes } from 'node:crypto';
import { addSession, expect, loginThroughApi, test } from './fixtures.ts';
import { JOURNALS_SERVER } from './env.ts';

/**
 * A reviewer's choice about the site's reviewer pool (decisions 0058 and 0062), on the server with several
 * journals: the profile page offers it only where the site has other journals, ticked by default; unticked
 * and saved, it stays unticked, in every journal of the site (it is the account's).
 */
const SITE = JOURNALS_SERVER.url;
test.use({ baseURL: SITE });

test('a reviewer keeps other journals’ editors from finding them in the site’s pool', async ({
  page,
  context,
  request,
  axe,
  screenshots,
}) => {
  // An account of the site, registered at the second journal (the site's root has no journal's API).
  const username = `pool_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const registered = await request.post(`${SITE}/second/api/auth/register`, {
    data: {
      username,
      password,
      email: `${username}@example.org`,
      fullName: 'Pia Pool',
      contactNumber: '+44 20 7946 0000',
      institution: 'Somewhere',
      role: 'researcher',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const token = await loginThroughApi(`${SITE}/second`, username, password);
  await addSession(context, SITE, token);
  await page.goto('/second/reviews/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Your reviewer profile' })).toBeVisible();
  const box = page.getByLabel(
    "Editors of the publisher's other journals may find me in the site's reviewer pool",
  );
  await expect(box).toBeChecked();
  await axe(page);
  await screenshots(page, 'reviewer-profile-site-pool');

  await box.uncheck();
  await page.getByRole('button', { name: 'Save your reviewer profile' }).click();
  await expect(page.getByRole('status')).toContainText('Your reviewer profile is saved.');
  await expect(box).not.toBeChecked();
  // The account's choice: the first journal's profile page says the same.
  await page.goto('/first/reviews/profile');
  await expect(
    page.getByLabel("Editors of the publisher's other journals may find me in the site's reviewer pool"),
  ).not.toBeChecked();
  const api = await page.request.get('/first/api/reviewer/profile');
  expect(await api.json()).toMatchObject({ listedAcrossSite: false });
});
