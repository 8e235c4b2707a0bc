import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { JOURNAL_C_HOST, JOURNAL_D_HOST, JOURNALS_SERVER } from './env.ts';
import { ADMIN, expect, loginThroughApi, test } from './fixtures.ts';
import {
  FIXTURES,
  type Question,
  answerQuestions,
  bearer,
  fitsAPhone,
  manuscriptPdf,
  ok,
  reviewLink,
  uniqueTag,
} from './review-helpers.ts';

/**
 * Every role across the journals of one installation (issue 24, decisions 0053 to 0056), as people do it in
 * the browser on the journals server (tests/e2e/journals-setup.ts): the first journal at `/first`, `Second
 * Studies` at `/second`, `Gamma Review` on `journal-c.test`, `Delta Letters` on `journal-d.test` (both
 * resolved to this machine by Chromium's --host-resolver-rules), the site's home at `/`. One account has a
 * role in one journal and none in another; each journal's editors see and decide only their own.
 *
 * The site's admin is each journal's admin there (journals-setup.ts); the accounts a test needs besides its
 * subject are made through the API (registered at a journal, approved or made its editor by that admin).
 */
const SITE = JOURNALS_SERVER.url;
const GAMMA = `http://${JOURNAL_C_HOST}:${JOURNALS_SERVER.port}`;
const DELTA = `http://${JOURNAL_D_HOST}:${JOURNALS_SERVER.port}`;
const FIRST = `${SITE}/first`;
const SECOND = `${SITE}/second`;

test.use({ baseURL: SITE });

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const wordFile = () => ({
  name: 'final.docx',
  mimeType: DOCX,
  buffer: readFileSync(path.join(FIXTURES, '../fulltext/article.docx')),
});

interface Person {
  id: number;
  username: string;
  password: string;
  email: string;
  fullName: string;
}

const person = (what: string): Person => {
  const username = `${what}_${uniqueTag()}${randomBytes(2).toString('hex')}`;
  return {
    id: 0,
    username,
    password: `pw-${randomBytes(8).toString('hex')}`,
    email: `${username}@example.org`,
    fullName: `${what[0].toUpperCase()}${what.slice(1)} ${username.slice(-6)}`,
  };
};

/**
 * A journal's address for the API from this process: by path, its URL; on its own domain, the site's URL
 * with that domain as the `Host` (only Chromium resolves the test domains to this machine).
 */
function apiOf(journal: string): { base: string; headers: Record<string, string> } {
  const url = new URL(journal);
  return url.hostname === '127.0.0.1'
    ? { base: journal, headers: {} }
    : { base: SITE, headers: { host: url.host } };
}

/**
 * Set-up, not the subject: an account registered at the journal at `journal` (its address), then approved
 * there (or made its editor or admin) by the site's admin, who is each journal's admin.
 */
async function memberOf(
  request: APIRequestContext,
  journal: string,
  role: 'researcher' | 'author' | 'editor' | 'admin',
  what: string = role,
): Promise<Person> {
  const who = person(what);
  const { base, headers } = apiOf(journal);
  await ok(
    request.post(`${base}/api/auth/register`, {
      headers,
      data: {
        username: who.username,
        password: who.password,
        email: who.email,
        fullName: who.fullName,
        contactNumber: '+91 44 1234 5678',
        institution: `Institute ${who.username.slice(-6)}`,
        role: role === 'author' ? 'author' : 'researcher',
      },
    }),
  );
  const admin = { ...headers, ...bearer(await loginThroughApi(SITE, ADMIN.username, ADMIN.password)) };
  const found = (await ok(
    request.get(`${base}/api/admin/users`, { headers: admin, params: { q: who.username } }),
  )) as { users: { id: number; username: string }[] };
  who.id = found.users.find((u) => u.username === who.username)!.id;
  if (role === 'researcher' || role === 'author') {
    await ok(request.post(`${base}/api/editor/approve-user/${who.id}`, { headers: admin }));
  } else {
    await ok(
      request.patch(`${base}/api/admin/users/${who.id}`, {
        headers: admin,
        data: { role, status: 'approved' },
      }),
    );
  }
  return who;
}

/** Signs in through the login form at `journal` (its address), and waits for the header to say so. */
async function logIn(page: Page, journal: string, who: Person, redirectTo?: string) {
  await page.goto(`${journal}/login${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ''}`);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('banner')).toContainText(`Welcome, ${who.username}`);
}

/** A browser of its own (its own cookies), signed out. */
async function newPage(browser: Browser, contexts: BrowserContext[]): Promise<Page> {
  const context = await browser.newContext({ baseURL: SITE });
  contexts.push(context);
  return context.newPage();
}

/** Set-up: a volume and its first issue in the journal at `journal`, made by its editor's token. */
async function newIssue(request: APIRequestContext, journal: string, token: string) {
  const number = 70_000 + Math.floor(Math.random() * 1_000_000);
  const volume = await ok(
    request.post(`${journal}/api/editor/volume`, {
      headers: bearer(token),
      data: { title: `Roles volume ${number}`, volume_number: number, year: 2026 },
    }),
  );
  await ok(
    request.post(`${journal}/api/editor/issue`, {
      headers: bearer(token),
      data: { title: `Roles issue ${number}`, description: 'Several journals.', volume_id: volume.volume.id },
    }),
  );
  return { number, label: `Volume ${number}, Issue 1: Roles issue ${number}` };
}

/** Set-up: a manuscript submitted to the journal at `journal` by `author` (an author there). */
async function submitted(request: APIRequestContext, journal: string, author: Person, title: string) {
  const token = await loginThroughApi(SITE, author.username, author.password);
  const res = await request.post(`${journal}/api/submission/submit`, {
    headers: bearer(token),
    multipart: {
      title,
      articleType: 'Research Article',
      keywords: 'tides, estuaries, sediment',
      abstract: 'We follow the sediment of two estuaries over a year of tides.',
      conflictOfInterest: 'None.',
      fundingStatement: 'None.',
      dataAvailabilityStatement: 'None.',
      authors: JSON.stringify([
        { name: author.fullName, email: author.email, affiliation: 'Estuary Lab', superscript: '1' },
      ]),
      submissionFile: manuscriptPdf(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; reference: string };
}

/** The titles of the articles a journal's home and its volumes page show (a reader's view, signed out). */
async function catalogue(page: Page, journal: string) {
  await page.goto(`${journal}/`);
  const home = await page.getByRole('main').getByRole('link').allTextContents();
  await page.goto(`${journal}/volumes`);
  const volumes = await page.getByRole('main').getByRole('link').allTextContents();
  return { home, volumes };
}

/** Every root-relative link of the page (but the skip link) is under `prefix`. */
async function linksUnder(page: Page, prefix: string) {
  const hrefs = await page
    .locator('a[href^="/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThan(0);
  expect(hrefs.filter((h) => !h.startsWith(`${prefix}/`) && h !== prefix && h !== '#main-content')).toEqual(
    [],
  );
}

test('one account, several roles: an author at /first joins /second, is approved there, and submits to it', async ({
  page,
  browser,
  request,
  axe,
  screenshots,
}) => {
  test.setTimeout(180_000);
  const contexts: BrowserContext[] = [];
  const me = person('author');
  const title = `Tidal sediment in two estuaries ${uniqueTag()}`;
  const secondEditor = await memberOf(request, SECOND, 'editor', 'seced');
  const firstEditor = await memberOf(request, FIRST, 'editor', 'firsted');
  try {
    await test.step('the person registers at /first as an author, and signs in there', async () => {
      await page.goto(`${FIRST}/regist`);
      await page.getByLabel('Username').fill(me.username);
      await page.getByLabel('Password').fill(me.password);
      await page.getByLabel('Full name').fill(me.fullName);
      await page.getByLabel('Email').fill(me.email);
      await page.getByLabel('Contact number').fill('+91 44 1234 5678');
      await page.getByLabel('Institution').fill('Estuary Lab');
      await page.getByRole('radio', { name: 'Author' }).check();
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await expect(page.getByRole('status')).toContainText('Registration successful.');
      await logIn(page, FIRST, me);
      await expect(page).toHaveURL(new RegExp(`^${FIRST}/?$`));
      await expect(page.getByRole('banner').getByRole('link', { name: 'My submissions' })).toBeVisible();
    });

    await test.step('at /second they are signed in but not a member, and ask to join as an author', async () => {
      await page.goto(`${SECOND}/`);
      const banner = page.getByRole('banner');
      await expect(banner).toContainText(`Welcome, ${me.username}`);
      await expect(banner.getByRole('link', { name: 'My submissions' })).toHaveCount(0);
      // Submitting there is not theirs yet: the page says why, and where to ask.
      await page.goto(`${SECOND}/submission`);
      await expect(page.getByRole('main')).toContainText('not a member of this journal');
      await axe(page);
      await screenshots(page, 'roles-not-a-member-submission');
      await expect(page.getByRole('link', { name: 'register an author account' })).toHaveCount(0);
      await page.getByRole('main').getByRole('link', { name: 'join it as an author' }).click();
      await expect(page).toHaveURL(new RegExp(`^${SECOND}/account`));
      const join = page.getByRole('region', { name: 'Join this journal' });
      await expect(join).toContainText('you are not a member of this one yet');
      await axe(page);
      await screenshots(page, 'roles-join');
      await join.getByRole('radio', { name: 'Author' }).check();
      await join.getByRole('button', { name: 'Ask to join' }).click();
      await expect(page.getByRole('status')).toContainText(
        'Your request to join this journal is waiting for approval by its editorial board.',
      );
    });

    const editor = await newPage(browser, contexts);
    await test.step('/second’s editor approves them on its pending-users page', async () => {
      await logIn(editor, SECOND, secondEditor);
      await expect(editor).toHaveURL(new RegExp(`^${SECOND}/editor-dashboard`));
      await editor.getByRole('link', { name: /Pending users/ }).click();
      await expect(editor).toHaveURL(`${SECOND}/editor-dashboard/pending-users`);
      const row = editor.getByRole('row', { name: new RegExp(me.username) });
      await expect(row).toContainText('author');
      await axe(editor);
      await screenshots(editor, 'roles-second-pending');
      await row.getByRole('button', { name: `Approve ${me.username}` }).click();
      await expect(editor.getByRole('status')).toBeVisible();
      await expect(editor.getByRole('row', { name: new RegExp(me.username) })).toHaveCount(0);
    });

    await test.step('they submit a manuscript at /second/submission', async () => {
      await page.goto(`${SECOND}/submission`);
      await expect(page.getByRole('heading', { level: 1, name: 'Submit a manuscript' })).toBeVisible();
      await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Article type').selectOption('Research Article');
      await page.getByLabel('Keywords').fill('tides, estuaries, sediment');
      await page.getByLabel('Abstract').fill('We follow the sediment of two estuaries over a year of tides.');
      const author = page.getByRole('group', { name: /^Author 1\b/ });
      await author.getByLabel('Full name').fill(me.fullName);
      await author.getByLabel('Email').fill(me.email);
      await author.getByLabel('Affiliation').fill('Estuary Lab');
      await author.getByLabel('Superscript').fill('1');
      await page.getByLabel('Main manuscript file').setInputFiles(path.join(FIXTURES, 'manuscript.pdf'));
      await page.getByRole('button', { name: 'Submit manuscript' }).click();
      const success = page.getByRole('status').filter({ hasText: MESSAGES.submissionSuccess });
      await expect(success).toBeVisible({ timeout: 30_000 });
      await success.getByRole('link', { name: 'Follow it in My submissions' }).click();
      await expect(page).toHaveURL(new RegExp(`^${SECOND}/my-submissions/\\d+$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await linksUnder(page, '/second');
    });

    const id = await test.step('it is on /second’s desk', async () => {
      await editor.goto(`${SECOND}/editor-dashboard/submissions`);
      await editor.getByRole('link', { name: title }).click();
      await expect(editor).toHaveURL(new RegExp(`^${SECOND}/editor-dashboard/submissions/\\d+$`));
      await expect(editor.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await linksUnder(editor, '/second');
      return Number(/submissions\/(\d+)$/.exec(editor.url())![1]);
    });

    await test.step('and nowhere on /first’s: its editor sees nothing of it', async () => {
      const first = await newPage(browser, contexts);
      await logIn(first, FIRST, firstEditor);
      await first.goto(`${FIRST}/editor-dashboard/submissions`);
      await expect(first.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(first.getByText(title)).toHaveCount(0);
      const missing = await first.goto(`${FIRST}/editor-dashboard/submissions/${id}`);
      expect(missing?.status()).toBe(404);
      await expect(first.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expect(first.getByText(title)).toHaveCount(0);
      await axe(first);
      await screenshots(first, 'roles-first-desk-not-found');
    });
  } finally {
    for (const context of contexts) await context.close();
  }
});

test('a reviewer of journal-c.test reviews for /second; its editor accepts and publishes under /second only', async ({
  page,
  browser,
  request,
  outbox,
  axe,
  screenshots,
}) => {
  test.setTimeout(300_000);
  const contexts: BrowserContext[] = [];
  const tag = uniqueTag();
  const title = `Sediment budgets of tidal flats ${tag}`;
  const editor = await memberOf(request, SECOND, 'editor', 'seced');
  const author = await memberOf(request, SECOND, 'author', 'secau');
  const reviewer = await memberOf(request, GAMMA, 'researcher', 'gamrev');
  const editorToken = await loginThroughApi(SITE, editor.username, editor.password);
  const { label } = await newIssue(request, SECOND, editorToken);
  const submission = await submitted(request, SECOND, author, title);
  const desk = `${SECOND}/editor-dashboard/submissions/${submission.id}`;
  const decision = page.getByRole('form', { name: 'Decision' });
  const status = page.getByRole('status');
  try {
    await test.step('/second’s editor sends it to review and invites the reviewer by name and e-mail', async () => {
      await logIn(page, SECOND, editor);
      await page.goto(desk);
      await decision.getByRole('radio', { name: 'Under review' }).check();
      await decision.getByLabel('Message to the author').fill('Your manuscript goes to peer review.');
      await decision.getByRole('button', { name: 'Record the decision' }).click();
      await expect(status).toContainText('Decision recorded: Under review');
      // Not a member of /second: not in its pool nor its accounts, so found by nobody's search here.
      const find = page.getByRole('search', { name: 'Find a reviewer' });
      await find.getByLabel('Find a reviewer').fill(reviewer.email);
      await find.getByRole('button', { name: 'Search' }).click();
      const invite = page.getByRole('form', { name: /Invite a reviewer to round/ });
      await expect(invite).toContainText(`Nobody matches “${reviewer.email}”`);
      await invite.getByLabel('Name', { exact: true }).fill(reviewer.fullName);
      await invite.getByLabel('E-mail address').fill(reviewer.email);
      await invite.getByRole('button', { name: 'Send the invitation' }).click();
      await expect(status).toContainText(`The invitation has been sent to ${reviewer.fullName}.`);
      await axe(page);
      await screenshots(page, 'roles-second-invited');
      // Searched by a long e-mail address, the desk still fits a phone.
      await fitsAPhone(page);
    });

    const link = await test.step('the invitation’s link is under /second', async () => {
      const mail = await outbox.waitFor(
        { to: reviewer.email, subject: `[${submission.reference}] Invitation to review` },
        30_000,
      );
      expect(mail.text).toContain(title);
      const found = reviewLink(mail.text);
      expect(found.url.startsWith(`${SECOND}/reviews/${found.id}?token=`), found.url).toBe(true);
      return found;
    });

    const reviewerPage = await newPage(browser, contexts);
    await test.step('the reviewer signs in where the link points and submits the review', async () => {
      await reviewerPage.goto(link.url);
      await expect(reviewerPage).toHaveURL(`${SECOND}/reviews/${link.id}`);
      await expect(reviewerPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await reviewerPage.getByRole('banner').getByRole('link', { name: 'Login' }).click();
      await reviewerPage.getByLabel('Username').fill(reviewer.username);
      await reviewerPage.getByLabel('Password').fill(reviewer.password);
      await reviewerPage.getByRole('button', { name: 'Log in', exact: true }).click();
      await expect(reviewerPage.getByRole('banner')).toContainText(`Welcome, ${reviewer.username}`);
      await reviewerPage.goto(`${SECOND}/reviews`);
      await reviewerPage.getByRole('link', { name: /Answer the invitation/ }).click();
      await expect(reviewerPage).toHaveURL(`${SECOND}/reviews/${link.id}`);
      await reviewerPage.getByRole('button', { name: 'Accept the invitation' }).click();
      await expect(reviewerPage.getByRole('link', { name: 'manuscript-round-1.pdf' })).toHaveAttribute(
        'href',
        new RegExp(`^/second/reviews/${link.id}/files/\\d+$`),
      );
      const view = (await ok(
        request.get(`${SECOND}/api/editor/submissions/${submission.id}/review`, {
          headers: bearer(editorToken),
        }),
      )) as { rounds: { questions: Question[] }[] };
      await reviewerPage.getByRole('radio', { name: 'Accept', exact: true }).check();
      await reviewerPage
        .getByRole('textbox', { name: 'Comments for the author' })
        .fill(`A careful budget. ${tag}`);
      await answerQuestions(reviewerPage, view.rounds.at(-1)!.questions);
      await axe(reviewerPage);
      await reviewerPage.getByRole('button', { name: 'Submit the review' }).click();
      await expect(
        reviewerPage.getByRole('status').filter({ hasText: 'your review has been submitted' }),
      ).toBeVisible();
      await linksUnder(reviewerPage, '/second');
      await screenshots(reviewerPage, 'roles-gamma-reviewer-at-second');
    });

    const articleId =
      await test.step('the editor accepts and publishes it from the desk, PDF and Word file', async () => {
        await page.goto(desk);
        const card = page.getByRole('article', { name: `Review by ${reviewer.fullName}` });
        await expect(card).toContainText('Recommendation: Accept');
        await decision.getByRole('radio', { name: 'Accepted' }).check();
        await decision.getByLabel('Message to the author').fill('Your manuscript is accepted.');
        await decision.getByRole('button', { name: 'Record the decision' }).click();
        await expect(status).toContainText('Decision recorded: Accepted');
        const files = page.getByRole('form', { name: 'The final files' });
        await files.getByLabel(/^Final PDF/).setInputFiles(path.join(FIXTURES, 'manuscript.pdf'));
        await files.getByLabel(/^Word file/).setInputFiles(wordFile());
        await files.getByRole('button', { name: 'Upload and preview' }).click();
        await expect(page).toHaveURL(`${desk}/publish`);
        await expect(status).toContainText('Files received.');
        const preview = page.getByRole('region', { name: '2. The article as readers will see it' });
        await expect(preview).toContainText(title);
        await expect(preview.getByRole('link', { name: 'Open the PDF to be published' })).toHaveAttribute(
          'href',
          /^\/second\//,
        );
        await axe(page);
        await screenshots(page, 'roles-second-publish-preview');
        const form = page.getByRole('form', { name: '3. Fix and publish' });
        await form.getByLabel('Figure 2').fill('Two bars: battery life before and after.');
        await form.getByLabel('Issue').selectOption({ label });
        await form.getByLabel('Pages').fill('1-12');
        await form.getByLabel(/^DOI( \*| \(optional\))?$/).fill(`10.5555/roles.${tag}`);
        await form.getByRole('button', { name: /^Publish the article/ }).click();
        await expect(status).toContainText(/Published as article \d+/);
        const id = Number(/article (\d+)/.exec((await status.textContent())!)![1]);
        await expect(page.getByRole('link', { name: 'View the article' })).toHaveAttribute(
          'href',
          `/second/article/${id}`,
        );
        return id;
      });

    await test.step('the article is at /second/article/<id>, its links under /second, and nowhere else', async () => {
      const reader = await newPage(browser, contexts);
      await reader.goto(`${SECOND}/volumes`);
      await reader.getByRole('main').getByRole('link', { name: title }).click();
      await expect(reader).toHaveURL(`${SECOND}/article/${articleId}`);
      await expect(reader.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await linksUnder(reader, '/second');
      await axe(reader);
      await screenshots(reader, 'roles-second-article');
      for (const elsewhere of [`${FIRST}/article/${articleId}`, `${GAMMA}/article/${articleId}`]) {
        const res = await reader.goto(elsewhere);
        expect(res?.status(), elsewhere).toBe(404);
        await expect(reader.getByText(title)).toHaveCount(0);
      }
      await reader.goto(`${FIRST}/volumes`);
      await expect(reader.getByRole('main')).not.toContainText(title);
    });
  } finally {
    for (const context of contexts) await context.close();
  }
});

test('signing in: one cookie for the site’s paths, one per journal domain', async ({ page, request }) => {
  // Decision 0054 (after 0053): the session cookie's Path is `/` on the site's host, so every journal by path
  // shares one sign-in; a journal on its own domain has its own cookie, so one signs in there separately (no
  // cookie across unrelated domains, no redirect handshake).
  const me = await memberOf(request, SECOND, 'researcher', 'cookie');
  const banner = page.getByRole('banner');
  const signedOut = async (address: string) => {
    await page.goto(`${address}/`);
    await expect(banner.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(banner).not.toContainText(`Welcome, ${me.username}`);
  };
  const signedIn = async (address: string) => {
    await page.goto(`${address}/`);
    await expect(banner).toContainText(`Welcome, ${me.username}`);
  };

  await logIn(page, SECOND, me);
  await signedIn(FIRST);
  await signedOut(GAMMA);
  await signedOut(DELTA);

  await logIn(page, GAMMA, me);
  await signedIn(GAMMA);
  await signedOut(DELTA);

  await logIn(page, DELTA, me);
  await signedIn(DELTA);

  // Logging out at one domain leaves the others' sign-ins as they were.
  await page.goto(`${GAMMA}/`);
  await banner.getByRole('button', { name: 'Logout' }).click();
  await expect(banner.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page).toHaveURL(`${GAMMA}/`);
  await signedOut(GAMMA);
  await signedIn(DELTA);
  await signedIn(SECOND);
});

test('refused through the pages: another journal’s editor, and a journal’s admin at the site’s Journals', async ({
  page,
  request,
  axe,
  screenshots,
}) => {
  const firstEditor = await memberOf(request, FIRST, 'editor', 'firsted');
  await logIn(page, FIRST, firstEditor);
  // /first's editor is signed in at /second too (one cookie), with no role there: the dashboard's refusal.
  const refused = await page.goto(`${SECOND}/editor-dashboard/submissions`);
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.unauthorizedAccess })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(
    "The editorial dashboard is for the journal's approved editors and administrators.",
  );
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await axe(page);
  await screenshots(page, 'roles-other-editor-refused');

  const journalAdmin = await memberOf(request, SECOND, 'admin', 'secadm');
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  await logIn(page, SECOND, journalAdmin);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Journals', exact: true })).toHaveCount(0);
  for (const address of [`${SITE}/admin/journals`, `${SECOND}/admin/journals`]) {
    const res = await page.goto(address);
    expect(res?.status(), address).toBe(403);
    await expect(page.getByText(MESSAGES.unauthorizedAccess)).toBeVisible();
  }
});

test('signing in on the site’s host lands on the site’s home, listing the journals with one’s roles', async ({
  page,
  request,
  axe,
  screenshots,
}) => {
  const firstEditor = await memberOf(request, FIRST, 'editor', 'siteed');
  await page.goto('/login');
  await page.getByLabel('Username').fill(firstEditor.username);
  await page.getByLabel('Password').fill(firstEditor.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(`${SITE}/`);
  await expect(page.getByRole('banner')).toContainText(`Welcome, ${firstEditor.username}`);
  // Each journal's card says the account's role there, and an editor's leads to that journal's dashboard.
  const journals = page.getByRole('region', { name: 'Journals' });
  // (A journal made by the site admin starts with the first one's description: found by its heading.)
  const card = (title: string) =>
    journals.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  const first = card('Colophon Journal of Engineering and Informatics');
  await expect(first).toContainText('Your role: editor');
  await expect(card('Second Studies')).toBeVisible();
  await expect(card('Second Studies')).not.toContainText('Your role');
  await axe(page);
  await screenshots(page, 'roles-site-home-signed-in');
  // The account page there is the site's: no journal to join, and no journal's links (they would be 404s).
  await page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(`${SITE}/account`);
  await expect(page.getByRole('main')).toContainText('Your account is one for every journal of this site');
  await expect(page.getByRole('region', { name: 'Join this journal' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'your reviews' })).toHaveCount(0);
  await axe(page);
  await screenshots(page, 'roles-site-account');
  await page.getByRole('main').getByRole('link', { name: 'the journals of this site' }).click();
  await expect(page).toHaveURL(`${SITE}/`);
  await first.getByRole('link', { name: /^Editorial dashboard/ }).click();
  await expect(page).toHaveURL(`${FIRST}/editor-dashboard/submissions`);
  await expect(page.getByRole('heading', { level: 1, name: 'Submissions' })).toBeVisible();
});

test('the site admin makes a journal, names its editor, who publishes there; /first is untouched', async ({
  page,
  browser,
  request,
  axe,
  screenshots,
}) => {
  test.setTimeout(240_000);
  const contexts: BrowserContext[] = [];
  const tag = randomBytes(3).toString('hex');
  const journalTitle = `Annals of Lighthouses ${tag}`;
  const journalPath = `lights-${tag}`;
  const journal = `${SITE}/${journalPath}`;
  const articleTitle = `Fresnel lenses of the northern coast ${tag}`;
  // The editor-to-be has an account of the site (registered at /first), and no role in the new journal yet.
  const editor = await memberOf(request, FIRST, 'author', 'lighted');
  const reader = await newPage(browser, contexts);
  const before = await catalogue(reader, FIRST);
  try {
    await test.step('the site admin makes the journal from /admin/journals, naming its first editor', async () => {
      await logIn(page, SITE, { ...person('admin'), username: ADMIN.username, password: ADMIN.password });
      await page.getByRole('banner').getByRole('link', { name: 'Journals', exact: true }).click();
      await expect(page).toHaveURL(`${SITE}/admin/journals`);
      await page.getByLabel('Title').fill(journalTitle);
      await page.getByLabel('Path on this site').fill(journalPath);
      await page.getByLabel('First editor').fill(editor.username);
      await page.getByRole('button', { name: 'Make the journal' }).click();
      await expect(page.getByRole('status')).toContainText(`The journal “${journalTitle}” is made`);
    });

    const desk = await newPage(browser, contexts);
    await test.step('its editor signs in there and lands on its dashboard', async () => {
      await logIn(desk, journal, editor);
      await expect(desk).toHaveURL(`${journal}/editor-dashboard/submissions`);
      await expect(desk.getByRole('banner')).toContainText(journalTitle);
      await linksUnder(desk, `/${journalPath}`);
    });

    const number = 1;
    await test.step('the editor makes its first volume and issue', async () => {
      await desk.getByRole('link', { name: 'Volumes & issues' }).click();
      await expect(desk).toHaveURL(`${journal}/editor-dashboard/volumes`);
      const volumeForm = desk.getByRole('form', { name: 'Create a volume' });
      await volumeForm.getByLabel('Volume title').fill(`Volume of ${journalTitle}`);
      await volumeForm.getByLabel('Volume number').fill(String(number));
      await volumeForm.getByLabel('Year').fill('2026');
      await volumeForm.getByRole('button', { name: 'Create volume' }).click();
      await expect(desk.getByRole('status')).toHaveText(`Volume ${number} created.`);
      const issueForm = desk.getByRole('form', { name: 'Create an issue' });
      await issueForm
        .getByLabel('Volume')
        .selectOption({ label: `Volume ${number} (2026): Volume of ${journalTitle}` });
      await issueForm.getByLabel('Issue title').fill('Lenses');
      await issueForm.getByLabel('Description').fill('The first issue.');
      await issueForm.getByRole('button', { name: 'Create issue' }).click();
      await expect(desk.getByRole('status')).toHaveText(`Issue 1 of Volume ${number} created.`);
    });

    await test.step('the editor uploads an article with its PDF, and it is published there', async () => {
      await desk.getByRole('link', { name: 'Articles' }).click();
      await expect(desk).toHaveURL(`${journal}/editor-dashboard/articles`);
      const upload = desk.getByRole('form', { name: 'Upload an article' });
      await upload.getByLabel('Title').fill(articleTitle);
      await upload.getByLabel('Abstract').fill('The lenses of six lighthouses, measured.');
      await upload.getByLabel('Keywords').fill('lighthouses, optics');
      await upload.getByLabel('Pages').fill('1-9');
      await upload.getByLabel('DOI').fill(`10.5555/lights.${tag}`);
      await upload.getByLabel('Issue').selectOption({ label: 'Volume 1, Issue 1: Lenses' });
      await upload.getByLabel('Author 1 name').fill('Ingrid Solberg');
      await upload.getByLabel('Author 1 email').fill('ingrid@example.org');
      await upload.getByLabel('Author 1 affiliation').fill('University of Tromsø');
      await upload.getByLabel('Author 1 superscript').fill('1');
      await upload.getByLabel('Article PDF').setInputFiles(path.join(FIXTURES, 'manuscript.pdf'));
      await axe(desk);
      await screenshots(desk, 'roles-new-journal-articles');
      await upload.getByRole('button', { name: 'Upload and publish' }).click();
      await expect(desk.getByRole('status')).toContainText(
        `“${articleTitle}” published in volume ${number}, issue 1.`,
      );
    });

    await test.step('readers find it in the new journal; /first shows what it showed before', async () => {
      await reader.goto(`${journal}/volumes`);
      await reader.getByRole('main').getByRole('link', { name: articleTitle }).click();
      await expect(reader).toHaveURL(new RegExp(`^${journal}/article/\\d+$`));
      await expect(reader.getByRole('banner')).toContainText(journalTitle);
      await linksUnder(reader, `/${journalPath}`);
      await axe(reader);
      await screenshots(reader, 'roles-new-journal-article');
      expect(await catalogue(reader, FIRST)).toEqual(before);
    });
  } finally {
    for (const context of contexts) await context.close();
  }
});

test('an editor of /second finds, in the site’s pool, a reviewer of /first, and invites them by their account', async ({
  page,
  request,
  axe,
  screenshots,
  outbox,
}) => {
  test.setTimeout(180_000);
  const tag = uniqueTag();
  const affiliation = `Tidal Institute ${tag}`;
  // A reviewer of /first only: an account with a reviewer profile there.
  const reviewer = await memberOf(request, FIRST, 'researcher', 'poolrev');
  const reviewerToken = await loginThroughApi(SITE, reviewer.username, reviewer.password);
  await ok(
    request.put(`${FIRST}/api/reviewer/profile`, {
      headers: bearer(reviewerToken),
      data: { name: reviewer.fullName, affiliation, interests: [], orcid: null },
    }),
  );
  const editor = await memberOf(request, SECOND, 'editor', 'seced');
  const author = await memberOf(request, SECOND, 'author', 'secau');
  const submission = await submitted(request, SECOND, author, `Estuary mixing ${tag}`);
  const status = page.getByRole('status');

  await logIn(page, SECOND, editor);
  await page.goto(`${SECOND}/editor-dashboard/submissions/${submission.id}`);
  const decision = page.getByRole('form', { name: 'Decision' });
  await decision.getByRole('radio', { name: 'Under review' }).check();
  await decision.getByLabel('Message to the author').fill('Your manuscript goes to peer review.');
  await decision.getByRole('button', { name: 'Record the decision' }).click();
  await expect(status).toContainText('Decision recorded: Under review');

  // The journal's own pool and accounts do not have them.
  const find = page.getByRole('search', { name: 'Find a reviewer' });
  await find.getByLabel('Find a reviewer').fill(affiliation);
  await find.getByRole('button', { name: 'Search' }).click();
  const invite = page.getByRole('form', { name: /Invite a reviewer to round/ });
  await expect(invite).toContainText(`Nobody matches “${affiliation}”`);

  // The site's pool does, with their load and no e-mail address.
  await find.getByLabel('Also the reviewers of the site’s other journals').check();
  await find.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/site=on/);
  const option = invite.getByRole('radio', { name: new RegExp(reviewer.fullName) });
  await expect(option).toBeVisible();
  const candidate = invite
    .locator('.review-candidate')
    .filter({ has: page.getByRole('radio', { name: new RegExp(reviewer.fullName) }) });
  await expect(candidate).toContainText('reviews for another journal of the site');
  await expect(candidate).not.toContainText(reviewer.email);
  await axe(page);
  await screenshots(page, 'roles-site-pool-search');

  await option.check();
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(status).toContainText(`The invitation has been sent to ${reviewer.fullName}.`);
  const mail = await outbox.waitFor(
    { to: reviewer.email, subject: `[${submission.reference}] Invitation to review` },
    30_000,
  );
  expect(reviewLink(mail.text).url.startsWith(`${SECOND}/reviews/`)).toBe(true);
});
