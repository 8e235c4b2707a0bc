import type { Page } from '@playwright/test';
import {
  type Account,
  SHORT_SESSION_TTL_SECONDS,
  SHORT_TTL_SERVER,
  type SignedInAccount,
  expect,
  loginThroughApi,
  test,
} from './fixtures.ts';
import { hydrated, inviteByApi, manuscriptPdf, underReview, uniqueTag } from './review-helpers.ts';

/**
 * The reviewer's draft on its page (issue 14): its attached file can be removed, with JavaScript (saved as
 * the box is ticked) and without (with the next "Save draft"); once the editors have decided, a reviewer
 * signed in by their account is refused any change with a sentence, as the link is; and a review typed while
 * the session ends is all there after signing in again.
 */

const region = (page: Page) => page.getByRole('region', { name: 'Your review' });
const comments = (page: Page) => region(page).getByRole('textbox', { name: 'Comments for the author' });

/** A manuscript under review (by a fresh author) with `me` invited by account: the assignment and submission. */
async function invited(
  adminApi: Parameters<typeof inviteByApi>[0],
  baseURL: string,
  author: Account,
  me: SignedInAccount,
  title: string,
) {
  const token = await loginThroughApi(baseURL, author.username, author.password);
  const s = await underReview(adminApi, token, { title });
  return { submission: s.id, assignment: await inviteByApi(adminApi, s.id, { userId: me.id }) };
}

/** The invitation opened on its page and accepted; with JavaScript, the page hydrated before going on. */
async function acceptOnPage(page: Page, assignment: number, js = true) {
  await page.goto(`/reviews/${assignment}`);
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for accepting' })).toBeVisible();
  if (js) await hydrated(page);
}

test.describe("a draft's attached file", () => {
  test('is removed by ticking a box: saved at once with JavaScript', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const { assignment } = await invited(
      adminApi,
      baseURL!,
      await createAccount('author'),
      me,
      `Attachments come and go ${uniqueTag()}`,
    );
    await acceptOnPage(page, assignment);

    await region(page).getByLabel('Attach a file').setInputFiles(manuscriptPdf());
    await region(page).getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible();
    await expect(region(page).getByRole('link', { name: 'your file' })).toBeVisible();
    const remove = region(page).getByRole('checkbox', { name: /Remove the attached file/ });
    await expect(remove).not.toBeChecked();
    await axe(page);
    await screenshots(page, 'review-draft-attachment');

    await remove.check();
    await expect(
      region(page).getByText(/Draft saved at \d\d:\d\d\. The attached file is removed\./),
    ).toBeVisible({
      timeout: 15_000,
    });
    await expect(region(page).getByRole('link', { name: 'your file' })).toHaveCount(0);
    await expect(remove).toHaveCount(0);
    const view = await (await page.request.get(`/api/reviews/${assignment}`)).json();
    expect(view.review.hasAttachment).toBe(false);
    expect((await page.request.get(`/reviews/${assignment}/attachment`)).status()).toBe(404);
  });

  test('is removed with the next "Save draft" without JavaScript, the text saved with it', async ({
    noJsPage: page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
  }) => {
    const me = await signIn('researcher', 'approved', page);
    const { assignment } = await invited(
      adminApi,
      baseURL!,
      await createAccount('author'),
      me,
      `Attachments without scripts ${uniqueTag()}`,
    );
    await acceptOnPage(page, assignment, false);
    await region(page).getByLabel('Attach a file').setInputFiles(manuscriptPdf());
    await region(page).getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('status')).toContainText('Draft saved.');
    await expect(region(page).getByRole('link', { name: 'your file' })).toBeVisible();

    await comments(page).fill('The annotated copy was the wrong file.');
    await region(page)
      .getByRole('checkbox', { name: /Remove the attached file/ })
      .check();
    await region(page).getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('status')).toContainText('Draft saved; the attached file is removed.');
    await expect(region(page).getByRole('link', { name: 'your file' })).toHaveCount(0);
    await expect(region(page).getByRole('checkbox', { name: /Remove the attached file/ })).toHaveCount(0);
    await expect(comments(page)).toHaveValue('The annotated copy was the wrong file.');
    await axe(page);
  });
});

test.describe('a round decided while the reviewer, signed in, is writing', () => {
  test('with JavaScript: the draft is not saved and submitting is refused, each saying why', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
    screenshots,
  }) => {
    const me = await signIn('researcher');
    const { submission, assignment } = await invited(
      adminApi,
      baseURL!,
      await createAccount('author'),
      me,
      `Decided meanwhile ${uniqueTag()}`,
    );
    await acceptOnPage(page, assignment);
    const decided = await adminApi.post(`/api/editor/submissions/${submission}/decision`, {
      data: { status: 'rejected', message: 'Out of scope.' },
    });
    expect(decided.ok(), await decided.text()).toBe(true);

    const refusal =
      'The editors have already decided on this manuscript: the review can no longer be changed or submitted.';
    await page.getByRole('radio', { name: 'Accept', exact: true }).check();
    await comments(page).fill('Written after the decision.');
    await expect(region(page).getByText(`The draft was not saved: ${refusal}`)).toBeVisible({
      timeout: 15_000,
    });
    await region(page).getByRole('button', { name: 'Submit the review' }).click();
    await expect(page.getByRole('alert')).toContainText(refusal);
    // The page reads the assignment again and shows where it stands.
    await expect(page.getByText('Closed: the editors have decided')).toBeVisible();
    await expect(
      page.getByText('The editors have decided on this round before the review was submitted.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit the review' })).toHaveCount(0);
    await axe(page);
    await screenshots(page, 'review-decided-refused');
    // Nothing was saved, nothing submitted.
    const view = await (await page.request.get(`/api/reviews/${assignment}`)).json();
    expect(view).toMatchObject({ state: 'accepted', roundDecided: true });
    expect(view.review.commentsForAuthor).toBe('');
  });

  test('without JavaScript: "Save draft" is refused on the page, which then shows the review closed', async ({
    noJsPage: page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
  }) => {
    const me = await signIn('researcher', 'approved', page);
    const { submission, assignment } = await invited(
      adminApi,
      baseURL!,
      await createAccount('author'),
      me,
      `Decided meanwhile, no scripts ${uniqueTag()}`,
    );
    await acceptOnPage(page, assignment, false);
    await comments(page).fill('Written after the decision.');
    const decided = await adminApi.post(`/api/editor/submissions/${submission}/decision`, {
      data: { status: 'rejected', message: 'Out of scope.' },
    });
    expect(decided.ok(), await decided.text()).toBe(true);
    await region(page).getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'The editors have already decided on this manuscript: the review can no longer be changed or submitted.',
    );
    await expect(
      page.getByText('The editors have decided on this round before the review was submitted.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save draft' })).toHaveCount(0);
    await axe(page);
    // A post straight to the page is refused the same way (409), for submitting too.
    const post = await page.request.post(`/reviews/${assignment}`, {
      headers: { origin: new URL(baseURL!).origin },
      form: { intent: 'submit', commentsForAuthor: 'Late.', recommendation: 'reject' },
    });
    expect(post.status()).toBe(409);
  });
});

test.describe('a review typed while the session ends', () => {
  test.use({ baseURL: SHORT_TTL_SERVER.url });
  const wait = (SHORT_SESSION_TTL_SECONDS + 15) * 1000;

  test('is all there after signing in again: nothing typed is lost', async ({
    page,
    signIn,
    createAccount,
    adminApi,
    baseURL,
    axe,
  }) => {
    test.setTimeout(2 * wait + 90_000);
    // Made first: the admin's own sign-in (which makes accounts) lasts as short as everyone's here.
    const author = await createAccount('author');
    const me = await signIn('researcher');
    const { assignment } = await invited(adminApi, baseURL!, author, me, `Typed as it ended ${uniqueTag()}`);
    await acceptOnPage(page, assignment);
    const typed = 'Section 3 needs the data set it was run on; the second table repeats the first.';
    await comments(page).fill(typed);
    await region(page)
      .getByRole('textbox', { name: 'Confidential comments for the editor' })
      .fill('Borderline.');

    // The session ends: the page leaves for /home on its own.
    await expect(page).toHaveURL('/home', { timeout: wait });
    await page.goto('/login');
    await page.getByLabel('Username').fill(me.username);
    await page.getByLabel('Password').fill(me.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('banner')).toContainText(`Welcome, ${me.username}`);

    await page.goto(`/reviews/${assignment}`);
    await hydrated(page);
    // The draft saved while typing, or the tab's copy offered back: either way, the text is there.
    const offer = page.getByRole('region', { name: 'Restore what you typed?' });
    if (await offer.isVisible()) await offer.getByRole('button', { name: 'Restore' }).click();
    await expect(comments(page)).toHaveValue(typed);
    await expect(
      region(page).getByRole('textbox', { name: 'Confidential comments for the editor' }),
    ).toHaveValue('Borderline.');
    await axe(page);
  });
});
