import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { expect, test } from './fixtures.ts';

/**
 * The reader's pages (spec sections 2, 5, 6, 8 and 9): /volumes, /article/{id} with its scholarly metadata,
 * citation and downloads, /download/{id}, /subscription and /contact, with and without JavaScript.
 * Demo article 1 (Volume 1, Issue 1) is only read; volumes and issues the tests need are made fresh.
 */

const DEMO_ARTICLE = 1;
const DEMO_TITLE = 'Energy-Aware Adaptive Duty Cycling for LoRaWAN Soil-Moisture Sensor Networks on Smallholder Farms';

type Tree = { volume_number: number; issues: { issue_number: number }[] }[];

/** A new volume (unique number) with `issues` issues and no articles; returns its number and its last issue's. */
async function emptyIssue(adminApi: APIRequestContext, issues = 1) {
  const volumeNumber = 1000 + Math.floor(Math.random() * 1_000_000_000);
  const volume = await adminApi.post('/api/editor/volume', {
    data: { title: `Volume ${volumeNumber}`, volume_number: volumeNumber, year: new Date().getFullYear() },
  });
  expect(volume.status()).toBe(201);
  const { volume: created } = await volume.json();
  for (let n = 1; n <= issues; n++) {
    const issue = await adminApi.post('/api/editor/issue', {
      data: { title: `Issue ${n}`, description: 'An issue still in review.', volume_id: created.id },
    });
    expect(issue.status()).toBe(201);
  }
  return { volume: volumeNumber, issue: issues };
}

const tocHeading = (page: Page) => page.getByRole('heading', { level: 2, name: /^Volume \d+, Issue \d+/ });

test.describe('volumes and issues', () => {
  test('shows the newest issue by default, with each article’s title, authors, pages, DOI and date', async ({
    page,
    request,
    axe,
  }) => {
    const tree = (await (await request.get('/api/articles/public/articles')).json()) as Tree;
    const newest = tree.find((v) => v.issues.length)!;
    const response = await page.goto('/volumes');
    expect(response?.status()).toBe(200);
    await expect(tocHeading(page)).toContainText(
      `Volume ${newest.volume_number}, Issue ${newest.issues.at(-1)!.issue_number}`,
    );

    await page.goto('/volumes?volume=1&issue=1');
    await expect(tocHeading(page)).toContainText('Volume 1, Issue 1');
    const entry = page.getByRole('article', { name: DEMO_TITLE });
    await expect(entry.getByRole('link', { name: DEMO_TITLE })).toHaveAttribute('href', `/article/${DEMO_ARTICLE}`);
    await expect(entry).toContainText('Karthikeyan Ramasamy, Priya Venkatesan, Daniel Okafor');
    await expect(entry).toContainText(/Pages\s*1–4/);
    await expect(entry).toContainText(/Published\s*1 March 2025/);
    await expect(entry.getByRole('link', { name: 'https://doi.org/10.5555/cjei.2025.1.1.001' })).toHaveAttribute(
      'href',
      'https://doi.org/10.5555/cjei.2025.1.1.001',
    );
    // The plain-link browse tree reaches every issue.
    const browse = page.getByRole('navigation', { name: 'All volumes and issues' });
    await expect(browse.getByRole('link', { name: /Issue 1, March 2025/ })).toHaveAttribute(
      'href',
      '/volumes?volume=1&issue=1',
    );
    await axe(page);
  });

  test('an issue with no published article says so; unknown volumes and issues are 404', async ({
    page,
    adminApi,
    request,
  }) => {
    const made = await emptyIssue(adminApi);
    await page.goto(`/volumes?volume=${made.volume}&issue=${made.issue}`);
    await expect(page.getByText(MESSAGES.emptyIssue)).toBeVisible();

    for (const path of ['/volumes?volume=999999999', `/volumes?volume=${made.volume}&issue=7`, '/volumes?volume=abc']) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
  });

  test('with JavaScript, choosing a volume or an issue shows it at once, in a shareable address', async ({
    page,
    adminApi,
  }) => {
    const made = await emptyIssue(adminApi);
    await page.goto('/volumes?volume=1&issue=1');
    await page.getByRole('combobox', { name: 'Volume' }).focus();
    await page.getByRole('combobox', { name: 'Volume' }).selectOption(String(made.volume));
    await expect(page).toHaveURL(new RegExp(`/volumes\\?volume=${made.volume}$`));
    await expect(tocHeading(page)).toContainText(`Volume ${made.volume}, Issue 1`);
    // The page stays, so does focus: a keyboard user carries on from the select.
    await expect(page.getByRole('combobox', { name: 'Volume' })).toBeFocused();
    await expect(page.getByText(MESSAGES.emptyIssue)).toBeVisible();

    await page.getByRole('combobox', { name: 'Volume' }).selectOption('1');
    await expect(page).toHaveURL(/\/volumes\?volume=1$/);
    await expect(page.getByRole('link', { name: DEMO_TITLE })).toBeVisible();
    // The selects follow the page when it changes by a link in the browse tree.
    await page
      .getByRole('navigation', { name: 'All volumes and issues' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: `Volume ${made.volume}` }) })
      .getByRole('link', { name: /^Issue 1, / })
      .click();
    await expect(page).toHaveURL(new RegExp(`/volumes\\?volume=${made.volume}&issue=1$`));
    await expect(page.getByRole('combobox', { name: 'Volume' })).toHaveValue(String(made.volume));
  });

  test('without JavaScript, the selector is a form that lands on the chosen issue’s address', async ({
    noJsPage,
    adminApi,
    axe,
  }) => {
    const made = await emptyIssue(adminApi, 2);
    await noJsPage.goto('/volumes?volume=1&issue=1');
    await expect(noJsPage.getByRole('link', { name: DEMO_TITLE })).toBeVisible();
    await noJsPage.getByRole('combobox', { name: 'Volume' }).selectOption(String(made.volume));
    await noJsPage.getByRole('button', { name: 'Show issue' }).click();
    await expect(noJsPage).toHaveURL(new RegExp(`/volumes\\?volume=${made.volume}&issue=1$`));
    await expect(noJsPage.getByText(MESSAGES.emptyIssue)).toBeVisible();
    await axe(noJsPage);

    // Its issue 2, then back to Volume 1 with the issue list still showing this volume's issues:
    // Volume 1 has no issue 2, so the server shows Volume 1's newest.
    await noJsPage.getByRole('combobox', { name: 'Issue' }).selectOption('2');
    await noJsPage.getByRole('button', { name: 'Show issue' }).click();
    await expect(noJsPage).toHaveURL(new RegExp(`/volumes\\?volume=${made.volume}&issue=2$`));
    await noJsPage.getByRole('combobox', { name: 'Volume' }).selectOption('1');
    await noJsPage.getByRole('button', { name: 'Show issue' }).click();
    await expect(noJsPage).toHaveURL(/\/volumes\?volume=1&issue=1$/);
    await expect(noJsPage.getByRole('link', { name: DEMO_TITLE })).toBeVisible();
  });
});

test.describe('article page', () => {
  test('shows the article, its citation and licence, in the server’s HTML', async ({ noJsPage, axe }) => {
    const response = await noJsPage.goto(`/article/${DEMO_ARTICLE}`);
    expect(response?.status()).toBe(200);
    await expect(noJsPage).toHaveTitle(new RegExp(`^${DEMO_TITLE}`));
    await expect(noJsPage.getByRole('heading', { level: 1 })).toHaveText(DEMO_TITLE);
    const authors = noJsPage.getByRole('region', { name: 'Authors' });
    await expect(authors.getByRole('listitem').first()).toHaveText(/Karthikeyan Ramasamy\s*affiliation\s*1/);
    await expect(authors.getByRole('list', { name: 'Affiliations' })).toContainText(
      'Sivagiri Institute of Engineering and Technology',
    );
    await expect(noJsPage.getByRole('region', { name: 'Abstract' })).toContainText(
      'Soil-moisture sensing helps smallholder farmers schedule irrigation',
    );
    await expect(noJsPage.getByRole('region', { name: 'Keywords' }).getByRole('listitem')).toHaveCount(5);
    await expect(noJsPage.getByText('1–4', { exact: true })).toBeVisible();
    await expect(noJsPage.getByRole('link', { name: 'Volume 1, Issue 1' }).first()).toBeVisible();
    await expect(noJsPage.getByText('(March 2025)')).toBeVisible();
    await expect(
      noJsPage.getByRole('region', { name: 'Licence' }).getByRole('link', { name: /CC BY 4\.0/ }),
    ).toHaveAttribute('href', 'https://creativecommons.org/licenses/by/4.0/');
    // What the journal's licence lets readers do, in its own words.
    await expect(noJsPage.getByRole('region', { name: 'Licence' })).toContainText(
      'published under the Creative Commons Attribution 4.0 International licence (CC BY 4.0), with no embargo. You may share and adapt it for any purpose, including commercially',
    );
    const cite = noJsPage.getByRole('region', { name: 'Cite this article' });
    await expect(cite).toContainText(
      `Karthikeyan Ramasamy, Priya Venkatesan, and Daniel Okafor, “${DEMO_TITLE},” Colophon Journal of Engineering and Informatics, vol. 1, no. 1, March 2025, pp. 1–4, https://doi.org/10.5555/cjei.2025.1.1.001.`,
    );
    // Copy citation needs scripts: without them there is no dead button.
    await expect(noJsPage.getByRole('button', { name: 'Copy citation' })).toHaveCount(0);
    await axe(noJsPage);
  });

  test('carries Highwire, Dublin Core, Open Graph and JSON-LD metadata in the HTML', async ({ request, baseURL }) => {
    const html = await (await request.get(`/article/${DEMO_ARTICLE}`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    const metas = [...head.matchAll(/<meta (name|property)="([^"]+)" content="([^"]*)"\/>/g)].map((m) => ({
      name: m[2],
      content: m[3].replaceAll('&amp;', '&').replaceAll('&#x27;', "'").replaceAll('&quot;', '"'),
    }));
    const all = (name: string) => metas.filter((m) => m.name === name).map((m) => m.content);
    for (const tag of [
      'citation_journal_title',
      'citation_journal_abbrev',
      'citation_issn',
      'citation_publisher',
      'citation_author',
      'citation_author_institution',
      'citation_author_email',
      'citation_title',
      'citation_language',
      'citation_publication_date',
      'citation_volume',
      'citation_issue',
      'citation_firstpage',
      'citation_lastpage',
      'citation_doi',
      'citation_abstract_html_url',
      'citation_abstract',
      'citation_keywords',
      'citation_pdf_url',
      'DC.title',
      'DC.creator',
      'DC.date',
      'DC.identifier',
      'DC.rights',
      'og:title',
      'og:type',
      'og:url',
      'og:description',
      'og:site_name',
    ]) {
      expect(all(tag), tag).not.toEqual([]);
    }
    expect(all('citation_author')).toEqual(['Karthikeyan Ramasamy', 'Priya Venkatesan', 'Daniel Okafor']);
    // Each author is followed by their institution and e-mail.
    const order = metas.filter((m) => m.name.startsWith('citation_author')).map((m) => m.name);
    expect(order.slice(0, 3)).toEqual(['citation_author', 'citation_author_institution', 'citation_author_email']);
    expect(all('citation_publication_date')).toEqual(['2025/03/01']);
    expect(all('citation_language')).toEqual(['en']);
    expect(all('citation_firstpage')).toEqual(['1']);
    expect(all('citation_lastpage')).toEqual(['4']);
    expect(all('og:type')).toEqual(['article']);
    const [pdfUrl] = all('citation_pdf_url');
    expect(new URL(pdfUrl).host).toBe(new URL(baseURL!).host);
    expect(head).toContain(`<link rel="canonical" href="${baseURL}/article/${DEMO_ARTICLE}"/>`);

    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
    expect(ld).not.toBeNull();
    const data = JSON.parse(ld![1]);
    expect(data).toMatchObject({
      '@type': 'ScholarlyArticle',
      headline: DEMO_TITLE,
      datePublished: '2025-03-01',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      identifier: { propertyID: 'DOI', value: '10.5555/cjei.2025.1.1.001' },
      pageStart: '1',
      pageEnd: '4',
      isPartOf: { '@type': 'PublicationIssue', isPartOf: { '@type': 'PublicationVolume' } },
    });
    expect(data.author[0].affiliation.name).toContain('Sivagiri Institute');
    expect(data.isPartOf.isPartOf.isPartOf.issn).toBe('3049-4176');

    // The PDF the metadata names is the one readers with access download.
    expect(new URL(pdfUrl).pathname).toBe(`/api/articles/${DEMO_ARTICLE}/download`);
  });

  test('unknown, unpublished-looking and malformed ids are 404; /articles/{id} redirects permanently', async ({
    request,
    page,
  }) => {
    for (const path of ['/article/999999', '/article/abc', '/article/1.5', '/article/-1', '/articles/abc']) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
    const redirect = await request.get(`/articles/${DEMO_ARTICLE}`, { maxRedirects: 0 });
    expect([301, 308]).toContain(redirect.status());
    expect(redirect.headers().location).toBe(`/article/${DEMO_ARTICLE}`);

    await page.goto('/article/999999');
    await expect(page.getByText(MESSAGES.notFound)).toBeVisible();
  });

  test('Copy citation puts the citation on the clipboard and says so', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await page.goto(`/article/${DEMO_ARTICLE}`);
    const cite = page.getByRole('region', { name: 'Cite this article' });
    await cite.getByRole('button', { name: 'Copy citation' }).click();
    await expect(cite.getByRole('status')).toHaveText(MESSAGES.citationCopied);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`“${DEMO_TITLE},” Colophon Journal of Engineering and Informatics, vol. 1, no. 1`);
    expect(copied.endsWith('https://doi.org/10.5555/cjei.2025.1.1.001.')).toBe(true);
  });

  test('a refused clipboard is reported with the reason, in an alert', async ({ page, axe }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: { writeText: () => Promise.reject(new Error('Write permission denied.')) },
      });
    });
    await page.goto(`/article/${DEMO_ARTICLE}`);
    await page.getByRole('button', { name: 'Copy citation' }).click();
    await expect(page.getByRole('alert')).toContainText(
      `${MESSAGES.citationCopyFailedPrefix}Write permission denied.`,
    );
    await axe(page);
  });
});

test.describe('downloads from the article page', () => {
  test('a signed-out reader is told to register and be approved, with the way to do it', async ({ page, axe }) => {
    await page.goto(`/article/${DEMO_ARTICLE}`);
    await page.getByRole('link', { name: 'Download PDF' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(MESSAGES.downloadNeedsApproval);
    await expect(alert.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/regist');
    await expect(alert.getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?redirectTo=${encodeURIComponent(`/article/${DEMO_ARTICLE}`)}`,
    );
    await expect(alert).toBeFocused();
    await axe(page);
  });

  test('without JavaScript the refused button shows the same message', async ({ noJsPage }) => {
    await noJsPage.goto(`/article/${DEMO_ARTICLE}`);
    await noJsPage.getByRole('link', { name: 'Download PDF' }).click();
    await expect(noJsPage).toHaveURL(new RegExp(`/article/${DEMO_ARTICLE}\\?download=denied#download$`));
    await expect(noJsPage.getByRole('alert')).toContainText(MESSAGES.downloadNeedsApproval);
  });

  test('a pending account gets the message too', async ({ page, signIn }) => {
    await signIn('researcher', 'pending');
    await page.goto(`/article/${DEMO_ARTICLE}`);
    await page.getByRole('link', { name: 'Download PDF' }).click();
    await expect(page.getByRole('alert')).toContainText(MESSAGES.downloadNeedsApproval);
  });

  test('an approved reader gets the PDF', async ({ page, signIn }) => {
    await signIn('researcher', 'approved');
    await page.goto(`/article/${DEMO_ARTICLE}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cjei-v1i1-1-.+\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('without JavaScript an approved reader’s button is a plain link to the PDF', async ({ noJsPage, signIn }) => {
    await signIn('author', 'approved', noJsPage);
    await noJsPage.goto(`/article/${DEMO_ARTICLE}`);
    const [download] = await Promise.all([
      noJsPage.waitForEvent('download'),
      noJsPage.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

test.describe('/download/{id}', () => {
  test('signed-out visitors are sent to log in first, and come back', async ({ page }) => {
    await page.goto(`/download/${DEMO_ARTICLE}`);
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(`/download/${DEMO_ARTICLE}`)}`);
  });

  test('prepares the download and saves the PDF', async ({ page, signIn, axe }) => {
    await signIn('researcher', 'approved');
    const downloading = page.waitForEvent('download');
    await page.goto(`/download/${DEMO_ARTICLE}`);
    const download = await downloading;
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(page.getByRole('status')).toContainText('Your download has started');
    await axe(page);
  });

  test('shows "Preparing your download..." in the server’s HTML', async ({ request, signIn }) => {
    const me = await signIn('researcher', 'approved');
    const html = await (
      await request.get(`/download/${DEMO_ARTICLE}`, { headers: { cookie: `colophon_session=${me.token}` } })
    ).text();
    expect(html).toContain(MESSAGES.preparingDownload);
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="0;url=/api/articles/${DEMO_ARTICLE}/download"/>`);
  });

  test('without JavaScript the page still starts the download', async ({ noJsPage, signIn }) => {
    await signIn('researcher', 'approved', noJsPage);
    const downloading = noJsPage.waitForEvent('download');
    await noJsPage.goto(`/download/${DEMO_ARTICLE}`);
    await expect(noJsPage.getByRole('status')).toHaveText(MESSAGES.preparingDownload);
    const bytes = await readFile((await (await downloading).path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  test('a pending account and a missing article get "Download failed: " and the reason', async ({
    page,
    signIn,
    axe,
  }) => {
    await signIn('researcher', 'pending');
    const refused = await page.goto(`/download/${DEMO_ARTICLE}`);
    expect(refused?.status()).toBe(403);
    await expect(page.getByRole('alert')).toHaveText(
      `${MESSAGES.downloadFailedPrefix}${MESSAGES.downloadNeedsApproval}`,
    );
    await axe(page);

    const missing = await page.goto('/download/999999');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('alert')).toContainText(MESSAGES.downloadFailedPrefix);
  });

  test('a refusal the server gives while downloading is shown', async ({ page, signIn }) => {
    await signIn('researcher', 'approved');
    await page.route('**/api/articles/*/download', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: 'Account suspended.' }) }),
    );
    await page.goto(`/download/${DEMO_ARTICLE}`);
    await expect(page.getByRole('alert')).toHaveText(`${MESSAGES.downloadFailedPrefix}Account suspended.`);
    await page.unroute('**/api/articles/*/download');
    await page.route('**/api/articles/*/download', (route) => route.fulfill({ status: 500, body: 'oops' }));
    await page.goto(`/download/${DEMO_ARTICLE}`);
    await expect(page.getByRole('alert')).toHaveText(`${MESSAGES.downloadFailedPrefix}${MESSAGES.accessDenied}`);
  });
});

test.describe('subscription', () => {
  test('signed-out readers are asked to sign in first, or register', async ({ page, axe }) => {
    await page.goto('/subscription');
    await expect(page.getByRole('link', { name: 'Log in to subscribe' })).toHaveAttribute(
      'href',
      '/login?redirectTo=%2Fsubscription',
    );
    await expect(page.getByRole('main').getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/regist');
    await axe(page);
  });

  test('a reader subscribes, sees the papers, and unsubscribes', async ({ page, signIn, axe }) => {
    await signIn('researcher', 'approved');
    await page.goto('/subscription');
    await page.getByRole('button', { name: 'Subscribe to new-issue alerts' }).click();
    await expect(page.getByRole('status')).toHaveText('You are subscribed to new-issue alerts.');
    const papers = page.getByRole('region', { name: 'Published papers' });
    await expect(papers.getByRole('link', { name: DEMO_TITLE, exact: true })).toHaveAttribute(
      'href',
      `/article/${DEMO_ARTICLE}`,
    );
    await expect(papers.getByRole('link', { name: `PDF: ${DEMO_TITLE}` })).toHaveAttribute(
      'href',
      `/api/articles/${DEMO_ARTICLE}/download`,
    );
    await axe(page);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status')).toHaveText('You will no longer receive new-issue alerts.');
    await expect(page.getByRole('button', { name: 'Subscribe to new-issue alerts' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Published papers' })).toHaveCount(0);
  });

  test('works without JavaScript', async ({ noJsPage, signIn }) => {
    await signIn('author', 'pending', noJsPage);
    await noJsPage.goto('/subscription');
    await noJsPage.getByRole('button', { name: 'Subscribe to new-issue alerts' }).click();
    await expect(noJsPage.getByRole('status')).toHaveText('You are subscribed to new-issue alerts.');
    // Not approved yet: the PDF link goes to the download page, which says why.
    await expect(
      noJsPage.getByRole('region', { name: 'Published papers' }).getByRole('link', { name: `PDF: ${DEMO_TITLE}` }),
    ).toHaveAttribute('href', `/download/${DEMO_ARTICLE}`);
  });
});

test.describe('contact', () => {
  test('sends a message and clears the form', async ({ page, axe }) => {
    await page.goto('/contact');
    const main = page.getByRole('main');
    await expect(main).toContainText('Tamil Nadu, India');
    await expect(main.getByRole('link', { name: /@/ }).first()).toHaveAttribute('href', /^mailto:/);
    await expect(main.getByRole('link', { name: /^\+\d/ })).toHaveAttribute('href', /^tel:\+/);
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email');
    await axe(page);

    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.org');
    await page.getByLabel('Message', { exact: true }).fill('When does the next issue appear?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('status')).toHaveText(MESSAGES.contactSuccess);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
  });

  test('checks the fields on the server and shows each error next to its field', async ({ page, axe }) => {
    await page.goto('/contact');
    // Past the browser's own checks, as a script-free or old browser would be.
    await page.getByRole('button', { name: 'Send message' }).evaluate((button) => {
      (button as HTMLButtonElement).form!.noValidate = true;
    });
    await page.getByLabel('Email', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('alert')).toContainText('Please correct the 3 fields below');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAccessibleDescription(/valid email address/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/Name is required/);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('not-an-address');
    await axe(page);
  });

  test('works without JavaScript: a form post answered with the page', async ({ noJsPage }) => {
    await noJsPage.goto('/contact');
    await noJsPage.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await noJsPage.getByLabel('Email', { exact: true }).fill('grace@example.org');
    await noJsPage.getByLabel('Message', { exact: true }).fill('A question about the APC.');
    await noJsPage.getByRole('button', { name: 'Send message' }).click();
    await expect(noJsPage.getByRole('status')).toHaveText(MESSAGES.contactSuccess);
    await expect(noJsPage.getByLabel('Name', { exact: true })).toHaveValue('');
  });

  test('the JSON API at the same address still answers JSON', async ({ request }) => {
    const res = await request.post('/contact', { data: { name: 'API', email: 'api@example.org', message: 'Hello' } });
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ message: MESSAGES.contactSuccess });
  });
});
