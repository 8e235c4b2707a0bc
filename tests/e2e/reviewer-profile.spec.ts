import type { Page } from '@playwright/test';
import { expect, loginThroughApi, test } from './fixtures.ts';
import { dayOffset as day, longDay, underReview, uniqueTag } from './review-helpers.ts';

/**
 * The reviewer's profile page (issue 14): name, affiliation, areas of interest from the journal's areas, an
 * ORCID iD checked to its check digit, and "unavailable until", which the editors then see in the reviewer
 * pool and when inviting. Every refusal beside its field, with and without JavaScript.
 */

const form = (page: Page) => page.getByRole('form', { name: 'Your reviewer profile' });
const save = (page: Page) => page.getByRole('button', { name: 'Save your reviewer profile' }).click();

test('a reviewer keeps their profile, refused beside each field, and the editors see when they are away', async ({
  page,
  browser,
  signIn,
  createAccount,
  adminApi,
  baseURL,
  axe,
  screenshots,
}) => {
  const me = await signIn('researcher');
  const away = day(12);

  // From the list of reviews (and from My account) to the profile, which starts from the account.
  await page.goto('/reviews');
  await page.getByRole('link', { name: 'Your reviewer profile' }).click();
  await expect(page).toHaveURL(/\/reviews\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your reviewer profile' })).toBeVisible();
  await expect(page.getByText(me.email)).toBeVisible();
  await expect(form(page).getByLabel('Your name')).toHaveValue(me.fullName);
  // One box per journal area (the site's pool has its own box when other specs have made more journals).
  await expect(
    form(page).getByRole('group', { name: 'Areas of interest' }).getByRole('checkbox'),
  ).toHaveCount(9);

  // Everything wrong at once: each refusal beside its field, the typed values kept.
  await form(page).getByLabel('Your name').fill('');
  await form(page).getByLabel('ORCID iD').fill('0000-0002-1825-0096');
  await form(page).getByLabel('Unavailable until').fill(day(-3));
  await form(page).getByRole('checkbox', { name: 'Robotics and automation' }).check();
  await save(page);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Please correct the 2 fields below:');
  await expect(form(page).getByLabel('Your name')).toHaveAccessibleDescription(/Your name is required./);
  await expect(form(page).getByLabel('ORCID iD')).toHaveAccessibleDescription(
    /This ORCID iD has a wrong check digit: copy it from your ORCID record./,
  );
  await expect(form(page).getByRole('checkbox', { name: 'Robotics and automation' })).toBeChecked();
  await form(page).getByLabel('Your name').fill(`Rhea Reviewing ${uniqueTag()}`);
  await form(page).getByLabel('ORCID iD').fill('https://orcid.org/0000-0002-1825-0097');
  await save(page);
  // The past day is the service's refusal, once the form is otherwise right.
  await expect(form(page).getByLabel('Unavailable until')).toHaveAccessibleDescription(
    /Unavailable until: choose today or a later day, or leave it empty if you are available./,
  );
  await axe(page);
  await screenshots(page, 'reviewer-profile-refused');

  await form(page).getByLabel('Unavailable until').fill(away);
  await form(page).getByRole('checkbox', { name: 'Internet of Things (IoT)' }).check();
  await form(page).getByLabel('Affiliation').fill('Ostrava Robotics Lab');
  await save(page);
  await expect(page.getByRole('status')).toContainText('Your reviewer profile is saved.');
  await expect(
    page.getByText(`The editors see that you are unavailable until ${longDay(away)}`),
  ).toBeVisible();
  await page.reload();
  await expect(form(page).getByLabel('ORCID iD')).toHaveValue('0000-0002-1825-0097');
  await expect(form(page).getByLabel('Unavailable until')).toHaveValue(away);
  await expect(form(page).getByRole('checkbox', { name: 'Robotics and automation' })).toBeChecked();
  await expect(form(page).getByRole('checkbox', { name: 'Internet of Things (IoT)' })).toBeChecked();
  await expect(form(page).getByRole('checkbox', { name: 'Software engineering' })).not.toBeChecked();
  await axe(page);
  await screenshots(page, 'reviewer-profile');
  const name = await form(page).getByLabel('Your name').inputValue();

  // The editors: the pool shows the day and the areas, and so does the desk's search when inviting.
  const editorContext = await browser.newContext();
  const editorPage = await editorContext.newPage();
  await signIn('editor', 'approved', editorPage);
  await editorPage.goto(`/editor-dashboard/reviewers?${new URLSearchParams({ q: me.email })}`);
  const row = editorPage.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(`Unavailable until ${longDay(away)}`);
  await expect(row).toContainText('Robotics and automation');
  await expect(row).toContainText('Ostrava Robotics Lab');

  const author = await createAccount('author');
  const s = await underReview(adminApi, await loginThroughApi(baseURL!, author.username, author.password), {
    title: `Robots for review ${uniqueTag()}`,
  });
  await editorPage.goto(`/editor-dashboard/submissions/${s.id}?${new URLSearchParams({ find: me.email })}`);
  await expect(editorPage.getByRole('radio', { name: new RegExp(name) })).toBeVisible();
  await expect(editorPage.getByText(`Unavailable until ${longDay(away)}`)).toBeVisible();
  await editorContext.close();

  // My account leads here too.
  await page.goto('/account');
  await page.getByRole('link', { name: 'your reviewer profile' }).click();
  await expect(page).toHaveURL(/\/reviews\/profile$/);
});

test('without JavaScript: the profile saves and refuses with plain form posts', async ({
  noJsPage: page,
  signIn,
  axe,
}) => {
  await signIn('author', 'approved', page);
  await page.goto('/reviews/profile');
  await form(page).getByRole('checkbox', { name: 'Cybersecurity and blockchain' }).check();
  await form(page).getByLabel('ORCID iD').fill('not an id');
  await save(page);
  await expect(page.getByRole('alert')).toContainText(
    'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).',
  );
  await expect(form(page).getByLabel('ORCID iD')).toHaveAccessibleDescription(/four groups of four/);
  await expect(form(page).getByRole('checkbox', { name: 'Cybersecurity and blockchain' })).toBeChecked();
  await axe(page);
  await form(page).getByLabel('ORCID iD').fill('');
  await save(page);
  await expect(page.getByRole('status')).toContainText('Your reviewer profile is saved.');
  await page.goto('/reviews/profile');
  await expect(form(page).getByRole('checkbox', { name: 'Cybersecurity and blockchain' })).toBeChecked();
  await expect(form(page).getByLabel('Unavailable until')).toHaveValue('');
});
