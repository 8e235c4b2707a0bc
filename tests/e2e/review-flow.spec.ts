import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, BrowserContext } from '@playwright/test';
import { type Account, SESSION_COOKIE, expect, loginThroughApi, test } from './fixtures.ts';
import { type Question, answerQuestions, fitsAPhone, hydrated, reviewLink } from './review-helpers.ts';

/**
 * Issue 14's whole peer-review flow, as its people do it in the browser: the editor invites two reviewers
 * (one account from the pool, one by name and e-mail), both invitations arrive with working links, one
 * declines with a reason and a suggestion, the other accepts (gets an account, chooses a password), downloads
 * the files only then, keeps a draft, submits; the editor reads the review and asks for minor revisions
 * sharing it; the author reads "Reviewer 1" and uploads a revision with a response; round 2's reviewer reads
 * that response and reviews; the editor accepts, and the reviewers are told.
 *
 * Only the starting submission is made through the API (the submission form has its own spec). The journal's
 * settings are never changed: the round is double-anonymous because that is the journal's default.
 */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
const manuscript = () => ({
  name: 'manuscript.pdf',
  mimeType: 'application/pdf',
  buffer: readFileSync(path.join(FIXTURES, 'manuscript.pdf')),
});
const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** A fresh browser, signed out (as a person opening an e-mail on another device). */
async function freshContext(browser: Browser, baseURL: string) {
  return browser.newContext({ baseURL });
}

/** A fresh browser signed in as `account` (the session cookie, as the `signIn` fixture does). */
async function signedInContext(browser: Browser, baseURL: string, account: Account) {
  const context = await freshContext(browser, baseURL);
  const token = await loginThroughApi(baseURL, account.username, account.password);
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: token,
      domain: new URL(baseURL).hostname,
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
    },
  ]);
  return context;
}

/** The round's questions (the journal's review form when the round opened), as the editor's API gives them. */
async function roundQuestions(api: APIRequestContext, submissionId: number): Promise<Question[]> {
  const res = await api.get(`/api/editor/submissions/${submissionId}/review`);
  expect(res.ok(), await res.text()).toBe(true);
  const view = (await res.json()) as { rounds: { questions: Question[] }[] };
  return view.rounds.at(-1)!.questions;
}

test('peer review from invitation to acceptance, through the pages', async ({
  page,
  browser,
  signIn,
  createAccount,
  adminApi,
  request,
  baseURL,
  outbox,
  axe,
  screenshots,
}) => {
  // Seven people and two rounds on a loaded machine: generous, but each wait below is for something seen.
  test.setTimeout(300_000);
  const tag = uniqueTag();
  const origin = new URL(baseURL!).origin;
  const writer = {
    name: `Ottoline Brask ${tag}`,
    email: `brask-${tag}@example.org`,
    affiliation: `Fjord Uni ${tag}`,
  };
  const guest = { name: `Ines Okafor ${tag}`, email: `okafor-${tag}@example.org` };
  const title = `Adaptive duty cycles for sensor meshes ${tag}`;

  const author = await createAccount('author');
  const poolReviewer = await createAccount('researcher');
  const secondRoundReviewer = await createAccount('researcher');
  await signIn('editor');
  const contexts: BrowserContext[] = [];
  const open = async (context: BrowserContext) => {
    contexts.push(context);
    return context.newPage();
  };

  try {
    // ---------------------------------------------------------------------------------------------------
    const submission =
      await test.step('the author has submitted a manuscript (through the API)', async () => {
        const token = await loginThroughApi(baseURL!, author.username, author.password);
        const res = await request.post('/api/submission/submit', {
          headers: { authorization: `Bearer ${token}` },
          multipart: {
            title,
            articleType: 'Research Article',
            keywords: 'sensor networks, duty cycling',
            abstract: 'We adapt the duty cycle of each sensor to the traffic it forwards.',
            conflictOfInterest: 'None.',
            fundingStatement: 'None.',
            dataAvailabilityStatement: 'None.',
            authors: JSON.stringify([{ ...writer, superscript: '1' }]),
            submissionFile: manuscript(),
          },
        });
        expect(res.status(), await res.text()).toBe(201);
        return (await res.json()) as { id: number; reference: string };
      });
    const desk = `/editor-dashboard/submissions/${submission.id}`;
    const panel = page.getByRole('region', { name: 'Peer review' });
    const inviteForm = page.getByRole('form', { name: /Invite a reviewer to round/ });
    const decision = page.getByRole('form', { name: 'Decision' });
    const status = page.getByRole('status');

    // ---------------------------------------------------------------------------------------------------
    await test.step('the editor sends it to review and invites two reviewers', async () => {
      await page.goto(desk);
      await decision.getByRole('radio', { name: 'Under review' }).check();
      await decision.getByLabel('Message to the author').fill('Your manuscript goes to peer review.');
      await decision.getByRole('button', { name: 'Record the decision' }).click();
      await expect(status).toContainText('Decision recorded: Under review');
      await expect(panel.getByRole('heading', { name: 'Round 1 (current)' })).toBeVisible();
      await expect(panel).toContainText('Double-anonymous');

      // One account, found in the pool by its e-mail address and picked.
      const find = page.getByRole('search', { name: 'Find a reviewer' });
      await find.getByLabel('Find a reviewer').fill(poolReviewer.email);
      await find.getByRole('button', { name: 'Search' }).click();
      await inviteForm.getByRole('radio', { name: new RegExp(poolReviewer.email) }).check();
      await inviteForm.getByRole('button', { name: 'Send the invitation' }).click();
      await expect(status).toContainText(`The invitation has been sent to ${poolReviewer.fullName}.`);

      // One person with no account, typed by name and e-mail.
      await inviteForm.getByLabel('Name', { exact: true }).fill(guest.name);
      await inviteForm.getByLabel('E-mail address').fill(guest.email);
      await inviteForm.getByRole('button', { name: 'Send the invitation' }).click();
      await expect(status).toContainText(`The invitation has been sent to ${guest.name}.`);

      const reviewers = panel.getByRole('list', { name: 'Reviewers of round 1' }).getByRole('listitem');
      await expect(reviewers).toHaveCount(2);
      for (const email of [poolReviewer.email, guest.email]) {
        await expect(reviewers.filter({ hasText: email })).toContainText('Invited, waiting for an answer');
      }
    });

    // ---------------------------------------------------------------------------------------------------
    const { poolLink, guestLink } =
      await test.step('both invitations are in the outbox, with links', async () => {
        const subject = `[${submission.reference}] Invitation to review`;
        const toPool = await outbox.waitFor({ to: poolReviewer.email, subject }, 30_000);
        const toGuest = await outbox.waitFor({ to: guest.email, subject }, 30_000);
        for (const mail of [toPool, toGuest]) {
          expect(mail.text).toContain(title);
          // Double-anonymous: the invitation names no author.
          expect(mail.text).not.toContain(writer.name);
          expect(mail.text).not.toContain(writer.email);
        }
        return { poolLink: reviewLink(toPool.text), guestLink: reviewLink(toGuest.text) };
      });

    // ---------------------------------------------------------------------------------------------------
    const guestPage = await open(await freshContext(browser, baseURL!));
    await test.step('the person invited by e-mail opens the link, signed out: the invitation, no files', async () => {
      await guestPage.goto(guestLink.url);
      // The token leaves the address at once.
      await expect(guestPage).toHaveURL(new RegExp(`/reviews/${guestLink.id}$`));
      await expect(guestPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(
        guestPage.getByRole('heading', { name: 'Will you review this manuscript?' }),
      ).toBeVisible();
      await expect(guestPage.getByText('We adapt the duty cycle of each sensor')).toBeVisible();
      await expect(guestPage.getByText('sensor networks, duty cycling')).toBeVisible();
      await expect(guestPage.getByText(/^Double-anonymous/)).toBeVisible();
      await expect(guestPage.getByRole('heading', { name: 'Files' })).toHaveCount(0);
      await expect(guestPage.locator(`a[href*="/reviews/${guestLink.id}/files/"]`)).toHaveCount(0);
      const html = await guestPage.content();
      for (const secret of [writer.name, writer.email, writer.affiliation])
        expect(html).not.toContain(secret);
      // A download asked for before accepting is refused, saying why.
      const early = await guestPage.request.get(`/reviews/${guestLink.id}/files/1`);
      expect(early.status()).toBe(403);
      expect(await early.text()).toBe(
        'The files of the manuscript can be downloaded once you accept the invitation.',
      );
      await axe(guestPage);
      await screenshots(guestPage, 'flow-invitation');
      await fitsAPhone(guestPage);
    });

    // ---------------------------------------------------------------------------------------------------
    const poolPage = await open(await freshContext(browser, baseURL!));
    await test.step('the account reviewer opens the link too', async () => {
      await poolPage.goto(poolLink.url);
      await expect(poolPage).toHaveURL(new RegExp(`/reviews/${poolLink.id}$`));
      await expect(poolPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(poolPage.getByRole('button', { name: 'Accept the invitation' })).toBeVisible();
    });

    // ---------------------------------------------------------------------------------------------------
    const fileUrl =
      await test.step('the person invited by e-mail accepts, and only then downloads the files', async () => {
        await guestPage.getByRole('button', { name: 'Accept the invitation' }).click();
        await expect(
          guestPage.getByRole('status').filter({ hasText: 'Thank you for accepting' }),
        ).toBeVisible();
        const link = guestPage.getByRole('link', { name: 'manuscript-round-1.pdf' });
        await expect(link).toBeVisible();
        const href = (await link.getAttribute('href'))!;
        expect(href).toMatch(new RegExp(`^/reviews/${guestLink.id}/files/\\d+$`));
        const download = guestPage.waitForEvent('download');
        await link.click();
        const file = await download;
        expect(file.suggestedFilename()).toBe('manuscript-round-1.pdf');
        const bytes = readFileSync((await file.path())!);
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        // The manuscript's own name (which may name its author) is never shown: a generic one is.
        await axe(guestPage);
        await screenshots(guestPage, 'flow-accepted');
        await fitsAPhone(guestPage);
        return href.replace(`/reviews/${guestLink.id}/`, '');
      });

    // ---------------------------------------------------------------------------------------------------
    await test.step('the account reviewer, not having accepted, cannot download that same file', async () => {
      const refused = await poolPage.request.get(`/reviews/${poolLink.id}/${fileUrl}`);
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('once you accept the invitation');
    });

    // ---------------------------------------------------------------------------------------------------
    await test.step('the account reviewer declines: first without a reason, then with one and a suggestion', async () => {
      await poolPage.getByText('Decline the invitation').click();
      await poolPage.getByRole('button', { name: 'Decline', exact: true }).click();
      await expect(poolPage.getByRole('alert')).toContainText('Choose a reason for declining.');
      await expect(poolPage.getByRole('group', { name: /Why are you declining/ })).toContainText(
        'Choose a reason for declining.',
      );
      await poolPage.getByRole('radio', { name: 'I do not have the time at the moment' }).check();
      await poolPage
        .getByRole('textbox', { name: /Anything to add/ })
        .fill(`Field season until June ${tag}.`);
      await poolPage
        .getByRole('textbox', { name: /Suggest another reviewer/ })
        .fill(`Dr Yusuf Demir, Ankara ${tag}`);
      await poolPage.getByRole('button', { name: 'Decline', exact: true }).click();
      await expect(poolPage.getByRole('status')).toContainText('Thank you for letting us know.');
      await expect(
        poolPage.getByText('You declined this invitation: nothing more is needed from you'),
      ).toBeVisible();
      // Signed out: no list of "your reviews" to offer, only the office.
      await expect(poolPage.getByRole('main').getByRole('link', { name: 'Your reviews' })).toHaveCount(0);
      await axe(poolPage);
      await screenshots(poolPage, 'flow-declined');
      await fitsAPhone(poolPage);
    });

    // ---------------------------------------------------------------------------------------------------
    const guestAccount =
      await test.step('the person invited by e-mail got an account and chooses a password', async () => {
        const mail = await outbox.waitFor({ to: guest.email, subject: 'Your reviewer account' }, 30_000);
        const username = /Your username is (\S+?)\.\s/.exec(mail.text)?.[1];
        expect(username, mail.text).toBeTruthy();
        const link = /https?:\/\/\S+\/reset-password\S*/.exec(mail.text)?.[0];
        expect(link, mail.text).toBeTruthy();
        const setter = await open(await freshContext(browser, baseURL!));
        await setter.goto(link!);
        await expect(setter.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
        await expect(setter.getByText(`For the account ${username}`)).toBeVisible();
        const password = `pw-${tag}-chosen`;
        await setter.getByLabel('New password').fill(password);
        await setter.getByRole('button', { name: 'Set the new password' }).click();
        // The new password signs in, and the account finds its review in progress.
        await setter.goto('/login?redirectTo=%2Freviews');
        await setter.getByLabel('Username').fill(username!);
        await setter.getByLabel('Password').fill(password);
        await setter.getByRole('button', { name: 'Log in' }).click();
        await expect(setter).toHaveURL(/\/reviews$/);
        await expect(
          setter.getByRole('region', { name: /In progress/ }).getByRole('link', { name: title, exact: true }),
        ).toBeVisible();
        const list = await setter.content();
        for (const secret of [writer.name, writer.email, writer.affiliation])
          expect(list).not.toContain(secret);
        await axe(setter);
        await screenshots(setter, 'flow-reviews-list');
        await fitsAPhone(setter);
        return { username: username!, password };
      });

    // ---------------------------------------------------------------------------------------------------
    const questions = await roundQuestions(adminApi, submission.id);
    const comments = `The duty-cycle model should be compared with a fixed schedule. ${tag}`;
    const confidential = `Sound, but the evaluation is small. ${tag}`;
    await test.step('the reviewer writes: a draft kept across a reload, then submitted once', async () => {
      const form = guestPage.getByRole('region', { name: 'Your review' });
      // The draft is saved by the page's script as the reviewer types: typing starts once it runs.
      await hydrated(guestPage);
      await guestPage.getByRole('radio', { name: 'Minor revisions' }).check();
      await form.getByRole('textbox', { name: 'Comments for the author' }).fill(comments);
      await form.getByRole('textbox', { name: /Confidential comments/ }).fill(confidential);
      await expect(form.getByText(/Draft saved at \d\d:\d\d/)).toBeVisible({ timeout: 15_000 });
      await guestPage.reload();
      await expect(form.getByRole('textbox', { name: 'Comments for the author' })).toHaveValue(comments);
      await expect(form.getByRole('textbox', { name: /Confidential comments/ })).toHaveValue(confidential);
      await expect(guestPage.getByRole('radio', { name: 'Minor revisions' })).toBeChecked();
      await answerQuestions(guestPage, questions);
      await axe(guestPage);
      await form.getByRole('button', { name: 'Submit the review' }).click();
      await expect(
        guestPage.getByRole('status').filter({ hasText: 'your review has been submitted' }),
      ).toBeVisible();
      await expect(guestPage.getByText('It can no longer be changed.')).toBeVisible();
      await expect(guestPage.getByRole('button', { name: 'Submit the review' })).toHaveCount(0);
      // A second submission is refused.
      const again = await guestPage.request.post(`/reviews/${guestLink.id}`, {
        headers: { origin },
        form: { intent: 'submit', recommendation: 'accept', commentsForAuthor: 'Changed my mind.' },
      });
      expect(again.status()).toBe(409);
      await guestPage.reload();
      await expect(guestPage.getByText(comments)).toBeVisible();
      await axe(guestPage);
      await screenshots(guestPage, 'flow-submitted');
      await fitsAPhone(guestPage);
    });

    // ---------------------------------------------------------------------------------------------------
    await test.step('the editor sees the decline with its suggestion, reads the review and marks it read', async () => {
      await page.goto(desk);
      const declined = panel.getByRole('listitem').filter({ hasText: poolReviewer.email });
      await expect(declined).toContainText('Declined');
      await expect(declined).toContainText('I do not have the time at the moment');
      await expect(declined).toContainText(`Field season until June ${tag}.`);
      await expect(declined).toContainText(`Suggested reviewer: Dr Yusuf Demir, Ankara ${tag}`);
      const card = panel.getByRole('article', { name: `Review by ${guest.name}` });
      await expect(card).toContainText('Recommendation: Minor revisions');
      await expect(card).toContainText(comments);
      await expect(card).toContainText(confidential);
      await expect(card).toContainText('not read yet');
      await axe(page);
      await screenshots(page, 'flow-desk-reviews');
      await fitsAPhone(page);
      await card.getByRole('button', { name: `Mark as read: ${guest.name}` }).click();
      await expect(card).toContainText(/read \d/);
      await expect(card).not.toContainText('not read yet');
    });

    // ---------------------------------------------------------------------------------------------------
    await test.step("the reviewer pool shows both reviewers' record", async () => {
      await page.goto(`/editor-dashboard/reviewers?q=${encodeURIComponent(guest.email)}`);
      const reviewed = page.getByRole('row', { name: new RegExp(guest.name) });
      // Open, Completed, Median days, Declines, Last review…
      await expect(reviewed.getByRole('cell').nth(0)).toHaveText('0');
      await expect(reviewed.getByRole('cell').nth(1)).toHaveText('1');
      await expect(reviewed.getByRole('cell').nth(3)).toHaveText('0 %');
      await page.goto(`/editor-dashboard/reviewers?q=${encodeURIComponent(poolReviewer.email)}`);
      const declined = page.getByRole('row', { name: new RegExp(poolReviewer.fullName) });
      await expect(declined.getByRole('cell').nth(3)).toHaveText('100 %');
      // Even searched by a long e-mail address, a phone has nothing to scroll sideways.
      const wide = page.viewportSize()!;
      await page.setViewportSize({ width: 390, height: 844 });
      const box = page.getByRole('region', { name: /Reviewers matching/ });
      await expect.poll(() => box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
      await page.setViewportSize(wide);
      await axe(page);
      await screenshots(page, 'flow-pool');
      await fitsAPhone(page);
      await page.goto(desk);
    });

    // ---------------------------------------------------------------------------------------------------
    await test.step('the editor asks for minor revisions, sharing the review', async () => {
      await decision.getByRole('radio', { name: 'Revisions requested' }).check();
      await decision.getByLabel('Message to the author').fill(`Please revise as the reviewer asks. ${tag}`);
      await decision.getByLabel('Minor or major revisions').selectOption('minor');
      await decision.getByRole('checkbox', { name: new RegExp(`The review by ${guest.name}`) }).check();
      await decision.getByRole('button', { name: 'Record the decision' }).click();
      await expect(status).toContainText(
        'Decision recorded: Minor revisions requested. Your message and the chosen review were e-mailed',
      );
      await expect(panel.getByRole('article', { name: `Review by ${guest.name}` })).toContainText(
        'shared with the author',
      );
      const toAuthor = await outbox.waitFor(
        { to: author.email, subject: `[${submission.reference}] Minor revisions requested` },
        30_000,
      );
      expect(toAuthor.text).toContain('Reviewer 1');
      expect(toAuthor.text).toContain(comments);
      expect(toAuthor.text).not.toContain(guest.name);
      expect(toAuthor.text).not.toContain(confidential);
    });

    // ---------------------------------------------------------------------------------------------------
    const authorPage = await open(await signedInContext(browser, baseURL!, author));
    const response = `We compared with a fixed schedule in section 5. ${tag}`;
    await test.step('the author reads "Reviewer 1", with no reviewer named, and uploads a revision with a response', async () => {
      await authorPage.goto(`/my-submissions/${submission.id}`);
      const review = authorPage.getByRole('region', { name: 'Peer review' });
      await expect(review.getByRole('heading', { name: 'Reviewer 1' })).toBeVisible();
      await expect(review.getByText(comments)).toBeVisible();
      await expect(review).toContainText('Recommendation: Minor revisions');
      await expect(review.getByText('Minor revisions requested')).toBeVisible();
      const html = await authorPage.content();
      for (const secret of [guest.name, guest.email, guestAccount.username, confidential]) {
        expect(html).not.toContain(secret);
      }
      await axe(authorPage);
      await screenshots(authorPage, 'flow-author-reviews');
      await fitsAPhone(authorPage);

      const form = authorPage.getByRole('region', { name: 'Upload a revised manuscript' });
      await form.getByRole('button', { name: 'Revised manuscript', exact: true }).setInputFiles(manuscript());
      await form.getByLabel('Response to the reviewers').fill(response);
      await form.getByRole('button', { name: 'Upload revised manuscript' }).click();
      await expect(
        authorPage.getByRole('status').filter({ hasText: 'Your revised manuscript has been received' }),
      ).toBeVisible({ timeout: 30_000 });
    });

    // ---------------------------------------------------------------------------------------------------
    await test.step('the editor opens round 2 and invites a reviewer from the pool', async () => {
      await page.goto(desk);
      await decision.getByRole('radio', { name: 'Under review' }).check();
      await decision.getByLabel('Message to the author').fill('The revision goes back to review.');
      await decision.getByRole('button', { name: 'Record the decision' }).click();
      await expect(status).toContainText('Decision recorded: Under review');
      await expect(panel.getByRole('heading', { name: 'Round 2 (current)' })).toBeVisible();
      await expect(panel).toContainText(response);
      const find = page.getByRole('search', { name: 'Find a reviewer' });
      await find.getByLabel('Find a reviewer').fill(secondRoundReviewer.email);
      await find.getByRole('button', { name: 'Search' }).click();
      await inviteForm.getByRole('radio', { name: new RegExp(secondRoundReviewer.email) }).check();
      await inviteForm.getByRole('button', { name: 'Send the invitation' }).click();
      await expect(status).toContainText(`The invitation has been sent to ${secondRoundReviewer.fullName}.`);
      await outbox.waitFor(
        { to: secondRoundReviewer.email, subject: `[${submission.reference}] Invitation to review` },
        30_000,
      );
    });

    // ---------------------------------------------------------------------------------------------------
    const secondPage = await open(await signedInContext(browser, baseURL!, secondRoundReviewer));
    const secondComments = `The comparison answers my concern. ${tag}`;
    await test.step("round 2's reviewer, signed in, reads the authors' response and submits a review", async () => {
      await secondPage.goto('/');
      const nav = secondPage.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Reviews 1 open' }).click();
      const waiting = secondPage.getByRole('region', { name: /Waiting for your answer/ });
      await waiting.getByRole('link', { name: /Answer the invitation/ }).click();
      await expect(secondPage.getByText(/review round 2/)).toBeVisible();
      const answer = secondPage.getByRole('region', { name: "The authors' response to the reviewers" });
      await expect(answer).toContainText(response);
      await expect(secondPage.getByRole('heading', { name: 'Files' })).toHaveCount(0);
      await secondPage.getByRole('button', { name: 'Accept the invitation' }).click();
      await expect(secondPage.getByRole('link', { name: 'manuscript-round-2.pdf' })).toBeVisible();
      const html = await secondPage.content();
      // Double-anonymous: neither the authors nor the other reviewers are named to a reviewer.
      for (const secret of [writer.name, writer.email, writer.affiliation, guest.name, guest.email]) {
        expect(html).not.toContain(secret);
      }
      await secondPage.getByRole('radio', { name: 'Accept', exact: true }).check();
      await secondPage.getByRole('textbox', { name: 'Comments for the author' }).fill(secondComments);
      await answerQuestions(secondPage, await roundQuestions(adminApi, submission.id));
      await secondPage.getByRole('button', { name: 'Submit the review' }).click();
      await expect(
        secondPage.getByRole('status').filter({ hasText: 'your review has been submitted' }),
      ).toBeVisible();
    });

    // ---------------------------------------------------------------------------------------------------
    await test.step('the editor accepts the manuscript, and the reviewers are told', async () => {
      await page.goto(desk);
      const card = panel.getByRole('article', { name: `Review by ${secondRoundReviewer.fullName}` });
      await expect(card).toContainText('Recommendation: Accept');
      await expect(card).toContainText(secondComments);
      await decision.getByRole('radio', { name: 'Accepted' }).check();
      await decision.getByLabel('Message to the author').fill('Your manuscript is accepted.');
      await decision.getByRole('button', { name: 'Record the decision' }).click();
      await expect(status).toContainText('Decision recorded: Accepted');
      await outbox.waitFor({ to: author.email, subject: `[${submission.reference}] Accepted` }, 30_000);
      const subject = `[${submission.reference}] Editorial decision on a manuscript you reviewed`;
      for (const to of [secondRoundReviewer.email, guest.email]) {
        const told = await outbox.waitFor({ to, subject }, 30_000);
        expect(told.text).toContain('The editors have now made their decision: Accepted.');
      }
      // The reviewer who declined reviewed nothing: not told.
      expect(outbox.all().filter((m) => m.to.includes(poolReviewer.email) && m.subject === subject)).toEqual(
        [],
      );
      await axe(page);
      await screenshots(page, 'flow-desk-accepted');
      await fitsAPhone(page);
    });
  } finally {
    for (const context of contexts) await context.close();
  }
});
